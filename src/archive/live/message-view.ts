import type { Message } from '../store/store';

/** A message as a no-download login sees it: no file paths or URLs, nothing downloaded, no transcripts. */
export function withoutDownloads(message: Message): Message {
  const { transcripts: _dropped, ...rest } = message as Message & { transcripts?: unknown };
  if (!rest.media) return rest as Message;
  return {
    ...rest,
    media: { ...rest.media, url: null, thumb_url: null, file_path: null, downloaded: false },
  } as Message;
}

import type { ValidateFunction } from 'ajv';
import { compileComponentSchema } from '../../common/documents';
import type { Message } from '../store/store';

let messageSchema: ValidateFunction<Message> | undefined;

/**
 * Whether a value is a whole `Message` as the document describes it: what a `new_message` frame must carry
 * (the AsyncAPI document's payload), checked when the viewer cannot read the message back from its store.
 */
export function isWholeMessage(value: unknown): value is Message {
  messageSchema ??= compileComponentSchema<Message>('archive', 'Message');
  return messageSchema(value);
}

/** A message as a no-download login sees it: no file paths or URLs, nothing downloaded, no transcripts. */
export function withoutDownloads(message: Message): Message {
  const { transcripts: _dropped, ...rest } = message as Message & { transcripts?: unknown };
  if (!rest.media) return rest as Message;
  return {
    ...rest,
    media: { ...rest.media, url: null, thumb_url: null, file_path: null, downloaded: false },
  } as Message;
}

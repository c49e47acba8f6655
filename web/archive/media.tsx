import { useEffect, useRef, useState } from 'preact/hooks';
import { MessageMediaTypeLabels } from '../../generated/archive/labels';
import { skipReasonText } from '../shared/skip-reasons';
import { api, type Message, type Schemas, type Transcript } from './api';
import { keepAsked } from './transcript-list';

type Media = Schemas['MessageMedia'];

const size = (bytes: number | null) =>
  bytes === null
    ? ''
    : bytes > 1_048_576
      ? `${(bytes / 1_048_576).toFixed(1)} MB`
      : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** A picture shown full size in a modal dialog; Escape or the button closes it. */
export function Lightbox(props: { src: string; alt: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} class="lightbox" onClose={props.onClose} aria-label={props.alt}>
      <img src={props.src} alt={props.alt} />
      <button type="button" class="close" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </dialog>
  );
}

export function MediaView(props: { media: Media; chatRef: string; noDownload: boolean }) {
  const { media } = props;
  const [open, setOpen] = useState(false);
  const [broken, setBroken] = useState(false);
  const label = MessageMediaTypeLabels[media.type] ?? media.type;
  if (props.noDownload)
    return (
      <p class="media-missing muted">
        {label}
        {media.file_name ? `: ${media.file_name}` : ''} (downloads are off for this login)
      </p>
    );
  if (!media.downloaded || !media.url)
    return (
      <p class="media-missing muted">
        {label}
        {media.file_name ? `: ${media.file_name}` : ''} not in the archive
        {media.skip_reason ? ` (${skipReasonText(media.skip_reason)})` : ''}.
      </p>
    );
  if (broken)
    return (
      <p class="media-missing muted">
        {label}
        {media.file_name ? `: ${media.file_name}` : ''} could not be loaded.
      </p>
    );
  switch (media.type) {
    case 'photo':
    case 'sticker':
      return (
        <>
          <button
            type="button"
            class="thumb"
            onClick={() => setOpen(true)}
            aria-label={`Open ${label.toLowerCase()}`}
          >
            <img
              src={media.thumb_url ?? media.url}
              alt={label}
              loading="lazy"
              onError={() => setBroken(true)}
              width={media.width && media.height ? Math.min(320, media.width) : undefined}
              height={
                media.width && media.height
                  ? Math.round((Math.min(320, media.width) / media.width) * media.height)
                  : undefined
              }
            />
          </button>
          {open && <Lightbox src={media.url} alt={label} onClose={() => setOpen(false)} />}
        </>
      );
    case 'video':
    case 'animation':
    case 'round_video':
    case 'video_note':
      return (
        // biome-ignore lint/a11y/useMediaCaption: archived videos come without caption tracks.
        <video
          class={media.type === 'round_video' || media.type === 'video_note' ? 'round' : 'video'}
          src={media.url}
          poster={media.thumb_url ?? undefined}
          controls
          preload="none"
          aria-label={label}
        />
      );
    case 'voice':
    case 'audio':
      return (
        <div class="voice">
          {/* biome-ignore lint/a11y/useMediaCaption: voice notes have transcripts instead of caption tracks. */}
          <audio src={media.url} controls preload="none" aria-label={label} />
          {media.duration !== null && <span class="muted small">{Math.round(media.duration)} s</span>}
        </div>
      );
    default:
      return (
        <a
          class="document"
          href={`${media.url}?download=1`}
          download={media.file_name ?? true}
          title={media.file_name ?? label}
        >
          <span aria-hidden="true">📄</span>
          <span class="file-name">{media.file_name ?? label}</span>
          <span class="muted">{size(media.file_size)}</span>
        </a>
      );
  }
}

export function Transcripts(props: {
  message: Message;
  chatRef: string;
  enabled: boolean;
  noDownload: boolean;
}) {
  const media = props.message.media;
  const [list, setList] = useState<Transcript[]>(props.message.transcripts ?? []);
  const [error, setError] = useState<string | null>(null);
  // The message read again (a page loaded, a live update): its transcripts, a request still on its way kept.
  useEffect(
    () => setList((current) => keepAsked(current, props.message.transcripts ?? [])),
    [props.message.transcripts],
  );
  if (!media || props.noDownload) return null;
  const audible = ['voice', 'audio', 'video', 'round_video', 'video_note'].includes(media.type);
  if (!audible) return null;
  const latest = list[0];
  const request = async () => {
    const result = await api.POST('/api/chats/{chat_ref}/media/{media_key}/transcripts', {
      params: { path: { chat_ref: props.chatRef, media_key: media.id } },
    });
    if (result.data) setList((current) => [result.data, ...current.filter((t) => t.id !== result.data.id)]);
    else
      setError((result.error as { detail?: string } | undefined)?.detail ?? `HTTP ${result.response.status}`);
  };
  return (
    <div class="transcript">
      {latest?.status === 'done' && latest.text && (
        <blockquote>
          <span class="muted small">Transcript{latest.language ? ` (${latest.language})` : ''}: </span>
          {latest.text}
        </blockquote>
      )}
      {latest && latest.status !== 'done' && <p class="muted small">Transcript {latest.status}.</p>}
      {props.enabled && (!latest || latest.status === 'failed') && (
        <button type="button" class="link" onClick={request}>
          Request a transcript
        </button>
      )}
      {error && <p class="notice error small">{error}</p>}
    </div>
  );
}

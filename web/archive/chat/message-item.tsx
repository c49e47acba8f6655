import type { Message, Topic } from '../api';
import { Avatar } from '../chats/avatar';
import { MediaView, Transcripts } from '../media';
import { RichText, reactionShown } from '../text';
import { formatDateTime, formatTime } from '../time';
import { mediaWords } from './media-words';
import { PollView } from './poll';

/** What a reply quotes: the quoted message's text, else its kind in words. */
function quotedText(message: Message, reply: Message | undefined): string {
  const text = reply?.text ?? reply?.poll?.question ?? message.reply_to_text ?? '';
  if (text.trim()) return text.slice(0, 100);
  const type = reply?.media?.type ?? message.reply_to_media_type;
  return type ? mediaWords(type) : 'Message';
}

/** A text field of the message's raw data, or null. */
function rawText(message: Message, key: string): string | null {
  const value = message.raw_data?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * Who a forwarded message came from: the name the desktop app's export wrote (`forwarded_from`, JSON and
 * HTML alike), else the platform's (`fwd_from`), else the original's id; null for a message that was not
 * forwarded.
 */
function forwardName(message: Message): string | null {
  const raw = message.raw_data ?? {};
  const fwd = raw.fwd_from as Record<string, unknown> | undefined;
  const named = [raw.forwarded_from, fwd?.from_name, fwd?.fromName].find(
    (name): name is string => typeof name === 'string' && name.trim() !== '',
  );
  if (named) return named;
  if (message.forward_from_id !== null) return `#${message.forward_from_id}`;
  return fwd || 'forwarded_from' in raw ? 'someone' : null;
}

/** One message of the log: its sender, reply quote, forward, text, media, poll, reactions and marks. */
export function MessageItem(props: {
  message: Message;
  reply: Message | undefined;
  chatRef: string;
  noDownload: boolean;
  transcription: boolean;
  topics: Topic[];
  /** Who a message without a sender is from (a channel's post: the channel), else "Unknown". */
  author: string | null;
  onVersions: (m: Message) => void;
  onJump: (id: number) => void;
}) {
  const m = props.message;
  const sender = m.sender_name ?? (props.author || 'Unknown');
  if (m.service)
    return (
      <div class="service" data-message={m.id} tabIndex={-1}>
        <span>{m.service.text}</span>
      </div>
    );
  const forwarded = forwardName(m);
  // The desktop export's bot a message was sent through and a channel post's signature (raw data).
  const viaBot = rawText(m, 'via_bot');
  const signature = rawText(m, 'author');
  const topic = m.reply_to_top_id ? props.topics.find((t) => t.id === m.reply_to_top_id) : undefined;
  return (
    <article
      class={`message ${m.is_outgoing ? 'out' : 'in'} ${m.is_deleted ? 'deleted' : ''}`}
      data-message={m.id}
      tabIndex={-1}
      aria-label={`${sender} at ${formatTime(m.date)}`}
    >
      <Avatar url={m.sender_avatar_url} name={m.sender_name ?? (props.author || '?')} size={32} />
      <div class="bubble">
        <div class="meta">
          <strong>{sender}</strong>
          {viaBot && <span class="muted small">via {viaBot}</span>}
          {topic && <span class="badge">{topic.title}</span>}
          {m.is_pinned && <span class="badge">📌 pinned</span>}
        </div>
        {forwarded && <p class="forwarded muted small">Forwarded from {forwarded}</p>}
        {m.reply_to_msg_id !== null && (
          <button type="button" class="reply" onClick={() => props.onJump(m.reply_to_msg_id ?? 0)}>
            <span class="muted small">Reply to {props.reply?.sender_name ?? 'a message'}</span>
            <span class="reply-text">{quotedText(m, props.reply)}</span>
          </button>
        )}
        {m.media && <MediaView media={m.media} chatRef={props.chatRef} noDownload={props.noDownload} />}
        {m.poll && <PollView poll={m.poll} />}
        {m.attachment && <p class={`attachment ${m.attachment.kind}`}>{m.attachment.text}</p>}
        {m.text && (
          <p class="text">
            <RichText text={m.text} raw={m.raw_data} />
          </p>
        )}
        <Transcripts
          message={m}
          chatRef={props.chatRef}
          enabled={props.transcription}
          noDownload={props.noDownload}
        />
        {m.reactions.length > 0 && (
          <ul class="reactions" aria-label="Reactions">
            {m.reactions.map((r) => {
              const shown = reactionShown(r.emoji);
              return (
                <li key={r.emoji} title={shown.name}>
                  <span role="img" aria-label={shown.name}>
                    {shown.glyph}
                  </span>{' '}
                  <span class="small">{r.count}</span>
                </li>
              );
            })}
          </ul>
        )}
        <div class="foot muted small">
          {m.is_deleted && (
            <span class="deleted-mark">Deleted {m.deleted_at ? formatDateTime(m.deleted_at) : ''}</span>
          )}
          {m.edit_date && (
            <button type="button" class="link small" onClick={() => props.onVersions(m)}>
              edited
            </button>
          )}
          {signature && <span class="signature">{signature}</span>}
          <time dateTime={m.date}>{formatTime(m.date)}</time>
        </div>
      </div>
    </article>
  );
}

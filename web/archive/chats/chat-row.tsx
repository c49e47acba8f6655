import { type Chat, chatTitle } from '../api';
import { formatListDate } from '../time';
import { Avatar } from './avatar';

/** Who sent the previewed message, as a chat list names them: "You", the sender in a group, none in a private chat. */
function previewSender(chat: Chat): string | null {
  const last = chat.last_message;
  if (!last) return null;
  if (last.is_outgoing) return 'You';
  return chat.type === 'private' || chat.type === 'channel' ? null : last.sender_name;
}

/** One chat of the list: its picture, title, last date and a preview of its last message. */
export function ChatRow(props: { chat: Chat; current: boolean }) {
  const { chat } = props;
  const title = chatTitle(chat);
  return (
    <li>
      <a
        href={`#/chat/${encodeURIComponent(chat.ref)}`}
        class="chat-row"
        aria-current={props.current ? 'page' : undefined}
      >
        <Avatar url={chat.avatar_url} name={title} />
        <span class="chat-text">
          <span class="chat-row-head">
            <span class="chat-title">{title}</span>
            <time class="muted small" dateTime={chat.last_message_date ?? undefined}>
              {formatListDate(chat.last_message_date)}
            </time>
          </span>
          <span class="chat-preview muted small">
            {chat.last_message ? (
              <>
                {previewSender(chat) && <span class="chat-sender">{previewSender(chat)}: </span>}
                {chat.last_message.preview}
              </>
            ) : (
              'No messages'
            )}
          </span>
        </span>
      </a>
    </li>
  );
}

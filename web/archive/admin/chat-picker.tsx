import { chatTitle } from '../api';
import type { AdminChat } from './use-admin-chats';

/** The chats a viewer or share link may read, picked from the archive's list. */
export function ChatPicker(props: {
  chats: AdminChat[];
  value: string[];
  onChange: (refs: string[]) => void;
  legend: string;
}) {
  return (
    <fieldset class="picker">
      <legend>{props.legend}</legend>
      {props.chats.map((chat) => (
        <label key={chat.ref} class="choice">
          <input
            type="checkbox"
            checked={props.value.includes(chat.ref)}
            onChange={(e) =>
              props.onChange(
                e.currentTarget.checked
                  ? [...props.value, chat.ref]
                  : props.value.filter((r) => r !== chat.ref),
              )
            }
          />
          {/* The route names an untitled chat by its id; the chat list calls it "Unnamed chat". */}
          {chat.title === String(chat.id) ? chatTitle({ ...chat, title: null }) : chatTitle(chat)}{' '}
          <span class="muted small">
            ({chat.type}
            {chat.title === String(chat.id) ? `, ${chat.id}` : ''})
          </span>
        </label>
      ))}
    </fieldset>
  );
}

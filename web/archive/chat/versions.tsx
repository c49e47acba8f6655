import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Message } from '../api';
import { formatDateTime } from '../time';

type Version = { text: string | null; date: string };

export function Versions(props: { chatRef: string; message: Message; onClose: () => void }) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
    api
      .GET('/api/chats/{chat_ref}/messages/{message_id}/versions', {
        params: { path: { chat_ref: props.chatRef, message_id: props.message.id } },
      })
      .then((r) => setVersions(r.data ?? []));
  }, []);
  return (
    <dialog ref={dialog} class="panel-dialog" onClose={props.onClose} aria-labelledby="versions-title">
      <h2 id="versions-title">Earlier versions</h2>
      <p>
        <strong>Now:</strong> {props.message.text}
      </p>
      {versions === null ? (
        <p>Loading…</p>
      ) : versions.length === 0 ? (
        <p class="muted">No earlier version was kept.</p>
      ) : (
        <ol class="versions">
          {versions.map((v) => (
            <li key={`${v.date}-${v.text}`}>
              <span class="muted small">{formatDateTime(v.date)}</span>
              <p>{v.text}</p>
            </li>
          ))}
        </ol>
      )}
      <button type="button" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </dialog>
  );
}

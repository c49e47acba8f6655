import { useEffect, useState } from 'preact/hooks';
import { formatBytes } from '../../shared/sizes';
import { api } from '../api';
import { PushToggle } from '../push';
import { formatDateTime } from '../time';

export function InfoPanel(props: { chatRef: string }) {
  const [stats, setStats] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    api
      .GET('/api/chats/{chat_ref}/stats', { params: { path: { chat_ref: props.chatRef } } })
      .then((r) => setStats(r.data ?? null));
  }, []);
  const s = stats as {
    messages?: number;
    media_files?: number;
    total_size_bytes?: number;
    first_message_date?: string;
    last_message_date?: string;
  } | null;
  return (
    <section class="side-panel" aria-label="Chat information">
      {s ? (
        <dl class="facts">
          <dt>Messages</dt>
          <dd>{s.messages}</dd>
          <dt>Media files</dt>
          <dd>
            {s.media_files} ({formatBytes(s.total_size_bytes ?? 0)})
          </dd>
          <dt>First message</dt>
          <dd>{formatDateTime(s.first_message_date)}</dd>
          <dt>Last message</dt>
          <dd>{formatDateTime(s.last_message_date)}</dd>
        </dl>
      ) : (
        <p>Loading…</p>
      )}
      <PushToggle chatRef={props.chatRef} />
    </section>
  );
}

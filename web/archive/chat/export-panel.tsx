import { useState } from 'preact/hooks';
import { Notice } from '../../shared/notice';
import { api, detail } from '../api';

export function ExportPanel(props: { chatRef: string; title: string }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const run = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    const r = await api.GET('/api/chats/{chat_ref}/export', {
      params: { path: { chat_ref: props.chatRef }, query: { ...(from && { from }), ...(to && { to }) } },
      parseAs: 'blob',
    });
    if (!r.data) {
      setMessage(`Not exported: ${detail(r)}`);
      return;
    }
    const url = URL.createObjectURL(r.data);
    const link = document.createElement('a');
    link.href = url;
    link.download = `${props.title || 'chat'}_export.json`;
    link.click();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setMessage('Export downloaded.');
  };
  return (
    <form class="side-panel" onSubmit={run} aria-label="Export messages">
      <div class="row">
        <div class="field">
          <label for="export-from">From</label>
          <input id="export-from" type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="export-to">To (whole day)</label>
          <input id="export-to" type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </div>
        <button type="submit" class="primary">
          Export JSON
        </button>
      </div>
      {message && <Notice>{message}</Notice>}
    </form>
  );
}

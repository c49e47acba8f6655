import { useState } from 'preact/hooks';
import { Notice } from '../../shared/notice';
import { api, detail } from '../api';

/** The signed-in sessions, ended all at once. */
export function SessionsTab() {
  const [keep, setKeep] = useState(true);
  const [result, setResult] = useState<string | null>(null);
  const endAll = async () => {
    const r = await api.POST('/api/admin/sessions/end-all', { body: { keep_current: keep } });
    if (!r.data) return setResult(detail(r));
    setResult(`${r.data.ended} sessions ended.`);
    if (r.data.current_session_ended) window.location.reload();
  };
  return (
    <div class="card">
      <h2>End all sessions</h2>
      <p>Signs out every viewer, share link and master login; their live connections close.</p>
      <label class="choice">
        <input type="checkbox" checked={keep} onChange={(e) => setKeep(e.currentTarget.checked)} />
        Keep my own session
      </label>
      <button type="button" class="primary" onClick={() => void endAll()}>
        End all sessions
      </button>
      {result && <Notice>{result}</Notice>}
    </div>
  );
}

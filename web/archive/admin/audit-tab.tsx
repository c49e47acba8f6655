import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api';
import { formatDateTime } from '../time';

/** What was done in the viewer, by whom, newest first, filtered. */
export function AuditTab() {
  const [logs, setLogs] = useState<Schemas['AuditLogEntry'][]>([]);
  const [username, setUsername] = useState('');
  const [action, setAction] = useState('');
  const [offset, setOffset] = useState(0);
  const LIMIT = 50;
  useEffect(() => {
    api
      .GET('/api/admin/audit', {
        params: { query: { limit: LIMIT, offset, ...(username && { username }), ...(action && { action }) } },
      })
      .then((r) => setLogs(r.data?.logs ?? []));
  }, [username, action, offset]);
  return (
    <div>
      <div class="row">
        <div class="field">
          <label for="audit-user">User</label>
          <input
            id="audit-user"
            value={username}
            onChange={(e) => {
              setOffset(0);
              setUsername(e.currentTarget.value);
            }}
          />
        </div>
        <div class="field">
          <label for="audit-action">Action</label>
          <input
            id="audit-action"
            value={action}
            onChange={(e) => {
              setOffset(0);
              setAction(e.currentTarget.value);
            }}
          />
        </div>
      </div>
      <table class="admin-table">
        <caption>Audit log</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">User</th>
            <th scope="col">Action</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Address</th>
          </tr>
        </thead>
        <tbody>
          {logs.map((l) => (
            <tr key={l.id}>
              <td>{formatDateTime(l.created_at)}</td>
              <td>
                {l.username} <span class="muted small">{l.role ?? ''}</span>
              </td>
              <td>{l.action}</td>
              <td>{l.endpoint ?? ''}</td>
              <td>{l.ip_address ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="row">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - LIMIT))}>
          Newer
        </button>
        <button type="button" disabled={logs.length < LIMIT} onClick={() => setOffset(offset + LIMIT)}>
          Older
        </button>
      </div>
    </div>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { CopyField } from '../shared/copy-field';
import { Notice } from '../shared/notice';
import { formatBytes } from '../shared/sizes';
import { api, chatTitle, detail, type Schemas } from './api';
import { formatDateTime } from './time';

const TABS: [string, string][] = [
  ['status', 'Status'],
  ['viewers', 'Viewers'],
  ['tokens', 'Share links'],
  ['sessions', 'Sessions'],
  ['audit', 'Audit log'],
  ['settings', 'Settings'],
];

export function AdminPage(props: { tab: string }) {
  return (
    <section class="admin" aria-labelledby="admin-title">
      <header class="chat-head">
        <a href="#/" class="back" aria-label="Back to chats">
          ←
        </a>
        <h1 id="admin-title">Administration</h1>
      </header>
      <nav class="tabs" aria-label="Administration">
        {TABS.map(([id, label]) => (
          <a key={id} href={`#/admin/${id}`} aria-current={props.tab === id ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <div class="admin-body">
        {props.tab === 'status' && <StatusTab />}
        {props.tab === 'viewers' && <ViewersTab />}
        {props.tab === 'tokens' && <TokensTab />}
        {props.tab === 'sessions' && <SessionsTab />}
        {props.tab === 'audit' && <AuditTab />}
        {props.tab === 'settings' && <SettingsTab />}
      </div>
    </section>
  );
}

function StatusTab() {
  const [stats, setStats] = useState<Schemas['ArchiveStats'] | null>(null);
  const [status, setStatus] = useState<Schemas['ArchiveStatus'] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.GET('/api/stats').then((r) => setStats(r.data ?? null));
    api.GET('/api/status').then((r) => setStatus(r.data ?? null));
  }, []);
  const refresh = async () => {
    setBusy(true);
    const r = await api.POST('/api/stats/refresh');
    setBusy(false);
    if (r.data) setStats(r.data);
  };
  return (
    <div class="cards">
      <div class="card">
        <h2>Archive</h2>
        {stats ? (
          <dl class="facts" data-testid="stats">
            <dt>Chats</dt>
            <dd>{stats.chats}</dd>
            <dt>Messages</dt>
            <dd>{stats.messages}</dd>
            <dt>Media files</dt>
            <dd>
              {stats.media_files} ({formatBytes(stats.total_size_bytes)})
            </dd>
            <dt>Last backup</dt>
            <dd>{formatDateTime(stats.last_backup_time)}</dd>
            <dt>Figures from</dt>
            <dd>{formatDateTime(stats.stats_calculated_at)}</dd>
            <dt>Time zone</dt>
            <dd>{stats.timezone}</dd>
            <dt>Push</dt>
            <dd>{stats.push_notifications}</dd>
          </dl>
        ) : (
          <p>Loading…</p>
        )}
        <button type="button" onClick={refresh} disabled={busy}>
          {busy ? 'Recalculating…' : 'Recalculate now'}
        </button>
      </div>
      <div class="card">
        <h2>Status</h2>
        {status ? (
          <dl class="facts">
            <dt>Backup</dt>
            <dd>
              {status.backup.in_progress ? 'running now' : 'idle'}, last run{' '}
              {formatDateTime(status.backup.last_run)}
            </dd>
            <dt>Listeners</dt>
            <dd>
              {status.listeners.length === 0
                ? 'none'
                : status.listeners
                    .map(
                      (l) =>
                        `account ${l.account_id}: ${l.active ? `active since ${formatDateTime(l.active_since)}` : 'not running'}`,
                    )
                    .join('; ')}
            </dd>
            <dt>Media</dt>
            <dd>
              {status.media.downloaded} downloaded, {status.media.pending} pending, {status.media.exhausted}{' '}
              given up, {status.media.skipped} skipped
            </dd>
            <dt>Database</dt>
            <dd>
              {status.database.backend}, {(status.database.size_bytes / 1_048_576).toFixed(1)} MB
            </dd>
          </dl>
        ) : (
          <p>Loading…</p>
        )}
      </div>
    </div>
  );
}

type AdminChat = Schemas['AdminChat'];

function useAdminChats(): AdminChat[] {
  const [chats, setChats] = useState<AdminChat[]>([]);
  useEffect(() => {
    api.GET('/api/admin/chats').then((r) => setChats(r.data?.chats ?? []));
  }, []);
  return chats;
}

/** A chat's title by ref, from the administration's chat list (the ref while the list loads). */
function chatTitleOf(chats: AdminChat[]): (ref: string) => string {
  return (ref) => {
    const chat = chats.find((c) => c.ref === ref);
    return chat ? chatTitle(chat) : ref;
  };
}

type Message = { kind: 'ok' | 'error'; text: string } | null;

/** The outcome of an administration call: `ok` on success, the server's `detail` otherwise. */
const outcome = (r: { data?: unknown; error?: unknown; response: Response }, ok: string): Message =>
  r.data ? { kind: 'ok', text: ok } : { kind: 'error', text: detail(r) };

/** An administration call's outcome, said as a notice. */
function Outcome(props: { message: Message }) {
  if (!props.message) return null;
  return <Notice kind={props.message.kind}>{props.message.text}</Notice>;
}

/** The actions of a viewer or share-link row: switch it on or off, delete it. */
function RowActions(props: { toggle: string; onToggle: () => void; onDelete: () => void }) {
  return (
    <td class="actions">
      <button type="button" onClick={props.onToggle}>
        {props.toggle}
      </button>
      <button type="button" onClick={props.onDelete}>
        Delete
      </button>
    </td>
  );
}

function NoDownloadChoice(props: { checked: boolean; onChange: (on: boolean) => void; label: string }) {
  return (
    <label class="choice">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />
      {props.label}
    </label>
  );
}

function ChatPicker(props: {
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

function ViewersTab() {
  const chats = useAdminChats();
  const [viewers, setViewers] = useState<Schemas['ViewerAccount'][]>([]);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [allChats, setAllChats] = useState(true);
  const [refs, setRefs] = useState<string[]>([]);
  const [noDownload, setNoDownload] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const load = () => api.GET('/api/admin/viewers').then((r) => setViewers(r.data?.viewers ?? []));
  useEffect(() => void load(), []);
  const create = async (event: Event) => {
    event.preventDefault();
    const r = await api.POST('/api/admin/viewers', {
      body: {
        username,
        password,
        allowed_chat_refs: allChats ? null : refs,
        is_active: true,
        no_download: noDownload,
      },
    });
    if (!r.data) return setMessage({ kind: 'error', text: detail(r) });
    setMessage({ kind: 'ok', text: `Viewer ${r.data.username} created.` });
    setUsername('');
    setPassword('');
    void load();
  };
  const update = async (id: number, body: Schemas['ViewerAccountUpdate']) => {
    const r = await api.PUT('/api/admin/viewers/{id}', { params: { path: { id } }, body });
    setMessage(outcome(r, 'Saved; the viewer’s sessions were ended.'));
    void load();
  };
  const remove = async (id: number) => {
    const r = await api.DELETE('/api/admin/viewers/{id}', { params: { path: { id } } });
    setMessage(outcome(r, 'Viewer deleted.'));
    void load();
  };
  const titleOf = chatTitleOf(chats);
  return (
    <div>
      <Outcome message={message} />
      <table class="admin-table">
        <caption>Viewer accounts</caption>
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Chats</th>
            <th scope="col">Downloads</th>
            <th scope="col">Active</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {viewers.map((v) => (
            <tr key={v.id}>
              <td>{v.username}</td>
              <td>
                {v.allowed_chat_refs === null ? 'all' : v.allowed_chat_refs.map(titleOf).join(', ') || 'none'}
              </td>
              <td>{v.no_download ? 'off' : 'on'}</td>
              <td>{v.is_active ? 'yes' : 'no'}</td>
              <RowActions
                toggle={v.is_active ? 'Disable' : 'Enable'}
                onToggle={() => void update(v.id, { is_active: !v.is_active })}
                onDelete={() => void remove(v.id)}
              />
            </tr>
          ))}
        </tbody>
      </table>
      <form class="card" onSubmit={create}>
        <h2>New viewer</h2>
        <div class="row">
          <div class="field">
            <label for="viewer-name">User name</label>
            <input
              id="viewer-name"
              minLength={3}
              required
              value={username}
              onInput={(e) => setUsername(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="viewer-password">Password</label>
            <input
              id="viewer-password"
              type="password"
              minLength={8}
              required
              autocomplete="new-password"
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </div>
        </div>
        <label class="choice">
          <input type="checkbox" checked={allChats} onChange={(e) => setAllChats(e.currentTarget.checked)} />
          All chats
        </label>
        {!allChats && (
          <ChatPicker chats={chats} value={refs} onChange={setRefs} legend="Chats this viewer may see" />
        )}
        <NoDownloadChoice
          checked={noDownload}
          onChange={setNoDownload}
          label="No downloads (no media, transcripts or export)"
        />
        <button type="submit" class="primary">
          Create viewer
        </button>
      </form>
    </div>
  );
}

function TokensTab() {
  const chats = useAdminChats();
  const [tokens, setTokens] = useState<Schemas['ShareToken'][]>([]);
  const [label, setLabel] = useState('');
  const [refs, setRefs] = useState<string[]>([]);
  const [noDownload, setNoDownload] = useState(false);
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const load = () => api.GET('/api/admin/tokens').then((r) => setTokens(r.data?.tokens ?? []));
  useEffect(() => void load(), []);
  const create = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    const r = await api.POST('/api/admin/tokens', {
      body: {
        label: label || null,
        allowed_chat_refs: refs,
        no_download: noDownload,
        ...(expires && { expires_at: new Date(expires).toISOString() }),
      },
    });
    if (!r.data) return setMessage({ kind: 'error', text: detail(r) });
    setCreated(`${window.location.origin}/#token=${r.data.token}`);
    setLabel('');
    setRefs([]);
    void load();
  };
  const update = async (id: number, body: Schemas['ShareTokenUpdate']) => {
    const r = await api.PUT('/api/admin/tokens/{id}', { params: { path: { id } }, body });
    setMessage(outcome(r, 'Saved.'));
    void load();
  };
  const remove = async (id: number) => {
    const r = await api.DELETE('/api/admin/tokens/{id}', { params: { path: { id } } });
    setMessage(outcome(r, 'Share link deleted.'));
    void load();
  };
  const titleOf = chatTitleOf(chats);
  return (
    <div>
      <Outcome message={message} />
      {created && (
        <div class="notice ok">
          <CopyField
            key={created}
            id="created-link"
            label="New share link (shown once; anyone with it can read the chosen chats)"
            value={created}
          />
        </div>
      )}
      <table class="admin-table">
        <caption>Share links</caption>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Chats</th>
            <th scope="col">Used</th>
            <th scope="col">Expires</th>
            <th scope="col">State</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id}>
              <td>{t.label ?? '—'}</td>
              <td>{t.allowed_chat_refs.map(titleOf).join(', ')}</td>
              <td>
                {t.use_count}× {t.last_used_at ? `(last ${formatDateTime(t.last_used_at)})` : ''}
              </td>
              <td>{formatDateTime(t.expires_at)}</td>
              <td>{t.is_revoked ? 'revoked' : 'active'}</td>
              <RowActions
                toggle={t.is_revoked ? 'Restore' : 'Revoke'}
                onToggle={() => void update(t.id, { is_revoked: !t.is_revoked })}
                onDelete={() => void remove(t.id)}
              />
            </tr>
          ))}
        </tbody>
      </table>
      <form class="card" onSubmit={create}>
        <h2>New share link</h2>
        <div class="row">
          <div class="field">
            <label for="token-label">Label</label>
            <input id="token-label" value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="token-expires">Expires (optional)</label>
            <input
              id="token-expires"
              type="datetime-local"
              value={expires}
              onInput={(e) => setExpires(e.currentTarget.value)}
            />
          </div>
        </div>
        <ChatPicker chats={chats} value={refs} onChange={setRefs} legend="Chats the link opens" />
        <NoDownloadChoice checked={noDownload} onChange={setNoDownload} label="No downloads" />
        <button type="submit" class="primary" disabled={refs.length === 0}>
          Create share link
        </button>
      </form>
    </div>
  );
}

function SessionsTab() {
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

function AuditTab() {
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

function SettingsTab() {
  const [settings, setSettings] = useState<Record<string, string>>({});
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const load = () => api.GET('/api/admin/settings').then((r) => setSettings(r.data?.settings ?? {}));
  useEffect(() => void load(), []);
  const save = async (event: Event) => {
    event.preventDefault();
    const r = await api.PUT('/api/admin/settings/{key}', { params: { path: { key } }, body: { value } });
    setMessage(r.data ? `Saved ${r.data.key}.` : detail(r));
    void load();
  };
  return (
    <div>
      <dl class="facts">
        {Object.entries(settings).map(([k, v]) => [<dt key={`k-${k}`}>{k}</dt>, <dd key={`v-${k}`}>{v}</dd>])}
      </dl>
      {Object.keys(settings).length === 0 && <p class="muted">No settings stored.</p>}
      <form class="card" onSubmit={save}>
        <h2>Change a setting</h2>
        <div class="row">
          <div class="field">
            <label for="setting-key">Key</label>
            <input id="setting-key" required value={key} onInput={(e) => setKey(e.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="setting-value">Value</label>
            <input id="setting-value" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
          </div>
          <button type="submit" class="primary">
            Save
          </button>
        </div>
        {message && <Notice>{message}</Notice>}
      </form>
    </div>
  );
}

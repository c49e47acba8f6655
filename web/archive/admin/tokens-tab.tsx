import { useEffect, useState } from 'preact/hooks';
import { CopyField } from '../../shared/copy-field';
import { api, detail, type Schemas } from '../api';
import { formatDateTime } from '../time';
import { ChatPicker } from './chat-picker';
import { NoDownloadChoice } from './no-download-choice';
import { type Message, Outcome, outcome } from './outcome';
import { RowActions } from './row-actions';
import { chatTitleOf, useAdminChats } from './use-admin-chats';

/** The share links: created (shown once), switched on or off, revoked. */
export function TokensTab() {
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

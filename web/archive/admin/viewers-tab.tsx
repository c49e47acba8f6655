import { useEffect, useState } from 'preact/hooks';
import { api, detail, type Schemas } from '../api';
import { ChatPicker } from './chat-picker';
import { NoDownloadChoice } from './no-download-choice';
import { type Message, Outcome, outcome } from './outcome';
import { RowActions } from './row-actions';
import { chatTitleOf, useAdminChats } from './use-admin-chats';

/** The viewer accounts: created, switched on or off, deleted, each with its chats. */
export function ViewersTab() {
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

import { useEffect, useRef, useState } from 'preact/hooks';
import { Notice } from '../../shared/notice';
import { api, type Chat, type Folder } from '../api';
import { ChatRow } from './chat-row';

const PAGE = 50;

/** The chats, filtered by name, folder, account and archive, a page at a time. */
export function ChatList(props: { current?: string }) {
  const [search, setSearch] = useState('');
  const [folder, setFolder] = useState<number | null>(null);
  const [archived, setArchived] = useState(false);
  const [account, setAccount] = useState<number | null>(null);
  const [folders, setFolders] = useState<Folder[]>([]);
  const [accounts, setAccounts] = useState<{ id: number; label: string }[]>([]);
  const [archivedCount, setArchivedCount] = useState(0);
  const [chats, setChats] = useState<Chat[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** Whether a first page has come: until then the list says it is loading, not that there are no chats. */
  const [loaded, setLoaded] = useState(false);
  const loading = useRef(false);

  useEffect(() => {
    api.GET('/api/folders').then((r) => setFolders(r.data?.folders ?? []));
    api.GET('/api/accounts').then((r) => setAccounts(r.data?.accounts ?? []));
    api.GET('/api/archived/count').then((r) => setArchivedCount(r.data?.count ?? 0));
  }, []);

  const load = async (offset: number) => {
    loading.current = true;
    const result = await api.GET('/api/chats', {
      params: {
        query: {
          limit: PAGE,
          offset,
          ...(search.trim() && { search: search.trim() }),
          archived,
          ...(folder !== null && { folder_id: folder }),
        },
      },
    });
    loading.current = false;
    if (!result.data) {
      setError(`Chats could not be loaded (${result.response.status}).`);
      return;
    }
    setError(null);
    setLoaded(true);
    setChats((current) => (offset === 0 ? result.data.chats : [...current, ...result.data.chats]));
    setHasMore(result.data.has_more);
  };

  useEffect(() => {
    const timer = window.setTimeout(() => void load(0), search ? 200 : 0);
    return () => window.clearTimeout(timer);
  }, [search, folder, archived]);

  const shown = account === null ? chats : chats.filter((c) => c.accounts.some((a) => a.id === account));

  return (
    <div class="chat-list">
      <div class="filters">
        <label for="chat-search" class="visually-hidden">
          Filter chats
        </label>
        <input
          id="chat-search"
          type="search"
          placeholder="Filter chats by name"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
        <div class="row">
          {folders.length > 0 && (
            <select
              aria-label="Folder"
              value={folder ?? ''}
              onChange={(e) => setFolder(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
            >
              <option value="">All folders</option>
              {folders.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.emoticon ? `${f.emoticon} ` : ''}
                  {f.title} ({f.chat_count})
                </option>
              ))}
            </select>
          )}
          {accounts.length > 1 && (
            <select
              aria-label="Account"
              value={account ?? ''}
              onChange={(e) => setAccount(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
            >
              <option value="">All accounts</option>
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.label}
                </option>
              ))}
            </select>
          )}
          <button type="button" aria-pressed={archived} onClick={() => setArchived(!archived)}>
            {archived ? 'Back to chats' : `Archived (${archivedCount})`}
          </button>
        </div>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <ul class="chats" aria-label={archived ? 'Archived chats' : 'Chats'}>
        {shown.map((chat) => (
          <ChatRow key={chat.ref} chat={chat} current={chat.ref === props.current} />
        ))}
      </ul>
      {shown.length === 0 && !error && <p class="muted pad">{loaded ? 'No chats.' : 'Loading chats…'}</p>}
      {hasMore && (
        <button type="button" class="more" onClick={() => !loading.current && void load(chats.length)}>
          More chats
        </button>
      )}
    </div>
  );
}

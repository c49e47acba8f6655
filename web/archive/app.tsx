import { useCallback, useEffect, useState } from 'preact/hooks';
import { Notice } from '../shared/notice';
import { PasswordForm } from '../shared/password-form';
import { AdminPage } from './admin/page';
import { type AuthCheck, api, detail } from './api';
import { ChatView } from './chat/view';
import { ChatList } from './chats/chat-list';
import { ResultsPage } from './search';
import { setTimeZone } from './time';

/** `#/chat/<ref>`, `#/search/<q>`, `#/tag/<tag>`, `#/admin/<tab>`; a share link's `#token=` is read first. */
export type Route =
  | { page: 'home' }
  | { page: 'chat'; ref: string; message?: number }
  | { page: 'search'; q: string }
  | { page: 'tag'; tag: string }
  | { page: 'admin'; tab: string };

function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [page, arg = ''] = path.split('/');
  const value = decodeURIComponent(arg);
  if (page === 'chat' && value) {
    const message = Number(new URLSearchParams(query).get('message'));
    return { page: 'chat', ref: value, ...(Number.isInteger(message) && message > 0 && { message }) };
  }
  if (page === 'search') return { page: 'search', q: value };
  if (page === 'tag' && value) return { page: 'tag', tag: value };
  if (page === 'admin') return { page: 'admin', tab: value || 'status' };
  return { page: 'home' };
}

export const navigate = (hash: string) => {
  window.location.hash = hash;
};

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function App() {
  const [auth, setAuth] = useState<AuthCheck | null>(null);
  const [error, setError] = useState<string | null>(null);

  const check = useCallback(async () => {
    const result = await api.GET('/api/auth/check').catch(() => undefined);
    if (!result?.data) {
      setError(result ? detail(result) : 'The viewer does not answer.');
      return;
    }
    setError(null);
    setAuth(result.data);
    if (result.data.authenticated) {
      const stats = await api.GET('/api/stats');
      setTimeZone(stats.data?.timezone);
    }
  }, []);

  useEffect(() => {
    const token = /^#token=([0-9a-fA-F]{64})$/.exec(window.location.hash)?.[1];
    if (!token) {
      void check();
      return;
    }
    // A share link: the token leaves the address bar at once, then becomes a session.
    window.history.replaceState(null, '', window.location.pathname);
    api.POST('/auth/token', { body: { token } }).then((result) => {
      if (!result.data) setError(`This share link does not work: ${detail(result)}.`);
      void check();
    });
  }, []);

  if (!auth)
    return <main class="center">{error ? <Notice kind="error">{error}</Notice> : <p>Loading…</p>}</main>;
  if (!auth.authenticated) return <Login auth={auth} error={error} onDone={check} />;
  return <Viewer auth={auth} onSignOut={check} notice={error} />;
}

function Login(props: { auth: AuthCheck; error: string | null; onDone: () => void }) {
  const [error, setError] = useState<string | null>(props.error);
  const [busy, setBusy] = useState(false);
  if (props.auth.setup_required)
    return (
      <main class="center narrow">
        <h1>Chat archive</h1>
        <div class="notice warning" role="alert">
          <p>
            <strong>The viewer is not set up yet.</strong> No way to sign in is configured.
          </p>
          <p>
            Set <code>VIEWER_USERNAME</code> and <code>VIEWER_PASSWORD</code> for a password login,{' '}
            <code>AUTH_PROXY_HEADER</code> behind an authenticating proxy, or{' '}
            <code>ALLOW_ANONYMOUS_VIEWER=true</code> for open read access, then restart the viewer.
          </p>
        </div>
      </main>
    );
  const submit = async (username: string, password: string) => {
    setBusy(true);
    setError(null);
    const result = await api.POST('/api/login', { body: { username, password } }).catch(() => undefined);
    setBusy(false);
    if (!result?.data) {
      setError(
        !result
          ? 'The viewer does not answer.'
          : result.response.status === 429
            ? 'Too many attempts; wait a few minutes.'
            : detail(result),
      );
      return;
    }
    props.onDone();
  };
  return (
    <main class="center narrow">
      <h1>Chat archive</h1>
      <PasswordForm
        class="card"
        busy={busy}
        onSubmit={(username, password) => void submit(username, password)}
        footer={<p class="muted">A share link signs you in by itself when you open it.</p>}
      >
        <h2>Sign in</h2>
        {error && <Notice kind="error">{error}</Notice>}
      </PasswordForm>
    </main>
  );
}

function Viewer(props: { auth: AuthCheck; onSignOut: () => void; notice: string | null }) {
  const route = useRoute();
  const { auth } = props;
  const master = auth.role === 'master';
  const signOut = async () => {
    await api.POST('/api/logout');
    window.location.hash = '';
    props.onSignOut();
  };
  const chatOpen = route.page !== 'home';
  return (
    <div class={`viewer ${chatOpen ? 'detail-open' : ''}`}>
      <header class="topbar">
        <a href="#/" class="brand">
          Chat archive
        </a>
        <SearchBox initial={route.page === 'search' ? route.q : ''} />
        <nav aria-label="Account">
          {master && <a href="#/admin/status">Administration</a>}
          <span class="muted who">{auth.username ?? (auth.role === null ? 'guest' : auth.role)}</span>
          {auth.auth_required && !auth.proxy_auth && (
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          )}
        </nav>
      </header>
      {props.notice && <Notice kind="error">{props.notice}</Notice>}
      <div class="panes">
        <aside class="sidebar" aria-label="Chats">
          <ChatList current={route.page === 'chat' ? route.ref : undefined} />
        </aside>
        <main class="detail">
          {route.page === 'chat' && (
            <ChatView
              key={route.ref}
              chatRef={route.ref}
              jumpTo={route.message}
              noDownload={auth.no_download}
              master={master}
            />
          )}
          {route.page === 'search' && <ResultsPage kind="search" value={route.q} />}
          {route.page === 'tag' && <ResultsPage kind="tag" value={route.tag} />}
          {route.page === 'admin' &&
            (master ? <AdminPage tab={route.tab} /> : <Notice kind="error">Admin access required.</Notice>)}
          {route.page === 'home' && (
            <div class="empty">
              <p>Choose a chat.</p>
            </div>
          )}
        </main>
      </div>
    </div>
  );
}

function SearchBox(props: { initial: string }) {
  const [q, setQ] = useState(props.initial);
  useEffect(() => setQ(props.initial), [props.initial]);
  return (
    <search class="global-search">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (q.trim()) navigate(`#/search/${encodeURIComponent(q.trim())}`);
        }}
      >
        <label for="global-search" class="visually-hidden">
          Search all chats
        </label>
        <input
          id="global-search"
          type="search"
          placeholder="Search all chats"
          maxLength={500}
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
        />
      </form>
    </search>
  );
}

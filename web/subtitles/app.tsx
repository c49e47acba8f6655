import { useCallback, useState } from 'preact/hooks';
import { client, storedToken, storeToken } from './api';
import { Settings } from './settings/settings';
import { SignIn } from './settings/sign-in';

/** The plugin's pages: sign-in, then the settings, until the session ends or is refused. */
export function App() {
  const [token, setToken] = useState<string | null>(storedToken());
  const [authError, setAuthError] = useState<string | null>(null);
  const signOut = useCallback((reason?: string) => {
    storeToken(null);
    setToken(null);
    setAuthError(reason ?? null);
  }, []);
  return (
    <>
      <header class="top">
        <h1>Subtitles plugin</h1>
        {token && (
          <button
            type="button"
            onClick={() => {
              // Ends a signed-in session on the server; an API key stays valid.
              void client(token)
                .POST('/Sessions/Logout')
                .catch(() => undefined);
              signOut();
            }}
          >
            Sign out
          </button>
        )}
      </header>
      <main>
        {token ? (
          <Settings token={token} onAuthError={(e) => signOut(e.message)} />
        ) : (
          <SignIn
            error={authError}
            onToken={(value) => {
              storeToken(value);
              setAuthError(null);
              setToken(value);
            }}
          />
        )}
      </main>
    </>
  );
}

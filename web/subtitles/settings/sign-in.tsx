import { useState } from 'preact/hooks';
import { Field } from '../../shared/field';
import { Notice } from '../../shared/notice';
import { PasswordForm } from '../../shared/password-form';
import { check, client } from '../api';

/** Sign-in: an administrator's API key, or an administrator account's name and password. */
export function SignIn(props: { error: string | null; onToken: (token: string) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(props.error);
  const [busy, setBusy] = useState(false);
  const signIn = async (username: string, password: string) => {
    setBusy(true);
    setError(null);
    try {
      const result = await client().POST('/Users/AuthenticateByName', {
        body: { Username: username, Pw: password },
      });
      if (result.response.status === 401) throw new Error('Wrong user name or password.');
      const data = check(result);
      if (!data.User.Policy.IsAdministrator) throw new Error('This account is not an administrator.');
      props.onToken(data.AccessToken);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="signin-title" class="card narrow">
      <h2 id="signin-title">Administrator sign-in</h2>
      <p class="muted">
        The plugin's pages answer administrators only. The key or session stays in this tab until you sign
        out.
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim()) props.onToken(key.trim());
        }}
      >
        <Field id="api-key" label="API key" password autocomplete="off" value={key} onValue={setKey} />
        <button type="submit" class="primary">
          Use key
        </button>
      </form>
      <p class="muted">or sign in with an administrator account:</p>
      <PasswordForm busy={busy} passwordOptional onSubmit={(u, p) => void signIn(u, p)} />
    </section>
  );
}

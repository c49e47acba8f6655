import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Field } from './field';

/**
 * A sign-in form: a user name and a password, sent together. `passwordOptional` for a server that lets an
 * account without a password in (the media server does). What comes before the fields (a heading, the
 * last error) and after the button (a hint) is the page's.
 */
export function PasswordForm(props: {
  busy: boolean;
  onSubmit: (username: string, password: string) => void;
  passwordOptional?: boolean;
  class?: string;
  children?: ComponentChildren;
  footer?: ComponentChildren;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const ready = username !== '' && (props.passwordOptional || password !== '');
  return (
    <form
      class={props.class}
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) props.onSubmit(username, password);
      }}
    >
      {props.children}
      <Field id="username" label="User name" autocomplete="username" value={username} onValue={setUsername} />
      <Field
        id="password"
        label="Password"
        password
        autocomplete="current-password"
        value={password}
        onValue={setPassword}
      />
      <button class="primary" type="submit" disabled={props.busy || !ready}>
        Sign in
      </button>
      {props.footer}
    </form>
  );
}

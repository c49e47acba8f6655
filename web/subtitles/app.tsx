import { useCallback, useEffect, useState } from 'preact/hooks';
import { Field } from '../shared/field';
import { Notice } from '../shared/notice';
import { PasswordForm } from '../shared/password-form';
import {
  AuthError,
  check,
  client,
  type Gpu,
  type InjectionStatus,
  pluginName,
  type QueueStatus,
  reasonOf,
  type SetupStatus,
  storedToken,
  storeToken,
} from './api';
import { readingOf } from './reading';

const QUEUE_POLL_MS = 2000;

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

function SignIn(props: { error: string | null; onToken: (token: string) => void }) {
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

function Settings(props: { token: string; onAuthError: (error: AuthError) => void }) {
  const api = client(props.token);
  const plugin = pluginName();
  const params = { path: { plugin } };
  const [status, setStatus] = useState<SetupStatus | null>(null);
  const [queue, setQueue] = useState<QueueStatus | null>(null);
  const [injection, setInjection] = useState<InjectionStatus | null>(null);
  const [legacy, setLegacy] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  const fail = useCallback(
    (e: unknown) => {
      if (e instanceof AuthError) props.onAuthError(e);
      else setError(e instanceof Error ? e.message : String(e));
    },
    [props.onAuthError],
  );
  const loadQueue = useCallback(
    () =>
      api
        .GET('/Plugins/{plugin}/Queue', { params })
        .then((r) => setQueue(check(r)))
        .catch(fail),
    [props.token],
  );
  const loadAll = useCallback(() => {
    setError(null);
    api
      .GET('/Plugins/{plugin}/Setup/Status', { params })
      .then((r) => setStatus(check(r)))
      .catch(fail);
    api
      .GET('/Plugins/{plugin}/Setup/InjectionStatus', { params })
      .then((r) => setInjection(check(r)))
      .catch(fail);
    api
      .GET('/System/Configuration')
      .then((r) => setLegacy(check(r).EnableLegacyAuthorization))
      .catch(fail);
    void loadQueue();
  }, [props.token]);

  useEffect(() => {
    loadAll();
    const timer = window.setInterval(loadQueue, QUEUE_POLL_MS);
    return () => window.clearInterval(timer);
  }, [props.token]);

  const switchLegacy = async (enabled: boolean) => {
    const result = await api.POST('/System/Configuration', { body: { EnableLegacyAuthorization: enabled } });
    if (result.response.status === 204) setLegacy(enabled);
    else fail(new Error(`The switch was not saved (HTTP ${result.response.status}).`));
  };

  return (
    <div class="grid">
      {error && (
        <Notice kind="error" wide>
          {error}{' '}
          <button type="button" onClick={loadAll}>
            Retry
          </button>
        </Notice>
      )}
      <SetupSection status={status} onRefresh={loadAll} />
      <QueueSection queue={queue} api={api} plugin={plugin} onChange={loadQueue} onError={fail} />
      <InjectionSection injection={injection} />
      <section class="card" aria-labelledby="legacy-title">
        <h2 id="legacy-title">Legacy authorization</h2>
        <p class="muted">
          When on, the server also accepts the key in the legacy <code>X-Media-Token</code> header. The
          recommended form, <code>Authorization: MediaServer Token=…</code>, works either way.
        </p>
        {legacy === null ? (
          <p>Loading…</p>
        ) : (
          <div class="switch">
            <input
              id="legacy"
              type="checkbox"
              role="switch"
              aria-checked={legacy}
              checked={legacy}
              onChange={(e) => void switchLegacy(e.currentTarget.checked)}
            />
            <label for="legacy">Accept the legacy token header</label>
          </div>
        )}
      </section>
    </div>
  );
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function SetupSection(props: { status: SetupStatus | null; onRefresh: () => void }) {
  const { status } = props;
  return (
    <section class="card" aria-labelledby="setup-title">
      <div class="card-head">
        <h2 id="setup-title">Setup status</h2>
        <button type="button" onClick={props.onRefresh}>
          Refresh
        </button>
      </div>
      {!status ? (
        <p>Loading…</p>
      ) : (
        <>
          <p class={`notice ${status.SetupComplete ? 'ok' : 'warning'}`} data-testid="setup-verdict">
            {status.SetupComplete
              ? 'Local transcription can run: the engine binary and a model are present.'
              : 'Local transcription cannot run yet.'}
          </p>
          <ul class="reading" aria-label="What the status means">
            {readingOf(status).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <dl class="facts">
            <dt>Binary</dt>
            <dd>
              {status.BinaryFound ? (status.BinaryPath ?? 'found') : 'not found'}
              {status.BinaryFoundInPath && ' (from the system PATH)'}
            </dd>
            <dt>Model</dt>
            <dd>{status.ModelFound ? (status.ModelPath ?? 'found') : 'not found'}</dd>
            <dt>Platform</dt>
            <dd>{status.Platform}</dd>
            <dt>Installed variant</dt>
            <dd>{status.InstalledVariant || 'none installed yet'}</dd>
            <dt>Recommended variant</dt>
            <dd>{status.Gpu.RecommendedVariant}</dd>
          </dl>
          <GpuTable gpu={status.Gpu} />
        </>
      )}
    </section>
  );
}

const GPU_FLAGS: [keyof Omit<Gpu, 'RecommendedVariant'>, string][] = [
  ['HasVendorAGpu', 'A device node of the first GPU vendor exists, or its status tool ran.'],
  ['HasCudaLibrary', 'A CUDA runtime library (libcuda.so.1 or libcudart.so) was found.'],
  ['HasVendorBGpu', 'The device node /dev/kfd exists, or rocm-smi ran.'],
  ['HasRocmLibrary', 'The ROCm library libamdhip64.so was found.'],
  ['HasRenderDevice', 'The render device /dev/dri/renderD128 exists.'],
  ['HasVulkanLibrary', 'The Vulkan library libvulkan.so.1 was found.'],
  ['HasOpenMP', 'libgomp.so.1 was found (informational; without it the self-contained noavx build is used).'],
  [
    'HasAvx',
    'The CPU has the AVX2-class instructions the prebuilt binaries need; without them only *-noavx builds run.',
  ],
];

function GpuTable(props: { gpu: Gpu }) {
  return (
    <table class="flags">
      <caption>Hardware detection</caption>
      <thead>
        <tr>
          <th scope="col">Flag</th>
          <th scope="col">Value</th>
          <th scope="col">What it means</th>
        </tr>
      </thead>
      <tbody>
        {GPU_FLAGS.map(([flag, meaning]) => (
          <tr key={flag}>
            <th scope="row">
              <code>{flag}</code>
            </th>
            <td class={props.gpu[flag] ? 'yes' : 'no'}>{yesNo(props.gpu[flag])}</td>
            <td>{meaning}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function QueueSection(props: {
  queue: QueueStatus | null;
  api: ReturnType<typeof client>;
  plugin: string;
  onChange: () => void;
  onError: (e: unknown) => void;
}) {
  const { queue } = props;
  const [path, setPath] = useState('');
  const [language, setLanguage] = useState('en');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const enqueue = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    try {
      const result = await props.api.POST('/Plugins/{plugin}/Queue/Items', {
        params: { path: { plugin: props.plugin } },
        body: { path, language },
      });
      if (!result.response.ok && result.response.status !== 401 && result.response.status !== 403) {
        setMessage({ kind: 'error', text: `Not queued: ${reasonOf(result)}` });
        return;
      }
      const data = check(result);
      setMessage({
        kind: 'ok',
        text: data.queued
          ? `Queued ${data.item} (${data.language}).`
          : `${data.item} (${data.language}) is already queued.`,
      });
      props.onChange();
    } catch (e) {
      props.onError(e);
    }
  };
  const scan = async () => {
    setMessage(null);
    try {
      const result = await props.api.POST('/Plugins/{plugin}/Queue/Scan', {
        params: { path: { plugin: props.plugin } },
        body: { language },
      });
      if (!result.response.ok && result.response.status !== 401 && result.response.status !== 403) {
        setMessage({ kind: 'error', text: `Not scanned: ${reasonOf(result)}` });
        return;
      }
      const data = check(result);
      setMessage({ kind: 'ok', text: `Scanned ${data.scanned} files, queued ${data.queued}.` });
      props.onChange();
    } catch (e) {
      props.onError(e);
    }
  };
  return (
    <section class="card" aria-labelledby="queue-title">
      <h2 id="queue-title">Queue</h2>
      {!queue ? (
        <p>Loading…</p>
      ) : (
        <div aria-live="polite" data-testid="queue">
          <p class="notice" data-testid="queue-state">
            {queue.isProcessing ? `Processing ${queue.currentItem ?? 'an item'}: ${queue.phase}` : 'Idle'}
          </p>
          <dl class="facts">
            <dt>Remaining</dt>
            <dd data-testid="queue-remaining">{queue.remaining}</dd>
            <dt>Requested, not started</dt>
            <dd>{queue.pendingRequests}</dd>
            <dt>Processed</dt>
            <dd data-testid="queue-processed">{queue.processed}</dd>
            <dt>Failed</dt>
            <dd>{queue.failed}</dd>
            <dt>Last error</dt>
            <dd class="wrap">{queue.lastError ?? 'none'}</dd>
          </dl>
          <table class="workers">
            <caption>Workers</caption>
            <thead>
              <tr>
                <th scope="col">Worker</th>
                <th scope="col">Item</th>
                <th scope="col">Phase</th>
              </tr>
            </thead>
            <tbody>
              {queue.workers.map((worker) => (
                <tr key={worker.id}>
                  <td>{worker.id}</td>
                  <td>{worker.item ?? '—'}</td>
                  <td>{worker.phase}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={enqueue} class="enqueue">
        <h3>Generate subtitles</h3>
        <div class="field">
          <label for="media-path">Media file (relative to the media folder)</label>
          <input id="media-path" value={path} required onInput={(e) => setPath(e.currentTarget.value)} />
        </div>
        <div class="row">
          <div class="field">
            <label for="language">Language</label>
            <input
              id="language"
              value={language}
              size={4}
              pattern="[a-z]{2,3}"
              required
              onInput={(e) => setLanguage(e.currentTarget.value)}
            />
          </div>
          <button type="submit" class="primary">
            Queue file
          </button>
          <button type="button" onClick={scan}>
            Scan library
          </button>
        </div>
        {message && (
          <p class={`notice ${message.kind}`} role="status">
            {message.text}
          </p>
        )}
      </form>
    </section>
  );
}

function InjectionSection(props: { injection: InjectionStatus | null }) {
  const { injection } = props;
  return (
    <section class="card" aria-labelledby="injection-title">
      <h2 id="injection-title">Web client button</h2>
      {!injection ? (
        <p>Loading…</p>
      ) : (
        <>
          <p class={`notice ${injection.Level}`} data-testid="injection-message">
            <strong>{injection.Level.toUpperCase()}:</strong> {injection.Message}
          </p>
          <dl class="facts">
            <dt>Mode</dt>
            <dd>{injection.Mode}</dd>
            <dt>Script tag in index.html</dt>
            <dd>{yesNo(injection.ScriptTagPresent)}</dd>
            <dt>Served page checked</dt>
            <dd>{injection.ServedHtmlVerified}</dd>
          </dl>
        </>
      )}
    </section>
  );
}

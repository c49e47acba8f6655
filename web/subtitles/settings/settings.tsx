import { useCallback, useEffect, useState } from 'preact/hooks';
import { Notice } from '../../shared/notice';
import {
  AuthError,
  check,
  client,
  type InjectionStatus,
  pluginName,
  type QueueStatus,
  type SetupStatus,
} from '../api';
import { InjectionSection } from './injection-section';
import { QueueSection } from './queue-section';
import { SetupSection } from './setup-section';

const QUEUE_POLL_MS = 2000;

/** The plugin's settings: its setup, the transcription queue and the subtitles it injected. */
export function Settings(props: { token: string; onAuthError: (error: AuthError) => void }) {
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

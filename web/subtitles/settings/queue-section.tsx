import { useState } from 'preact/hooks';
import { check, type client, type QueueStatus, reasonOf } from '../api';

/** The transcription queue: what runs now, what waits, what failed. */
export function QueueSection(props: {
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

import type { SetupStatus } from '../api';
import { readingOf } from '../reading';
import { GpuTable } from './gpu-table';

const _yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** What the plugin needs and has: the speech engine, the models, the hardware. */
export function SetupSection(props: { status: SetupStatus | null; onRefresh: () => void }) {
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

import type { InjectionStatus } from '../api';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** The subtitles injected into the media server's items. */
export function InjectionSection(props: { injection: InjectionStatus | null }) {
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

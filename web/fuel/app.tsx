import { useEffect, useState } from 'preact/hooks';
import { Notice } from '../shared/notice';
import { type Config, problem } from './api';
import { api } from './client';
import { FuelMap } from './map/fuel-map';

export function App() {
  const [config, setConfig] = useState<Config | null>(null);
  const [configError, setConfigError] = useState<string | null>(null);
  useEffect(() => {
    api.GET('/api/config').then(
      (r) =>
        r.data
          ? setConfig(r.data)
          : setConfigError(`The server could not give its settings (${problem(r)}).`),
      () => setConfigError('The server does not answer.'),
    );
  }, []);
  if (configError)
    return (
      <main class="center">
        <Notice kind="error">{configError}</Notice>
      </main>
    );
  if (!config) return <main class="center">Loading…</main>;
  return <FuelMap config={config} />;
}

import { useEffect, useState } from 'preact/hooks';
import { Notice } from '../../shared/notice';
import { api, detail } from '../api';

/** The archive's settings, each saved on its own. */
export function SettingsTab() {
  const [settings, setSettings] = useState<Record<string, string>>({});
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const load = () => api.GET('/api/admin/settings').then((r) => setSettings(r.data?.settings ?? {}));
  useEffect(() => void load(), []);
  const save = async (event: Event) => {
    event.preventDefault();
    const r = await api.PUT('/api/admin/settings/{key}', { params: { path: { key } }, body: { value } });
    setMessage(r.data ? `Saved ${r.data.key}.` : detail(r));
    void load();
  };
  return (
    <div>
      <dl class="facts">
        {Object.entries(settings).map(([k, v]) => [<dt key={`k-${k}`}>{k}</dt>, <dd key={`v-${k}`}>{v}</dd>])}
      </dl>
      {Object.keys(settings).length === 0 && <p class="muted">No settings stored.</p>}
      <form class="card" onSubmit={save}>
        <h2>Change a setting</h2>
        <div class="row">
          <div class="field">
            <label for="setting-key">Key</label>
            <input id="setting-key" required value={key} onInput={(e) => setKey(e.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="setting-value">Value</label>
            <input id="setting-value" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
          </div>
          <button type="submit" class="primary">
            Save
          </button>
        </div>
        {message && <Notice>{message}</Notice>}
      </form>
    </div>
  );
}

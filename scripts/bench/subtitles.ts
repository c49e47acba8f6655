/**
 * `npm run bench -- subtitles [--requests N] [--concurrency C]`: latency of the three diagnostics and of
 * the credential check, against the real server on a temporary data folder. Figures: scripts/bench/README.md.
 */
import { parseArgs } from 'node:util';
import { createApiKey } from '../../src/subtitles/domain/accounts';
import { authHeader, makeFixture, openStore, startServer } from '../../src/subtitles/test-support';

const { values } = parseArgs({ options: { requests: { type: 'string' }, concurrency: { type: 'string' } } });
const requests = Number(values.requests ?? 2000);
const concurrency = Number(values.concurrency ?? 8);

const fixture = makeFixture();
const store = openStore(fixture.dataDir);
const { key } = await createApiKey(store, 'bench');
await store.close();
const server = await startServer({ ...fixture.env, VALIDATE_RESPONSES: 'false' });

async function measure(name: string, path: string, headers: Record<string, string>, count = requests) {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next += 1;
      const t = performance.now();
      const res = await fetch(`${server.url}${path}`, { headers });
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const total = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p: number) =>
    (times[Math.min(times.length - 1, Math.floor(times.length * p))] ?? 0).toFixed(2);
  console.log(
    `${name.padEnd(34)} ${String(count).padStart(6)} req  ${(count / total).toFixed(0).padStart(6)} req/s  p50 ${pct(0.5)} ms  p95 ${pct(0.95)} ms`,
  );
}

try {
  console.log(`concurrency ${concurrency}`);
  await measure('GET Queue (admin key)', '/Plugins/Subtitles/Queue', authHeader(key));
  await measure('GET Queue (no credentials, 401)', '/Plugins/Subtitles/Queue', {});
  await measure(
    'GET Setup/InjectionStatus',
    '/Plugins/Subtitles/Setup/InjectionStatus',
    authHeader(key),
    Math.min(requests, 500),
  );
  await measure(
    'GET Setup/Status',
    '/Plugins/Subtitles/Setup/Status',
    authHeader(key),
    Math.min(requests, 200),
  );
} finally {
  await server.close();
  fixture.remove();
}

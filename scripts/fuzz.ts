/**
 * `npm run fuzz [-- --max-examples 20] [--seed 20261127] [--only fuel|archive|subtitles]`: the fuzz gate.
 * Schemathesis (pinned with hashes in python/requirements.txt, installed into .venv by
 * scripts/python-env.sh) runs every operation of the three bundled documents against the live servers,
 * positive and negative cases, with all of its checks (its default; a check turned off for one operation
 * in the configuration stays off, where `--checks all` would override it): no 5xx, responses and their status codes, content
 * types and headers as documented, schema-valid requests accepted and invalid ones refused. The servers run
 * on the demo data; fuel talks to fake routing, geocoding and exchange-rate upstreams on 127.0.0.1. The
 * archive is fuzzed as the master, as a viewer granted one chat and as a share link, each with its own
 * session; the two operations that end sessions run last. Per-service settings, each exception with its
 * reason, are in contract-tests/fuzz/<service>.toml. Prints the case counts of each run; exits 1 when
 * any run found a failure.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FIXTURE } from '../src/archive/demo/dataset';
import { startFakeTranscriptionServer } from '../src/archive/live/fake-transcription-server';
import { ROOT, SERVICES, type Service } from '../src/common/services';
import { startTestFuel } from '../src/fuel/testing/server';
import { startDemoServers } from './demo-servers';

const { values } = parseArgs({
  options: {
    'max-examples': { type: 'string', default: '20' },
    seed: { type: 'string', default: '20261127' },
    only: { type: 'string' },
  },
});

const usage = (why: string): never => {
  console.error(
    `npm run fuzz: ${why}\nusage: npm run fuzz [-- --max-examples N] [--seed N] [--only fuel|archive|subtitles]`,
  );
  process.exit(2);
};
if (values.only !== undefined && !(SERVICES as readonly string[]).includes(values.only)) {
  usage(`--only takes fuel, archive or subtitles, not ${values.only}`);
}
for (const name of ['max-examples', 'seed'] as const) {
  if (!/^\d+$/.test(values[name] ?? '') || Number(values[name]) < 1)
    usage(`--${name} takes a whole number from 1`);
}

interface Run {
  name: string;
  service: Service;
  url: string;
  env?: Record<string, string>;
  args?: string[];
}

interface Outcome {
  name: string;
  code: number;
  cases: string;
  failures: string;
  /** Schemathesis's own counts of cases (its "Test cases" line). */
  passed: number;
  failed: number;
}

/**
 * Schemathesis's case counts: `2975 generated, 2975 passed, 54 skipped`, or with failures
 * `3245 generated, 3 found 3 unique failures, 90 skipped` (the cases that did not fail passed).
 */
function caseCounts(line: string): { passed: number; failed: number } {
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
  const found = count('found');
  const failed = Number(/found (\d+) unique failures?/.exec(line)?.[1] ?? 0) + count('errored');
  const passed = /\d+ passed/.test(line) ? count('passed') : Math.max(0, count('generated') - found);
  return { passed, failed };
}

/** One Schemathesis run; its report goes to the terminal as it comes, its summary is kept. */
function schemathesis(run: Run): Promise<Outcome> {
  const args = [
    '--config-file',
    path.join(ROOT, 'contract-tests/fuzz', `${run.service}.toml`),
    'run',
    path.join(ROOT, 'generated', run.service, 'openapi.json'),
    '--url',
    run.url,
    '--phases',
    'examples,coverage,fuzzing',
    '--max-examples',
    values['max-examples'] ?? '20',
    '--seed',
    values.seed ?? '1',
    '--generation-deterministic',
    '--no-color',
    ...(run.args ?? []),
  ];
  console.log(`\n== ${run.name}`);
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, '.venv/bin/st'), args, {
      cwd: ROOT,
      env: { ...process.env, ...run.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const cases = /Test cases:\s*\n\s*(.+)/.exec(output)?.[1]?.trim() ?? 'no summary';
      resolve({
        name: run.name,
        code: code ?? 1,
        cases,
        failures: /^=+ (.+) in [\d.]+s =+$/m.exec(output)?.[1] ?? '',
        ...caseCounts(cases),
      });
    });
  });
}

async function post(url: string, body: unknown, cookie?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie && { cookie }) },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const session = /viewer_auth=[^;]+/.exec(res.headers.getSetCookie().join('\n'))?.[0];
  return { body: (await res.json()) as Record<string, unknown>, session };
}

/** A signed-in session token of the subtitles host's demo administrator (the recommended header). */
async function subtitlesSession(url: string, user: { username: string; password: string }) {
  const res = await fetch(`${url}/Users/AuthenticateByName`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'MediaServer Client="fuzz", Device="fuzz", DeviceId="fuzz-session", Version="1.0.0"',
    },
    body: JSON.stringify({ Username: user.username, Pw: user.password }),
  });
  if (res.status !== 200) throw new Error(`subtitles sign-in answered ${res.status}`);
  return ((await res.json()) as { AccessToken: string }).AccessToken;
}

/**
 * The subtitles operations that read or write the caller's own user: an API key is no user (the documented
 * 400, as the media server answers), so they are fuzzed with a signed-in administrator instead.
 */
const OWN_USER = [
  'getCurrentUser',
  'getDisplayPreferences',
  'updateDisplayPreferences',
  'getUserViews',
].flatMap((id) => ['--operation-id', id]);

/** The archive's three kinds of login: the master, a viewer granted one chat, a share link. */
async function archiveSessions(url: string, master: { username: string; password: string }) {
  const login = await post(`${url}/api/login`, master);
  if (!login.session) throw new Error('the master login set no cookie');
  const viewer = { username: 'fuzz-viewer', password: 'fuzz-viewer-passphrase' };
  await post(
    `${url}/api/admin/viewers`,
    { ...viewer, allowed_chat_refs: [FIXTURE.releaseCrew.ref] },
    login.session,
  );
  const viewerLogin = await post(`${url}/api/login`, viewer);
  const token = await post(
    `${url}/api/admin/tokens`,
    { label: 'fuzz', allowed_chat_refs: [FIXTURE.anna.ref] },
    login.session,
  );
  const shareLogin = await post(`${url}/auth/token`, { token: token.body.token });
  const value = (cookie?: string) => (cookie ?? '').replace(/^viewer_auth=/, '');
  return {
    master: value(login.session),
    viewer: value(viewerLogin.session),
    share: value(shareLogin.session),
  };
}

/**
 * Under `.ci/run` (SPECYARD_RESULTS, SPECYARD_STAGE) the cases counted for the run's last line; a run that
 * failed without a counted failure (it crashed, it found a failure its summary does not count) is one.
 */
function writeCounts(outcomes: Outcome[]): void {
  const dir = process.env.SPECYARD_RESULTS;
  if (!dir) return;
  let passed = 0;
  let failed = 0;
  for (const o of outcomes) {
    passed += o.passed;
    failed += o.code !== 0 && o.failed === 0 ? 1 : o.failed;
  }
  const file = path.join(dir, `${process.env.SPECYARD_STAGE ?? 'fuzz'}.counts.json`);
  writeFileSync(file, JSON.stringify({ passed, failed }));
}

const ENDING_SESSIONS = ['--exclude-operation-id', 'logout', '--exclude-operation-id', 'endAllSessions'];

execFileSync('bash', [path.join(ROOT, 'scripts/python-env.sh')], { stdio: 'inherit' });
// The pages' own routes (`GET /`, `/static/...`) answer as they do once built, not 503 `not built yet`.
execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build-web.ts'), '--if-stale'], {
  stdio: 'inherit',
});
// The seed's route limits (30, 30 and 10 requests a minute) would answer 429 to most cases and leave the
// routes' logic untested; the limits have tests of their own.
const fuel = await startTestFuel({
  configure: (config) => ({
    ...config,
    rateLimits: { ...config.rateLimits, route: 100_000, routeStations: 100_000, routeDetour: 100_000 },
  }),
});
// The archive with its optional routes on, so they are fuzzed as they answer when used: Web Push
// (`PUSH_NOTIFICATIONS=full`) and transcription with a webhook secret, against a fake transcription server.
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const transcription = await startFakeTranscriptionServer(WEBHOOK_SECRET);
const demo = await startDemoServers({
  env: {
    ARCHIVE_PUSH_NOTIFICATIONS: 'full',
    ARCHIVE_TRANSCRIPTION_ENABLED: 'true',
    ARCHIVE_TRANSCRIPTION_URL: transcription.url,
    ARCHIVE_TRANSCRIPTION_WEBHOOK_SECRET: WEBHOOK_SECRET,
  },
});
const outcomes: Outcome[] = [];
try {
  const sessions = await archiveSessions(demo.urls.archive, demo.credentials.archive);
  const subtitlesToken = await subtitlesSession(demo.urls.subtitles, demo.credentials.subtitles);
  const runs: Run[] = [
    { name: 'fuel', service: 'fuel', url: fuel.url },
    {
      name: 'subtitles (administrator API key)',
      service: 'subtitles',
      url: demo.urls.subtitles,
      env: { SUBTITLES_API_KEY: demo.credentials.subtitles.apiKey },
      args: OWN_USER.map((arg) => (arg === '--operation-id' ? '--exclude-operation-id' : arg)),
    },
    {
      name: 'subtitles (signed-in administrator, own user)',
      service: 'subtitles',
      url: demo.urls.subtitles,
      env: { SUBTITLES_API_KEY: subtitlesToken },
      args: OWN_USER.map((arg) => (arg === '--operation-id' ? '--include-operation-id' : arg)),
    },
    {
      name: 'archive as the master',
      service: 'archive',
      url: demo.urls.archive,
      env: { ARCHIVE_SESSION: sessions.master },
      args: ENDING_SESSIONS,
    },
    {
      name: 'archive as a viewer granted one chat',
      service: 'archive',
      url: demo.urls.archive,
      env: { ARCHIVE_SESSION: sessions.viewer },
      args: ENDING_SESSIONS,
    },
    {
      name: 'archive as a share link',
      service: 'archive',
      url: demo.urls.archive,
      env: { ARCHIVE_SESSION: sessions.share },
      args: ENDING_SESSIONS,
    },
    {
      name: 'archive: the operations that end sessions, as the master',
      service: 'archive',
      url: demo.urls.archive,
      env: { ARCHIVE_SESSION: sessions.master },
      args: ['--include-operation-id', 'logout', '--include-operation-id', 'endAllSessions'],
    },
  ];
  for (const run of runs) {
    if (values.only && run.service !== values.only) continue;
    outcomes.push(await schemathesis(run));
  }
} finally {
  await Promise.all([fuel.close(), demo.close(), transcription.close()]);
}

console.log('\nfuzz gate:');
writeCounts(outcomes);
for (const o of outcomes)
  console.log(`- ${o.name}: ${o.cases}; ${o.code === 0 ? 'passed' : `FAILED (${o.failures})`}`);
process.exit(outcomes.length > 0 && outcomes.every((o) => o.code === 0) ? 0 : 1);

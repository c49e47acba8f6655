import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './common/testing/ports';
import { MARKER, planFirstRun } from './first-run';

const ROOT = path.resolve(import.meta.dirname, '..');
const folders: string[] = [];
const children: ChildProcess[] = [];

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'first-run-'));
  folders.push(dir);
  return dir;
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('planFirstRun', () => {
  it('is demo mode only when asked, on an empty data folder with nothing configured', () => {
    const dir = folder();
    expect(planFirstRun({ DATA_DIR: dir }, true)).toEqual({ mode: 'demo', dataDir: dir, seed: true });
    expect(planFirstRun({ DATA_DIR: dir }, false).mode).toBe('normal');
  });

  it.each([
    ['DATABASE_URL', 'postgres://db/fuel'],
    ['FUEL_DATABASE_URL', 'file:./x.db'],
    ['ARCHIVE_DATABASE_URL', 'postgresql://db/archive'],
    ['VIEWER_USERNAME', 'admin'],
    ['ARCHIVE_VIEWER_PASSWORD', 'secret'],
    ['AUTH_PROXY_HEADER', 'X-User'],
    ['DB_TYPE', 'postgresql'],
    ['NODE_ENV', 'production'],
  ])('never with %s set', (name, value) => {
    const plan = planFirstRun({ DATA_DIR: folder(), [name]: value }, true);
    expect(plan.mode).toBe('normal');
  });

  it('never over databases the demo did not create; again (without reloading) over its own', () => {
    const used = folder();
    writeFileSync(path.join(used, 'fuel.db'), '');
    expect(planFirstRun({ DATA_DIR: used }, true)).toMatchObject({ mode: 'normal' });
    const demo = folder();
    writeFileSync(path.join(demo, 'fuel.db'), '');
    writeFileSync(path.join(demo, MARKER), '{}');
    expect(planFirstRun({ DATA_DIR: demo }, true)).toEqual({ mode: 'demo', dataDir: demo, seed: false });
  });
});

interface Started {
  out: string;
  ports: { subtitles: number; fuel: number; archive: number };
  child: ChildProcess;
}

/** Starts a composition and resolves once its banner is printed (the line after the last service). */
async function startAll(
  args: string[],
  dataDir: string,
  extra: Record<string, string> = {},
): Promise<Started> {
  const ports = { subtitles: await freePort(), fuel: await freePort(), archive: await freePort() };
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      SUBTITLES_PORT: String(ports.subtitles),
      FUEL_PORT: String(ports.fuel),
      VIEWER_PORT: String(ports.archive),
      LOG_LEVEL: 'warn',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Ctrl-C stops everything.')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}${out}`)));
  });
  return { out, ports, child };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

async function stationCount(port: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/stations?bbox=-10,36,4,44&fuel=B7`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { features: unknown[] }).features.length;
}

describe('npm start (src/main.ts --first-run)', () => {
  it('loads every service’s demo data with generated logins that work, and says so', async () => {
    const dataDir = folder();
    const { out, ports, child } = await startAll(['--import', 'tsx', 'src/main.ts', '--first-run'], dataDir);
    expect(out).toContain('FIRST-RUN DEMO MODE');
    expect(out.match(/\[demo data\]/g)).toHaveLength(3);
    expect(await stationCount(ports.fuel)).toBeGreaterThan(0);

    const archivePassword = /log in: demo \/ (\S+)/.exec(out)?.[1];
    const login = await fetch(`http://127.0.0.1:${ports.archive}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: archivePassword }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
    const chats = await fetch(`http://127.0.0.1:${ports.archive}/api/chats`, { headers: { cookie } });
    expect(((await chats.json()) as { chats: unknown[] }).chats.length).toBeGreaterThan(0);

    const apiKey = /API key: (\S+)/.exec(out)?.[1];
    const queue = await fetch(`http://127.0.0.1:${ports.subtitles}/Plugins/Subtitles/Queue`, {
      headers: { Authorization: `MediaServer Token="${apiKey}"` },
    });
    expect(queue.status).toBe(200);
    // The subtitles demo is whole: its address opens the web client, which holds the client script (the
    // page found its index.html), and the library scan finds the media folder.
    const root = await fetch(`http://127.0.0.1:${ports.subtitles}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/web/index.html']);
    const client = await fetch(`http://127.0.0.1:${ports.subtitles}/web/index.html`);
    expect(await client.text()).toContain('configurationpage?name=subtitles.js');
    const auth = { Authorization: `MediaServer Token="${apiKey}"`, 'content-type': 'application/json' };
    const injection = await fetch(
      `http://127.0.0.1:${ports.subtitles}/Plugins/Subtitles/Setup/InjectionStatus`,
      {
        headers: auth,
      },
    );
    expect(((await injection.json()) as { Level: string }).Level).not.toBe('error');
    const scan = await fetch(`http://127.0.0.1:${ports.subtitles}/Plugins/Subtitles/Queue/Scan`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ language: 'en' }),
    });
    expect(scan.status).toBe(202);
    expect(await stop(child)).toBe(0);

    // A second start in the same folder stays in demo mode, with the same logins, loading nothing twice.
    const again = await startAll(['--import', 'tsx', 'src/main.ts', '--first-run'], dataDir);
    expect(again.out).toContain(`log in: demo / ${archivePassword}`);
    expect(again.out).toContain(`API key: ${apiKey}`);
    expect(await stop(again.child)).toBe(0);
  }, 120_000);

  it('the image’s `specyard all` never loads demo data, even on an empty data folder', async () => {
    const dataDir = folder();
    const { out, ports, child } = await startAll(['bin/specyard.js', 'all'], dataDir);
    expect(out).not.toContain('DEMO');
    expect(out).toMatch(/fuel +\S+ +\[empty\]/);
    expect(out).toMatch(/archive +\S+ +\[empty\]/);
    expect(await stationCount(ports.fuel)).toBe(0);
    expect(existsSync(path.join(dataDir, MARKER))).toBe(false);
    expect(await stop(child)).toBe(0);
  }, 120_000);

  it('with the flag but a database configured, loads nothing', async () => {
    const dataDir = folder();
    mkdirSync(path.join(dataDir, 'elsewhere'));
    const { out, ports, child } = await startAll(['--import', 'tsx', 'src/main.ts', '--first-run'], dataDir, {
      FUEL_DATABASE_URL: `file:${path.join(dataDir, 'elsewhere', 'fuel.db')}`,
    });
    expect(out).not.toContain('DEMO');
    expect(await stationCount(ports.fuel)).toBe(0);
    expect(existsSync(path.join(dataDir, MARKER))).toBe(false);
    expect(await stop(child)).toBe(0);
  }, 120_000);
});

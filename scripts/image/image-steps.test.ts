/**
 * The image's build and run steps, performed outside a container (no Docker engine runs here): a clean copy
 * of the tree, the Dockerfile's own build-stage commands, the runtime stage's COPY list, then each server
 * of compose.yaml started from that pruned tree as uid 1000 with only the data folder writable, and the
 * image's health check run against it. A production dependency missing from package.json, a file the
 * compiled code needs but the image lacks, or a write outside /data makes a service fail here.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../src/common/services';
import { envPairs, ownServices, readCompose, readDockerfile } from './files';

const UID = 1000;
const stages = readDockerfile();
const [build, runtime] = [stages[0], stages.at(-1)];
const work = mkdtempSync(path.join(os.tmpdir(), 'specyard-image-'));
const app = path.join(work, 'build');
const image = path.join(work, 'app');
const data = path.join(work, 'data');

/** The tree `COPY . .` would send: what git tracks or would track, less what .dockerignore leaves out. */
function cleanCopy(): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (!existsSync(path.join(ROOT, file))) continue;
    mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(app, file));
  }
}

const imageEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(
      Object.assign(
        {},
        ...(runtime?.instructions ?? []).filter((i) => i.keyword === 'ENV').map((i) => envPairs(i.args)),
      ) as Record<string, string>,
    ).map(([k, v]) => [k, v.replace(/^\/data/, data)]),
  );

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A command run in the image as uid 1000. */
function asImageUser(args: string[], env: Record<string, string>) {
  return spawn('setpriv', [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', process.execPath, ...args], {
    cwd: image,
    env: { PATH: process.env.PATH ?? '', HOME: data, ...imageEnv(), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

const entry = path.join(image, 'bin', 'specyard.js');

beforeAll(() => {
  cleanCopy();
  // The build stage's own commands (system packages aside), in order, in the copy.
  for (const run of (build?.instructions ?? []).filter((i) => i.keyword === 'RUN')) {
    if (run.args.startsWith('apt-get')) continue;
    execFileSync('bash', ['-c', run.args], { cwd: app, stdio: 'pipe', env: { ...process.env, CI: 'true' } });
  }
  // The runtime stage's COPY list: root-owned and not writable by uid 1000, as a read-only root would be.
  for (const copy of (runtime?.instructions ?? []).filter((i) => i.keyword === 'COPY')) {
    const [from = '', to = ''] = copy.args.replace(/^--from=\S+ /, '').split(' ');
    const source = path.join(app, from.replace(/^\/app\/?/, ''));
    const target = to.endsWith('/') ? path.join(image, to, path.basename(source)) : path.join(image, to);
    cpSync(source, target, { recursive: true });
  }
  chmodSync(work, 0o755);
  execFileSync('chmod', ['-R', 'go-w', image]);
  mkdirSync(path.join(data, 'tmp'), { recursive: true });
  chownSync(data, UID, UID);
  chownSync(path.join(data, 'tmp'), UID, UID);
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the image built outside a container', () => {
  it('carries compiled JavaScript and production dependencies only', () => {
    expect(existsSync(path.join(image, 'dist', 'server', 'main.js'))).toBe(true);
    expect(existsSync(path.join(image, 'node_modules', 'express'))).toBe(true);
    expect(existsSync(path.join(image, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(path.join(image, 'node_modules', 'vitest'))).toBe(false);
    const sources = execFileSync('find', [path.join(image, 'src'), '-name', '*.ts'], { encoding: 'utf8' });
    expect(sources.trim()).toBe('');
  });

  it('archive: imports a large export, read on the compiled reader thread', async () => {
    // Big enough that the import reads it on its own thread (desktop-json-thread.ts).
    const count = 40_000;
    const messages = Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      type: 'message',
      date: '2024-03-01T10:00:00',
      date_unixtime: String(1709287200 + i),
      from: 'Member',
      from_id: 'user42',
      text: `message number ${i + 1} of the large export`,
    }));
    const folder = path.join(work, 'large-export');
    mkdirSync(folder);
    writeFileSync(
      path.join(folder, 'result.json'),
      JSON.stringify({ name: 'Large', type: 'private_supergroup', id: 9, messages }),
    );
    chmodSync(work, 0o755);
    const env = { DATABASE_PATH: path.join(data, 'large-export.db') };
    expect(await exitOf(asImageUser([entry, 'archive', 'migrate'], env))).toBe(0);
    const importing = asImageUser([entry, 'archive', 'import', '-p', folder, '--skip-media'], env);
    let output = '';
    importing.stdout?.on('data', (chunk) => (output += chunk));
    importing.stderr?.on('data', (chunk) => (output += chunk));
    expect(await exitOf(importing), output).toBe(0);
    expect(output).toContain(`Messages: ${count}`);
  }, 120_000);

  const servers = ownServices(readCompose()).filter(([, s]) => s.command?.[1] === 'serve');
  const portVariable: Record<string, string> = {
    fuel: 'FUEL_PORT',
    archive: 'VIEWER_PORT',
    subtitles: 'SUBTITLES_PORT',
  };

  for (const [name, service] of servers) {
    const [svc = '', command = ''] = service.command ?? [];
    it(`${name}: starts as uid ${UID} writing only under the data folder, passes its health check, serves its page, stops on SIGTERM`, async () => {
      const env: Record<string, string> = { [portVariable[svc] ?? 'PORT']: String(await freePort()) };
      // The viewer is ready once it has a schema and a login mode (the compose files set both).
      if (svc === 'archive')
        Object.assign(env, { VIEWER_USERNAME: 'admin', VIEWER_PASSWORD: 'image-test-pass' });
      if (svc === 'archive') {
        const migrate = asImageUser([entry, 'archive', 'migrate'], env);
        expect(await exitOf(migrate)).toBe(0);
      }
      const server = asImageUser([entry, svc, command], env);
      let output = '';
      server.stdout?.on('data', (chunk) => (output += chunk));
      server.stderr?.on('data', (chunk) => (output += chunk));
      const exited = exitOf(server);
      let healthy = false;
      for (let attempt = 0; attempt < 60 && !healthy && server.exitCode === null; attempt++) {
        const check = spawnSync(
          'setpriv',
          [
            `--reuid=${UID}`,
            `--regid=${UID}`,
            '--clear-groups',
            process.execPath,
            entry,
            'healthcheck',
            svc,
            command,
          ],
          { cwd: image, env: { PATH: process.env.PATH ?? '', ...imageEnv(), ...env }, timeout: 15_000 },
        );
        healthy = check.status === 0;
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      // Each server's page, from the image's own file layout (web/dist built in the build stage).
      const port = env[portVariable[svc] ?? 'PORT'];
      const pagePath = svc === 'subtitles' ? '/web/configurationpage?name=subtitles.html' : '/';
      if (healthy) {
        const page = await fetch(`http://127.0.0.1:${port}${pagePath}`);
        expect(page.status, `${pagePath} of ${name}`).toBe(200);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect(await page.text()).toMatch(/<script type="module"[^>]* src="[^"]+"/);
      }
      if (svc === 'fuel') {
        // The scrapers run on a worker thread whose compiled entry point must load from the image too.
        for (let i = 0; i < 80 && !/scrape thread (started|failed)/.test(output); i++) {
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        expect(output).toContain('[scraper] scrape thread started');
      }
      server.kill('SIGTERM');
      const code = await exited;
      expect(healthy, output).toBe(true);
      expect(code, output).toBe(0);
      expect(output).not.toMatch(/EACCES|EROFS/);
    }, 120_000);
  }

  it('archive viewer started as the README shows it, with no migrate and no login: its health check says not ready, and why', async () => {
    const env = { VIEWER_PORT: String(await freePort()), DATABASE_PATH: path.join(data, 'unready.db') };
    const server = asImageUser([entry, 'archive', 'serve'], env);
    let output = '';
    server.stdout?.on('data', (chunk) => (output += chunk));
    server.stderr?.on('data', (chunk) => (output += chunk));
    const exited = exitOf(server);
    for (let i = 0; i < 240 && !output.includes('viewer listening') && server.exitCode === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const check = spawnSync(
      'setpriv',
      [
        `--reuid=${UID}`,
        `--regid=${UID}`,
        '--clear-groups',
        process.execPath,
        entry,
        'healthcheck',
        'archive',
        'serve',
      ],
      {
        cwd: image,
        env: { PATH: process.env.PATH ?? '', ...imageEnv(), ...env },
        timeout: 15_000,
        encoding: 'utf8',
      },
    );
    server.kill('SIGTERM');
    await exited;
    expect(check.status, output).not.toBe(0);
    expect(`${check.stdout}${check.stderr}`).toMatch(/503|schema|login/i);
  }, 120_000);
});

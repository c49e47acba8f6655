/**
 * Fixtures for the subtitles tests: temporary folders, tiny media made with ffmpeg, a stand-in
 * `whisper-cli` that writes an SRT, and the real server started on port 0.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../common/logger';
import { createApiKey, createUser, revokeApiKey } from './domain/accounts';
import { hostProbe, type Probe } from './domain/probe';
import { start } from './main';
import { databasePath, openSqliteStore, type SqliteStore } from './store/sqlite';

export interface Fixture {
  root: string;
  dataDir: string;
  webDir: string;
  mediaDir: string;
  binDir: string;
  env: Record<string, string>;
  remove(): void;
}

export const INDEX_HTML =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Media Server</title>\n</head>\n<body>\n<div id="app"></div>\n</body>\n</html>\n';

export function makeFixture(): Fixture {
  const root = mkdtempSync(path.join(tmpdir(), 'subtitles-test-'));
  const dirs = {
    dataDir: path.join(root, 'data'),
    webDir: path.join(root, 'web'),
    mediaDir: path.join(root, 'media'),
    binDir: path.join(root, 'bin'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dirs.webDir, 'index.html'), INDEX_HTML);
  return {
    root,
    ...dirs,
    env: {
      SUBTITLES_PORT: '0',
      SUBTITLES_HOST: '127.0.0.1',
      SUBTITLES_DATA_DIR: dirs.dataDir,
      SUBTITLES_WEB_DIR: dirs.webDir,
      SUBTITLES_MEDIA_DIR: dirs.mediaDir,
      SUBTITLES_FFMPEG: '/usr/bin/ffmpeg',
      SUBTITLES_JOB_TIMEOUT_SECONDS: '60',
      VALIDATE_RESPONSES: 'true',
      LOG_LEVEL: 'silent',
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A second of sound (and a tiny picture for video containers), made by ffmpeg. */
export function makeMedia(file: string, seconds = 1): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const video = /\.(mkv|mp4|webm|mov|avi)$/i.test(file)
    ? ['-f', 'lavfi', '-i', `color=c=black:s=32x32:r=1:d=${seconds}`]
    : [];
  execFileSync(
    '/usr/bin/ffmpeg',
    [
      '-nostdin',
      '-v',
      'error',
      '-y',
      ...video,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      '-shortest',
      file,
    ],
    { stdio: 'ignore' },
  );
  return file;
}

export interface StandIn {
  /** The executable. */
  path: string;
  /** One line per run: the arguments it got. */
  log: string;
  /** While this file exists, a run waits before writing its SRT. */
  hold: string;
  /** A copy of the last WAV it was given. */
  lastWav: string;
}

/** A stand-in `whisper-cli`: honours `-f`, `-l`, `-of` and `-osrt`, writes `<of>.srt`, or exits with `exitCode`. */
export function writeStandInWhisper(
  dir: string,
  options: { exitCode?: number; name?: string } = {},
): StandIn {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, options.name ?? 'whisper-cli');
  const log = path.join(dir, 'runs.log');
  const hold = path.join(dir, 'hold');
  const lastWav = path.join(dir, 'last.wav');
  const failure =
    options.exitCode === undefined ? '' : `echo "stand-in failure" >&2\nexit ${options.exitCode}\n`;
  writeFileSync(
    file,
    `#!/bin/sh
[ "$1" = "--help" ] && { echo "usage: whisper-cli [options] file0 file1 ..."; exit 0; }
echo "$*" >> '${log}'
out=""; lang=""; wav=""
while [ $# -gt 0 ]; do
  case "$1" in
    -of) out="$2"; shift 2 ;;
    -l) lang="$2"; shift 2 ;;
    -f) wav="$2"; shift 2 ;;
    *) shift ;;
  esac
done
${failure}while [ -e '${hold}' ]; do sleep 0.05; done
[ -s "$wav" ] || { echo "error: failed to read audio file '$wav'" >&2; exit 3; }
cp "$wav" '${lastWav}'
printf '1\\n00:00:00,000 --> 00:00:01,000\\n[%s] stand-in transcript\\n\\n' "$lang" > "$out.srt"
`,
  );
  chmodSync(file, 0o755);
  return { path: file, log, hold, lastWav };
}

/** A model file for the engine to be pointed at (its content does not matter to the stand-in). */
export function writeModel(dataDir: string, name = 'ggml-tiny.bin', size = 1024): string {
  const dir = path.join(dataDir, 'whisper', 'models');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, Buffer.alloc(size));
  return file;
}

export interface Server {
  url: string;
  origin: string;
  close(): Promise<void>;
}

/** Starts the real server; the machine probe sees nothing on PATH, so results do not depend on it. */
export async function startServer(
  env: Record<string, string>,
  options: { probe?: Probe; webDist?: string } = {},
): Promise<Server> {
  const server = await start(env, {
    logger: silentLogger(),
    probe: options.probe ?? hostProbe({ run: async () => ({ code: null, stdout: '' }) }),
    ...(options.webDist !== undefined && { webDist: options.webDist }),
  });
  return { ...server, origin: new URL(server.url).origin };
}

/** A connection to a fixture's database, as the command line opens it. */
export const openStore = (dataDir: string): SqliteStore => openSqliteStore(databasePath(dataDir));

export async function seedAccounts(dataDir: string): Promise<{ adminKey: string; revokedKey: string }> {
  const store = openStore(dataDir);
  try {
    const { key: adminKey } = await createApiKey(store, 'tests');
    const { key: revokedKey } = await createApiKey(store, 'revoked');
    await revokeApiKey(store, revokedKey);
    await createUser(store, { name: 'admin', password: 'correct horse battery staple', isAdmin: true });
    await createUser(store, { name: 'viewer', password: 'viewer password', isAdmin: false });
    return { adminKey, revokedKey };
  } finally {
    await store.close();
  }
}

/** Polls until `check` returns a value (not undefined), or fails after `ms`. */
export async function waitFor<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const authHeader = (token: string) => ({ Authorization: `MediaServer Token="${token}"` });

/** A real server over a seeded fixture of its own (accounts of seedAccounts); closing it removes the fixture. */
export async function startSeededServer(
  env: Record<string, string> = {},
  options: { webDist?: string } = {},
): Promise<Server & { adminKey: string }> {
  const fixture = makeFixture();
  const { adminKey } = await seedAccounts(fixture.dataDir);
  const server = await startServer({ ...fixture.env, ...env }, options);
  return {
    ...server,
    adminKey,
    close: async () => {
      await server.close();
      fixture.remove();
    },
  };
}

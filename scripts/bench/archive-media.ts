// `npm run bench -- archive media [--messages 200000] [--backend sqlite|postgresql] [--runs 15]`
// (scripts/bench/archive-media.ts): the media side of the viewer, through the real app on
// 127.0.0.1. Thumbnails: first generation (cache removed before each run) and cached answers, for a
// 4000x3000 JPEG and a 1080p video's first frame. Export: one chat of 200,000 messages (with 2,000 edit
// versions) streamed to the client, its time and the viewer process's peak RSS (the archive is written by a
// child process, so the figure is the viewer's own). Range requests: a 50 MB video read as 1 MB ranges in
// order and as 256 KiB ranges at random offsets. Figures are kept in scripts/bench/README.md. Not a test.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { loadConfig } from '../../src/archive/config';
import { createArchiveApp } from '../../src/archive/http/app';
import { mediaFilePath } from '../../src/archive/model/media-layout';
import type { DatabaseConfig } from '../../src/archive/store/config';
import { migrateOpenStore } from '../../src/archive/store/migrate';
import { openArchiveStore } from '../../src/archive/store/open';
import type { Backend } from '../../src/archive/store/store';
import { createTestDatabase } from '../../src/archive/store/testing/databases';
import type { NewMessage } from '../../src/archive/store/writer';
import { silentLogger } from '../../src/common/logger';
import { listen } from '../../src/common/serve';

const { values } = parseArgs({
  strict: false,
  options: {
    messages: { type: 'string', default: '200000' },
    backend: { type: 'string', default: 'sqlite' },
    runs: { type: 'string', default: '15' },
    'seed-into': { type: 'string' },
    'seed-backups': { type: 'string' },
  },
});
const MESSAGES = Number(values.messages);
const RUNS = Number(values.runs);
const CHAT = { accountId: 1, id: -1009000000001, ref: 'BenchMediaChat00000001' };
const VIDEO_ID = 1;
const PHOTO_ID = 2;
const BIG_ID = 3;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Runs in a child process: writes the archive and the media files, so the viewer's RSS is its own. */
async function seed(config: DatabaseConfig, backups: string): Promise<void> {
  const db = await openArchiveStore(config, silentLogger());
  await migrateOpenStore(db, silentLogger());
  await db.upsertAccount({ id: 1 });
  await db.upsertChat({ accountId: 1, id: CHAT.id, type: 'supergroup', title: 'Bench chat', ref: CHAT.ref });
  const start = Date.UTC(2024, 0, 1);
  for (let first = 1; first <= MESSAGES; first += 5000) {
    const batch: NewMessage[] = [];
    for (let id = first; id < Math.min(first + 5000, MESSAGES + 1); id++) {
      batch.push({
        accountId: 1,
        chatId: CHAT.id,
        id,
        senderId: 1000 + (id % 40),
        senderName: `Member ${id % 40}`,
        date: new Date(start + id * 60_000),
        text: `Message ${id}: the quick brown fox jumps over the lazy dog, again and again (${id % 97}).`,
      });
    }
    await db.upsertMessages(batch);
  }
  for (let id = 10; id <= MESSAGES && id <= 20_000; id += 10) {
    await db.editMessage({
      accountId: 1,
      chatId: CHAT.id,
      messageId: id,
      text: `Message ${id}, edited`,
      editDate: new Date(start + id * 60_000 + 30_000),
      source: 'listener',
    });
  }
  const place = async (messageId: number, type: string, ext: string, bytes: Buffer | null, mime: string) => {
    const rel = mediaFilePath(1, CHAT.id, messageId, type, ext);
    await mkdir(path.dirname(path.join(backups, rel)), { recursive: true });
    if (bytes) await writeFile(path.join(backups, rel), bytes);
    await db.upsertMedia({
      accountId: 1,
      chatId: CHAT.id,
      messageId,
      type,
      filePath: rel,
      mimeType: mime,
      downloaded: true,
    });
    return path.join(backups, rel);
  };
  const video = await place(VIDEO_ID, 'video', '.mp4', null, 'video/mp4');
  const made = spawnSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1920x1080:rate=25:duration=2',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    video,
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg failed: ${made.stderr}`);
  const noise = await sharp(randomBytes(400 * 300 * 3), { raw: { width: 400, height: 300, channels: 3 } })
    .resize(4000, 3000, { kernel: 'cubic' })
    .jpeg({ quality: 85 })
    .toBuffer();
  await place(PHOTO_ID, 'photo', '.jpg', noise, 'image/jpeg');
  await place(BIG_ID, 'video_note', '.mp4', randomBytes(50 * 1024 * 1024), 'video/mp4');
  await db.close();
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function main(backend: Backend): Promise<void> {
  const database = await createTestDatabase(backend);
  const backups = await mkdtemp(path.join(tmpdir(), 'archive-media-bench-'));
  try {
    const t0 = performance.now();
    const child = spawnSync(
      process.execPath,
      [
        ...process.execArgv,
        process.argv[1] ?? '',
        '--messages',
        String(MESSAGES),
        '--seed-into',
        JSON.stringify(database.config),
        '--seed-backups',
        backups,
      ],
      { stdio: 'inherit' },
    );
    if (child.status !== 0) throw new Error('seeding failed');
    console.log(
      `${backend}: wrote ${MESSAGES} messages and the media in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );

    const config = loadConfig({
      VIEWER_USERNAME: 'admin',
      VIEWER_PASSWORD: 'bench-password-1',
      BACKUP_PATH: backups,
      VALIDATE_RESPONSES: 'false',
    });
    const store = await openArchiveStore(database.config, silentLogger());
    const { app, wiring } = createArchiveApp({ config, store, logger: silentLogger() });
    const server = await listen(app, 0);
    const login = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'bench-password-1' }),
    });
    const cookie = login.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const get = (route: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${route}`, { headers: { cookie, ...headers } });
    const drain = async (res: Response) => {
      let bytes = 0;
      for await (const chunk of res.body ?? []) bytes += (chunk as Uint8Array).length;
      return bytes;
    };

    // Export first, so the RSS figure is the export's and not the image decoder's.
    global.gc?.();
    const before = process.memoryUsage().rss;
    let exported = 0;
    // The client is curl in its own process, so the RSS below is the viewer's alone.
    const exportMs = await timed(async () => {
      const out = await new Promise<string>((resolve, reject) => {
        const curl = spawn('curl', [
          '-s',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code} %{size_download}',
          '-H',
          `Cookie: ${cookie}`,
          `${server.url}/api/chats/${CHAT.ref}/export`,
        ]);
        let text = '';
        curl.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        curl.on('error', reject);
        curl.on('close', () => resolve(text));
      });
      const [status, bytes] = out.split(' ');
      if (status !== '200') throw new Error(`export answered ${status}`);
      exported = Number(bytes);
    });
    const peak = process.resourceUsage().maxRSS / 1024;
    console.log(
      `${backend}: export of ${MESSAGES} messages: ${(exportMs / 1000).toFixed(1)} s, ` +
        `${(exported / 1048576).toFixed(0)} MB sent, peak RSS ${peak.toFixed(0)} MB ` +
        `(${(before / 1048576).toFixed(0)} MB before the export)`,
    );

    for (const [label, key] of [
      ['4000x3000 JPEG', `${PHOTO_ID}_photo`],
      ['1080p video frame', `${VIDEO_ID}_video`],
    ] as const) {
      const route = `/media/thumb/200/${CHAT.ref}/${key}`;
      const first: number[] = [];
      const cached: number[] = [];
      const cacheDir = path.join(backups, String(CHAT.id), '.thumbs');
      for (let i = 0; i < RUNS; i++) {
        await rm(cacheDir, { recursive: true, force: true });
        first.push(await timed(async () => drain(await get(route))));
        cached.push(await timed(async () => drain(await get(route))));
      }
      console.log(
        `${backend}: thumbnail of a ${label}: first p50 ${ms(p50(first))}, cached p50 ${ms(p50(cached))}`,
      );
    }
    console.log(`${backend}: thumbnails made: ${wiring.thumbnails.generations}`);

    const big = `/media/${CHAT.ref}/${BIG_ID}_video_note`;
    const size = 50 * 1024 * 1024;
    const seqMs = await timed(async () => {
      for (let at = 0; at < size; at += 1048576) {
        const res = await get(big, { range: `bytes=${at}-${at + 1048575}` });
        if (res.status !== 206) throw new Error(`range answered ${res.status}`);
        await drain(res);
      }
    });
    const randomRanges = 200;
    const randMs = await timed(async () => {
      for (let i = 0; i < randomRanges; i++) {
        const at = Math.floor(Math.random() * (size - 262144));
        await drain(await get(big, { range: `bytes=${at}-${at + 262143}` }));
      }
    });
    const wholeMs = await timed(async () => drain(await get(big)));
    console.log(
      `${backend}: 50 MB video: 1 MB ranges in order ${(50 / (seqMs / 1000)).toFixed(0)} MB/s ` +
        `(${ms(seqMs / 50)} per range), random 256 KiB ranges ${ms(randMs / randomRanges)} each, ` +
        `whole file ${(50 / (wholeMs / 1000)).toFixed(0)} MB/s`,
    );
    await server.close();
    await store.close();
  } finally {
    await database.drop();
    await rm(backups, { recursive: true, force: true });
  }
}

if (typeof values['seed-into'] === 'string' && typeof values['seed-backups'] === 'string') {
  await seed(JSON.parse(values['seed-into']) as DatabaseConfig, values['seed-backups']);
} else {
  await main(values.backend as Backend);
}

// `npm run bench -- archive backup [--messages 1000000] [--chats 20] [--backend sqlite|postgresql|both]`
// A history of N messages (spread over the chats, one chat holding half of them, every 50th message with a
// reaction) backed up from the fake platform by the real engine into an empty archive: the first full
// run, then an incremental run with nothing new. Each backend runs in a process of its own, so its peak
// resident memory (maxRSS, Node's own ~80 MB included) belongs to that backup alone. The fake platform
// makes messages on demand, so the history itself is not held in memory. No media downloads (files would
// measure the disk). Not a test: the figures go to scripts/bench/README.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadBackupConfig } from '../../src/archive/backup/config';
import { runBackup } from '../../src/archive/backup/engine';
import { FakePlatform } from '../../src/archive/backup/fake-platform';
import { createArchiveStore } from '../../src/archive/store/archive-store';
import { backupState } from '../../src/archive/store/backup-state';
import { migrateOpenStore } from '../../src/archive/store/migrate';
import { openDriver } from '../../src/archive/store/open';
import type { Backend } from '../../src/archive/store/store';
import { createTestDatabase } from '../../src/archive/store/testing/databases';
import { silentLogger } from '../../src/common/logger';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '1000000' },
    chats: { type: 'string', default: '20' },
    backend: { type: 'string', default: 'both' },
    child: { type: 'string' },
  },
});
const TOTAL = Number(values.messages);
const CHATS = Number(values.chats);

const WORDS = ['release', 'build', 'lake', 'coffee', 'review', 'deploy', 'notes', 'swim', 'docs', 'friday'];

function chatSizes(): number[] {
  const big = Math.floor(TOTAL / 2);
  const rest = TOTAL - big;
  const others = Array.from(
    { length: CHATS - 1 },
    (_, i) => Math.floor(rest / (CHATS - 1)) + (i < rest % (CHATS - 1) ? 1 : 0),
  );
  return [big, ...others];
}

async function child(backend: Backend): Promise<void> {
  const db = await createTestDatabase(backend);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-backup-bench-'));
  const logger = silentLogger();
  const driver = openDriver(db.config, logger);
  const store = createArchiveStore(driver);
  try {
    await migrateOpenStore(store, logger);
    const platform = new FakePlatform();
    const phone = '+15550000';
    platform.addAccount(phone, { id: 4242 });
    const t0 = Date.UTC(2024, 0, 1);
    for (const [i, size] of chatSizes().entries()) {
      const chatId = -1_000_000_000_000 - (i + 1);
      platform.addGeneratedChat(
        phone,
        { id: chatId, type: 'supergroup', title: `Chat ${i + 1}` },
        size,
        (id) => ({
          chatId,
          id,
          date: new Date(t0 + id * 60_000),
          senderId: 1000 + (id % 37),
          senderName: `Member ${id % 37}`,
          text: `${WORDS[id % WORDS.length]} ${WORDS[(id * 7) % WORDS.length]} message ${id}`,
          ...(id % 50 === 0 && { reactions: [{ emoji: '👍', count: 1 + (id % 5) }] }),
        }),
      );
    }
    const config = {
      ...loadBackupConfig({ MSGR_ACCOUNT_1_PHONE: phone, DOWNLOAD_MEDIA: 'false' }),
      database: db.config,
      backupPath: dir,
    };
    const deps = { config, platform, store, state: backupState(driver), logger };
    const started = performance.now();
    const [first] = await runBackup(deps);
    const firstSeconds = (performance.now() - started) / 1000;
    const again = performance.now();
    const [second] = await runBackup(deps);
    const secondSeconds = (performance.now() - again) / 1000;
    const result = {
      backend,
      messages: first?.messages ?? 0,
      firstSeconds,
      perSecond: Math.round((first?.messages ?? 0) / firstSeconds),
      incrementalSeconds: secondSeconds,
      incrementalMessages: second?.messages ?? 0,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    console.log(JSON.stringify(result));
  } finally {
    await store.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (values.child) {
  await child(values.child as Backend);
} else {
  const backends: Backend[] =
    values.backend === 'both' ? ['sqlite', 'postgresql'] : [values.backend as Backend];
  console.log(`Backing up ${TOTAL.toLocaleString('en')} messages in ${CHATS} chats from the fake platform`);
  console.log('| backend | messages | first run | messages/s | incremental run (nothing new) | peak RSS |');
  console.log('|---|---|---|---|---|---|');
  for (const backend of backends) {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--child',
        backend,
        '--messages',
        String(TOTAL),
        '--chats',
        String(CHATS),
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = run.stdout.trim().split('\n').pop() ?? '';
    if (run.status !== 0 || !line.startsWith('{')) {
      console.error(`${backend}: the run failed (exit ${run.status})`);
      process.exitCode = 1;
      continue;
    }
    const r = JSON.parse(line) as Record<string, number | string>;
    console.log(
      `| ${backend} | ${Number(r.messages).toLocaleString('en')} | ${Number(r.firstSeconds).toFixed(1)} s | ` +
        `${Number(r.perSecond).toLocaleString('en')} | ${Number(r.incrementalSeconds).toFixed(1)} s | ${r.peakRssMb} MB |`,
    );
  }
}

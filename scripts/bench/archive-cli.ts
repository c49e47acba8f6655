// `npm run bench -- archive cli [--messages 1000000] [--skip-migration]`: the command line's database
// side at scale. A generated desktop-app result.json of N messages in one chat is imported into a fresh
// SQLite archive, exported again, copied to PostgreSQL by migrate-sqlite-to-postgres (and verified), and
// two archives of N/2 messages each are merged. The import's ceilings (archive-ceiling.ts: the same message
// rows by prepared 500-row INSERTs and by one INSERT … SELECT) run beside it, and the migration's (every
// table by COPY), with the ratios. Every step is its own `archive-cli` process run under
// /usr/bin/time, so its peak resident memory (maxRSS) is that step's alone.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../../src/common/services';
import { createTestDatabase } from '../../src/common/testing/postgres';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '1000000' },
    'skip-migration': { type: 'boolean', default: false },
    'skip-merge': { type: 'boolean', default: false },
  },
});
const total = Number(values.messages);
const work = mkdtempSync(path.join(os.tmpdir(), 'specyard-bench-archive-cli-'));

const WORDS =
  'release build ship test merge deploy review archive backup chat photo coffee morning plan'.split(' ');

/** A single-chat export as the desktop app writes it, streamed to disk. */
async function generate(dir: string, count: number, chatId: number, firstDate: number): Promise<number> {
  const file = path.join(dir, 'result.json');
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(
    `{\n "name": "Bench chat ${chatId}",\n "type": "private_supergroup",\n "id": ${chatId},\n "messages": [`,
  );
  for (let i = 1; i <= count; i++) {
    const date = firstDate + i * 7;
    const words = Array.from({ length: 6 + (i % 9) }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(
      ' ',
    );
    const message: Record<string, unknown> = {
      id: i,
      type: 'message',
      date: new Date(date * 1000).toISOString().slice(0, 19),
      date_unixtime: String(date),
      from: `Member ${i % 40}`,
      from_id: `user${1000 + (i % 40)}`,
      text: i % 10 === 0 ? [words, { type: 'bold', text: ' #bench' }] : words,
    };
    if (i % 20 === 0) message.reply_to_message_id = i - 3;
    if (i % 50 === 0) {
      message.edited = new Date((date + 60) * 1000).toISOString().slice(0, 19);
      message.edited_unixtime = String(date + 60);
    }
    if (i % 30 === 0) message.reactions = [{ type: 'emoji', count: 1 + (i % 4), emoji: '👍' }];
    await write(`${i === 1 ? '' : ','}\n  ${JSON.stringify(message)}`);
  }
  await write('\n ]\n}\n');
  out.end();
  await once(out, 'finish');
  return statSync(file).size;
}

interface Step {
  seconds: number;
  peakMb: number;
  stdout: string;
}

function run(args: string[], env: Record<string, string>): Step {
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', 'BENCH %e %M', process.execPath, path.join(ROOT, 'bin/archive-cli.js'), ...args],
    {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'WARNING', ...env },
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  const line = /BENCH ([\d.]+) (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !line) {
    throw new Error(`archive-cli ${args[0]} failed (${result.status}): ${result.stderr.slice(-2000)}`);
  }
  return { seconds: Number(line[1]), peakMb: Math.round(Number(line[2]) / 1024), stdout: result.stdout };
}

/** A ceiling script (archive-ceiling.ts) in its own process: its own time and peak memory. */
function ceilingRun(source: string, target: string, mode: 'prepared' | 'select' | 'copy'): Step {
  const result = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'BENCH %e %M',
      process.execPath,
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'archive-ceiling.ts'),
      source,
      target,
      mode,
    ],
    { encoding: 'utf8', cwd: ROOT },
  );
  const line = /BENCH ([\d.]+) (\d+)/.exec(result.stderr);
  const inner = /CEILING (\d+) ([\d.]+)/.exec(result.stdout);
  if (result.status !== 0 || !line || !inner)
    throw new Error(`ceiling ${mode} failed: ${result.stderr.slice(-2000)}`);
  // The time of the writes alone (the script's start is not the database's work).
  return { seconds: Number(inner[2]), peakMb: Math.round(Number(line[2]) / 1024), stdout: result.stdout };
}

const rows: string[] = [];
const report = (what: string, step: Step, count: number) => {
  const rate = Math.round(count / step.seconds).toLocaleString('en-US');
  const line = `| ${what} | ${step.seconds.toFixed(1)} s | ${rate} messages/s | ${step.peakMb} MB |`;
  rows.push(line);
  console.log(line);
};

try {
  console.log(
    `Load average: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${os.cpus().length} cores`,
  );
  const exportDir = path.join(work, 'export');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(exportDir);
  const started = Date.now();
  const bytes = await generate(exportDir, total, 1500000001, 1_600_000_000);
  console.log(
    `Generated result.json: ${total} messages, ${(bytes / 1048576).toFixed(0)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const big = { DATABASE_PATH: path.join(work, 'big.db'), BACKUP_PATH: path.join(work, 'big-backups') };
  run(['migrate'], big);
  report(
    `import of ${total.toLocaleString('en-US')} messages (SQLite)`,
    run(['import', '-p', exportDir, '--skip-media'], big),
    total,
  );
  // The import's ceilings: the same message rows written by minimal scripts (archive-ceiling.ts).
  const imported = rows.at(-1) ?? '';
  const importSeconds = Number(/\| ([\d.]+) s \|/.exec(imported)?.[1] ?? Number.NaN);
  for (const mode of ['prepared', 'select'] as const) {
    const empty = { DATABASE_PATH: path.join(work, `ceiling-${mode}.db`) };
    run(['migrate'], empty);
    const ceiling = ceilingRun(big.DATABASE_PATH, empty.DATABASE_PATH, mode);
    const label = mode === 'prepared' ? 'prepared 500-row INSERTs' : 'one INSERT … SELECT';
    report(`ceiling: the same messages by ${label}, one transaction`, ceiling, total);
    console.log(`  import / ceiling (${label}): ${((100 * ceiling.seconds) / importSeconds).toFixed(0)} %`);
    rmSync(empty.DATABASE_PATH, { force: true });
  }
  report(`export of the same (SQLite)`, run(['export', '-o', path.join(work, 'export.json')], big), total);
  rmSync(path.join(work, 'export.json'), { force: true });

  if (!values['skip-migration']) {
    const pg = await createTestDatabase('specyard_bench_archive_cli');
    const ceilingDb = await createTestDatabase('specyard_bench_archive_ceiling');
    try {
      const migrated = run(['migrate-sqlite-to-postgres', '-s', big.DATABASE_PATH, '-p', pg.url], {});
      report('migrate-sqlite-to-postgres (COPY per table)', migrated, total);
      run(['migrate'], { DATABASE_URL: ceilingDb.url });
      const ceiling = ceilingRun(big.DATABASE_PATH, ceilingDb.url, 'copy');
      report('ceiling: every table by COPY … FROM STDIN, one transaction', ceiling, total);
      console.log(`  migrate / ceiling: ${((100 * ceiling.seconds) / migrated.seconds).toFixed(0)} %`);
      report(
        'migrate-sqlite-to-postgres --verify-only',
        run(['migrate-sqlite-to-postgres', '-s', big.DATABASE_PATH, '-p', pg.url, '-v'], {}),
        total,
      );
    } finally {
      await pg.drop();
      await ceilingDb.drop();
    }
  }
  rmSync(exportDir, { recursive: true, force: true });

  if (!values['skip-merge']) {
    const half = Math.floor(total / 2);
    const a = { DATABASE_PATH: path.join(work, 'a.db'), BACKUP_PATH: path.join(work, 'a-backups') };
    const b = { DATABASE_PATH: path.join(work, 'b.db'), BACKUP_PATH: path.join(work, 'b-backups') };
    for (const [env, chatId] of [
      [a, 1500000002],
      [b, 1500000003],
    ] as const) {
      const dir = path.join(work, `half-${chatId}`);
      mkdirSync(dir);
      await generate(dir, half, chatId, 1_600_000_000);
      run(['migrate'], env);
      run(['import', '-p', dir, '--skip-media'], env);
      rmSync(dir, { recursive: true, force: true });
    }
    report(
      `merge of two ${half.toLocaleString('en-US')}-message archives (SQLite into SQLite)`,
      run(['merge', '--source', b.DATABASE_PATH], a),
      half,
    );
  }
  console.log('\n| step | time | rate | peak RSS |\n|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  rmSync(work, { recursive: true, force: true });
}

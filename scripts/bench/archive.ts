// `npm run bench -- archive [--messages N] [--chats N] [--backend sqlite|postgresql|both] [--runs N] [--only in-chat [--shape TEXT]]`
// Store-level timings on a generated archive (default 1,000,000 messages in 200 chats, one of them
// holding a fifth of all messages): full-text search, a cursor page deep in the big chat, an offset page,
// and the chat list; then the same archive served by the real viewer on 127.0.0.1 (password mode, response
// validation off as in production, one master login reused), timing search, a deep cursor page and the
// chat list over HTTP against the store call each wraps. Figures are kept in scripts/bench/README.md. Not a
// test. `--reuse` keeps the generated database (/tmp/specyard-archive-bench/archive.db, PostgreSQL
// database specyard_archive_bench; at another --messages, archive-<N>.db and specyard_archive_bench_<N>)
// for the next run instead of dropping it (a generation that stopped half-way is run again over it).
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../../src/archive/config';
import { createArchiveApp } from '../../src/archive/http/app';
import type { ArchiveSqlStore } from '../../src/archive/store/archive-store';
import { migrateOpenStore } from '../../src/archive/store/migrate';
import { openArchiveStore } from '../../src/archive/store/open';
import { join, sql } from '../../src/archive/store/sql';
import { ALL_VISIBLE, type ArchiveDatabase, type Backend, type ChatKey } from '../../src/archive/store/store';
import { createTestDatabase } from '../../src/archive/store/testing/databases';
import type { NewMessage } from '../../src/archive/store/writer';
import { silentLogger } from '../../src/common/logger';
import { listen } from '../../src/common/serve';
import { compareInChat, type InChatRow, substringIndexBytes, substringWriteCost } from './in-chat-search';
import { fullTextKeysAlone, fullTextSizes, prepareUpstream, upstreamSearch } from './upstream-search';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '1000000' },
    chats: { type: 'string', default: '200' },
    backend: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '60' },
    reuse: { type: 'boolean', default: false },
    only: { type: 'string', default: 'all' },
    // With --only in-chat: the shapes whose name holds this text (e.g. "absent word").
    shape: { type: 'string', default: '' },
  },
});
const TOTAL = Number(values.messages);
if (!Number.isSafeInteger(TOTAL) || TOTAL < 1000) throw new Error(`--messages: a whole number >= 1000`);
const CHATS = Number(values.chats);
const RUNS = Number(values.runs);
const backends: Backend[] =
  values.backend === 'both' ? ['sqlite', 'postgresql'] : [values.backend as Backend];

// A deterministic generator, so every run and backend gets the same archive.
let seed = 0x2545f491;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
};

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'te',
  'vo',
  'bri',
  'dan',
  'fel',
  'gor',
  'hul',
  'jen',
  'kor',
  'lun',
];
const COMMON = [
  'the',
  'and',
  'release',
  'party',
  'deploy',
  'meeting',
  'photo',
  'tomorrow',
  'coffee',
  'build',
];
const VOCABULARY: string[] = [...COMMON];
while (VOCABULARY.length < 20_000) {
  const n = 2 + Math.floor(random() * 3);
  let w = '';
  for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  VOCABULARY.push(`${w}${VOCABULARY.length % 7 === 0 ? VOCABULARY.length : ''}`);
}
// Zipf-like: word i is drawn with weight 1/(i+1).
const CDF: number[] = [];
let acc = 0;
for (let i = 0; i < VOCABULARY.length; i++) {
  acc += 1 / (i + 1);
  CDF.push(acc);
}
const word = () => {
  const x = random() * acc;
  let lo = 0;
  let hi = CDF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((CDF[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo] ?? 'the';
};
const sentence = () => Array.from({ length: 4 + Math.floor(random() * 14) }, word).join(' ');

const START = Date.UTC(2023, 0, 1);
const SPAN = 3 * 365 * 86_400_000;

function chatSizes(): number[] {
  const big = Math.floor(TOTAL / 5);
  const rest = TOTAL - big;
  const sizes = [big];
  for (let i = 1; i < CHATS; i++)
    sizes.push(Math.floor(rest / (CHATS - 1)) + (i <= rest % (CHATS - 1) ? 1 : 0));
  return sizes;
}

async function load(db: ArchiveDatabase): Promise<ChatKey> {
  const driver = (db as ArchiveSqlStore).driver;
  await db.upsertAccount({ id: 1, label: null });
  const sizes = chatSizes();
  let bigChat: ChatKey | undefined;
  let loaded = 0;
  const started = Date.now();
  for (let c = 0; c < CHATS; c++) {
    const chatId = -1001000000000 - c;
    const ref = await db.upsertChat({
      accountId: 1,
      id: chatId,
      type: c % 4 === 0 ? 'private' : 'supergroup',
      title: `Chat ${c} ${word()}`,
      firstName: c % 4 === 0 ? `Person${c}` : null,
    });
    if (c === 0) bigChat = { accountId: 1, chatId, ref };
    const size = sizes[c] ?? 0;
    for (let from = 0; from < size; from += 20_000) {
      const batch: NewMessage[] = [];
      const media: ReturnType<typeof sql>[] = [];
      for (let i = from; i < Math.min(size, from + 20_000); i++) {
        const id = i + 1;
        const date = new Date(START + Math.floor((SPAN * i) / size) + Math.floor(random() * 60_000));
        const tag = random();
        batch.push({
          accountId: 1,
          chatId,
          id,
          date,
          text: `${sentence()}${tag < 0.003 ? ' #release' : tag < 0.004 ? ' $BTC' : ''}`,
          senderId: 1000 + Math.floor(random() * 50),
          senderName: 'Bench User',
          isOutgoing: random() < 0.1,
        });
        if (random() < 0.02) {
          media.push(
            sql`(1, ${`${chatId}_${id}_photo`}, ${chatId}, ${id}, 'photo', ${`${chatId}/${id}_photo.jpg`}, ${100_000}, 'image/jpeg', ${true})`,
          );
        }
      }
      await db.upsertMessages(batch);
      for (let i = 0; i < media.length; i += 500) {
        await driver.run(sql`INSERT INTO media (account_id, id, chat_id, message_id, type, file_path, file_size, mime_type, downloaded)
          VALUES ${join(media.slice(i, i + 500))}`);
      }
      loaded += batch.length;
    }
    if (c % 20 === 0)
      process.stderr.write(
        `  loaded ${loaded} messages in ${((Date.now() - started) / 1000).toFixed(0)} s\r`,
      );
  }
  process.stderr.write(`  loaded ${loaded} messages in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  // As `archive-cli import` and `generate-dummy-db` leave it: the full-text index merged, statistics taken.
  await db.compactSearchIndex();
  await driver.exec('ANALYZE');
  if (!bigChat) throw new Error('no chats');
  return bigChat;
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return { p50: at(0.5).toFixed(2), p95: at(0.95).toFixed(2) };
}

async function sample(fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  return samples;
}

async function time(name: string, fn: (i: number) => Promise<unknown>) {
  return { name, ...percentiles(await sample(fn)) };
}

const view = { noDownload: false, withTranscripts: true };

const MASTER = { username: 'bench', password: 'bench-master-passphrase' };

async function workload(db: ArchiveDatabase, big: ChatKey) {
  const size = chatSizes()[0] ?? 0;
  const rare = VOCABULARY.slice(5000, 5000 + RUNS + 3);
  const queries = ['release', 'party deploy', 'tomorrow coffee', 'kalo', ...rare.map((w) => w.slice(0, 6))];
  const cursors = await Promise.all(
    [0.1, 0.5, 0.9, 0.99].map(
      async (f) => (await db.listMessages(big, { limit: 1, offset: Math.floor(size * f), ...view }))[0],
    ),
  );
  return { size, rare, queries, cursors };
}

async function measure(db: ArchiveDatabase, big: ChatKey) {
  const { size, rare, queries, cursors } = await workload(db, big);
  const deep = await db.listMessages(big, { limit: 1, offset: Math.floor(size * 0.9), ...view });
  return [
    await time('search: common word', () =>
      db.searchMessages(ALL_VISIBLE, { query: 'release', limit: 20, offset: 0, includeTranscripts: true }),
    ),
    await time('search: two short prefixes', () =>
      db.searchMessages(ALL_VISIBLE, { query: 're pa', limit: 20, offset: 0, includeTranscripts: true }),
    ),
    await time('search: mixed queries', (i) =>
      db.searchMessages(ALL_VISIBLE, {
        query: queries[i % queries.length] ?? 'the',
        limit: 20,
        offset: 0,
        includeTranscripts: true,
      }),
    ),
    await time('search: rare word', (i) =>
      db.searchMessages(ALL_VISIBLE, {
        query: rare[i] ?? 'x',
        limit: 20,
        offset: 0,
        includeTranscripts: true,
      }),
    ),
    await time('search: common word, offset 1000', () =>
      db.searchMessages(ALL_VISIBLE, { query: 'release', limit: 20, offset: 1000, includeTranscripts: true }),
    ),
    await time('search: rare word, offset 1000', (i) =>
      db.searchMessages(ALL_VISIBLE, {
        query: rare[i] ?? 'x',
        limit: 20,
        offset: 1000,
        includeTranscripts: true,
      }),
    ),
    await time('search: the big chat, common word, offset 1000', () =>
      db.searchMessages(
        { accounts: null, chatRefs: [big.ref], displayChatIds: null },
        { query: 'release', limit: 20, offset: 1000, includeTranscripts: true },
      ),
    ),
    await time('search: restricted to the big chat', (i) =>
      db.searchMessages(
        { accounts: null, chatRefs: [big.ref], displayChatIds: null },
        { query: queries[i % queries.length] ?? 'the', limit: 20, offset: 0, includeTranscripts: true },
      ),
    ),
    await time('cursor page (50) at 10-99 % depth', (i) => {
      const c = cursors[i % cursors.length];
      return db.listMessages(big, {
        limit: 50,
        beforeDate: new Date(c?.date ?? 0),
        beforeId: c?.id ?? 1,
        ...view,
      });
    }),
    await time('before_id page (50) at 90 % depth', () =>
      db.listMessages(big, { limit: 50, beforeId: deep[0]?.id ?? 1, ...view }),
    ),
    await time('offset page (50) at 90 % depth', () =>
      db.listMessages(big, { limit: 50, offset: Math.floor(size * 0.9), ...view }),
    ),
    await time('tag #release (all chats)', () =>
      db.listTaggedMessages(ALL_VISIBLE, { tag: '#release', scope: 'all', limit: 50, offset: 0 }),
    ),
    await time('tag $BTC (the big chat)', () =>
      db.listTaggedMessages(ALL_VISIBLE, { tag: '$BTC', scope: 'chat', chat: big, limit: 50, offset: 0 }),
    ),
    await time('chat list (50 of 200, with total)', () =>
      db.listChats(ALL_VISIBLE, { limit: 50, offset: 0 }),
    ),
    await time('change feed (50)', () =>
      db.listChanges(ALL_VISIBLE, { limit: 50, includeTranscripts: true }),
    ),
  ];
}

interface HttpRow {
  name: string;
  /** Items in the first answer (search results, messages or chats), to show the page is not empty. */
  items: number;
  p50: number;
  p95: number;
  storeP50: number;
  storeP95: number;
}

/**
 * The real viewer over the same open store, logged in once as the master; each request is timed to the
 * end of its body, then the store call it wraps is timed right after it, under the same load.
 */
async function measureHttp(
  db: ArchiveDatabase,
  big: ChatKey,
  database: Awaited<ReturnType<typeof benchDatabase>>['config'],
): Promise<HttpRow[]> {
  const config = loadConfig({
    ...(database.backend === 'sqlite' ? { DATABASE_PATH: database.path } : { DATABASE_URL: database.url }),
    VIEWER_USERNAME: MASTER.username,
    VIEWER_PASSWORD: MASTER.password,
    VALIDATE_RESPONSES: 'false',
  });
  const { app } = createArchiveApp({ config, store: db, logger: silentLogger() });
  const server = await listen(app, 0, '127.0.0.1');
  try {
    const login = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(MASTER),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((line) => /^viewer_auth=[^;]+/.exec(line)?.[0])
      .find(Boolean);
    if (login.status !== 200 || !cookie) throw new Error(`master login answered ${login.status}`);
    const get = async (route: string) => {
      const res = await fetch(`${server.url}${route}`, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`${route} answered ${res.status}`);
      return res.arrayBuffer();
    };
    const { queries, cursors } = await workload(db, big);
    const query = (i: number) => queries[i % queries.length] ?? 'the';
    const cursor = (i: number) => cursors[i % cursors.length];
    const scenarios: {
      name: string;
      http: (i: number) => Promise<ArrayBuffer>;
      store: (i: number) => Promise<unknown>;
    }[] = [
      {
        name: 'GET /api/search/messages?q=release',
        http: () => get('/api/search/messages?q=release'),
        store: () =>
          db.searchMessages(ALL_VISIBLE, {
            query: 'release',
            limit: 20,
            offset: 0,
            includeTranscripts: true,
          }),
      },
      {
        name: 'GET /api/search/messages?q=…, mixed queries',
        http: (i) => get(`/api/search/messages?q=${encodeURIComponent(query(i))}`),
        store: (i) =>
          db.searchMessages(ALL_VISIBLE, { query: query(i), limit: 20, offset: 0, includeTranscripts: true }),
      },
      {
        name: 'GET /api/chats/{ref}/messages?before_date=…&before_id=…, 10–99 % deep',
        http: (i) => {
          const c = cursor(i);
          const date = new Date(c?.date ?? 0).toISOString();
          return get(
            `/api/chats/${big.ref}/messages?limit=50&before_date=${encodeURIComponent(date)}&before_id=${c?.id ?? 1}`,
          );
        },
        store: (i) => {
          const c = cursor(i);
          return db.listMessages(big, {
            limit: 50,
            beforeDate: new Date(c?.date ?? 0),
            beforeId: c?.id ?? 1,
            ...view,
          });
        },
      },
      {
        name: 'GET /api/chats?limit=50',
        http: () => get('/api/chats?limit=50'),
        store: () => db.listChats(ALL_VISIBLE, { limit: 50, offset: 0 }),
      },
    ];
    const rows: HttpRow[] = [];
    for (const s of scenarios) {
      const first = JSON.parse(new TextDecoder().decode(await s.http(0))) as Record<string, unknown>;
      const list = Array.isArray(first) ? first : (first.results ?? first.messages ?? first.chats);
      const items = Array.isArray(list) ? list.length : 0;
      const http = percentiles(await sample(s.http));
      const bare = percentiles(await sample(s.store));
      rows.push({
        name: s.name,
        items,
        p50: Number(http.p50),
        p95: Number(http.p95),
        storeP50: Number(bare.p50),
        storeP95: Number(bare.p95),
      });
    }
    return rows;
  } finally {
    await server.close();
  }
}

/** Words whose prefix search finds between `min` and `max` messages, the same on both backends. */
async function wordsWithHits(
  db: ArchiveDatabase,
  min: number,
  max: number,
  count: number,
): Promise<string[]> {
  const driver = (db as ArchiveSqlStore).driver;
  const found: string[] = [];
  for (let i = 500; i < VOCABULARY.length && found.length < count; i += 7) {
    const w = VOCABULARY[i] ?? '';
    const hits = Number(
      (
        await driver.all(
          driver.dialect === 'sqlite'
            ? sql`SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ${`"${w}"*`}`
            : sql`SELECT count(*) AS n FROM messages WHERE text_search @@ to_tsquery('simple', ${`'${w}':*`})`,
        )
      )[0]?.n ?? 0,
    );
    if (hits >= min && hits <= max) found.push(w);
  }
  return found;
}

interface Shape {
  name: string;
  /** The big chat alone (a viewer granted one chat), else every chat. */
  oneChat: boolean;
  query: (i: number) => string;
  offset: number;
}

interface Viewer {
  get: (route: string, as: 'master' | 'one-chat') => Promise<ArrayBuffer>;
  close: () => Promise<void>;
}

/** The real viewer over the open store, with a master login and a viewer granted only the big chat. */
async function startViewer(
  db: ArchiveDatabase,
  big: ChatKey,
  database: Awaited<ReturnType<typeof benchDatabase>>['config'],
): Promise<Viewer> {
  const config = loadConfig({
    ...(database.backend === 'sqlite' ? { DATABASE_PATH: database.path } : { DATABASE_URL: database.url }),
    VIEWER_USERNAME: MASTER.username,
    VIEWER_PASSWORD: MASTER.password,
    VALIDATE_RESPONSES: 'false',
  });
  const { app } = createArchiveApp({ config, store: db, logger: silentLogger() });
  const server = await listen(app, 0, '127.0.0.1');
  const login = async (credentials: { username: string; password: string }) => {
    const res = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    const cookie = res.headers
      .getSetCookie()
      .map((line) => /^viewer_auth=[^;]+/.exec(line)?.[0])
      .find(Boolean);
    if (res.status !== 200 || !cookie)
      throw new Error(`login of ${credentials.username} answered ${res.status}`);
    return cookie;
  };
  const master = await login(MASTER);
  const reader = { username: 'bench-one-chat', password: 'bench-one-chat-passphrase' };
  const created = await fetch(`${server.url}/api/admin/viewers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: master },
    body: JSON.stringify({ ...reader, allowed_accounts: null, allowed_chat_refs: [big.ref] }),
  });
  if (created.status !== 201 && created.status !== 409)
    throw new Error(`creating the one-chat viewer answered ${created.status}`);
  const oneChat = await login(reader);
  return {
    get: async (route, as) => {
      const request = () =>
        fetch(`${server.url}${route}`, { headers: { cookie: as === 'master' ? master : oneChat } });
      // A kept-alive connection the server closed while idle (the upstream's statements can hold the
      // loop for seconds at 10,000,000 messages) fails once: the GET is sent again.
      const res = await request().catch(request);
      if (res.status !== 200) throw new Error(`${route} answered ${res.status}`);
      return res.arrayBuffer();
    },
    close: () => server.close(),
  };
}

interface ShapeRow {
  name: string;
  upstream: number;
  ours: number;
  http: number;
  /** PostgreSQL, every chat: the page's keys alone through the GIN index (fullTextKeysAlone), else null. */
  keysAlone: number | null;
  samePage: boolean;
}

/**
 * The issue's search shapes, ours (the store call) against the upstream's statements on the same driver,
 * alternated run by run so both meet the same load; then each shape over HTTP as the viewer serves it.
 */
async function compareWithUpstream(
  db: ArchiveDatabase,
  big: ChatKey,
  database: Awaited<ReturnType<typeof benchDatabase>>['config'],
): Promise<ShapeRow[]> {
  const driver = (db as ArchiveSqlStore).driver;
  await prepareUpstream(driver);
  const fewHits = await wordsWithHits(db, 300, 900, 20);
  const about200 = await wordsWithHits(db, 150, 250, 20);
  const { queries } = await workload(db, big);
  const pick = (list: string[]) => (i: number) => list[i % list.length] ?? '';
  const shapes: Shape[] = [
    { name: 'common word p1', oneChat: false, query: () => 'release', offset: 0 },
    { name: 'common word offset 1000', oneChat: false, query: () => 'release', offset: 1000 },
    { name: 'two prefixes (re pa) p1', oneChat: false, query: () => 're pa', offset: 0 },
    { name: 'two prefixes (re pa) offset 1000', oneChat: false, query: () => 're pa', offset: 1000 },
    { name: `few-hit word (300-900 hits) p1`, oneChat: false, query: pick(fewHits), offset: 0 },
    { name: 'few-hit word offset 1000', oneChat: false, query: pick(fewHits), offset: 1000 },
    { name: 'word with ~200 hits p1', oneChat: false, query: pick(about200), offset: 0 },
    { name: 'word with ~200 hits, offset past the end', oneChat: false, query: pick(about200), offset: 1000 },
    {
      name: 'one visible chat, common word offset 1000',
      oneChat: true,
      query: () => 'release',
      offset: 1000,
    },
    { name: 'one visible chat, mixed', oneChat: true, query: pick(queries), offset: 0 },
  ];
  // A shape whose words this archive lacks (no word has ~200 hits among 10,000,000 messages) is left out.
  for (const [name, list] of [
    ['few-hit', fewHits],
    ['~200 hits', about200],
  ] as const) {
    if (list.length === 0) console.error(`  no ${name} word in this archive: its shapes are left out`);
  }
  const measured = shapes.filter((shape) => shape.query(0) !== '');
  const oneChat = { accounts: null, chatRefs: [big.ref], displayChatIds: null };
  const viewer = await startViewer(db, big, database);
  const rows: ShapeRow[] = [];
  try {
    for (const shape of measured) {
      const ours = (i: number) =>
        db.searchMessages(shape.oneChat ? oneChat : ALL_VISIBLE, {
          query: shape.query(i),
          limit: 20,
          offset: shape.offset,
          includeTranscripts: true,
        });
      const theirs = (i: number) =>
        upstreamSearch(driver, shape.oneChat ? [big.chatId] : null, shape.query(i), 20, shape.offset);
      const mine = (await ours(0)).results.map((r) => `${r.chat.id}/${r.id}`);
      const upstream = (await theirs(0)).map((r) => `${r.chatId}/${r.id}`);
      const samePage = mine.length === upstream.length && mine.every((key) => upstream.includes(key));
      const floor =
        driver.dialect === 'postgresql' && !shape.oneChat
          ? (i: number) => fullTextKeysAlone(driver, shape.query(i), 20, shape.offset)
          : null;
      for (let i = 0; i < 3; i++) await Promise.all([ours(i), theirs(i), floor?.(i)]);
      const a: number[] = [];
      const b: number[] = [];
      const c: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const steps: [number[], (i: number) => Promise<unknown>][] = [
          [a, ours],
          [b, theirs],
        ];
        if (floor) steps.push([c, floor]);
        // Each contender goes first as often as the others.
        for (let turn = 0; turn < i % steps.length; turn++) steps.push(steps.shift() as (typeof steps)[0]);
        for (const [samples, fn] of steps) {
          const t0 = performance.now();
          await fn(i);
          samples.push(performance.now() - t0);
        }
      }
      const route = (i: number) =>
        `/api/search/messages?q=${encodeURIComponent(shape.query(i))}&offset=${shape.offset}`;
      const http = await sample((i) => viewer.get(route(i), shape.oneChat ? 'one-chat' : 'master'));
      rows.push({
        name: shape.name,
        ours: Number(percentiles(a).p50),
        upstream: Number(percentiles(b).p50),
        http: Number(percentiles(http).p50),
        keysAlone: floor ? Number(percentiles(c).p50) : null,
        samePage,
      });
    }
  } finally {
    await viewer.close();
  }
  return rows;
}

/**
 * Reads the whole database once into the operating system's cache before the comparison, so both sides
 * read their tables from memory. Without it, a run after other large files were written (the command-line
 * benchmark) found our messages table evicted, while the upstream's table had been read back in by its own
 * earlier statements (a common word reads every row of it): our pages of a few-hit word then came from the
 * disk (1.3-1.4 ms against 0.3 ms) and the ratio said more about the cache than about the statements.
 */
async function warmCaches(
  db: ArchiveDatabase,
  config: Awaited<ReturnType<typeof benchDatabase>>['config'],
): Promise<void> {
  const started = Date.now();
  let bytes = 0;
  if (config.backend === 'sqlite') {
    const chunk = Buffer.alloc(16 << 20);
    for (const file of [config.path, `${config.path}-wal`]) {
      if (!existsSync(file)) continue;
      const fd = openSync(file, 'r');
      try {
        for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) bytes += read;
      } finally {
        closeSync(fd);
      }
    }
  } else {
    const driver = (db as ArchiveSqlStore).driver;
    await driver.run(sql`CREATE EXTENSION IF NOT EXISTS pg_prewarm`);
    const blocks = await driver.get(sql`SELECT sum(pg_prewarm(c.oid, 'read')) AS blocks FROM pg_class c
      WHERE c.relkind IN ('r', 'i', 't') AND c.relpersistence = 'p'`);
    bytes = Number(blocks?.blocks ?? 0) * 8192;
  }
  console.error(
    `  read the database once (${(bytes / 1e6).toFixed(0)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

async function benchDatabase(backend: Backend) {
  if (!values.reuse) return createTestDatabase(backend);
  if (backend === 'sqlite') {
    mkdirSync('/tmp/specyard-archive-bench', { recursive: true, mode: 0o700 });
    const config = {
      backend,
      path: `/tmp/specyard-archive-bench/${TOTAL === 1_000_000 ? 'archive' : `archive-${TOTAL}`}.db`,
      timeoutSeconds: 60,
      echo: false,
    } as const;
    return { config, drop: async () => {} };
  }
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  const name = TOTAL === 1_000_000 ? 'specyard_archive_bench' : `specyard_archive_bench_${TOTAL}`;
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:5432/${name}`;
  return { config: { backend, url, timeoutSeconds: 60, echo: false } as const, drop: async () => {} };
}

const httpRows: (HttpRow & { backend: Backend })[] = [];
const shapeRows: (ShapeRow & { backend: Backend })[] = [];
const inChatRows: (InChatRow & { backend: Backend })[] = [];
const sizes: string[] = [];
for (const backend of backends) {
  seed = 0x2545f491;
  const database = await benchDatabase(backend);
  const db = await openArchiveStore(database.config, silentLogger());
  try {
    await migrateOpenStore(db);
    const loaded = await db.listChats(ALL_VISIBLE, { limit: 1, offset: 0 });
    let big: ChatKey;
    if (loaded.total === CHATS) {
      const first = await db.findChat(
        ALL_VISIBLE,
        (await db.listAdminChats()).find((c) => c.id === -1001000000000)?.ref ?? '',
      );
      if (!first) throw new Error('reused database lacks the big chat');
      big = first.key;
      console.error(`${backend}: reusing the generated archive`);
    } else {
      console.error(`${backend}: generating ${TOTAL} messages in ${CHATS} chats`);
      big = await load(db);
    }
    if (values.only === 'in-chat') {
      await warmCaches(db, database.config);
      // A word in about one message of 10,000, at every size.
      const scale = TOTAL / 1_000_000;
      const rare =
        values.shape && !'rare word'.includes(values.shape)
          ? []
          : await wordsWithHits(db, 25 * scale, 150 * scale, 3);
      for (const r of await compareInChat(db, big, rare, RUNS, values.shape))
        inChatRows.push({ backend, ...r });
      const driver = (db as ArchiveSqlStore).driver;
      const cost = await substringWriteCost(driver, big);
      sizes.push(
        `${backend}: substring index ${((await substringIndexBytes(driver)) / 1e6).toFixed(1)} MB of a ${((await driver.sizeBytes()) / 1e6).toFixed(0)} MB database; 1,000 messages written in ${cost.with.toFixed(1)} ms with it, ${cost.without.toFixed(1)} ms without`,
      );
      continue;
    }
    if (values.only !== 'upstream') {
      const results = await measure(db, big);
      console.log(`\n${backend} (${TOTAL} messages, ${CHATS} chats, ${RUNS} runs, ms)`);
      console.log('| operation | p50 | p95 |\n|---|---:|---:|');
      for (const r of results) console.log(`| ${r.name} | ${r.p50} | ${r.p95} |`);
      for (const r of await measureHttp(db, big, database.config)) httpRows.push({ backend, ...r });
    }
    await warmCaches(db, database.config);
    for (const r of await compareWithUpstream(db, big, database.config)) shapeRows.push({ backend, ...r });
    const fts = await fullTextSizes((db as ArchiveSqlStore).driver);
    if (fts)
      sizes.push(
        `${backend}: full-text index ${(fts.ours / 1e6).toFixed(1)} MB, upstream's ${(fts.upstream / 1e6).toFixed(1)} MB (${(fts.ours / fts.upstream).toFixed(2)}x; target <= 1.5x)`,
      );
  } finally {
    await db.close();
    await database.drop();
  }
}

if (inChatRows.length > 0) {
  console.log(
    `\nIn-chat search in the big chat (${TOTAL} messages, ${CHATS} chats, ${RUNS} alternated runs, p50 ms; target: upstream/ours >= 2)`,
  );
  console.log('| backend | shape | hits | upstream | ours | upstream / ours | same page |');
  console.log('|---|---|---:|---:|---:|---:|---|');
  // A time under a millisecond to the microsecond, and the ratio to two places: 1.96 is not the target's 2.
  const ms = (value: number) => value.toFixed(value < 1 ? 3 : 2);
  for (const r of inChatRows) {
    console.log(
      `| ${r.backend} | ${r.name} | ${r.hits} | ${ms(r.upstream)} | ${ms(r.ours)} | ${(r.upstream / r.ours).toFixed(2)} | ${r.samePage ? 'yes' : 'no'} |`,
    );
  }
  for (const line of sizes) console.log(line);
  process.exit(0);
}

console.log(
  `\nSearch shapes against the upstream's statements (${TOTAL} messages, ${CHATS} chats, ${RUNS} alternated runs, p50 ms; target: upstream/ours >= 2, HTTP p50 < 20 ms)`,
);
console.log(
  "(keys alone: PostgreSQL, every chat: the page's keys through the GIN index and nothing else, the most a search through it could reach)",
);
console.log(
  '| backend | shape | upstream | ours | upstream / ours | HTTP | keys alone | upstream / keys alone | same page |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of shapeRows) {
  const floor =
    r.keysAlone === null ? '– | –' : `${r.keysAlone.toFixed(2)} | ${(r.upstream / r.keysAlone).toFixed(1)}`;
  console.log(
    `| ${r.backend} | ${r.name} | ${r.upstream.toFixed(2)} | ${r.ours.toFixed(2)} | ${(r.upstream / r.ours).toFixed(1)} | ${r.http.toFixed(2)} | ${floor} | ${r.samePage ? 'yes' : 'no'} |`,
  );
}
for (const line of sizes) console.log(line);

if (httpRows.length > 0) {
  console.log(`\nHTTP (${TOTAL} messages, ${CHATS} chats, ${RUNS} sequential requests per figure, ms)`);
  console.log('| backend | request | items | p50 | p95 | store p50 | store p95 | HTTP / store (p50) |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
}
for (const r of httpRows) {
  console.log(
    `| ${r.backend} | ${r.name} | ${r.items} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.storeP50.toFixed(2)} | ${r.storeP95.toFixed(2)} | ${(r.p50 / r.storeP50).toFixed(2)} |`,
  );
}

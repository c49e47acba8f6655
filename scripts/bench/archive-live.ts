// `npm run bench -- archive live [--sockets 200] [--chats 50] [--rate 1000] [--seconds 10] [--warmup 3] [--direct]`
// Live updates under load: the real viewer (SQLite, anonymous mode, response validation off) on 127.0.0.1
// in this thread; a worker thread opens the sockets (each subscribed to one chat, spread evenly across the
// chats) and posts `edit` events to `/internal/push` at the given rate, each carrying its send time. It
// reports delivery latency (post → frame on a socket, so HTTP and the hub both count), the frames counted
// against the frames expected (events × sockets per chat), and the viewer's heap growth per open socket.
// The first `--warmup` seconds run at the same rate but their latencies are reported apart (their
// frames are still counted): they measure a cold process (code not yet optimised), not the steady state.
// Figures are kept in scripts/bench/README.md. Not a test.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

interface Job {
  url: string;
  secret: string;
  sockets: number;
  chats: { id: number; ref: string }[];
  rate: number;
  seconds: number;
  /** Seconds at the rate before latencies count. */
  warmup: number;
  /** Events go straight onto the viewer's publisher (no HTTP): the hub's own share. */
  direct: boolean;
}

const now = () => performance.timeOrigin + performance.now();

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** One POST over a kept-alive connection; resolves with the status. */
function post(agent: http.Agent, url: URL, secret: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${secret}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function clients(job: Job): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const latencies: number[] = [];
  let measureFrom = Number.POSITIVE_INFINITY;
  let warmupMax = 0;
  let frames = 0;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < job.sockets; i++) {
    const chat = job.chats[i % job.chats.length] as { ref: string };
    const ws = new WebSocket(`${job.url.replace('http', 'ws')}/ws/updates`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const subscribed = new Promise<void>((resolve) =>
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        if (frame.type === 'subscribed') resolve();
        if (frame.type === 'edit') {
          frames++;
          const sentAt = Number(frame.new_text);
          if (sentAt >= measureFrom) latencies.push(now() - sentAt);
          else warmupMax = Math.max(warmupMax, now() - sentAt);
        }
      }),
    );
    ws.send(JSON.stringify({ action: 'subscribe', chat_ref: chat.ref }));
    await subscribed;
    sockets.push(ws);
  }
  port.postMessage({ kind: 'open' });
  await new Promise<void>((resolve) => port.once('message', () => resolve()));
  measureFrom = now() + job.warmup * 1000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const target = new URL(`${job.url}/internal/push`);
  const total = job.rate * (job.warmup + job.seconds);
  const start = now();
  let sent = job.direct ? total : 0;
  let failed = 0;
  const inflight = new Set<Promise<void>>();
  if (job.direct) await new Promise<void>((resolve) => port.once('message', () => resolve()));
  while (sent < total) {
    const due = start + (sent * 1000) / job.rate;
    const wait = due - now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const chat = job.chats[sent % job.chats.length] as { id: number };
    const body = JSON.stringify({
      type: 'edit',
      chat_id: chat.id,
      account_id: 1,
      data: { message_id: 1, new_text: String(now()), edit_date: '2026-03-14T09:24:51Z' },
    });
    const p = post(agent, target, job.secret, body)
      .then((status) => {
        if (status !== 200) failed++;
      })
      .catch(() => {
        failed++;
      })
      .finally(() => inflight.delete(p));
    inflight.add(p);
    sent++;
  }
  const sendSeconds = (now() - start) / 1000;
  await Promise.all(inflight);
  const expected = sent * (job.sockets / job.chats.length);
  const deadline = now() + 10_000;
  while (frames < expected && now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const ws of sockets) ws.close();
  agent.destroy();
  port.postMessage({ kind: 'done', latencies, warmupMax, frames, expected, sent, failed, sendSeconds });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sockets: { type: 'string', default: '200' },
      chats: { type: 'string', default: '50' },
      rate: { type: 'string', default: '1000' },
      seconds: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      direct: { type: 'boolean', default: false },
    },
  });
  const [
    { loadConfig },
    { createArchiveApp },
    { migrateOpenStore },
    { openArchiveStore },
    tdb,
    logger,
    serve,
  ] = await Promise.all([
    import('../../src/archive/config'),
    import('../../src/archive/http/app'),
    import('../../src/archive/store/migrate'),
    import('../../src/archive/store/open'),
    import('../../src/archive/store/testing/databases'),
    import('../../src/common/logger'),
    import('../../src/common/serve'),
  ]);
  const sockets = Number(values.sockets);
  const chatCount = Number(values.chats);
  const database = await tdb.createTestDatabase('sqlite');
  const store = await openArchiveStore(database.config, logger.silentLogger());
  await migrateOpenStore(store);
  await store.upsertAccount({ id: 1 });
  const chats: { id: number; ref: string }[] = [];
  for (let i = 0; i < chatCount; i++) {
    const id = -1_001_000_000_000 - i;
    await store.upsertChat({ accountId: 1, id, type: 'supergroup', title: `Chat ${i}` });
    const keys = await store.chatKeysOf(id, 1);
    chats.push({ id, ref: (keys[0] as { ref: string }).ref });
  }
  const config = {
    ...loadConfig({
      ALLOW_ANONYMOUS_VIEWER: 'true',
      MAX_WS_CONNECTIONS: String(sockets),
      VALIDATE_RESPONSES: 'false',
    }),
    database: database.config,
  };
  const { app, live } = createArchiveApp({ config, store, logger: logger.silentLogger() });
  await live.start();
  const server = await serve.listen(app, 0);
  live.attach(server.server);

  gc();
  const before = process.memoryUsage();
  // The worker runs this same file through tsx.
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(boot, {
    eval: true,
    workerData: {
      url: server.url,
      secret: live.pushSecret ?? '',
      sockets,
      chats,
      rate: Number(values.rate),
      seconds: Number(values.seconds),
      warmup: Number(values.warmup),
      direct: values.direct,
    } satisfies Job,
  });
  const rate = Number(values.rate);
  const total = rate * (Number(values.warmup) + Number(values.seconds));
  const publishDirect = async () => {
    const start = now();
    for (let sent = 0; sent < total; sent++) {
      const wait = start + (sent * 1000) / rate - now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const chat = chats[sent % chats.length] as { id: number };
      await live.publisher.publish({
        type: 'edit',
        chat_id: chat.id,
        account_id: 1,
        data: { message_id: 1, new_text: String(now()), edit_date: '2026-03-14T09:24:51Z' },
      });
    }
  };
  const result = await new Promise<Record<string, unknown>>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (message) => {
      if (message.kind === 'open') {
        gc();
        const after = process.memoryUsage();
        console.log(
          `sockets open: ${live.hub.connections}; viewer heap +${((after.heapUsed - before.heapUsed) / sockets / 1024).toFixed(1)} KiB per socket` +
            ` (rss +${((after.rss - before.rss) / sockets / 1024).toFixed(1)} KiB per socket, process-wide)`,
        );
        worker.postMessage('go');
        if (values.direct) void publishDirect().then(() => worker.postMessage('sent'));
      } else resolve(message);
    });
  });
  await worker.terminate();
  const latencies = (result.latencies as number[]).sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  console.log(
    `events posted: ${result.sent} in ${(result.sendSeconds as number).toFixed(2)} s (${result.failed} failed); ` +
      `frames ${result.frames} of ${result.expected} expected; bus events ${live.bus.emitted}, hub frames ${live.hub.framesSent}`,
  );
  console.log(
    `delivery latency after ${values.warmup} s of warm-up (${latencies.length} frames): p50 ${pct(50).toFixed(1)} ms, ` +
      `p99 ${pct(99).toFixed(1)} ms, max ${pct(100).toFixed(1)} ms; warm-up max ${(result.warmupMax as number).toFixed(1)} ms`,
  );
  await live.close();
  await server.close();
  await store.close();
  await database.drop();
}

if (isMainThread) await main();
else await clients(workerData as Job);

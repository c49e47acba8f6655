/**
 * The front door is the only matcher (src/common/http/front-door.ts), over every spelling of every request
 * target. Each documented operation of the three services is sent over a raw socket, by a caller without
 * credentials, in its documented spelling and in a corpus of others: a fragment, the absolute form with and
 * without a port, percent-encoded letters and slashes, double and trailing slashes, dot segments,
 * `;params`, upper case, backslashes, a tab, a very long target, invalid UTF-8, HTTP/1.0 and an h2c
 * upgrade. Every answer is either the operation's own, with all its checks (the documented spelling's
 * status; another value of a path parameter may find nothing), or 400/404/405 with no handler run (handlers
 * announce themselves on `handlerStarts`), and a handler runs only for its own operation.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE, PASSWORD_ENV, startTestViewer, type TestViewer } from '../src/archive/http/test-viewer';
import { loadBundledDocument } from '../src/common/documents';
import { documentedOperations, handlerStarts } from '../src/common/http/operations';
import { parametersOf } from '../src/common/openapi';
import type { Service } from '../src/common/services';
import { writeExampleIcon, writeExamplePages } from '../src/common/testing/example-pages';
import { startTestFuel, type TestFuel } from '../src/fuel/testing/server';
import { type Server, startSeededServer } from '../src/subtitles/test-support';

const SAMPLE_PARAMS: Record<string, string> = { plugin: 'Subtitles', chat_ref: FIXTURE.releaseCrew.ref };

function documentedPath(service: Service, op: ReturnType<typeof documentedOperations>[number]): string {
  const doc = loadBundledDocument(service);
  const examples = new Map(
    parametersOf(doc, op)
      .filter((p: { in: string }) => p.in === 'path')
      .map((p: { name: string; example?: unknown; schema?: { example?: unknown } }) => [
        p.name,
        String(p.example ?? p.schema?.example ?? '1'),
      ]),
  );
  return op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    encodeURIComponent(SAMPLE_PARAMS[name] ?? examples.get(name) ?? '1'),
  );
}

interface Sent {
  method: string;
  target: string | Buffer;
  version?: '1.0' | '1.1';
  headers?: Record<string, string>;
}

/** One request on its own connection; resolves with the status of the answer (0: closed unanswered). */
function send(port: number, request: Sent, body?: string): Promise<number> {
  const headers: Record<string, string> = {
    Host: `127.0.0.1:${port}`,
    Connection: 'close',
    ...request.headers,
    ...(body !== undefined && {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
    }),
  };
  const head = Buffer.concat([
    Buffer.from(`${request.method} `, 'latin1'),
    typeof request.target === 'string' ? Buffer.from(request.target, 'latin1') : request.target,
    Buffer.from(` HTTP/${request.version ?? '1.1'}\r\n`, 'latin1'),
    Buffer.from(
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join(''),
      'latin1',
    ),
    Buffer.from(`\r\n${body ?? ''}`, 'latin1'),
  ]);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const done = () => {
      socket.destroy();
      resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1] ?? 0));
    };
    socket.setTimeout(10_000, () => reject(new Error(`no answer to ${request.method} ${request.target}`)));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (/^HTTP\/1\.[01] \d{3}/.test(received)) done();
    });
    socket.on('end', done);
    socket.on('error', done);
    socket.write(head);
  });
}

/** The corpus: each spelling of the documented path, and what it may answer besides the documented status. */
interface Spelling {
  name: string;
  request: Omit<Sent, 'method'>;
  /** `same`: the documented spelling's status; a list: one of those, with no handler run; none: either. */
  only?: 'same' | number[];
}

function spellings(path: string, port: number): Spelling[] {
  const segments = path.split('/');
  const first = segments[1] ?? '';
  const encodedLetter = `/%${first.charCodeAt(0).toString(16).toUpperCase()}${first.slice(1)}${path.slice(first.length + 1)}`;
  const upper = path.replace(/[a-z]/g, (c) => c.toUpperCase());
  return [
    { name: 'fragment', request: { target: `${path}#x` }, only: [400] },
    { name: 'fragment after a query', request: { target: `${path}?a=1#x` }, only: [400] },
    { name: 'absolute form with port', request: { target: `http://127.0.0.1:${port}${path}` }, only: 'same' },
    { name: 'absolute form without port', request: { target: `http://localhost${path}` }, only: 'same' },
    {
      name: 'absolute form, upper-case scheme',
      request: { target: `HTTP://127.0.0.1:${port}${path}` },
      only: 'same',
    },
    {
      name: 'absolute form with a user',
      request: { target: `http://user:pw@127.0.0.1:${port}${path}` },
      only: [400],
    },
    { name: 'trailing slash', request: { target: `${path}/` }, only: 'same' },
    { name: 'upper case', request: { target: upper } },
    { name: 'HTTP/1.0', request: { target: path, version: '1.0' }, only: 'same' },
    {
      name: 'h2c upgrade',
      request: {
        target: path,
        headers: {
          Connection: 'Upgrade, HTTP2-Settings',
          Upgrade: 'h2c',
          'HTTP2-Settings': 'AAMAAABkAARAAAAAAAIAAAAA',
        },
      },
      only: 'same',
    },
    { name: 'percent-encoded letter', request: { target: encodedLetter } },
    { name: 'percent-encoded slash', request: { target: `/${first}%2F${segments.slice(2).join('/')}` } },
    { name: 'double slash in front', request: { target: `/${path}` } },
    { name: 'double slash inside', request: { target: path.replace(/\/(?=[^/]*$)/, '//') } },
    { name: 'dot segment', request: { target: `/.${path}` } },
    { name: 'dot-dot segment', request: { target: `/x/..${path}` } },
    { name: 'encoded dot-dot segment', request: { target: `/x/%2E%2E${path}` } },
    { name: ';params at the end', request: { target: `${path};jsessionid=1` } },
    {
      name: ';params in the first segment',
      request: { target: `/${first};x=1${path.slice(first.length + 1)}` },
    },
    { name: 'backslash', request: { target: path.replace(/\/(?=[^/]*$)/, '\\') }, only: [400] },
    { name: 'backslash in the query', request: { target: `${path}?a=\\` }, only: [400] },
    { name: 'tab', request: { target: `${path}%09` } },
    { name: 'very long', request: { target: `${path}/${'a'.repeat(8000)}` } },
    { name: 'invalid UTF-8, encoded', request: { target: `${path}/%FF%FE` } },
    {
      name: 'invalid UTF-8, raw',
      request: { target: Buffer.concat([Buffer.from(path), Buffer.from([0xff, 0xfe])]) },
      only: [400],
    },
    { name: 'a blank, encoded', request: { target: `${path}%20` } },
    { name: 'quote', request: { target: `${path}"` }, only: [400] },
    { name: 'angle bracket', request: { target: `${path}<` }, only: [400] },
  ];
}

/** Handler starts, as the dispatcher announces them. */
const started: string[] = [];
const onStart = (message: unknown) => {
  const { service, operationId } = message as { service: string; operationId: string };
  started.push(`${service} ${operationId}`);
};
beforeAll(() => subscribe(handlerStarts.name, onStart));
afterAll(() => {
  unsubscribe(handlerStarts.name, onStart);
});

function corpus(service: Service, port: () => number, beforeEach: () => void = () => undefined) {
  const ops = documentedOperations(loadBundledDocument(service));
  it.each(ops.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s: every spelling gets the operation or 400/404 with no handler',
    async (_name, op) => {
      const method = op.method.toUpperCase();
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined;
      const path = documentedPath(service, op);
      beforeEach();
      started.length = 0;
      const documented = await send(port(), { method, target: path }, body);
      const documentedRan = started.length > 0;
      expect(documented, `${method} ${path}`).not.toBe(0);
      // 500: among others, the validator found another operation than the front door (app.ts).
      expect(documented, `${method} ${path}`).not.toBe(500);
      // The route exists (a 404 for every spelling would prove nothing about the checks).
      if (!op.path.includes('{')) expect(documented, `${method} ${path}`).not.toBe(404);
      // HEAD is answered as the GET it stands for (405 answers name it in `Allow`).
      if (method === 'GET') {
        beforeEach();
        expect(await send(port(), { method: 'HEAD', target: path }), `HEAD ${path}`).toBe(documented);
      }
      const own = `${service} ${op.operationId}`;
      const wrong: string[] = [];
      for (const spelling of spellings(path, port())) {
        beforeEach();
        started.length = 0;
        const status = await send(port(), { method, ...spelling.request }, body);
        const ran = started.length > 0;
        // A handler may run only for its own operation, and only where the documented spelling's checks let
        // this caller through (another value of a parameter may then answer otherwise, never a 5xx).
        const sound =
          started.every((run) => run === own) &&
          (ran ? documentedRan && (status < 500 || status === documented) : true);
        // Refused before any handler: by the front door (400, 404, 405), or by the guard of the operation
        // another spelling names (`/Users/Public;x` is `/Users/{userId}`: 401 without credentials).
        const refused = !ran && [400, 401, 403, 404, 405].includes(status);
        const ok =
          sound &&
          (spelling.only === undefined
            ? status === documented || refused || ran
            : spelling.only === 'same'
              ? status === documented
              : spelling.only.includes(status) && !ran);
        if (!ok) {
          wrong.push(
            `${spelling.name}: ${status}${ran ? ` (ran ${started.join(', ')})` : ''}, documented ${documented}`,
          );
        }
      }
      expect(wrong).toEqual([]);
    },
  );
  it('answers the asterisk and authority forms with 400 and runs nothing', async () => {
    started.length = 0;
    expect(await send(port(), { method: 'OPTIONS', target: '*' })).toBe(400);
    expect(await send(port(), { method: 'GET', target: `127.0.0.1:${port()}` })).toBe(400);
    expect(await send(port(), { method: 'GET', target: 'mailto:someone@example.org' })).toBe(400);
    // CONNECT is Node's own (no listener: the connection closes unanswered).
    expect(await send(port(), { method: 'CONNECT', target: `127.0.0.1:${port()}` })).not.toBe(200);
    expect(started).toEqual([]);
  });
}

// Each server serves a page "build" of its document's examples, so the page, its asset and its icon exist
// whatever web/dist holds (a fresh clone has none).
describe('archive', () => {
  let viewer: TestViewer;
  let pages: Awaited<ReturnType<typeof writeExamplePages>>;
  let clock = Date.now();
  beforeAll(async () => {
    pages = await writeExamplePages('archive');
    viewer = await startTestViewer(
      {
        ...PASSWORD_ENV,
        TRANSCRIPTION_ENABLED: 'true',
        TRANSCRIPTION_URL: 'http://127.0.0.1:9',
        TRANSCRIPTION_WEBHOOK_SECRET: `whsec_${Buffer.from('a-secret-of-sixteen+').toString('base64')}`,
      },
      // Each request a login-limit window later, so the limit answers none of them.
      { now: () => clock, webDist: pages.distRoot },
    );
  });
  afterAll(async () => {
    await viewer.close();
    await pages.remove();
  });
  corpus(
    'archive',
    () => Number(new URL(viewer.url).port),
    () => {
      clock += 10 * 60_000;
    },
  );
});

describe('fuel', () => {
  let fuel: TestFuel;
  let pages: Awaited<ReturnType<typeof writeExamplePages>>;
  beforeAll(async () => {
    pages = await writeExamplePages('fuel');
    fuel = await startTestFuel({ webDist: pages.distRoot });
  });
  afterAll(async () => {
    await fuel.close();
    await pages.remove();
  });
  corpus(
    'fuel',
    () => Number(new URL(fuel.url).port),
    () => fuel.advance(120_000),
  );
});

describe('subtitles', () => {
  let server: Server;
  let icon: Awaited<ReturnType<typeof writeExampleIcon>>;
  beforeAll(async () => {
    icon = await writeExampleIcon('subtitles');
    server = await startSeededServer({}, { webDist: icon.distRoot });
  });
  afterAll(async () => {
    await server.close();
    await icon.remove();
  });
  corpus('subtitles', () => Number(new URL(server.url).port));
});

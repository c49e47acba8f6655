import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export const fixture = (name: string): Buffer => readFileSync(path.join(FIXTURES, name));

/** A payload a real feed wrote (`fixtures/real/`, see its PROVENANCE.txt), unpacked when stored gzipped. */
export const realSample = (name: string): Buffer => {
  const bytes = readFileSync(path.join(FIXTURES, 'real', name));
  return name.endsWith('.gz') ? gunzipSync(bytes) : bytes;
};

export interface FakeReply {
  status?: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Never answer (the client's time limit has to end the request). */
  hang?: boolean;
  /** Announce the full length, send half the body, then cut the connection. */
  truncate?: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type FakeHandler = (request: FakeRequest) => FakeReply;

/** A small HTTP server on 127.0.0.1 that answers like the real feeds, from fixture files. */
export interface FakeFeeds {
  url: string;
  /** Sets how one path answers (exact path match; the query goes to the handler). */
  route(pathname: string, reply: FakeReply | FakeHandler): void;
  /** Every request received, in order. */
  requests: FakeRequest[];
  close(): Promise<void>;
}

export const json = (value: unknown, headers: Record<string, string> = {}): FakeReply => ({
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json', ...headers },
});

function send(res: ServerResponse, reply: FakeReply): void {
  if (reply.hang) return;
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : (reply.body ?? Buffer.alloc(0));
  res.writeHead(reply.status ?? 200, { 'content-length': String(body.length), ...reply.headers });
  if (reply.truncate) {
    res.write(body.subarray(0, Math.floor(body.length / 2)));
    res.socket?.destroy();
    return;
  }
  res.end(body);
}

export async function startFakeFeeds(): Promise<FakeFeeds> {
  const routes = new Map<string, FakeReply | FakeHandler>();
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const route = routes.get(url.pathname);
      if (!route) return send(res, { status: 404, body: 'Not Found' });
      try {
        send(res, typeof route === 'function' ? route(request) : route);
      } catch (error) {
        send(res, { status: 500, body: String(error) });
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    route: (pathname, reply) => routes.set(pathname, reply),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Upgrades to another protocol than the one a server speaks (`Upgrade: h2c`, as Java's HTTP client sends
 * on every plain-http request) are answered as the HTTP/1.1 requests they also are. Node hands every
 * request with an Upgrade header to the server's 'upgrade' listeners once there is one, and stops parsing
 * the connection; HTTP lets a server ignore an upgrade and answer the request itself: the request's head
 * is written again without its upgrade headers (its version and its other connection options, `close`
 * among them, kept), put back in front of what the socket already read, and the socket is given to the
 * server as a new connection, which parses and answers it as any other request (and keeps the connection
 * alive, or closes it, as usual). A request sent behind others on the connection waits for their answers,
 * which would otherwise be lost with the parser that read them.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Headers of an upgrade request that an HTTP/1.1 server ignoring the upgrade does not pass on. */
const UPGRADE_HEADERS = new Set(['upgrade', 'http2-settings']);
/** Options of `Connection` that belong to the upgrade; the others (`close`, `keep-alive`) stay. */
const UPGRADE_OPTIONS = new Set(['upgrade', 'http2-settings']);

/** The answers each connection still owes, so an upgrade request read behind them can wait for them. */
class AnswersInFlight {
  private readonly owed = new WeakMap<Duplex, { count: number; waiting: (() => void)[] }>();

  constructor(server: Server) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const entry = this.owed.get(req.socket) ?? { count: 0, waiting: [] };
      this.owed.set(req.socket, entry);
      entry.count++;
      res.once('close', () => {
        entry.count--;
        if (entry.count === 0) for (const next of entry.waiting.splice(0)) next();
      });
    });
  }

  after(socket: Duplex, next: () => void): void {
    const entry = this.owed.get(socket);
    if (entry && entry.count > 0) entry.waiting.push(next);
    else next();
  }
}

function asHttpRequest(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  // The request's own version: an HTTP/1.0 request is answered and closed as one.
  const version = req.httpVersion === '1.0' ? '1.0' : '1.1';
  const lines = [`${req.method} ${req.url} HTTP/${version}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] ?? '').toLowerCase();
    const value = req.rawHeaders[i + 1] ?? '';
    if (UPGRADE_HEADERS.has(name)) continue;
    if (name === 'connection') {
      const kept = value
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o && !UPGRADE_OPTIONS.has(o.toLowerCase()));
      if (kept.length > 0) lines.push(`Connection: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${req.rawHeaders[i] ?? ''}: ${value}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}

export type WebSocketUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Takes the server's upgrades: a WebSocket upgrade goes to `websocket`, any other is answered as the
 * HTTP request it also is.
 */
export function onUpgrade(server: Server, websocket: WebSocketUpgrade): void {
  const answers = new AnswersInFlight(server);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (/^websocket$/i.test(String(req.headers.upgrade ?? '').trim())) return websocket(req, socket, head);
    answers.after(socket, () => asHttpRequest(server, req, socket, head));
  });
}

/**
 * The media server's WebSocket, `GET /socket` of the document (`openSocket`): the web client opens it
 * after signing in (`?api_key=<token>&deviceId=<id>`). The upgrade is matched by the same front door rules
 * as every request (the base path, any letter case) and authenticated as they are (the token in the query
 * or in any header the other routes read). The server sends `ForceKeepAlive` with the seconds the client
 * has between keep-alives, and answers each `KeepAlive` with one of its own, each message with a new
 * `MessageId`; this host has no sessions to report or commands to relay, so that is all it sends. A
 * socket silent for three times that long is closed.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { loadBundledDocument } from '../../common/documents';
import { OperationTable } from '../../common/http/matched-operation';
import { readRequestTarget } from '../../common/http/request-target';
import { onUpgrade } from '../../common/http/upgrade';
import { resolveToken } from '../domain/accounts';
import { findToken } from '../domain/credentials';
import type { SubtitlesStore } from '../store/store';

/** Seconds between the client's keep-alives, as the media server asks them. */
export const KEEP_ALIVE_SECONDS = 60;

export interface SocketSettings {
  basePath: string;
  store: SubtitlesStore;
  legacyAuthorization: () => boolean;
  logger: Logger;
}

const refuse = (socket: Duplex, status: string) => {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
};

export function attachSocket(server: Server, settings: SocketSettings): void {
  const table = new OperationTable(loadBundledDocument('subtitles'));
  const basePath = settings.basePath.toLowerCase();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  onUpgrade(server, async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const target = readRequestTarget(req.url ?? '');
    if (!target.ok) return refuse(socket, '400 Bad Request');
    const lower = target.pathname.toLowerCase();
    if (basePath && !lower.startsWith(`${basePath}/`)) return refuse(socket, '404 Not Found');
    const found = table.find(req.method ?? 'GET', target.pathname.slice(basePath.length));
    if (found?.operationId !== 'openSocket') return refuse(socket, '404 Not Found');
    const query = new URLSearchParams(target.query.slice(1));
    const token = findToken(
      {
        header: (name) => {
          const value = req.headers[name.toLowerCase()];
          return Array.isArray(value) ? value[0] : value;
        },
        apiKeyQuery: query.get('api_key') ?? query.get('ApiKey') ?? undefined,
      },
      settings.legacyAuthorization(),
    );
    const principal = token ? await resolveToken(settings.store, token).catch(() => undefined) : undefined;
    if (!principal) return refuse(socket, '401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const send = (message: Record<string, unknown>) =>
        ws.send(JSON.stringify({ ...message, MessageId: randomUUID().replaceAll('-', '') }));
      let silence: NodeJS.Timeout;
      const quiet = () => {
        clearTimeout(silence);
        silence = setTimeout(() => ws.terminate(), 3 * KEEP_ALIVE_SECONDS * 1000);
        silence.unref();
      };
      ws.on('error', () => undefined);
      ws.on('close', () => clearTimeout(silence));
      ws.on('message', (data) => {
        quiet();
        let type: unknown;
        try {
          type = (JSON.parse(data.toString()) as { MessageType?: unknown }).MessageType;
        } catch {
          return;
        }
        if (type === 'KeepAlive') send({ MessageType: 'KeepAlive' });
      });
      quiet();
      send({ MessageType: 'ForceKeepAlive', Data: KEEP_ALIVE_SECONDS });
    });
  });
}

import type { Server, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';

export interface RunningServer {
  server: Server;
  url: string;
  /**
   * Graceful stop: the hooks run first (the WebSocket hub closes its sockets with 1001), the socket stops
   * accepting, idle keep-alive connections close, requests in flight finish (at most `graceMs`, default
   * 10 s, after which what is left is cut).
   */
  close(): Promise<void>;
  /** Runs before the listener closes, e.g. `(wss) => closeWebSockets(wss)` of the WebSocket hub. */
  onClose(hook: () => Promise<void> | void): void;
}

/** The close code a WebSocket gets when the server goes away (RFC 6455 1001 Going Away). */
export const GOING_AWAY = 1001;

/** Closes every client of a `ws` server with 1001 and waits for their close frames (at most 2 s). */
export async function closeWebSockets(wss: {
  clients: Set<{
    close(code: number, reason: string): void;
    terminate(): void;
    once(e: 'close', f: () => void): unknown;
  }>;
}): Promise<void> {
  await Promise.all(
    [...wss.clients].map(
      (socket) =>
        new Promise<void>((done) => {
          const timer = setTimeout(() => {
            socket.terminate();
            done();
          }, 2000);
          socket.once('close', () => {
            clearTimeout(timer);
            done();
          });
          socket.close(GOING_AWAY, 'Server shutting down');
        }),
    ),
  );
}

/** Listens on host:port (port 0 picks a free one) and resolves once the socket is bound. */
export function listen(
  app: Express,
  port: number,
  host = '127.0.0.1',
  options: { graceMs?: number } = {},
): Promise<RunningServer> {
  const hooks: (() => Promise<void> | void)[] = [];
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    // Answers in progress, so a close can tell their keep-alive connections to end with the answer.
    const answering = new Set<ServerResponse>();
    server.on('request', (_req, res: ServerResponse) => {
      answering.add(res);
      res.once('close', () => answering.delete(res));
    });
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        onClose: (hook) => {
          hooks.push(hook);
        },
        close: async () => {
          for (const hook of hooks.splice(0)) await hook();
          await new Promise<void>((done) => {
            if (!server.listening) return done();
            const cut = setTimeout(() => server.closeAllConnections(), options.graceMs ?? 10_000);
            server.close(() => {
              clearTimeout(cut);
              done();
            });
            // Keep-alive connections with no request in flight close now; busy ones after their answer.
            server.closeIdleConnections();
            for (const res of answering) if (!res.headersSent) res.setHeader('Connection', 'close');
          });
        },
      });
    });
  });
}

/**
 * Stops everything once on SIGINT/SIGTERM, in the order given (each closer stops accepting, finishes what
 * is in flight and closes its database), then exits 0. A second signal exits at once with 1.
 */
export function closeOnSignals(logger: Logger, ...closers: (() => Promise<void>)[]): void {
  let closing = false;
  const stop = async (signal: string) => {
    if (closing) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ signal }, 'shutting down');
    for (const close of closers) {
      await close().catch((error: unknown) => logger.error({ err: error }, 'error while shutting down'));
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

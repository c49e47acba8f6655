/**
 * A TCP proxy on 127.0.0.1 in front of another port, that a test can cut: the database "goes away" for the
 * service behind it (its connections reset, new ones refused) while the real server keeps running, and
 * comes back when the proxy listens again on the same port.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  /** Resets every connection and refuses new ones. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const make = () =>
    createServer((client) => {
      const upstream = createConnection(targetPort, targetHost);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.once('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  let server: Server | null = make();
  const port = await listen(server, 0);
  const stop = async () => {
    const closing = server;
    server = null;
    for (const s of sockets) s.resetAndDestroy();
    if (closing) await new Promise((resolve) => closing.close(resolve));
  };
  return {
    port,
    through: (url) => {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut: stop,
    restore: async () => {
      if (server) return;
      server = make();
      await listen(server, port);
    },
    close: stop,
  };
}

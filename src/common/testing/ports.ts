import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The first port the kernel hands out on its own (to `listen(0)` and to every outgoing connection): ports
 * below it are never taken by a connection another test opens meanwhile.
 */
function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const start = Number(low);
    return Number.isInteger(start) && start > 2048 ? start : 32768;
  } catch {
    return 32768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function anyPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A TCP port free on 127.0.0.1 right now, for a child process or a fake upstream to bind a moment later.
 * Drawn at random below the kernel's ephemeral range: a port from `listen(0)` lies inside it, where an
 * outgoing connection of another test (to PostgreSQL, say) could take it before the child binds it
 * (EADDRINUSE, seen in CI).
 */
export async function freePort(): Promise<number> {
  const top = ephemeralStart() - 1;
  const bottom = Math.max(10_000, top - 12_000);
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = bottom + Math.floor(Math.random() * (top - bottom + 1));
    if (await bindable(port)) return port;
  }
  return anyPort();
}

/**
 * A port on 127.0.0.1 that resets every connection, held until `close()`. A test of a refused or broken
 * upstream uses it instead of a port from `freePort()`, which a parallel test may bind again meanwhile
 * (and answer).
 */
export function resettingPort(): Promise<{ port: number; url: string; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.resetAndDestroy());
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

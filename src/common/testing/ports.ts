import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for a fake upstream or a child process to bind). */
export function freePort(): Promise<number> {
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

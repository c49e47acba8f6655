/**
 * What the stand-ins for the upstreams (one file each beside this one) share: a server on 127.0.0.1 and the
 * ways the real ones fail: an error status, a body that is not JSON/XML, a slow answer, or no answer at all.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type FailureMode = 'ok' | 'error' | 'garbage' | 'hang';

export interface Running {
  url: string;
  close(): Promise<void>;
}

export async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Running & { server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export function garbage(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/html' });
  res.end('<html><body>502 Bad Gateway</body></html>');
}

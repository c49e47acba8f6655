/**
 * For tests: a transcription server on 127.0.0.1. `GET /v1/info` names it; `POST /v1/jobs` takes the audio
 * (raw body, `X-Content-Hash`, `X-Callback-Url`) and answers a job id; `complete(job)` then posts the
 * job's outcome to the callback URL signed with Standard Webhooks, as the real server does.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Job {
  id: string;
  bytes: number;
  contentType: string | undefined;
  contentHash: string | undefined;
  callbackUrl: string | undefined;
  authorization: string | undefined;
}

export interface FakeTranscriptionServer {
  url: string;
  jobs: Job[];
  /** Posts a signed callback; returns the viewer's status. `id` reuses a delivery id (a replay). */
  complete(
    job: Job,
    body: Record<string, unknown>,
    options?: { id?: string; secret?: string; url?: string },
  ): Promise<number>;
  close(): Promise<void>;
}

export async function startFakeTranscriptionServer(secret: string): Promise<FakeTranscriptionServer> {
  const jobs: Job[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && req.url === '/v1/info') {
        res.end(JSON.stringify({ name: 'akou', version: '2.4.1' }));
        return;
      }
      if (req.method === 'POST' && req.url === '/v1/jobs') {
        const job: Job = {
          id: `job_${randomBytes(6).toString('hex')}`,
          bytes: Buffer.concat(chunks).length,
          contentType: req.headers['content-type'],
          contentHash: req.headers['x-content-hash'] as string | undefined,
          callbackUrl: req.headers['x-callback-url'] as string | undefined,
          authorization: req.headers.authorization,
        };
        jobs.push(job);
        res.statusCode = 202;
        res.end(JSON.stringify({ job_id: job.id, status: 'queued' }));
        return;
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    jobs,
    async complete(job, body, options = {}) {
      const id = options.id ?? `msg_${randomBytes(8).toString('hex')}`;
      const payload = JSON.stringify(body);
      // One instant for the signature and its header: two readings of the clock can fall either side of
      // a second, and the signature then covers another timestamp than the one sent.
      const at = new Date();
      const signature = new Webhook(options.secret ?? secret).sign(id, at, payload);
      const res = await fetch(options.url ?? job.callbackUrl ?? '', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: payload,
      });
      await res.arrayBuffer();
      return res.status;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

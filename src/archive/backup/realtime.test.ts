/**
 * Delivery of the listener's events: SQLite mode POSTs the InternalPushEvent body to the viewer's
 * `/internal/push` with the bearer secret (INTERNAL_PUSH_SECRET, else the `.push-secret` beside the
 * database); PostgreSQL mode notifies the viewers' channel.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../store/testing/databases';
import type { ArchiveEvent } from './listener';
import {
  httpDelivery,
  LIVE_CHANNEL,
  notifyDelivery,
  openDelivery,
  pushSecret,
  viewerPushUrl,
} from './realtime';

const event: ArchiveEvent = {
  type: 'edit',
  chat_id: -1001234,
  account_id: 1,
  data: { message_id: 9, new_text: 'changed', edit_date: '2026-03-14T09:25:40.000Z' },
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-realtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('event delivery, SQLite mode', () => {
  it('reads the viewer address and the push secret as the viewer writes it', () => {
    expect(viewerPushUrl({})).toBe('http://127.0.0.1:8080/internal/push');
    expect(viewerPushUrl({ VIEWER_HOST: 'viewer', VIEWER_PORT: '8000' })).toBe(
      'http://viewer:8000/internal/push',
    );
    const database = {
      backend: 'sqlite' as const,
      path: path.join(dir, 'archive.db'),
      timeoutSeconds: 5,
      echo: false,
    };
    expect(pushSecret({}, database)).toBeNull();
    writeFileSync(path.join(dir, '.push-secret'), 'from-the-file\n');
    expect(pushSecret({}, database)).toBe('from-the-file');
    expect(pushSecret({ INTERNAL_PUSH_SECRET: 'from-env' }, database)).toBe('from-env');
  });

  it('POSTs the event with the bearer secret and reports a refusal', async () => {
    const received: { auth: string | undefined; body: unknown }[] = [];
    let status = 200;
    const server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({ auth: req.headers.authorization, body: JSON.parse(body) });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const database = {
        backend: 'sqlite' as const,
        path: path.join(dir, 'archive.db'),
        timeoutSeconds: 5,
        echo: false,
      };
      const delivery = openDelivery({ VIEWER_PORT: String(port) }, database);
      await delivery.publish(event);
      expect(received).toEqual([{ auth: 'Bearer from-the-file', body: event }]);
      status = 403;
      await expect(delivery.publish(event)).rejects.toThrow('viewer answered 403');
      const open = httpDelivery(`http://127.0.0.1:${port}/internal/push`, null);
      status = 200;
      await open.publish(event);
      expect(received[2]?.auth).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('event delivery, PostgreSQL mode', () => {
  it('notifies the viewers’ channel with the event', async () => {
    const db = await createTestDatabase('postgresql');
    const url = (db.config as { url: string }).url;
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const delivery = notifyDelivery(url);
    try {
      const payloads: string[] = [];
      listener.on('notification', (n) => {
        if (n.channel === LIVE_CHANNEL) payloads.push(n.payload ?? '');
      });
      await listener.query(`LISTEN ${LIVE_CHANNEL}`);
      await delivery.publish(event);
      await delivery.publish({ ...event, type: 'pin', data: { message_ids: [9], pinned: true } });
      await expect.poll(() => payloads.length).toBe(2);
      expect(payloads.map((p) => JSON.parse(p))).toEqual([
        event,
        { ...event, type: 'pin', data: { message_ids: [9], pinned: true } },
      ]);
    } finally {
      await delivery.close();
      await listener.end();
      await db.drop();
    }
  });
});

/** Two viewers on one PostgreSQL database both deliver every event, however it enters. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  startViewerOn,
  type TestViewer,
} from '../http/test-viewer';
import { NOTIFY_LIMIT_BYTES, notifyViewers } from './publisher';
import { TestSocket } from './test-socket';

const RC = FIXTURE.releaseCrew.ref;

describe('live updates through PostgreSQL notifications', () => {
  let a: TestViewer;
  let b: TestViewer;
  let onA: TestSocket;
  let onB: TestSocket;
  let cookie = '';

  beforeAll(async () => {
    a = await startTestViewer(PASSWORD_ENV, { backend: 'postgresql' });
    b = await startViewerOn(a.database, PASSWORD_ENV);
    cookie = await login(a.url, MASTER.username, MASTER.password);
    onA = await TestSocket.open(a.url, { cookie });
    onB = await TestSocket.open(b.url, { cookie });
    for (const ws of [onA, onB]) await ws.ask({ action: 'subscribe', chat_ref: RC }, 'subscribed');
  });
  afterAll(async () => {
    onA.close();
    onB.close();
    await b.close();
    await a.close();
  });

  it('an event posted to one viewer reaches the sockets of both', async () => {
    const res = await call(a.url, '/internal/push', {
      body: { type: 'pin', chat_id: FIXTURE.releaseCrew.id, data: { message_ids: [4150], pinned: false } },
    });
    expect(res.status).toBe(200);
    const expected = { type: 'pin', chat_ref: RC, message_ids: [4150], pinned: false };
    expect(await onA.next((f) => f.type === 'pin')).toEqual(expected);
    expect(await onB.next((f) => f.type === 'pin')).toEqual(expected);
  });

  it('a writer notifying the database reaches both; a payload over the NOTIFY limit goes by reference, whole', async () => {
    const client = new pg.Client({ connectionString: (a.database as { url: string }).url });
    await client.connect();
    try {
      const text = 'ø'.repeat(NOTIFY_LIMIT_BYTES);
      // A whole message the archive does not hold yet (a stored one is read back from the store instead).
      const listed = await call(a.url, `/api/chats/${RC}/messages?limit=1`, { cookie });
      const { media: _media, ...first } = (listed.body as Record<string, unknown>[])[0] ?? {};
      const message = { ...first, id: 999_001, text };
      await notifyViewers(client, a.db, {
        type: 'new_message',
        chat_id: FIXTURE.releaseCrew.id,
        account_id: 1,
        data: { message },
      });
      for (const ws of [onA, onB]) {
        const frame = await ws.next((f) => f.type === 'new_message');
        expect((frame.message as { text: string }).text).toBe(text);
      }
      const stored = await client.query('SELECT count(*)::int AS n FROM live_events');
      expect(stored.rows[0].n).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('/internal/push on PostgreSQL keeps its caller rules: loopback without a secret', async () => {
    expect(a.wiring.live.pushSecret).toBeNull();
    expect(a.wiring.live.publisher.mode).toBe('postgresql');
  });
});

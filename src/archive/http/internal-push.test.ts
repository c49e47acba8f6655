// `/internal/push` answers every body as the document says, whether the ordinary post is answered ahead
// of the router (internal-push.ts) or the request takes the normal path; accepted events reach the bus.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXTURE, PASSWORD_ENV, startTestViewer, type TestViewer } from './test-viewer';

const SECRET = 'a-push-secret-for-tests';
const EDIT = { message_id: 1, new_text: 'x', edit_date: '2026-03-14T09:25:40Z' };

interface Case {
  name: string;
  body?: string;
  contentType?: string | null;
  authorization?: string | null;
  method?: string;
  query?: string;
  status: number;
  answer: unknown;
  /** Whether the event reaches the viewer's bus. */
  published?: boolean;
}

const ok = { type: 'edit', chat_id: FIXTURE.releaseCrew.id, account_id: 1, data: EDIT };
const json = (value: unknown) => JSON.stringify(value);
const invalid = (detail: string) => ({ detail });

const CASES: Case[] = [
  { name: 'an ordinary post', body: json(ok), status: 200, answer: { status: 'ok' }, published: true },
  {
    name: 'text holding U+0000',
    body: json({ ...ok, data: { ...EDIT, new_text: 'a\u0000b' } }),
    status: 400,
    answer: invalid('data.new_text: must not contain the character U+0000'),
    published: false,
  },
  {
    name: 'a post with charset',
    body: json(ok),
    contentType: 'application/json; charset=utf-8',
    status: 200,
    answer: { status: 'ok' },
    published: true,
  },
  {
    name: 'account_id null',
    body: json({ ...ok, account_id: null }),
    status: 200,
    answer: { status: 'ok' },
    published: true,
  },
  {
    name: 'an extra property',
    body: json({ ...ok, extra: 1 }),
    status: 200,
    answer: { status: 'ok' },
    published: true,
  },
  {
    // Accepted, and dropped as the document says: no archived chat has that id.
    name: 'a chat id beyond 2^53',
    body: `{"type":"edit","chat_id":-1152921504606846977,"data":${json(EDIT)}}`,
    status: 200,
    answer: { status: 'ok' },
  },
  { name: 'no secret', body: json(ok), authorization: null, status: 403, answer: invalid('Forbidden') },
  {
    name: 'a wrong secret',
    body: json(ok),
    authorization: 'Bearer nope',
    status: 403,
    answer: invalid('Forbidden'),
  },
  { name: 'broken JSON', body: '{"type":', status: 400, answer: invalid('Request body is not valid JSON') },
  { name: 'a bare null', body: 'null', status: 400, answer: invalid('Request body is not valid JSON') },
  {
    name: 'text/plain',
    body: json(ok),
    contentType: 'text/plain',
    status: 400,
    answer: invalid('Request body must be JSON (Content-Type: application/json)'),
  },
  {
    name: 'another charset',
    body: json(ok),
    contentType: 'application/json; charset=utf-16',
    status: 400,
    answer: invalid('Request body is not valid JSON'),
  },
  { name: 'an empty object', body: '{}', status: 400, answer: invalid('Missing field: type') },
  { name: 'an array', body: '[]', status: 400, answer: invalid('body: must be object') },
  ...['"x"', '1.5'].map((chatId) => ({
    name: `chat_id ${chatId}`,
    body: `{"type":"edit","chat_id":${chatId},"data":${json(EDIT)}}`,
    status: 400,
    answer: invalid("chat_id must be the platform's integer chat id"),
  })),
  {
    name: 'a chat id no 64-bit integer holds',
    body: `{"type":"edit","chat_id":1180591620717411303424,"data":${json(EDIT)}}`,
    status: 400,
    answer: invalid("chat_id must be the platform's integer chat id"),
  },
  {
    name: 'an unknown type',
    body: json({ ...ok, type: 'nonsense' }),
    status: 400,
    answer: invalid(
      'type: must be equal to one of the allowed values: new_message, edit, delete, pin, reaction, transcript',
    ),
  },
  {
    name: "a type's missing field",
    body: json({ ...ok, data: { message_id: 1 } }),
    status: 400,
    answer: invalid('Missing field: data.new_text'),
  },
  {
    name: 'account_id text',
    body: json({ ...ok, account_id: 'a' }),
    status: 400,
    answer: invalid('account_id: must be integer'),
  },
  {
    name: 'a body over 1 MB',
    body: json({ ...ok, data: { ...EDIT, new_text: 'x'.repeat(1_100_000) } }),
    status: 413,
    answer: invalid('Payload too large'),
  },
  {
    name: 'a query',
    body: json(ok),
    query: '?x=1',
    status: 400,
    answer: invalid("x: Unknown query parameter 'x'"),
  },
  { name: 'GET', method: 'GET', status: 405, answer: invalid('Method Not Allowed') },
];

describe('/internal/push answers', () => {
  let viewer: TestViewer;
  beforeAll(async () => {
    viewer = await startTestViewer({ ...PASSWORD_ENV, INTERNAL_PUSH_SECRET: SECRET });
  });
  afterAll(() => viewer.close());

  for (const c of CASES) {
    it(c.name, async () => {
      const headers: Record<string, string> = {};
      if (c.contentType !== null) headers['content-type'] = c.contentType ?? 'application/json';
      if (c.authorization !== null) headers.authorization = c.authorization ?? `Bearer ${SECRET}`;
      const before = viewer.wiring.live.bus.emitted;
      const res = await fetch(`${viewer.url}/internal/push${c.query ?? ''}`, {
        method: c.method ?? 'POST',
        headers,
        ...(c.body !== undefined && { body: c.body }),
      });
      expect(res.status).toBe(c.status);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.json()).toEqual(c.answer);
      expect(viewer.wiring.live.bus.emitted - before).toBe(c.published ? 1 : 0);
    });
  }
});

describe('the fast path’s own schema', () => {
  it('knows every format the document uses: building the app warns of none', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const viewer = await startTestViewer(PASSWORD_ENV);
      await viewer.close();
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses an edit whose date is no date-time, as the validator does', async () => {
    const viewer = await startTestViewer(PASSWORD_ENV);
    try {
      const res = await fetch(`${viewer.url}/internal/push`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${viewer.wiring.live.pushSecret}`,
        },
        body: JSON.stringify({ ...ok, data: { ...EDIT, edit_date: 'yesterday' } }),
      });
      expect(res.status).toBe(400);
    } finally {
      await viewer.close();
    }
  });
});

/**
 * `/ws/updates` against the AsyncAPI document: every frame the server sends here is validated against
 * the document's payload schema for its `type` (ajv), and every client frame the document lists is sent.
 */
import path from 'node:path';
import { fromFile, Parser } from '@asyncapi/parser';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../common/services';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../http/test-viewer';
import { type Frame, TestSocket } from './test-socket';

type Json = Record<string, unknown>;

function withoutParserKeys(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutParserKeys);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => !k.startsWith('x-parser-'))
      .map(([k, v]) => [k, withoutParserKeys(v)]),
  );
}

/** The `enum` of a property, wherever the payload declares it (its own properties or an `allOf` part). */
function declaredEnum(schema: Json, property: string): string | undefined {
  const own = (schema.properties as Record<string, Json> | undefined)?.[property]?.enum as
    | string[]
    | undefined;
  if (own) return own[0];
  for (const part of (schema.allOf as Json[] | undefined) ?? []) {
    const found = declaredEnum(part, property);
    if (found) return found;
  }
  return undefined;
}

/** Validators of server frames by `type`, and the client frames by `action`, from the document. */
async function loadDocument() {
  const file = path.join(ROOT, 'asyncapi/archive-updates/asyncapi.yaml');
  const { document } = await fromFile(new Parser(), file).parse();
  if (!document) throw new Error('AsyncAPI document does not parse');
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const server = new Map<string, ValidateFunction>();
  const client = new Set<string>();
  for (const message of document.allMessages()) {
    const payload = withoutParserKeys(message.payload()?.json()) as Json;
    const type = declaredEnum(payload, 'type');
    const action = declaredEnum(payload, 'action');
    if (type) server.set(type, ajv.compile(payload));
    if (action) client.add(action);
  }
  return { server, client, ajv };
}

const RC = FIXTURE.releaseCrew.ref;
const ENV = {
  ...PASSWORD_ENV,
  MAX_WS_SUBSCRIPTIONS_PER_CONNECTION: '3',
  TRANSCRIPTION_ENABLED: 'true',
  CORS_ORIGINS: 'https://viewer.example',
};

describe('/ws/updates against the AsyncAPI document', () => {
  let viewer: TestViewer;
  let doc: Awaited<ReturnType<typeof loadDocument>>;
  let master: string;
  let looker: string;
  const sockets: TestSocket[] = [];
  const sentActions = new Set<string>();

  const open = async (options: Parameters<typeof TestSocket.open>[1] = {}) => {
    const socket = await TestSocket.open(viewer.url, options);
    sockets.push(socket);
    return socket;
  };
  const push = (body: unknown) =>
    call(viewer.url, '/internal/push', {
      body,
      headers: { authorization: `Bearer ${viewer.wiring.live.pushSecret}` },
    });
  const ask = (socket: TestSocket, frame: unknown, type: string) => {
    const action = (frame as { action?: unknown } | null)?.action;
    if (typeof action === 'string') sentActions.add(action);
    return socket.ask(frame, type);
  };

  beforeAll(async () => {
    doc = await loadDocument();
    viewer = await startTestViewer(ENV);
    master = await login(viewer.url, MASTER.username, MASTER.password);
    await call(viewer.url, '/api/admin/viewers', {
      cookie: master,
      body: { username: 'looker', password: 'looker-password', no_download: true },
    });
    looker = await login(viewer.url, 'looker', 'looker-password');
  });

  afterAll(async () => {
    // Every frame any socket received in this suite, against its schema.
    const problems: string[] = [];
    for (const frame of sockets.flatMap((s) => s.frames)) {
      const type = frame.type;
      const validate = doc.server.get(type);
      if (!validate) problems.push(`undocumented frame type ${type}`);
      else if (!validate(frame as unknown)) problems.push(`${type}: ${doc.ajv.errorsText(validate.errors)}`);
    }
    for (const s of sockets) s.close();
    await viewer.close();
    expect(problems).toEqual([]);
    expect([...doc.client].filter((action) => !sentActions.has(action))).toEqual([]);
  });

  it('answers subscribe, unsubscribe and ping, and denies invisible chats and the limit', async () => {
    const ws = await open({ cookie: master });
    expect(await ask(ws, { action: 'ping' }, 'pong')).toEqual({ type: 'pong' });
    expect(await ask(ws, { action: 'subscribe', chat_ref: RC }, 'subscribed')).toEqual({
      type: 'subscribed',
      chat_ref: RC,
    });
    // The same chat again does not count twice.
    await ask(ws, { action: 'subscribe', chat_ref: RC }, 'subscribed');
    await ask(ws, { action: 'subscribe', chat_ref: FIXTURE.anna.ref }, 'subscribed');
    expect(await ask(ws, { action: 'subscribe', chat_ref: 'nope' }, 'subscribe_denied')).toEqual({
      type: 'subscribe_denied',
      chat_ref: 'nope',
      reason: 'not_found',
    });
    await ask(ws, { action: 'subscribe', chat_ref: FIXTURE.forum.ref }, 'subscribed');
    expect(await ask(ws, { action: 'subscribe', chat_ref: FIXTURE.news.ref }, 'subscribe_denied')).toEqual({
      type: 'subscribe_denied',
      chat_ref: FIXTURE.news.ref,
      reason: 'subscription_limit',
    });
    expect(await ask(ws, { action: 'unsubscribe', chat_ref: FIXTURE.forum.ref }, 'unsubscribed')).toEqual({
      type: 'unsubscribed',
      chat_ref: FIXTURE.forum.ref,
    });
    await ask(ws, { action: 'subscribe', chat_ref: FIXTURE.news.ref }, 'subscribed');
  });

  it('answers frames it cannot act on with an error frame and stays open', async () => {
    const ws = await open({ cookie: master });
    expect((await ask(ws, 'not json{', 'error')).error).toBe('invalid_json');
    expect((await ask(ws, { action: 'dance' }, 'error')).error).toBe('unknown_action');
    expect((await ask(ws, { action: 'subscribe' }, 'error')).error).toBe('invalid_frame');
    expect((await ask(ws, [1, 2], 'error')).error).toBe('invalid_frame');
    expect(await ask(ws, { action: 'ping' }, 'pong')).toEqual({ type: 'pong' });
  });

  it('a share token sees only its chats', async () => {
    const { token } = (
      await call(viewer.url, '/api/admin/tokens', {
        cookie: master,
        body: { allowed_chat_refs: [FIXTURE.anna.ref] },
      })
    ).body;
    const res = await call(viewer.url, '/auth/token', { body: { token } });
    const cookie = /viewer_auth=([^;]+)/.exec(res.headers.getSetCookie().join())?.[1];
    const ws = await open({ ...(cookie && { cookie }) });
    await ask(ws, { action: 'subscribe', chat_ref: FIXTURE.anna.ref }, 'subscribed');
    expect((await ask(ws, { action: 'subscribe', chat_ref: RC }, 'subscribe_denied')).reason).toBe(
      'not_found',
    );
  });

  it('sends each event type to subscribed sockets only, filtered for no-download logins', async () => {
    const full = await open({ cookie: master });
    const limited = await open({ cookie: looker });
    const other = await open({ cookie: master });
    await ask(full, { action: 'subscribe', chat_ref: RC }, 'subscribed');
    await ask(limited, { action: 'subscribe', chat_ref: RC }, 'subscribed');
    await ask(other, { action: 'subscribe', chat_ref: FIXTURE.anna.ref }, 'subscribed');
    const chat = { chat_id: FIXTURE.releaseCrew.id, account_id: 1 };
    const events: Json[] = [
      { type: 'new_message', ...chat, data: { message: { id: FIXTURE.photoMessageId } } },
      {
        type: 'edit',
        ...chat,
        data: { message_id: 4182, new_text: 'Edited', edit_date: '2026-03-14T09:24:51Z' },
      },
      {
        type: 'delete',
        ...chat,
        data: { message_id: 917, deletion_mode: 'soft', deleted_at: '2026-03-14T10:02:45Z' },
      },
      { type: 'pin', ...chat, data: { message_ids: [4182], pinned: true } },
      { type: 'reaction', ...chat, data: { message_id: 4182, reactions: [{ emoji: '👍', count: 3 }] } },
      { type: 'transcript', ...chat, data: { message_id: 4181, transcript_id: 1, status: 'done' } },
    ];
    for (const event of events) expect((await push(event)).body).toEqual({ status: 'ok' });
    const last = await full.next((f) => f.type === 'transcript');
    expect(last).toEqual({
      type: 'transcript',
      chat_ref: RC,
      message_id: 4181,
      transcript_id: 1,
      status: 'done',
    });
    const types = full.frames.filter((f) => f.chat_ref === RC && f.type !== 'subscribed').map((f) => f.type);
    expect(types).toEqual(['new_message', 'edit', 'delete', 'pin', 'reaction', 'transcript']);
    const message = (full.frames.find((f) => f.type === 'new_message') as Frame).message as Json;
    expect(message.id).toBe(FIXTURE.photoMessageId);
    expect((message.media as Json).url).toBe(`/media/${RC}/${FIXTURE.photoMediaKey}`);

    await limited.next((f) => f.type === 'reaction');
    await ask(limited, { action: 'ping' }, 'pong');
    const seen = limited.frames
      .filter((f) => f.chat_ref === RC && f.type !== 'subscribed')
      .map((f) => f.type);
    expect(seen).toEqual(['new_message', 'edit', 'delete', 'pin', 'reaction']);
    const bare = (limited.frames.find((f) => f.type === 'new_message') as Frame).message as Json;
    expect(bare.media).toMatchObject({ url: null, thumb_url: null, file_path: null, downloaded: false });
    expect(bare.transcripts).toBeUndefined();

    await ask(other, { action: 'ping' }, 'pong');
    expect(other.frames.map((f) => f.type)).toEqual(['subscribed', 'pong']);
  });

  it('stops events after unsubscribe and drops events of chats it cannot place', async () => {
    const ws = await open({ cookie: master });
    await ask(ws, { action: 'subscribe', chat_ref: RC }, 'subscribed');
    await ask(ws, { action: 'unsubscribe', chat_ref: RC }, 'unsubscribed');
    const pin = {
      type: 'pin',
      chat_id: FIXTURE.releaseCrew.id,
      data: { message_ids: [4150], pinned: false },
    };
    expect((await push(pin)).status).toBe(200);
    expect((await push({ ...pin, chat_id: 42 })).body).toEqual({ status: 'ok' });
    await viewer.wiring.live.publisher.settled();
    await viewer.wiring.live.hub.settled();
    expect(ws.frames.some((f) => f.type === 'pin')).toBe(false);
  });

  it('relays a message the archive does not hold only when it is whole, as the frame schema says', async () => {
    const ws = await open({ cookie: master });
    await ask(ws, { action: 'subscribe', chat_ref: RC }, 'subscribed');
    const chat = { chat_id: FIXTURE.releaseCrew.id, account_id: 1 };
    const partial = { id: 999_002, text: 'only an id and a text' };
    expect((await push({ type: 'new_message', ...chat, data: { message: partial } })).status).toBe(200);
    const listed = await call(viewer.url, `/api/chats/${RC}/messages?limit=1`, { cookie: master });
    const whole = { ...(listed.body as Json[])[0], id: 999_003, text: 'whole, not stored yet' };
    expect((await push({ type: 'new_message', ...chat, data: { message: whole } })).status).toBe(200);
    const frame = await ws.next((f) => f.type === 'new_message');
    expect((frame.message as Json).id).toBe(999_003);
    await viewer.wiring.live.hub.settled();
    expect(ws.frames.filter((f) => f.type === 'new_message')).toHaveLength(1);
  });

  it('validates /internal/push bodies with its own messages', async () => {
    const bad = await push({ type: 'edit', chat_id: 'x', data: {} });
    expect(bad).toMatchObject({
      status: 400,
      body: { detail: "chat_id must be the platform's integer chat id" },
    });
    const missing = await push({ type: 'edit', chat_id: 1, data: { message_id: 1 } });
    expect(missing).toMatchObject({ status: 400, body: { detail: 'Missing field: data.new_text' } });
  });

  it('closes with 4001 without a login and 4003 for a foreign Origin', async () => {
    const anonymous = await open();
    expect(await anonymous.closed).toEqual({ code: 4001, reason: 'Not authenticated' });
    const foreign = await open({ cookie: master, origin: 'https://elsewhere.example' });
    expect(await foreign.closed).toEqual({ code: 4003, reason: 'Origin not allowed' });
    const listed = await open({ cookie: master, origin: 'https://viewer.example' });
    expect(await ask(listed, { action: 'ping' }, 'pong')).toEqual({ type: 'pong' });
    const same = await open({ cookie: master, origin: viewer.url });
    expect(await ask(same, { action: 'ping' }, 'pong')).toEqual({ type: 'pong' });
  });
});

describe('/ws/updates connection limits', () => {
  let viewer: TestViewer;
  beforeAll(async () => {
    viewer = await startTestViewer(
      { ...PASSWORD_ENV, MAX_WS_CONNECTIONS: '2' },
      { seed: false, live: { heartbeatMs: 40 } },
    );
  });
  afterAll(() => viewer.close());

  it('closes with 1013 past MAX_WS_CONNECTIONS', async () => {
    const cookie = await login(viewer.url, MASTER.username, MASTER.password);
    const a = await TestSocket.open(viewer.url, { cookie });
    const b = await TestSocket.open(viewer.url, { cookie });
    const c = await TestSocket.open(viewer.url, { cookie });
    expect(await c.closed).toEqual({ code: 1013, reason: 'Too many connections' });
    a.close();
    b.close();
    await Promise.all([a.closed, b.closed]);
  });

  it('terminates a connection that stops answering protocol pings', async () => {
    const cookie = await login(viewer.url, MASTER.username, MASTER.password);
    const dead = await TestSocket.open(viewer.url, { cookie, autoPong: false });
    const alive = await TestSocket.open(viewer.url, { cookie });
    expect((await dead.closed).code).toBe(1006);
    expect(viewer.wiring.live.hub.connections).toBe(1);
    expect(await alive.ask({ action: 'ping' }, 'pong')).toEqual({ type: 'pong' });
    alive.close();
  });
});

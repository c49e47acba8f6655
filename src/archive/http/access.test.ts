/**
 * The access matrix: every documented operation, called by every kind of caller, answers the status the
 * seed's access rules give. Requests are the document's examples with real fixture ids, so a caller that
 * passes the guard gets the route's own answer.
 */
import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundledDocument } from '../../common/documents';
import { documentedOperations } from '../../common/http/operations';
import { silentLogger } from '../../common/logger';
import { type ExamplePages, writeExamplePages } from '../../common/testing/example-pages';
import { loadConfig } from '../config';
import { accessGuards, accessLevels } from './access';
import { createArchiveApp } from './app';
import { archiveHandlers } from './handlers';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
  tokenLogin,
} from './test-viewer';

// biome-ignore lint/suspicious/noExplicitAny: the bundled document is walked generically.
const doc = loadBundledDocument('archive') as any;

const CALLERS = [
  'none',
  'anonymous',
  'unconfigured',
  'proxy user',
  'viewer-only master',
  'viewer with grant',
  'viewer without grant',
  'share token',
  'master',
] as const;
type Caller = (typeof CALLERS)[number];

/**
 * The seed's access table, written out: public routes by name, "any login" by resource, "chat
 * entitlement" for every `{chat_ref}` route (and the transcript routes by storage media id, whose
 * Login column says entitlement), "master only" for `/api/status`, `/api/stats/refresh`,
 * `/api/admin/*` and the open routes, "internal" for the two routes other containers call.
 */
const SEED_ACCESS: Record<string, 'public' | 'login' | 'chat' | 'master' | 'internal'> = {
  'GET /api/health': 'public',
  'GET /api/auth/check': 'public',
  'GET /api/push/config': 'public',
  'GET /api/notifications/settings': 'public',
  'POST /api/login': 'public',
  'POST /api/logout': 'public',
  'POST /auth/token': 'public',
  'GET /docs': 'public',
  'GET /redoc': 'public',
  'GET /openapi.json': 'public',
  'GET /sw.js': 'public',
  'GET /': 'public',
  'GET /static/{file}': 'public',
  'GET /static/docs/{file}': 'public',
  'GET /favicon.ico': 'public',
  'GET /api/accounts': 'login',
  'GET /api/chats': 'login',
  'GET /api/archived/count': 'login',
  'GET /api/folders': 'login',
  'GET /api/stats': 'login',
  'GET /api/search/messages': 'login',
  'GET /api/tags/{tag}': 'login',
  'GET /api/changes': 'login',
  'GET /api/transcription/status': 'login',
  'POST /api/push/subscribe': 'login',
  'POST /api/push/unsubscribe': 'login',
  'GET /api/chats/{chat_ref}': 'chat',
  'GET /api/chats/{chat_ref}/messages': 'chat',
  'GET /api/chats/{chat_ref}/messages/{message_id}/versions': 'chat',
  'GET /api/chats/{chat_ref}/pinned': 'chat',
  'GET /api/chats/{chat_ref}/messages/by-date': 'chat',
  'GET /api/chats/{chat_ref}/messages/dates': 'chat',
  'GET /api/chats/{chat_ref}/topics': 'chat',
  'GET /api/chats/{chat_ref}/stats': 'chat',
  'GET /api/chats/{chat_ref}/avatars': 'chat',
  'GET /api/chats/{chat_ref}/media': 'chat',
  'GET /api/chats/{chat_ref}/media/counts': 'chat',
  'GET /api/chats/{chat_ref}/export': 'chat',
  'GET /api/chats/{chat_ref}/media/{media_key}/transcripts': 'chat',
  'POST /api/chats/{chat_ref}/media/{media_key}/transcripts': 'chat',
  'GET /api/media/{media_id}/transcripts': 'chat',
  'POST /api/media/{media_id}/transcripts': 'chat',
  'GET /media/{chat_ref}/{media_key}': 'chat',
  'GET /media/thumb/{size}/{chat_ref}/{media_key}': 'chat',
  'GET /media/avatar/{chat_ref}': 'chat',
  'GET /media/avatar/{chat_ref}/{message_id}': 'chat',
  'GET /api/status': 'master',
  'POST /api/stats/refresh': 'master',
  'POST /media/open/{chat_ref}/{media_key}': 'master',
  'POST /media/open-path/{chat_ref}/{media_key}': 'master',
  'GET /api/admin/viewers': 'master',
  'POST /api/admin/viewers': 'master',
  'PUT /api/admin/viewers/{id}': 'master',
  'DELETE /api/admin/viewers/{id}': 'master',
  'GET /api/admin/chats': 'master',
  'GET /api/admin/tokens': 'master',
  'POST /api/admin/tokens': 'master',
  'PUT /api/admin/tokens/{id}': 'master',
  'DELETE /api/admin/tokens/{id}': 'master',
  'POST /api/admin/sessions/end-all': 'master',
  'GET /api/admin/audit': 'master',
  'GET /api/admin/settings': 'master',
  'PUT /api/admin/settings/{key}': 'master',
  'POST /internal/push': 'internal',
  'POST /api/transcriptions/callback': 'internal',
};

const routeOf = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;

/** What a caller who passes the guard gets for the example request on the seeded archive. */
const ALLOWED: Record<string, number> = {
  login: 401,
  loginWithToken: 401,
  createViewer: 201,
  createShareToken: 201,
  requestMediaTranscript: 409,
  requestStoredMediaTranscript: 409,
  // Every viewer on SQLite has a push secret (the .push-secret file); these requests carry none.
  pushInternalUpdate: 403,
  subscribePush: 400,
  unsubscribePush: 400,
  receiveTranscriptionCallback: 404,
};

const ops = documentedOperations(doc);
const opById = new Map(ops.map((o) => [o.operationId, o]));
const LAST = ['endAllSessions', 'logout'];
const rows = [
  ...ops.filter((o) => !LAST.includes(o.operationId)),
  ...LAST.map((id) => opById.get(id)).filter((o) => o !== undefined),
];

function expected(operationId: string, caller: Caller): number {
  const op = opById.get(operationId);
  const access = op ? SEED_ACCESS[routeOf(op)] : undefined;
  if (!op || !access) throw new Error(`${operationId} is not in the seed's access table`);
  const allowed = ALLOWED[operationId] ?? 200;
  if (access === 'public' || access === 'internal') {
    if (operationId === 'login' && caller === 'anonymous') return 200;
    if (operationId === 'login' && caller === 'unconfigured') return 503;
    // Health says a viewer without a login mode cannot serve (its own body, checked in login.test.ts).
    if (operationId === 'getHealth' && caller === 'unconfigured') return 503;
    return allowed;
  }
  if (caller === 'unconfigured') return 503;
  if (caller === 'none') return 401;
  if (access === 'master') return caller === 'master' ? allowed : 403;
  if (op.path.includes('{chat_ref}') && caller === 'viewer without grant') return 404;
  // Media addressed by storage id in a chat the caller cannot see: the route's own 404.
  if (op.path.includes('{media_id}') && caller === 'viewer without grant') return 404;
  return allowed;
}

describe('x-access marks', () => {
  it('refuses to start when an operation has no mark', () => {
    const copy = structuredClone(doc);
    delete copy.paths['/api/admin/viewers'].post['x-access'];
    expect(() => accessGuards(copy, {} as never, {})).toThrow(
      /createViewer \(POST \/api\/admin\/viewers\) has no valid x-access/,
    );
    expect(() =>
      createArchiveApp({
        config: loadConfig(PASSWORD_ENV),
        store: {} as never,
        logger: silentLogger(),
        document: copy,
      }),
    ).toThrow(/createViewer/);
  });

  it('refuses to start unless every internal operation, and only they, has a caller rule', () => {
    const pass: RequestHandler = (_req, _res, next) => next();
    const rules = { pushInternalUpdate: pass, receiveTranscriptionCallback: pass };
    expect(() => accessGuards(doc, {} as never, rules)).not.toThrow();
    expect(() => accessGuards(doc, {} as never, { pushInternalUpdate: pass })).toThrow(
      /receiveTranscriptionCallback has none/,
    );
    expect(() => accessGuards(doc, {} as never, { ...rules, getStatus: pass })).toThrow(
      /getStatus is not internal/,
    );
    // A route newly marked internal is reached by nobody until it is given its rule.
    const copy = structuredClone(doc);
    copy.paths['/api/status'].get['x-access'] = 'internal';
    expect(() => accessGuards(copy, {} as never, rules)).toThrow(/getStatus has none/);
  });

  it('refuses an unknown level', () => {
    const copy = structuredClone(doc);
    copy.paths['/api/status'].get['x-access'] = 'admin';
    expect(() => accessGuards(copy, {} as never, {})).toThrow(/getStatus/);
  });
});

describe('access matrix', () => {
  const PROXY_ENV = {
    ...PASSWORD_ENV,
    AUTH_PROXY_HEADER: 'X-Remote-User',
    AUTH_PROXY_DEFAULT_ACCESS: 'all',
    TRUST_PROXY_HEADERS: 'true',
    MEDIA_OPEN_CMD: 'true',
    MEDIA_OPEN_PATH_CMD: 'true',
  };
  let main: TestViewer;
  let anonymous: TestViewer;
  let unconfigured: TestViewer;
  let pages: ExamplePages;
  const cookies: Partial<Record<Caller, string>> = {};
  const targets = { viewerToUpdate: 0, viewerToDelete: 0, tokenToUpdate: 0, tokenToDelete: 0 };
  let address = 0;
  const nextAddress = () => `198.51.100.${(address++ % 250) + 1}`;

  beforeAll(async () => {
    // The page and its file are the document's examples, whatever web/dist holds.
    pages = await writeExamplePages('archive');
    const options = { webDist: pages.distRoot };
    [main, anonymous, unconfigured] = await Promise.all([
      startTestViewer(PROXY_ENV, options),
      startTestViewer({ ALLOW_ANONYMOUS_VIEWER: 'true', TRUST_PROXY_HEADERS: 'true' }, options),
      startTestViewer({ TRUST_PROXY_HEADERS: 'true' }, options),
    ]);
    const master = await login(main.url, MASTER.username, MASTER.password);
    cookies.master = master;
    cookies['viewer-only master'] = master;
    const admin = (path: string, body: unknown, method = 'POST') =>
      call(main.url, path, { cookie: master, body, method }).then((r) => r.body);
    await admin('/api/admin/viewers', {
      username: 'grantee',
      password: 'grantee-pass-1',
      allowed_chat_refs: [FIXTURE.releaseCrew.ref],
    });
    await admin('/api/admin/viewers', {
      username: 'nobody',
      password: 'nobody-pass-1',
      allowed_chat_refs: [],
    });
    targets.viewerToUpdate = (
      await admin('/api/admin/viewers', { username: 'target-u', password: 'target-pass-1' })
    ).id;
    targets.viewerToDelete = (
      await admin('/api/admin/viewers', { username: 'target-d', password: 'target-pass-1' })
    ).id;
    const share = await admin('/api/admin/tokens', {
      label: 'matrix',
      allowed_chat_refs: [FIXTURE.releaseCrew.ref],
    });
    targets.tokenToUpdate = (await admin('/api/admin/tokens', { allowed_chat_refs: [FIXTURE.anna.ref] })).id;
    targets.tokenToDelete = (await admin('/api/admin/tokens', { allowed_chat_refs: [FIXTURE.anna.ref] })).id;
    cookies['viewer with grant'] = await login(main.url, 'grantee', 'grantee-pass-1');
    cookies['viewer without grant'] = await login(main.url, 'nobody', 'nobody-pass-1');
    cookies['share token'] = await tokenLogin(main.url, share.token);
  });
  afterAll(async () => {
    await Promise.all([main?.close(), anonymous?.close(), unconfigured?.close()]);
    await pages?.remove();
  });

  function request(operationId: string, caller: Caller) {
    const op = opById.get(operationId);
    if (!op) throw new Error(operationId);
    const operation = doc.paths[op.path][op.method];
    const admin = operationId.includes('Viewer') || operationId.includes('ShareToken');
    const ids: Record<string, string | number> = {
      chat_ref: FIXTURE.releaseCrew.ref,
      message_id: FIXTURE.photoMessageId,
      media_key: FIXTURE.photoMediaKey,
      media_id: `${FIXTURE.releaseCrew.id}_${FIXTURE.voiceMessageId}_voice`,
      key: 'theme',
      tag: '#release',
      size: 200,
      file: operationId === 'getDocsAsset' ? 'swagger-ui.css' : pages.asset.file,
      id: !admin
        ? 1
        : operationId === 'updateViewer'
          ? targets.viewerToUpdate
          : operationId === 'deleteViewer'
            ? targets.viewerToDelete
            : operationId === 'updateShareToken'
              ? targets.tokenToUpdate
              : targets.tokenToDelete,
    };
    const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(ids[name])));
    const query = new URLSearchParams();
    const headers: Record<string, string> = { 'x-forwarded-for': nextAddress() };
    const params = [...(doc.paths[op.path].parameters ?? []), ...(operation.parameters ?? [])].map(
      // biome-ignore lint/suspicious/noExplicitAny: see above.
      (p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p),
    );
    for (const p of params) {
      if (!p.required) continue;
      if (p.in === 'query') query.set(p.name, String(p.example));
      if (p.in === 'header') headers[p.name] = String(p.example);
    }
    if (caller === 'viewer-only master') headers['x-viewer-only'] = 'true';
    if (caller === 'proxy user') headers['x-remote-user'] = 'sso-user';
    const body = operation.requestBody?.content?.['application/json']?.example;
    const base =
      caller === 'anonymous' ? anonymous.url : caller === 'unconfigured' ? unconfigured.url : main.url;
    const qs = query.toString();
    return call(base, `${path}${qs ? `?${qs}` : ''}`, {
      method: op.method.toUpperCase(),
      cookie: cookies[caller],
      headers,
      ...(body !== undefined && { body }),
    });
  }

  it('covers every documented operation, each with one handler', () => {
    expect(rows).toHaveLength(ops.length);
    expect(ops.length).toBeGreaterThan(55);
    // The map is made without touching its wiring, which only the handlers read.
    expect(Object.keys(archiveHandlers({} as never)).sort()).toEqual(ops.map((o) => o.operationId).sort());
    expect(ops.map(routeOf).sort()).toEqual(Object.keys(SEED_ACCESS).sort());
  });

  it("reads the levels the document marks, which are the seed's", () => {
    const marked = Object.fromEntries([...accessLevels(doc)].map(([id, level]) => [id, level]));
    const seed = Object.fromEntries(ops.map((o) => [o.operationId, SEED_ACCESS[routeOf(o)]]));
    expect(marked).toEqual(seed);
  });

  const checkRow = async (operationId: string) => {
    const actual: Record<string, number> = {};
    const wanted: Record<string, number> = {};
    const details: Record<string, unknown> = {};
    const check = async (caller: Caller) => {
      const res = await request(operationId, caller);
      actual[caller] = res.status;
      wanted[caller] = expected(operationId, caller);
      if (res.status !== wanted[caller]) details[caller] = res.body;
      if (
        [401, 403, 404, 503].includes(res.status) &&
        res.status !== ALLOWED[operationId] &&
        operationId !== 'getHealth'
      ) {
        expect(res.body?.detail, `${caller}: ${JSON.stringify(res.body)}`).toBe(
          {
            401: operationId.startsWith('login') ? res.body?.detail : 'Not authenticated',
            403: 'Admin access required',
            404: opById.get(operationId)?.path.includes('{media_id}') ? 'Media not found' : 'Chat not found',
            503: 'Viewer authentication is not configured',
          }[res.status],
        );
      }
    };
    // The master goes last: its writes (end-all above all) must not change what the others meet.
    await Promise.all(CALLERS.filter((c) => c !== 'master').map(check));
    await check('master');
    expect(actual, JSON.stringify(details)).toEqual(wanted);
  };

  // Rows are independent and run together; the two that end sessions (end-all, logout) run last.
  describe.concurrent('rows', () => {
    it.each(
      rows
        .filter((o) => !LAST.includes(o.operationId))
        .map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.operationId] as const),
    )('%s', (_name, operationId) => checkRow(operationId));
  });
  describe('rows that end sessions', () => {
    it.each(LAST.map((id) => [id] as const))('%s', (operationId) => checkRow(operationId));
  });
});

import { describe, expect, it } from 'vitest';
import { deref, loadDocument, operationsOf, parametersOf, type Service } from '../lib/document';

// Every route the seeds name, transcribed from their endpoint tables (method and path template).
const SEED_ROUTES: Record<Service, string[]> = {
  subtitles: [
    'GET /Plugins/{plugin}/Setup/Status',
    'GET /Plugins/{plugin}/Queue',
    'GET /Plugins/{plugin}/Setup/InjectionStatus',
  ],
  fuel: [
    'GET /api/config',
    'GET /api/stats',
    'GET /api/stations',
    'GET /api/stations/nearest',
    'GET /api/geocode',
    'GET /api/exchange-rates',
    'POST /api/route',
    'POST /api/route-stations',
    'POST /api/route-detour',
  ],
  archive: [
    'POST /api/login',
    'POST /auth/token',
    'GET /api/auth/check',
    'POST /api/logout',
    'GET /api/health',
    'GET /api/stats',
    'GET /api/status',
    'POST /api/stats/refresh',
    'GET /api/accounts',
    'GET /api/chats',
    'GET /api/chats/{chat_ref}',
    'GET /api/folders',
    'GET /api/archived/count',
    'GET /api/chats/{chat_ref}/messages',
    'GET /api/chats/{chat_ref}/messages/{message_id}/versions',
    'GET /api/chats/{chat_ref}/pinned',
    'GET /api/chats/{chat_ref}/messages/by-date',
    'GET /api/chats/{chat_ref}/messages/dates',
    'GET /api/chats/{chat_ref}/topics',
    'GET /api/chats/{chat_ref}/stats',
    'GET /api/chats/{chat_ref}/avatars',
    'GET /api/search/messages',
    'GET /api/tags/{tag}',
    'GET /api/changes',
    'GET /media/{chat_ref}/{media_key}',
    'GET /media/thumb/{size}/{chat_ref}/{media_key}',
    'GET /media/avatar/{chat_ref}',
    'GET /media/avatar/{chat_ref}/{message_id}',
    'GET /api/chats/{chat_ref}/media',
    'GET /api/chats/{chat_ref}/media/counts',
    'POST /media/open/{chat_ref}/{media_key}',
    'POST /media/open-path/{chat_ref}/{media_key}',
    'GET /api/chats/{chat_ref}/export',
    'GET /api/transcription/status',
    'GET /api/chats/{chat_ref}/media/{media_key}/transcripts',
    'POST /api/chats/{chat_ref}/media/{media_key}/transcripts',
    'GET /api/media/{media_id}/transcripts',
    'POST /api/media/{media_id}/transcripts',
    'GET /api/push/config',
    'GET /api/notifications/settings',
    'POST /api/push/subscribe',
    'POST /api/push/unsubscribe',
    'GET /api/admin/viewers',
    'POST /api/admin/viewers',
    'PUT /api/admin/viewers/{id}',
    'DELETE /api/admin/viewers/{id}',
    'GET /api/admin/chats',
    'GET /api/admin/tokens',
    'POST /api/admin/tokens',
    'PUT /api/admin/tokens/{id}',
    'DELETE /api/admin/tokens/{id}',
    'POST /api/admin/sessions/end-all',
    'GET /api/admin/audit',
    'GET /api/admin/settings',
    'PUT /api/admin/settings/{key}',
    'POST /internal/push',
    'POST /api/transcriptions/callback',
    'GET /openapi.json',
  ],
};

const OPERATION_ID = /^[a-z][a-zA-Z0-9]+$/;

describe.each(Object.keys(SEED_ROUTES) as Service[])('%s document', (service) => {
  const doc = loadDocument(service);
  const ops = operationsOf(doc);

  it('has every route of the seed with its method', () => {
    const documented = new Set(ops.map((op) => `${op.method.toUpperCase()} ${op.path}`));
    expect(SEED_ROUTES[service].filter((route) => !documented.has(route))).toEqual([]);
  });

  it('names every operation once, in camelCase, with one declared tag and a summary', () => {
    const ids = ops.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const declared = new Set((doc.tags ?? []).map((t: { name: string }) => t.name));
    const bad = ops.filter(
      (op) =>
        !OPERATION_ID.test(op.operationId ?? '') ||
        op.operation.tags?.length !== 1 ||
        !declared.has(op.operation.tags[0]) ||
        !op.operation.summary,
    );
    expect(bad.map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  it('lets every free-form string query parameter carry reserved characters unencoded', () => {
    const strict = ops.flatMap((op) =>
      parametersOf(doc, op)
        .filter(
          (p) =>
            p.in === 'query' && deref(doc, p.schema ?? {}).type === 'string' && !deref(doc, p.schema).enum,
        )
        .filter((p) => !p.allowReserved)
        .map((p) => `${op.operationId} ${p.name}`),
    );
    expect(strict).toEqual([]);
  });

  it('is OpenAPI 3.0.3', () => {
    expect(doc.openapi).toBe('3.0.3');
  });
});

import type { Request, Response } from 'express';
import { contextKey, readContext } from '../../common/http/context';
import type { Actor, AdminDeps } from '../domain/admin';
import { ArchiveError } from '../domain/errors';
import type { AttemptOrigin } from '../domain/login';
import type { MediaDeps } from '../domain/media';
import { type Audience, FileProbe } from '../domain/present';
import type { Principal } from '../domain/principal';
import { visibilityOf } from '../domain/principal';
import type { VerifiedDelivery } from '../live/transcription';
import type { FoundChat, Visibility } from '../store/store';
import { clientIp } from './client';
import type { ArchiveWiring } from './wiring';

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve every typed handler.
type AnyRequest = Request<any, any, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above.
type AnyResponse = Response<any>;

/**
 * What the archive's checks learn about one request, each under its key (src/common/http/context.ts holds
 * them): the access guard writes the caller and the chat (access.ts), the app and the internal push the
 * body as sent (app.ts, internal-push.ts), the callback's reader the verified delivery
 * (transcription-callback.ts).
 */
/** The caller: null for nobody (not written: not authenticated yet). */
export const PRINCIPAL = contextKey<Principal | null>('the archive caller');
/** The chat of a `{chat_ref}` route, found visible to the caller by the access guard. */
export const CHAT = contextKey<FoundChat>('the chat of the route');
/**
 * The JSON body as sent, before the validator coerced it (it turns a `null` into `""` for a string
 * field): for the few rules that must tell them apart.
 */
export const RAW_BODY = contextKey<unknown>('the body as sent');
/** A transcription callback whose signature was checked. */
export const DELIVERY = contextKey<VerifiedDelivery>('the verified transcription callback');

/** The caller, as the access guard authenticated it (routes that need a login). */
export function principal(res: AnyResponse): Principal {
  const p = readContext(res.req, PRINCIPAL);
  if (!p) throw new Error('route has no authenticated principal');
  return p;
}

/** The chat of a `{chat_ref}` route, found and checked visible by the access guard. */
export function chat(res: AnyResponse): FoundChat {
  const found = readContext(res.req, CHAT);
  if (!found) throw new Error('route has no chat');
  return found;
}

export function visibility(wiring: ArchiveWiring, res: AnyResponse): Visibility {
  return visibilityOf(principal(res), wiring.config.displayChatIds);
}

/** Where a request came from, for the audit log of logins. */
export function attemptOrigin(wiring: ArchiveWiring, req: AnyRequest): AttemptOrigin {
  return {
    endpoint: req.path,
    ipAddress: clientIp(req, wiring.config.auth.trustProxyHeaders),
    userAgent: req.headers['user-agent'] ?? null,
  };
}

export function actor(wiring: ArchiveWiring, req: AnyRequest, res: AnyResponse): Actor {
  const p = principal(res);
  return {
    username: p.username ?? 'anonymous',
    role: p.role,
    endpoint: req.path,
    ipAddress: clientIp(req, wiring.config.auth.trustProxyHeaders),
    userAgent: req.headers['user-agent'] ?? null,
  };
}

/** No-download logins get no transcripts. */
export const messageView = (wiring: ArchiveWiring, res: AnyResponse) => ({
  withTranscripts: wiring.config.transcription.enabled && !principal(res).noDownload,
});

/** Who the payload is for: the no-download rule and a fresh look at the files on disk. */
export const audience = (wiring: ArchiveWiring, res: AnyResponse): Audience => ({
  noDownload: principal(res).noDownload,
  files: new FileProbe(wiring.config.media.backupPath),
});

export function mediaDeps(wiring: ArchiveWiring): MediaDeps {
  return { store: wiring.store, backupPath: wiring.config.media.backupPath, thumbnails: wiring.thumbnails };
}

export function adminDeps(wiring: ArchiveWiring): AdminDeps {
  return {
    store: wiring.store,
    sessions: wiring.sessions,
    auth: wiring.config.auth,
    passwordIterations: wiring.passwordIterations,
  };
}

/** The signed transcription callback of this request; a request that was not verified has none. */
export function verifiedDelivery(res: AnyResponse): VerifiedDelivery {
  const delivery = readContext(res.req, DELIVERY);
  if (!delivery) throw new ArchiveError('not-found', 'Not Found');
  return delivery;
}

/** The JSON body as the client sent it (see RAW_BODY). */
export const rawBody = (res: AnyResponse): unknown => readContext(res.req, RAW_BODY);

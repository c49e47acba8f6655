/**
 * Transcripts: requests from viewers (queued, never sent from the request), the sender that submits
 * queued files to the transcription server, and the signed callbacks that bring the outcome back. Each
 * change is published as a `transcript` event; a completed transcript is also a change-feed row.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from '../../../generated/archive/types';
import type { TranscriptionConfig } from '../config';
import { ArchiveError, conflict } from '../domain/errors';
import type { Principal } from '../domain/principal';
import type { ArchiveStore, Transcript, TranscriptMedia } from '../store/store';
import type { WireEvent } from './events';

type TranscriptionStatus = components['schemas']['TranscriptionStatus'];

export const TRANSCRIPTION_OFF = 'Transcription is off';
export const NO_SOUND = 'Only voice, audio and video can be transcribed';
export const NOT_DOWNLOADED = 'Not downloaded yet';
export const CALLBACK_LIMIT_BYTES = 256 * 1024;
const ASK_WINDOW_MS = 10 * 60_000;
const SOUND_TYPES = new Set(['voice', 'audio', 'video', 'video_note']);

export const hasSound = (media: TranscriptMedia) =>
  SOUND_TYPES.has(media.type) || /^(audio|video)\//.test(media.mimeType ?? '');

export interface TranscriptionDeps {
  config: TranscriptionConfig;
  store: ArchiveStore;
  logger: Logger;
  publish(event: WireEvent): Promise<void>;
  now: () => number;
}

/** Callback verification failed: 400 for missing headers or a non-JSON body, 401 for a bad signature. */
export class CallbackRejected extends ArchiveError {}

/**
 * A callback whose Standard Webhooks signature was checked: only `verify` makes one, and `receive` takes
 * nothing else, so no path to the store skips the signature.
 */
export class VerifiedDelivery {
  readonly #verified = true;
  constructor(
    readonly webhookId: string,
    readonly body: unknown,
  ) {}
  static check(value: unknown): value is VerifiedDelivery {
    return value instanceof VerifiedDelivery && value.#verified;
  }
}

export class Transcription {
  private readonly webhook: Webhook | null;

  constructor(private readonly deps: TranscriptionDeps) {
    const { enabled, webhookSecret } = deps.config;
    this.webhook = enabled && webhookSecret ? new Webhook(webhookSecret) : null;
  }

  /** The callback route exists only with transcription on and a `whsec_` secret. */
  get callbackEnabled(): boolean {
    return this.webhook !== null;
  }

  async status(): Promise<TranscriptionStatus> {
    const { store, config } = this.deps;
    const [name, version] = await Promise.all([
      store.getSetting('transcription_server_name'),
      store.getSetting('transcription_server_version'),
    ]);
    return {
      enabled: config.enabled,
      configured: config.configured,
      server_name: name,
      server_version: version,
    };
  }

  list(media: TranscriptMedia): Promise<Transcript[]> {
    return this.deps.store.listTranscriptsOf(media);
  }

  /** Queues a request or returns the open one; refuses with 409 or 429 as the document says. */
  async request(
    caller: Principal,
    media: TranscriptMedia,
  ): Promise<{ transcript: Transcript; created: boolean }> {
    const { store, config } = this.deps;
    if (!config.enabled) throw conflict(TRANSCRIPTION_OFF);
    if (!hasSound(media)) throw conflict(NO_SOUND);
    if (!media.downloaded || !media.filePath) throw conflict(NOT_DOWNLOADED);
    const now = this.deps.now();
    const open = (await store.listTranscriptsOf(media)).find(
      (t) => t.status === 'queued' || t.status === 'running',
    );
    if (open) return { transcript: open, created: false };
    const who = caller.username ?? 'anonymous';
    if (caller.role !== 'master') await this.checkAsks(who, now);
    const result = await store.queueTranscript(media, who, new Date(now));
    if (result.created) await this.announce(media, result.transcript);
    return result;
  }

  private async checkAsks(username: string, now: number): Promise<void> {
    const { config, store } = this.deps;
    const asks = await store.transcriptAsks(username, new Date(now - ASK_WINDOW_MS));
    if (asks.recent.length >= config.askRateLimit) {
      const oldest = asks.recent[asks.recent.length - config.askRateLimit] as Date;
      const wait = Math.max(1, Math.ceil((oldest.getTime() + ASK_WINDOW_MS - now) / 1000));
      throw new ArchiveError('too-many-requests', 'Too many transcript requests. Try again later.', wait);
    }
    if (asks.open >= config.askMaxOpen) {
      throw new ArchiveError('too-many-requests', 'Too many open transcript requests', 60);
    }
  }

  private async announce(
    media: TranscriptMedia,
    t: { id: number; status: Transcript['status'] },
  ): Promise<void> {
    await this.deps
      .publish({
        type: 'transcript',
        chat_id: media.chatId,
        account_id: media.accountId,
        data: { message_id: media.messageId, transcript_id: t.id, status: t.status },
      })
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'transcript event not published'));
  }

  /** Checks a callback's Standard Webhooks signature over the raw body (404 while callbacks are off). */
  verify(raw: string, headers: Record<string, string | string[] | undefined>): VerifiedDelivery {
    if (!this.webhook) throw new ArchiveError('not-found', 'Not Found');
    const flat: Record<string, string> = {};
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const value = headers[name];
      if (typeof value === 'string') flat[name] = value;
    }
    if (!flat['webhook-id'] || !flat['webhook-timestamp'])
      throw new CallbackRejected('invalid', 'Missing webhook headers');
    // The signature is the credential: a delivery without one is unauthenticated, as one with a wrong one.
    if (!flat['webhook-signature']) throw new CallbackRejected('unauthenticated', 'Invalid signature');
    try {
      return new VerifiedDelivery(flat['webhook-id'] as string, this.webhook.verify(raw, flat));
    } catch (error) {
      if (error instanceof WebhookVerificationError)
        throw new CallbackRejected('unauthenticated', 'Invalid signature');
      throw new CallbackRejected('invalid', 'Request body is not valid JSON');
    }
  }

  /** A verified delivery: stored once per webhook id, whatever it says; nothing while callbacks are off. */
  async receive(delivery: VerifiedDelivery): Promise<void> {
    if (!this.webhook || !VerifiedDelivery.check(delivery)) throw new ArchiveError('not-found', 'Not Found');
    const { store } = this.deps;
    const now = new Date(this.deps.now());
    if (!(await store.recordWebhookDelivery(delivery.webhookId, now))) return;
    const body = delivery.body as { type?: unknown; data?: Record<string, unknown> };
    const data = body.data ?? {};
    const status = String(data.status ?? '');
    const done = status === 'done' || status === 'completed' || body.type === 'job.completed';
    const failed = status === 'failed' || status === 'error' || body.type === 'job.failed';
    if (!done && !failed) return;
    const meta = (data.metadata ?? {}) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    const engine = (data.engine ?? {}) as Record<string, unknown>;
    const id = await store.completeTranscript({
      jobId: text(data.job_id),
      contentHash: text(meta.content_hash),
      status: done ? 'done' : 'failed',
      error: failed ? (text(data.error) ?? 'Transcription failed') : null,
      text: done ? (text(data.text) ?? '') : null,
      language: text(data.language),
      engineName: text(engine.name) ?? text(data.engine_name),
      engineVersion: text(engine.version) ?? text(data.engine_version),
      confidence: number(data.confidence),
      durationS: number(data.duration_s) ?? number(data.duration),
      source: text(data.source),
      completedAt: now,
    });
    if (id === null) return;
    const target = await store.transcriptTarget(id);
    if (!target) return;
    await this.deps
      .publish({
        type: 'transcript',
        chat_id: target.chatId,
        account_id: target.accountId,
        data: { message_id: target.messageId, transcript_id: id, status: target.status },
      })
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'transcript event not published'));
  }

  /**
   * Submits queued requests to the transcription server (at the end of a successful backup run, or on
   * its own). A server refusal fails the request; an unreachable server leaves it queued for next time.
   */
  async sendQueued(
    options: { limit?: number; fetch?: typeof fetch } = {},
  ): Promise<{ sent: number; failed: number; left: number }> {
    const { config, store, logger } = this.deps;
    const counts = { sent: 0, failed: 0, left: 0 };
    if (!config.enabled || !config.url) return counts;
    const doFetch = options.fetch ?? fetch;
    const base = config.url.replace(/\/$/, '');
    const auth: Record<string, string> = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
    await this.detectServer(doFetch, base, auth);
    const source = await store.getSetting('transcription_server_name');
    const queued = await store.listQueuedTranscripts(options.limit ?? 100);
    for (const { transcriptId, media } of queued) {
      let audio: Buffer;
      try {
        audio = await readFile(path.resolve(config.mediaRoot, media.filePath ?? ''));
      } catch {
        await store.markTranscriptFailed(transcriptId, 'Media file missing', new Date(this.deps.now()));
        await this.announce(media, { id: transcriptId, status: 'failed' });
        counts.failed++;
        continue;
      }
      let res: Response;
      try {
        res = await doFetch(`${base}/v1/jobs`, {
          method: 'POST',
          headers: {
            ...auth,
            'content-type': media.mimeType ?? 'application/octet-stream',
            'x-content-hash': media.contentHash ?? '',
            ...(config.callbackUrl && { 'x-callback-url': config.callbackUrl }),
          },
          body: new Uint8Array(audio),
          signal: AbortSignal.timeout(60_000),
        });
      } catch {
        counts.left++;
        logger.warn('transcription server unreachable; requests stay queued');
        break;
      }
      const answer = (await res.json().catch(() => ({}))) as { job_id?: unknown };
      if (res.ok && typeof answer.job_id === 'string') {
        await store.markTranscriptSubmitted(transcriptId, answer.job_id, source);
        await this.announce(media, { id: transcriptId, status: 'running' });
        counts.sent++;
      } else if (res.status >= 400 && res.status < 500 && res.status !== 429) {
        await store.markTranscriptFailed(
          transcriptId,
          `Refused by the transcription server (${res.status})`,
          new Date(this.deps.now()),
        );
        await this.announce(media, { id: transcriptId, status: 'failed' });
        counts.failed++;
      } else {
        counts.left++;
      }
    }
    logger.info(counts, 'transcription requests sent');
    return counts;
  }

  private async detectServer(
    doFetch: typeof fetch,
    base: string,
    auth: Record<string, string>,
  ): Promise<void> {
    try {
      const res = await doFetch(`${base}/v1/info`, { headers: auth, signal: AbortSignal.timeout(10_000) });
      if (!res.ok) return;
      const info = (await res.json()) as { name?: unknown; version?: unknown };
      const now = new Date(this.deps.now());
      if (typeof info.name === 'string')
        await this.deps.store.setSetting('transcription_server_name', info.name, now);
      if (typeof info.version === 'string')
        await this.deps.store.setSetting('transcription_server_version', info.version, now);
    } catch {
      // An unreachable server is reported by the submission below.
    }
  }
}

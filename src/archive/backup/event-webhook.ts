/**
 * The optional outbound event webhook: edits and deletions the real-time listener applies are POSTed as
 * JSON to `EVENT_WEBHOOK_URL`. It needs the listener (`ENABLE_LISTENER=true`), `EVENT_WEBHOOK_ENABLED=true`
 * and the per-event switches `LISTEN_EDITS` / `LISTEN_DELETIONS` (both on by default). Optional:
 * `EVENT_WEBHOOK_CHAT_IDS` (only these chats), `EVENT_WEBHOOK_SECRET` (an `X-Webhook-Signature:
 * sha256=<hex HMAC of the body>` header), `EVENT_WEBHOOK_TIMEOUT` seconds (10). A bad value of any of these
 * turns the webhook off with one warning; the backup goes on. The URL is never logged.
 *
 * Body (our choice; the seed does not show it): `{event: "edit"|"delete", chat_id, account_id, message_id,
 * new_text, edit_date}` or `{…, deletion_mode, deleted_at}`.
 */
import { createHmac } from 'node:crypto';
import { boolVar, type Env, scopedEnv, stringVar } from '../../common/env';
import type { Logger } from '../../common/logger';
import { chatIdList } from '../config';
import type { ArchiveEvent } from './listener';

export interface EventWebhook {
  url: string;
  secret: string | null;
  chatIds: number[] | null;
  types: Set<'edit' | 'delete'>;
  timeoutMs: number;
}

/** The webhook's settings, or null when it is off (unset, disabled, or a bad value: warned once). */
export function loadEventWebhook(processEnv: Env, logger: Logger): EventWebhook | null {
  const env = scopedEnv(processEnv, 'ARCHIVE_');
  try {
    if (!boolVar(env, 'EVENT_WEBHOOK_ENABLED', false)) return null;
    const url = stringVar(env, 'EVENT_WEBHOOK_URL')?.trim() ?? '';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('EVENT_WEBHOOK_URL is not a URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error('EVENT_WEBHOOK_URL must be http or https');
    }
    const timeout = Number(stringVar(env, 'EVENT_WEBHOOK_TIMEOUT', '10'));
    if (!Number.isFinite(timeout) || timeout <= 0)
      throw new Error('EVENT_WEBHOOK_TIMEOUT must be a positive number');
    const types = new Set<'edit' | 'delete'>();
    if (boolVar(env, 'LISTEN_EDITS', true)) types.add('edit');
    if (boolVar(env, 'LISTEN_DELETIONS', true)) types.add('delete');
    if (types.size === 0) return null;
    return {
      url,
      secret: stringVar(env, 'EVENT_WEBHOOK_SECRET')?.trim() || null,
      chatIds: chatIdList(env, 'EVENT_WEBHOOK_CHAT_IDS'),
      types,
      timeoutMs: timeout * 1000,
    };
  } catch (error) {
    logger.warn(
      { reason: error instanceof Error ? error.message : String(error) },
      'event webhook turned off: invalid setting',
    );
    return null;
  }
}

/** The webhook body of an event, or null when the webhook does not fire for it. */
export function webhookBody(hook: EventWebhook, event: ArchiveEvent): Record<string, unknown> | null {
  if (event.type !== 'edit' && event.type !== 'delete') return null;
  if (!hook.types.has(event.type)) return null;
  if (hook.chatIds && !hook.chatIds.includes(event.chat_id)) return null;
  return { event: event.type, chat_id: event.chat_id, account_id: event.account_id ?? null, ...event.data };
}

export async function sendWebhook(hook: EventWebhook, body: Record<string, unknown>): Promise<void> {
  const text = JSON.stringify(body);
  const response = await fetch(hook.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(hook.secret && {
        'x-webhook-signature': `sha256=${createHmac('sha256', hook.secret).update(text).digest('hex')}`,
      }),
    },
    body: text,
    signal: AbortSignal.timeout(hook.timeoutMs),
  });
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new Error(`event webhook answered ${response.status}`);
}

/**
 * `publish` plus the webhook: the viewers are told first; a webhook failure is logged (without its URL)
 * and never stops the listener.
 */
export function withEventWebhook(
  publish: (event: ArchiveEvent) => Promise<void>,
  hook: EventWebhook | null,
  logger: Logger,
): (event: ArchiveEvent) => Promise<void> {
  if (!hook) return publish;
  return async (event) => {
    const body = webhookBody(hook, event);
    const sent = body
      ? sendWebhook(hook, body).catch((error: unknown) =>
          logger.warn({ error: error instanceof Error ? error.message : 'error' }, 'event webhook failed'),
        )
      : Promise.resolve();
    try {
      await publish(event);
    } finally {
      await sent;
    }
  };
}

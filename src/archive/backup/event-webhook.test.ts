/**
 * The optional event webhook: fires for edits and deletions under their LISTEN_* switches and the chat
 * filter, signs the body when a secret is set, and a bad setting turns it off with one warning.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../common/logger';
import { loadEventWebhook, withEventWebhook } from './event-webhook';
import type { ArchiveEvent } from './listener';

function recordingLogger(): Logger & { warnings: unknown[][] } {
  const warnings: unknown[][] = [];
  const logger = {
    warnings,
    warn: (...args: unknown[]) => warnings.push(args),
    info: () => undefined,
    error: () => undefined,
    debug: () => undefined,
  };
  return logger as unknown as Logger & { warnings: unknown[][] };
}

const edit: ArchiveEvent = {
  type: 'edit',
  chat_id: -100777,
  account_id: 1,
  data: { message_id: 5, new_text: 'new', edit_date: '2026-03-14T09:25:40.000Z' },
};
const del: ArchiveEvent = {
  type: 'delete',
  chat_id: -100777,
  account_id: 1,
  data: { message_id: 6, deletion_mode: 'soft', deleted_at: '2026-03-14T09:26:00.000Z' },
};

describe('event webhook settings', () => {
  it('is off unless enabled, and a bad value turns it off with one warning that hides the URL', () => {
    const logger = recordingLogger();
    expect(loadEventWebhook({ EVENT_WEBHOOK_URL: 'http://127.0.0.1:1/hook' }, logger)).toBeNull();
    expect(logger.warnings).toEqual([]);
    for (const bad of [
      { EVENT_WEBHOOK_ENABLED: 'maybe' },
      { EVENT_WEBHOOK_ENABLED: 'true', EVENT_WEBHOOK_URL: 'ftp://secret-host/hook' },
      {
        EVENT_WEBHOOK_ENABLED: 'true',
        EVENT_WEBHOOK_URL: 'http://secret-host/h',
        EVENT_WEBHOOK_CHAT_IDS: 'x',
      },
      {
        EVENT_WEBHOOK_ENABLED: 'true',
        EVENT_WEBHOOK_URL: 'http://secret-host/h',
        EVENT_WEBHOOK_TIMEOUT: '0',
      },
      { EVENT_WEBHOOK_ENABLED: 'true', EVENT_WEBHOOK_URL: 'http://secret-host/h', LISTEN_EDITS: 'perhaps' },
    ]) {
      const one = recordingLogger();
      expect(loadEventWebhook(bad, one)).toBeNull();
      expect(one.warnings).toHaveLength(1);
      expect(JSON.stringify(one.warnings)).not.toContain('secret-host');
    }
  });
});

describe('event webhook delivery', () => {
  it('posts edits and deletions of the chosen chats, signed, beside the viewer delivery', async () => {
    const received: { signature: string | undefined; body: string }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({ signature: req.headers['x-webhook-signature'] as string | undefined, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const logger = recordingLogger();
      const hook = loadEventWebhook(
        {
          EVENT_WEBHOOK_ENABLED: 'true',
          EVENT_WEBHOOK_URL: url,
          EVENT_WEBHOOK_SECRET: 'shared',
          EVENT_WEBHOOK_CHAT_IDS: '-100777',
          LISTEN_DELETIONS: 'false',
        },
        logger,
      );
      const published: string[] = [];
      const publish = withEventWebhook(
        async (event) => {
          published.push(event.type);
        },
        hook,
        logger,
      );
      await publish(edit);
      await publish(del);
      await publish({ ...edit, chat_id: -100888 });
      await publish({ type: 'pin', chat_id: -100777, data: { message_ids: [5], pinned: true } });
      expect(published).toEqual(['edit', 'delete', 'edit', 'pin']);
      expect(received).toHaveLength(1);
      const body = received[0]?.body ?? '';
      expect(JSON.parse(body)).toEqual({
        event: 'edit',
        chat_id: -100777,
        account_id: 1,
        message_id: 5,
        new_text: 'new',
        edit_date: '2026-03-14T09:25:40.000Z',
      });
      expect(received[0]?.signature).toBe(
        `sha256=${createHmac('sha256', 'shared').update(body).digest('hex')}`,
      );
      expect(logger.warnings).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

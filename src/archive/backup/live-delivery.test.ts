/**
 * The real-time listener delivering to a running viewer, on both backends: a live edit and a new message
 * on the platform are written to the archive and reach a subscribed WebSocket, through `/internal/push`
 * with the `.push-secret` (SQLite) or a database notification (PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/logger';
import { FIXTURE, login, MASTER, PASSWORD_ENV, startTestViewer, type TestViewer } from '../http/test-viewer';
import { TestSocket } from '../live/test-socket';
import { type ArchiveSqlStore, createArchiveStore } from '../store/archive-store';
import { backupState } from '../store/backup-state';
import { openDriver } from '../store/open';
import type { Backend } from '../store/store';
import { TEST_BACKENDS } from '../store/testing/databases';
import { loadBackupConfig } from './config';
import { Listener } from './listener';
import { type Delivery, openDelivery } from './realtime';

const RC = FIXTURE.releaseCrew;

describe.each(TEST_BACKENDS)('listener to a running viewer on %s', (backend: Backend) => {
  let viewer: TestViewer;
  let socket: TestSocket;
  let store: ArchiveSqlStore;
  let delivery: Delivery;
  let listener: Listener;

  beforeAll(async () => {
    viewer = await startTestViewer(PASSWORD_ENV, { backend });
    const cookie = await login(viewer.url, MASTER.username, MASTER.password);
    socket = await TestSocket.open(viewer.url, { cookie });
    await socket.ask({ action: 'subscribe', chat_ref: RC.ref }, 'subscribed');
    const logger = silentLogger();
    const driver = openDriver(viewer.database, logger);
    store = createArchiveStore(driver);
    const env = { VIEWER_HOST: '127.0.0.1', VIEWER_PORT: new URL(viewer.url).port };
    delivery = openDelivery(env, viewer.database, store);
    const config = { ...loadBackupConfig(env), database: viewer.database };
    listener = new Listener(
      { config, store, state: backupState(driver), logger, publish: (e) => delivery.publish(e) },
      RC.accountId,
    );
  });
  afterAll(async () => {
    socket.close();
    await delivery.close();
    await store.close();
    await viewer.close();
  });

  it('a live edit reaches the socket with the new text', async () => {
    await listener.handle({
      kind: 'edit',
      message: {
        chatId: RC.id,
        id: FIXTURE.pinnedMessageId,
        date: new Date('2026-03-10T10:00:00Z'),
        text: 'Checklist moved to the wiki',
        editDate: new Date('2026-03-20T10:00:00Z'),
      },
    });
    expect(await socket.next((f) => f.type === 'edit')).toEqual({
      type: 'edit',
      chat_ref: RC.ref,
      message_id: FIXTURE.pinnedMessageId,
      new_text: 'Checklist moved to the wiki',
      edit_date: '2026-03-20T10:00:00.000Z',
    });
  });

  it('a new message reaches the socket as the viewer reads it from the archive', async () => {
    await listener.handle({
      kind: 'new_message',
      message: { chatId: RC.id, id: 990_001, date: new Date('2026-03-21T08:00:00Z'), text: 'Hello live' },
    });
    const frame = await socket.next((f) => f.type === 'new_message');
    expect(frame).toMatchObject({
      type: 'new_message',
      chat_ref: RC.ref,
      message: { id: 990_001, text: 'Hello live' },
    });
  });
});

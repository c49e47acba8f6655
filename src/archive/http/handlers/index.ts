import type { operations } from '../../../../generated/archive/types';
import type { Handlers } from '../../../common/http/operations';
import type { ArchiveWiring } from '../wiring';
import { adminHandlers } from './admin';
import { authHandlers } from './auth';
import { chatsHandlers } from './chats';
import { docsHandlers } from './docs';
import { exportHandlers } from './export';
import { healthHandlers } from './health';
import { internalHandlers } from './internal';
import { mediaHandlers } from './media';
import { messagesHandlers } from './messages';
import { pushHandlers } from './push';
import { searchHandlers } from './search';
import { transcriptsHandlers } from './transcripts';
import { webHandlers } from './web';

/**
 * Every handler by operationId, made once from the app's wiring; createServiceApp refuses to start when
 * this and the document differ, and `tsc` when a handler is missing or mistyped.
 */
export function archiveHandlers(wiring: ArchiveWiring) {
  return {
    ...authHandlers(wiring),
    ...healthHandlers(wiring),
    ...chatsHandlers(wiring),
    ...messagesHandlers(wiring),
    ...searchHandlers(wiring),
    ...mediaHandlers(wiring),
    ...exportHandlers(wiring),
    ...transcriptsHandlers(wiring),
    ...pushHandlers(wiring),
    ...adminHandlers(wiring),
    ...internalHandlers(wiring),
    ...docsHandlers(wiring),
    ...webHandlers(wiring),
  } satisfies Handlers<operations>;
}

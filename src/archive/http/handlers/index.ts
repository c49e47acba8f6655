import type { operations } from '../../../../generated/archive/types';
import type { Handlers } from '../../../common/http/operations';
import type { ArchiveDeps } from '../context';
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
export function archiveHandlers(d: ArchiveDeps) {
  return {
    ...authHandlers(d),
    ...healthHandlers(d),
    ...chatsHandlers(d),
    ...messagesHandlers(d),
    ...searchHandlers(d),
    ...mediaHandlers(d),
    ...exportHandlers(d),
    ...transcriptsHandlers(d),
    ...pushHandlers(d),
    ...adminHandlers(d),
    ...internalHandlers(d),
    ...docsHandlers(d),
    ...webHandlers(d),
  } satisfies Handlers<operations>;
}

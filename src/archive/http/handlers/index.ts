import type { operations } from '../../../../generated/archive/types';
import type { Handlers } from '../../../common/http/operations';
import * as admin from './admin';
import * as auth from './auth';
import * as chats from './chats';
import * as docs from './docs';
import * as exportRoutes from './export';
import * as health from './health';
import * as internal from './internal';
import * as media from './media';
import * as messages from './messages';
import * as push from './push';
import * as search from './search';
import * as transcripts from './transcripts';
import * as web from './web';

/** Every handler by operationId; createServiceApp refuses to start when this and the document differ. */
export const handlers = {
  ...auth,
  ...health,
  ...chats,
  ...messages,
  ...search,
  ...media,
  ...exportRoutes,
  ...transcripts,
  ...push,
  ...admin,
  ...internal,
  ...docs,
  ...web,
} satisfies Handlers<operations>;

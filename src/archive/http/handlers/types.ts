import type { operations } from '../../../../generated/archive/types';
import type { Handlers } from '../../../common/http/operations';

/** Some of the operations' handlers: each handlers module makes its share from the app's wiring. */
export type ArchiveHandlers = Partial<Handlers<operations>>;

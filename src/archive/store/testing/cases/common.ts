/** What every case file of the store suite shares: the store under test, opened once by store.cases.ts. */
import type { CaseSkips } from '../../../../common/testing/cases';
import { ALL_VISIBLE, type ArchiveDatabase, type Backend, type ChatKey, type Visibility } from '../../store';
import type { TestStore } from '../databases';

export interface StoreUnderTest {
  backend: Backend;
  t: TestStore;
  db: ArchiveDatabase;
  /** The fixture's Release Crew chat. */
  rc: ChatKey;
}

/** One case of the suite, skipped on a backend by the suite's skip list. */
export type CaseIt = (name: string, test: () => Promise<void>) => void;
export type { CaseSkips };

export const view = { withTranscripts: true };
export const only = (v: Partial<Visibility>): Visibility => ({ ...ALL_VISIBLE, ...v });

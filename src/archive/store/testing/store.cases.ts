/**
 * The one store suite, as cases every backend's test file runs (sqlite/sqlite.test.ts,
 * postgres/postgres.test.ts), on a fresh database seeded with the fixture archive, opened once here; the
 * cases live by concern in cases/ (chats, messages, media, search, access), under one skip list.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { type CaseSkips, sharedCases } from '../../../common/testing/cases';
import { FIXTURE } from '../../demo/dataset';
import { ALL_VISIBLE, type Backend } from '../store';
import { accessCases } from './cases/access.cases';
import { chatsCases } from './cases/chats.cases';
import type { StoreUnderTest } from './cases/common';
import { mediaCases } from './cases/media.cases';
import { messagesCases } from './cases/messages.cases';
import { searchCases } from './cases/search.cases';
import { openTestStore } from './databases';

export function archiveStoreCases(backend: Backend, skip?: CaseSkips): void {
  const it = sharedCases(`archive store on ${backend}`, skip);

  describe(`archive store on ${backend}`, () => {
    const under = { backend } as StoreUnderTest;

    beforeAll(async () => {
      under.t = await openTestStore(backend);
      under.db = under.t.db;
      const found = await under.db.findChat(ALL_VISIBLE, FIXTURE.releaseCrew.ref);
      if (!found) throw new Error('fixture chat missing');
      under.rc = found.key;
    });
    afterAll(async () => under.t?.close());

    chatsCases(it, under);
    messagesCases(it, under);
    mediaCases(it, under);
    searchCases(it, under);
    accessCases(it, under);
  });
}

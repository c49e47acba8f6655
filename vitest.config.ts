import { defineConfig } from 'vitest/config';
import {
  ALL_TESTS,
  EXCLUDED,
  HOOK_TIMEOUT_MS,
  ISOLATED_TESTS,
  reporters,
  SLOW_TESTS,
  TEST_TIMEOUT_MS,
} from './vitest.tiers.ts';

// The fast tier (`npm test`); the slow suites are vitest.ci.config.ts (`npm run test:ci`).
export default defineConfig({
  test: {
    ...reporters(),
    // A PostgreSQL for the store suites: started when none answers and this machine may (test-postgres.ts).
    globalSetup: ['scripts/ci/test-postgres.ts'],
    // Tests wait for events (an answer, a line, a poll that holds), not for a time: these limits only stop
    // one that hangs, set far above what any test takes on two cores busy with other work (a 20 s limit
    // failed tests that were waiting correctly on a loaded machine).
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
    // Each file starts its own mocks or servers on free ports; two cores, so keep the pool small.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ALL_TESTS,
          exclude: [...EXCLUDED, ...SLOW_TESTS, ...ISOLATED_TESTS],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_TESTS, exclude: EXCLUDED } },
    ],
  },
});

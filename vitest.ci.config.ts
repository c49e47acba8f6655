import { defineConfig } from 'vitest/config';
import { EXCLUDED, HOOK_TIMEOUT_MS, reporters, SLOW_TESTS, TEST_TIMEOUT_MS } from './vitest.tiers.ts';

// The slow tier (`npm run test:ci`): the image, Dredd, the Prism mocks and Chromium (vitest.tiers.ts).
export default defineConfig({
  test: {
    ...reporters(),
    // A PostgreSQL for the store suites: started when none answers and this machine may (test-postgres.ts).
    // and each page built when anything it is made from changed (scripts/web/build-for-tests.ts).
    globalSetup: ['scripts/ci/test-postgres.ts', 'scripts/web/build-for-tests.ts'],
    include: SLOW_TESTS,
    exclude: EXCLUDED,
    // As the fast tier (vitest.tiers.ts): waits are for events, the limits only stop a hang. A page's
    // journey takes several seconds of Chromium on two cores, and the image build minutes.
    testTimeout: 3 * TEST_TIMEOUT_MS,
    hookTimeout: 3 * HOOK_TIMEOUT_MS,
    // One file at a time: the image build's installs beside Chromium starved a page's journey past its
    // timeout on two cores; alone each takes its own time (about three minutes in all).
    maxWorkers: 1,
  },
});

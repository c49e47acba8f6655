import { defineConfig } from 'vitest/config';
import { EXCLUDED, reporters, SLOW_TESTS } from './vitest.tiers.ts';

// The slow tier (`npm run test:ci`): the image, Dredd, the Prism mocks and Chromium (vitest.tiers.ts).
export default defineConfig({
  test: {
    ...reporters(),
    include: SLOW_TESTS,
    exclude: EXCLUDED,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // One file at a time: the image build's installs beside Chromium starved a page's journey past its
    // timeout on two cores; alone each takes its own time (about three minutes in all).
    maxWorkers: 1,
  },
});

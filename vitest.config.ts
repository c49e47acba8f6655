import { defineConfig } from 'vitest/config';
import { ALL_TESTS, EXCLUDED, ISOLATED_TESTS, reporters, SLOW_TESTS } from './vitest.tiers.ts';

// The fast tier (`npm test`); the slow suites are vitest.ci.config.ts (`npm run test:ci`).
export default defineConfig({
  test: {
    ...reporters(),
    testTimeout: 20_000,
    hookTimeout: 60_000,
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

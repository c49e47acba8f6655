import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'security/**/*.test.ts',
      'scripts/**/*.test.ts',
      'contract-tests/**/*.test.ts',
      'web/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'web/dist/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Each file starts its own mocks or servers on free ports; two cores, so keep the pool small.
    maxWorkers: 2,
  },
});

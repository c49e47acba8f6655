/**
 * The two test tiers. `npm test` (vitest.config.ts) runs everything but the slow suites below; `npm run
 * test:ci` (vitest.ci.config.ts) runs exactly those: the image build, Dredd and the Prism mocks against
 * each document, and the pages in Chromium. `.ci/run` runs both.
 */
export const ALL_TESTS = [
  'src/**/*.test.ts',
  'security/**/*.test.ts',
  'scripts/**/*.test.ts',
  'contract-tests/**/*.test.ts',
  'web/**/*.test.ts',
  'sdks/**/*.test.ts',
];

export const SLOW_TESTS = [
  // Builds the container image's steps (npm ci, the bundle, the pages) in a scratch folder: about 2 minutes.
  'scripts/image/image-steps.test.ts',
  // Dredd against each live server, and the contract suite against each document's Prism mock.
  'contract-tests/**/*.dredd.test.ts',
  'contract-tests/**/*.contract.test.ts',
  // The README's commands, each as written (some forty Node processes, the demo started twice).
  'scripts/readme/run.test.ts',
  // A page build made slow on purpose (about 4 s), for the bundler's timing warning.
  'scripts/web/build-warnings.test.ts',
  // Each page's journeys in Chromium (the pages' own pure tests run in the fast tier).
  'web/**/*.browser.test.ts',
  // The generated SDKs in Python, Go, Java and bash against the live servers (Maven and Go fetch their
  // dependencies on a first run).
  'sdks/**/*.test.ts',
];

export const EXCLUDED = ['**/node_modules/**', 'web/dist/**'];

/**
 * Files that need modules of their own. The others share their worker's loaded modules from file to file
 * (`isolate: false`), which takes two fifths off the fast tier's time on two cores: each file would
 * otherwise load Express, the validators and the bundled documents again.
 */
export const ISOLATED_TESTS = [
  // Replaces the scheduler module with vi.mock.
  'src/fuel/main.test.ts',
  // Counts requests in the process-wide metrics registry, which other files' servers also count in.
  'src/common/metrics.test.ts',
  // Spies on the route compiler of express-openapi-validator to count its calls.
  'src/common/http/app.test.ts',
];

/**
 * The terminal's reporter, and under `.ci/run` (SPECYARD_RESULTS, SPECYARD_STAGE) vitest's json report
 * beside it, which `scripts/ci/tally.mjs` counts into the run's last line.
 */
export function reporters() {
  const dir = process.env.SPECYARD_RESULTS;
  if (!dir) return { reporters: ['default'] };
  return {
    reporters: ['default', 'json'],
    outputFile: { json: `${dir}/${process.env.SPECYARD_STAGE ?? 'vitest'}.vitest.json` },
  };
}

/** A test's and a hook's limit: a safety net against a hang, never a measure of speed (benchmarks are). */
export const TEST_TIMEOUT_MS = 60_000;
export const HOOK_TIMEOUT_MS = 120_000;

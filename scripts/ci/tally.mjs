#!/usr/bin/env node
/**
 * `.ci/run`'s verdict: one plain line, `N passed, M failed`, summed over every stage it ran.
 *
 *   node scripts/ci/tally.mjs <results-dir>
 *
 * Each stage leaves `<results-dir>/<stage>.status` (its exit code) and, when it ran tests, a file of
 * counts beside it: `<stage>.vitest.json` (vitest's json reporter, both tiers and the SDK tests) or
 * `<stage>.counts.json` (`{passed, failed}`, the fuzz gate's cases). A stage that exited non-zero without
 * a counted failure (a type error, a lint finding, an install that broke) is one failure of its own, so
 * the line can never read "0 failed" after a red stage. Plain Node, no dependencies: it must speak even
 * when `npm ci` did not get as far as installing anything.
 *
 * Prints the failed tests by name (a run's record may keep only its tail), a line per stage, then the
 * verdict alone as the last line; exits 1 when anything failed (or no stage ran).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Counts from vitest's json reporter: tests, plus files that failed before any of their tests ran. */
export function vitestCounts(report) {
  const failedFiles = (report.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  return { passed: report.numPassedTests ?? 0, failed: (report.numFailedTests ?? 0) + failedFiles };
}

/** `file > test` for each failed test of a vitest report; a file that failed before its tests, alone. */
export function vitestFailures(report, root = process.cwd()) {
  const names = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name ?? '') || '(unnamed file)';
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests)
      names.push(`${where} > ${test.fullName ?? test.title ?? '(unnamed test)'}`);
    if (file.status === 'failed' && failedTests.length === 0) names.push(`${where} (the file failed to run)`);
  }
  return names;
}

/** At most this many names a stage, so a run that broke everything still ends readably. */
const NAMES_SHOWN = 40;

export function tally(dir) {
  const stages = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.status'))
        .map((name) => name.slice(0, -'.status'.length))
        .sort()
    : [];
  const lines = [];
  const failures = [];
  let passed = 0;
  let failed = 0;
  for (const stage of stages) {
    const code = Number(readFileSync(path.join(dir, `${stage}.status`), 'utf8').trim());
    const counts = { passed: 0, failed: 0 };
    const report = path.join(dir, `${stage}.vitest.json`);
    if (existsSync(report)) {
      try {
        const names = vitestFailures(JSON.parse(readFileSync(report, 'utf8')));
        for (const name of names.slice(0, NAMES_SHOWN)) failures.push(`${stage}: FAILED ${name}`);
        if (names.length > NAMES_SHOWN) failures.push(`${stage}: … and ${names.length - NAMES_SHOWN} more`);
      } catch {
        // Counted (or not) below.
      }
    }
    for (const [suffix, read] of [
      ['.vitest.json', vitestCounts],
      ['.counts.json', (c) => ({ passed: c.passed ?? 0, failed: c.failed ?? 0 })],
    ]) {
      const file = path.join(dir, `${stage}${suffix}`);
      if (!existsSync(file)) continue;
      try {
        const got = read(JSON.parse(readFileSync(file, 'utf8')));
        counts.passed += got.passed;
        counts.failed += got.failed;
      } catch {
        // A report cut off by a killed run says nothing; the exit code below still counts.
      }
    }
    if (code !== 0 && counts.failed === 0) counts.failed = 1;
    passed += counts.passed;
    failed += counts.failed;
    lines.push(`${stage}: exit ${code}, ${counts.passed} passed, ${counts.failed} failed`);
  }
  return { passed, failed, lines: [...failures, ...lines] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/ci/tally.mjs <results-dir>');
    process.exit(2);
  }
  const { passed, failed, lines } = tally(dir);
  for (const line of lines) console.log(line);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && lines.length > 0 ? 0 : 1);
}

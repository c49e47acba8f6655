import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const TALLY = path.join(import.meta.dirname, 'tally.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function results(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tally-'));
  dirs.push(dir);
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
  }
  return dir;
}

function run(dir: string) {
  const out = spawnSync(process.execPath, [TALLY, dir], { encoding: 'utf8' });
  const lines = out.stdout.trimEnd().split('\n');
  return { code: out.status, last: lines.at(-1), lines };
}

const vitestReport = (passed: number, failed: number, brokenFiles = 0) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  testResults: [
    ...Array.from({ length: brokenFiles }, () => ({ status: 'failed', assertionResults: [] })),
    { status: failed ? 'failed' : 'passed', assertionResults: [{ status: failed ? 'failed' : 'passed' }] },
  ],
});

describe('the CI verdict line', () => {
  it('sums the tests of every stage into one plain last line, exit 0 when all passed', () => {
    const dir = results({
      '4-fast.status': '0',
      '4-fast.vitest.json': vitestReport(2283, 0),
      '5-slow.status': '0',
      '5-slow.vitest.json': vitestReport(301, 0),
      '6-fuzz.status': '0',
      '6-fuzz.counts.json': { passed: 10_000, failed: 0 },
    });
    expect(run(dir)).toMatchObject({ code: 0, last: '12584 passed, 0 failed' });
  });

  it('counts failed tests, and files that failed before any test ran', () => {
    const dir = results({ '4-fast.status': '1', '4-fast.vitest.json': vitestReport(10, 2, 3) });
    expect(run(dir)).toMatchObject({ code: 1, last: '10 passed, 5 failed' });
  });

  it('names each failed test before the stage lines, and a file that failed before its tests', () => {
    const dir = results({
      '4-fast.status': '1',
      '4-fast.vitest.json': {
        numPassedTests: 1,
        numFailedTests: 1,
        testResults: [
          {
            name: path.join(process.cwd(), 'security/routing.test.ts'),
            status: 'failed',
            assertionResults: [
              { status: 'passed', fullName: 'archive GET / answers alike' },
              { status: 'failed', fullName: 'fuel GET /favicon.ico answers alike' },
            ],
          },
          { name: path.join(process.cwd(), 'src/broken.test.ts'), status: 'failed', assertionResults: [] },
        ],
      },
    });
    expect(run(dir).lines).toEqual([
      '4-fast: FAILED security/routing.test.ts > fuel GET /favicon.ico answers alike',
      '4-fast: FAILED src/broken.test.ts (the file failed to run)',
      '4-fast: exit 1, 1 passed, 2 failed',
      '1 passed, 2 failed',
    ]);
  });

  it('counts a stage that failed without a counted test (a type error, an install) as one failure', () => {
    const dir = results({ '2-install.status': '0', '3-audit.status': '0', '4-fast.status': '2' });
    expect(run(dir)).toMatchObject({ code: 1, last: '0 passed, 1 failed' });
  });

  it('reads a report cut off by a killed run as nothing, and still counts the exit code', () => {
    const dir = results({ '5-slow.status': '137', '5-slow.vitest.json': '{"numPassedTests": 4' });
    expect(run(dir)).toMatchObject({ code: 1, last: '0 passed, 1 failed' });
  });

  it('fails when no stage ran at all', () => {
    expect(run(results({}))).toMatchObject({ code: 1, last: '0 passed, 0 failed' });
  });

  it('is the last line .ci/run prints, after a stage that failed', () => {
    // .ci/run's own stage runner and trap, with its stages replaced by a passing and a failing one.
    const script = execFileSync(
      'sed',
      ['-n', '/^results=/,/^}/p', path.join(import.meta.dirname, '../../.ci/run')],
      {
        encoding: 'utf8',
      },
    );
    const out = spawnSync(
      'bash',
      ['-c', `set -uo pipefail\n${script}\nstage a-ok true\nstage b-broken false\necho after`],
      { cwd: path.join(import.meta.dirname, '../..'), encoding: 'utf8' },
    );
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines).toContain('after');
    expect(lines.at(-1)).toBe('0 passed, 1 failed');
    expect(out.status).toBe(1);
  });
});

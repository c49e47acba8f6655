/**
 * The SDKs generated in other languages (generated/sdks/) against the live servers on demo data, each in
 * its own language's test runner: pytest, `go test`, JUnit through Maven, and the bash wrappers' script.
 * A document change that breaks a client fails here. Slow tier (`npm run test:sdks` runs it alone).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoServers, startDemoServers } from '../scripts/demo-servers';
import { ROOT } from '../src/common/services';

const run = promisify(execFile);

/** How many tests a smoke file holds (each runner must report every one of them passed). */
const testsIn = (file: string, pattern: RegExp) =>
  readFileSync(path.join(ROOT, file), 'utf8').match(pattern)?.length ?? 0;

describe('the generated SDKs against the live servers', () => {
  let servers: DemoServers;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    await run('bash', [path.join(ROOT, 'scripts/python-env.sh')], { cwd: ROOT });
    servers = await startDemoServers({ validateResponses: true });
    env = {
      ...process.env,
      SPECYARD_FUEL_URL: servers.urls.fuel,
      SPECYARD_ARCHIVE_URL: servers.urls.archive,
      SPECYARD_SUBTITLES_URL: servers.urls.subtitles,
      SPECYARD_ARCHIVE_USERNAME: servers.credentials.archive.username,
      SPECYARD_ARCHIVE_PASSWORD: servers.credentials.archive.password,
      SPECYARD_SUBTITLES_API_KEY: servers.credentials.subtitles.apiKey,
    };
  }, 180_000);
  afterAll(() => servers?.close());

  /** Runs a test runner; its whole output is the failure message when it fails. */
  async function runner(command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
    try {
      const { stdout, stderr } = await run(command, args, {
        cwd: path.join(ROOT, cwd),
        env: { ...env, ...extra },
        maxBuffer: 32 * 1024 * 1024,
      });
      return `${stdout}${stderr}`;
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      expect.fail(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
    }
  }

  it('Python (pytest)', async () => {
    const sdks = ['fuel', 'archive', 'subtitles'].map((s) => path.join(ROOT, 'generated/sdks/python', s));
    const output = await runner(
      path.join(ROOT, '.venv/bin/pytest'),
      ['-q', '-p', 'no:cacheprovider'],
      'sdks/python',
      {
        PYTHONPATH: sdks.join(path.delimiter),
        // No bytecode caches written into generated/.
        PYTHONDONTWRITEBYTECODE: '1',
      },
    );
    const tests = testsIn('sdks/python/test_smoke.py', /^def test_/gm);
    expect(tests).toBeGreaterThan(0);
    expect(output).toMatch(new RegExp(`\\b${tests} passed`));
  }, 120_000);

  it('Go (go test)', async () => {
    const output = await runner('go', ['test', '-count=1', '-v', './...'], 'sdks/go');
    const tests = testsIn('sdks/go/smoke_test.go', /^func Test/gm);
    expect(tests).toBeGreaterThan(0);
    expect(output.match(/^--- PASS/gm)).toHaveLength(tests);
  }, 300_000);

  it('Java (JUnit through Maven)', async () => {
    const output = await runner('mvn', ['-B', '--no-transfer-progress', 'test'], 'sdks/java');
    const tests = testsIn('sdks/java/src/test/java/specyard/smoke/SmokeTest.java', /@Test\b/g);
    expect(tests).toBeGreaterThan(0);
    expect(output).toContain(`Tests run: ${tests}, Failures: 0, Errors: 0, Skipped: 0`);
  }, 600_000);

  it('bash (the command-line wrappers)', async () => {
    const output = await runner('bash', ['smoke.sh'], 'sdks/bash');
    expect(output).toMatch(/bash: 3 passed, 0 failed/);
  }, 60_000);
});

// Dredd against the live fuel server (in process, port 0, demo dataset, fake upstreams): every documented
// example, 0 failing. The same configuration and hooks CI uses (contract-tests/dredd/).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestFuel, type TestFuel } from '../../src/fuel/testing/server';
import { ROOT } from '../lib/document';

function runDredd(endpoint: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/dredd.ts', 'fuel', '--endpoint', endpoint],
      { cwd: ROOT, env: { ...process.env, DREDD_HEADERS: '{}' } },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('Dredd on the live fuel server', () => {
  let fuel: TestFuel;
  beforeAll(async () => {
    fuel = await startTestFuel();
  });
  afterAll(async () => {
    await fuel.close();
  });

  it('passes every documented example', async () => {
    const { code, output } = await runDredd(fuel.url);
    const summary = output.match(/complete: (\d+) passing, (\d+) failing, (\d+) errors/);
    expect(summary, output).not.toBeNull();
    expect(Number(summary?.[1]), output).toBe(9);
    expect({ failing: summary?.[2], errors: summary?.[3], code }, output).toEqual({
      failing: '0',
      errors: '0',
      code: 0,
    });
  }, 120_000);
});

import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPrism } from '../../src/common/prism';
import { credentialHeaders, mockCredentials } from '../lib/credentials';
import { loadDocument, ROOT, SERVICES } from '../lib/document';

function runDredd(service: string, endpoint: string, headers: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/dredd.ts', service, '--endpoint', endpoint],
      {
        cwd: ROOT,
        env: { ...process.env, DREDD_HEADERS: JSON.stringify(headers) },
      },
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

// The Dredd configuration and hooks that CI runs against the live servers, proved on each document's mock.
describe.each(SERVICES)('Dredd on the %s document', (service) => {
  it('passes against the Prism mock', async () => {
    const doc = loadDocument(service);
    const mock = await startPrism(service);
    try {
      const { code, output } = await runDredd(
        service,
        mock.url,
        credentialHeaders(doc, mockCredentials(doc)),
      );
      const summary = output.match(/complete: (\d+) passing, (\d+) failing, (\d+) errors/);
      expect(summary, output).not.toBeNull();
      expect(Number(summary?.[1])).toBeGreaterThan(0);
      expect({ failing: summary?.[2], errors: summary?.[3], code }, output).toEqual({
        failing: '0',
        errors: '0',
        code: 0,
      });
    } finally {
      await mock.stop();
    }
  }, 120_000);
});

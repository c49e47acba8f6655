import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, type Service } from './document';

/**
 * Runs `npm run dredd -- <service> --endpoint <url>` (the committed configuration and hooks, as CI runs
 * them) with DREDD_HEADERS carrying the credentials, and collects everything it prints.
 */
export function runDredd(
  service: Service,
  endpoint: string,
  headers: Record<string, string>,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/dredd.ts', service, '--endpoint', endpoint],
      { cwd: ROOT, env: { ...process.env, ...env, DREDD_HEADERS: JSON.stringify(headers) } },
    );
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

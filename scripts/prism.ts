import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { bundledDocumentPath, ROOT, type Service } from '../src/common/services';
import { freePort } from '../src/common/testing/ports';

const PRISM_BIN = path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');

export interface RunningMock {
  url: string;
  stop(): Promise<void>;
}

/** Starts `prism mock` on a service's bundled document; resolves once it listens. */
export async function startPrism(
  service: Service,
  options: { port?: number; host?: string; stdio?: 'pipe' | 'inherit' } = {},
): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort());
  const document = bundledDocumentPath(service);
  const child: ChildProcess = spawn(
    process.execPath,
    [PRISM_BIN, 'mock', document, '--host', host, '--port', String(port), '--errors', '--cors', 'false'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } },
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`prism did not start for ${service}:\n${output}`)),
      30_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.stdio === 'inherit') process.stdout.write(chunk);
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${code} for ${service}:\n${output}`));
    });
  });
  await ready;
  return {
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

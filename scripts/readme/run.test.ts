/**
 * The README runner: every block the README marks runnable runs as written, in document order, in a
 * terminal of its own state (blocks.ts): first the `scratch` blocks in a fresh folder, the servers they
 * start kept running for the blocks after them; then `npm start` in another fresh folder and the `demo`
 * blocks against it. Each block is one test; the blocks marked `skip` and the lines marked `omits` are
 * counted with their reasons. In the slow tier: it runs some forty commands, each a Node process.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf, DOCUMENTS, isCommandBlock } from './blocks';
import { runBlock } from './runner';
import { type Server, Shell, scratchFolder } from './shell';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const blocks = DOCUMENTS.flatMap((document) => blocksOf(ROOT, document)).filter(isCommandBlock);
const PORTS = [3000, 8000, 8096];

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** One state's terminal, in a fresh folder; its servers stop at the end, each with exit 0. */
function terminal(setUp?: (shell: Shell) => Promise<void>) {
  const state: { shell?: Shell; folder?: ReturnType<typeof scratchFolder> } = {};
  beforeAll(async () => {
    const busy = [];
    for (const port of PORTS) if (!(await portFree(port))) busy.push(port);
    expect(busy, 'the README addresses the services on their own ports: stop what listens there').toEqual([]);
    state.folder = scratchFolder(ROOT);
    state.shell = new Shell(state.folder.dir);
    await setUp?.(state.shell);
  });
  afterAll(async () => {
    await state.shell?.close();
    state.folder?.remove();
  });
  return state;
}

async function stopAll(shell: Shell): Promise<string[]> {
  const problems: string[] = [];
  for (const server of shell.running()) {
    const stopped = await shell.stop(server as Server);
    // `npm run` signalled with its server exits 128+15 whatever the server does; each server's own exit 0
    // on SIGTERM has its test (src/**/shutdown.test.ts).
    if (stopped.status !== 0 && stopped.status !== 143)
      problems.push(
        `${server.command.trim()}: exit ${stopped.status} on SIGTERM\n${stopped.output.slice(-800)}`,
      );
  }
  return problems;
}

beforeAll(() => {
  // The python block's dependencies (python/requirements.txt), as the SDK tests install them.
  execFileSync('bash', [path.join(ROOT, 'scripts/python-env.sh')], { stdio: 'ignore' });
}, 600_000);

describe.each(['scratch', 'demo'] as const)('the README’s %s blocks', (name) => {
  const state = terminal(
    name === 'demo'
      ? async (shell) => {
          // `npm start` on a fresh folder: the first-run demo, its banner the logins the blocks use.
          await shell.start('npm start', 'FIRST-RUN DEMO MODE');
          for (let i = 0; i < 600 && !/log in: demo \/ \S+/.test(shell.serverOutput()); i++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      : undefined,
  );
  const mine = blocks.filter((b) => b.mark?.state === name);

  it.each(mine.map((b) => [b.where, b] as const))('%s runs as written', async (_where, block) => {
    const outcome = await runBlock(state.shell as Shell, block, ROOT);
    for (const line of outcome.omitted) console.log(`${block.where}: not run: ${line}`);
    expect(outcome.failures, block.where).toEqual([]);
  });

  it('stops the servers it started, each on SIGTERM', async () => {
    expect(await stopAll(state.shell as Shell)).toEqual([]);
  });
});

describe('the blocks it does not run', () => {
  it('each says why', () => {
    const skipped = blocks.filter((b) => b.mark?.state === 'skip');
    for (const b of skipped) console.log(`${b.where}: not run: ${b.mark?.because}`);
    expect(skipped.every((b) => (b.mark?.because ?? '').length > 10)).toBe(true);
    expect(blocks.filter((b) => !b.mark)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { CliIo, Command } from './command';
import { type Program, runProgram } from './program';

const echo: Command<Record<string, string>> = {
  name: 'echo',
  summary: 'says the global options back',
  options: {},
  run: async (ctx) => {
    seen.push(ctx);
    return 0;
  },
};
let seen: Record<string, string>[] = [];

const program: Program<Record<string, string>> = {
  name: 'tool',
  label: 'tool',
  usage: 'usage: tool [--home PATH] <command>',
  commands: [echo],
  globalOptions: { home: { type: 'string', metavar: 'PATH', help: 'where it lives;\nmade if missing' } },
  context: (options) => options,
};

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), errWrite: () => undefined };
  seen = [];
  const code = await runProgram(program, argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('a program’s declared global options', () => {
  it('reads each before the command, spelled with a space or an equals sign, and hands it to the context', async () => {
    expect((await run('--home', '/srv/a', 'echo')).code).toBe(0);
    expect(seen).toEqual([{ home: '/srv/a' }]);
    expect((await run('--home=/srv/b=c', 'echo')).code).toBe(0);
    expect(seen).toEqual([{ home: '/srv/b=c' }]);
    expect((await run('echo')).code).toBe(0);
    expect(seen).toEqual([{}]);
  });

  it('refuses an undeclared option, a missing value and a single-dash option, with the usage line (exit 2)', async () => {
    for (const argv of [
      ['--away', 'x', 'echo'],
      ['--home'],
      ['-q', 'echo'],
      ['--constructor', 'x', 'echo'],
    ]) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err).toMatch(/^usage: tool \[--home PATH\] <command>\ntool: error: /);
    }
    expect(seen).toEqual([]);
  });

  it('lists them in the help, a long help on lines of its own', async () => {
    const { out } = await run('--help');
    expect(out.split('\n').slice(-6, -2)).toEqual([
      'options:',
      '  --home PATH   where it lives;',
      '                made if missing',
      '  -h, --help    show this help',
    ]);
  });
});

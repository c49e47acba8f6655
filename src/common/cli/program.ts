/**
 * A service's command line: its commands (command.ts), help, global options and the one way every
 * command is found, parsed and run. Exit codes: 0 done, 1 failed (the command's own failures, and
 * configuration errors in one line), 2 usage errors (with the usage line).
 */
import { ConfigError } from '../env';
import {
  type CliIo,
  type Command,
  commandHelp,
  type OptionSpec,
  parseCommandArgs,
  UsageError,
  usageLine,
} from './command';

export interface Program<C> {
  /** How a user starts it, for usage lines: `archive-cli`, `npm run subtitles --`. */
  name: string;
  /** The name errors are prefixed with: `archive-cli: error: …`. */
  label: string;
  /** The program's own usage line (`usage: archive-cli [--data-dir PATH] <command>`). */
  usage: string;
  commands: readonly Command<C>[];
  /**
   * Options given before the command (`archive-cli --data-dir PATH <command>`), each taking a value; a
   * line break in `help` continues it on the next line of the program's help.
   */
  globalOptions?: Record<string, OptionSpec & { type: 'string' }>;
  /** The context a command runs with, made once it is found and its flags are parsed: given the global options' values. */
  context(options: Record<string, string>): C | Promise<C>;
  /** The one line for a configuration error (default: `<label>: <message>`). */
  configurationError?(error: ConfigError): string;
}

/** The `options:` section of the program's help, from its declared global options. */
function globalOptionsHelp(options: NonNullable<Program<unknown>['globalOptions']>): string[] {
  const flags = Object.entries(options).map(([name, spec]) => ({
    flag: `--${name} ${spec.metavar ?? name.toUpperCase()}`,
    help: spec.help.split('\n'),
  }));
  flags.push({ flag: '-h, --help', help: ['show this help'] });
  const width = Math.max(...flags.map((f) => f.flag.length)) + 3;
  return [
    'options:',
    ...flags.flatMap(({ flag, help }) =>
      help.map((line, i) => `  ${(i === 0 ? flag : '').padEnd(width)}${line}`),
    ),
  ];
}

/** The global options before the command: their values, and the arguments from the command on. */
function parseGlobalOptions<C>(
  program: Program<C>,
  argv: string[],
): { rest: string[]; options: Record<string, string> } {
  const declared = program.globalOptions;
  const options: Record<string, string> = {};
  if (!declared) return { rest: argv, options };
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--') || arg === '--help') {
      if (arg.startsWith('-') && arg !== '-h' && arg !== '--help')
        throw new UsageError(`unrecognized arguments: ${arg}`);
      break;
    }
    const [flag = '', inline] = arg.split(/=(.*)/s, 2);
    const name = flag.slice(2);
    if (!Object.hasOwn(declared, name)) throw new UsageError(`unrecognized arguments: ${arg}`);
    const value = inline ?? argv[++i];
    if (!value) throw new UsageError(`argument --${name}: expected one argument`);
    options[name] = value;
  }
  return { rest: argv.slice(i), options };
}

export function programHelp<C>(program: Program<C>): string {
  const width = Math.max(...program.commands.map((c) => c.name.length)) + 2;
  return [
    `${program.usage} ...`,
    '',
    'commands:',
    ...program.commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    ...(program.globalOptions ? ['', ...globalOptionsHelp(program.globalOptions)] : []),
    '',
    `Run '${program.name} <command> -h' for a command's flags.`,
  ].join('\n');
}

/** The command named by the first words of `argv` (a two-word name wins over a one-word one). */
function findCommand<C>(
  program: Program<C>,
  argv: string[],
): { command: Command<C>; words: number } | undefined {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const command = program.commands.find((c) => c.name === name);
    if (command && argv.length >= words) return { command, words };
  }
  return undefined;
}

export async function runProgram<C>(program: Program<C>, argv: string[], io: CliIo): Promise<number> {
  const usage = (line: string, message: string) => {
    io.err(`${line}\n${program.label}: error: ${message}`);
    return 2;
  };
  if (argv[0] === '-h' || argv[0] === '--help') {
    io.out(programHelp(program));
    return 0;
  }
  let rest: string[];
  let options: Record<string, string>;
  try {
    ({ rest, options } = parseGlobalOptions(program, argv));
  } catch (error) {
    if (error instanceof UsageError) return usage(program.usage, error.message);
    throw error;
  }
  if (rest.length === 0 || rest[0] === '-h' || rest[0] === '--help') {
    io.out(programHelp(program));
    return 0;
  }
  const found = findCommand(program, rest);
  if (!found) {
    const choices = program.commands.map((c) => c.name).join(', ');
    return usage(program.usage, `unknown command "${rest[0]}" (choose from ${choices})`);
  }
  const { command, words } = found;
  let parsed: ReturnType<typeof parseCommandArgs>;
  try {
    parsed = parseCommandArgs(command, rest.slice(words));
  } catch (error) {
    if (error instanceof UsageError) return usage(usageLine(program.name, command), error.message);
    throw error;
  }
  if (parsed.help) {
    io.out(commandHelp(program.name, command));
    return 0;
  }
  try {
    const context = await program.context(options);
    return await command.run(context, parsed.values, parsed.positionals);
  } catch (error) {
    if (error instanceof UsageError) return usage(usageLine(program.name, command), error.message);
    if (error instanceof ConfigError) {
      io.err(program.configurationError?.(error) ?? `${program.label}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

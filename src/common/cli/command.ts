/**
 * One subcommand of `archive-cli`: its flags (argparse-like: a missing required flag or an unknown option
 * is a usage error, exit 2) and what it runs. Commands print through the context, never to the console
 * directly, so the suite can run them in-process.
 */
import { createInterface } from 'node:readline/promises';
import type { Env } from '../env';
import type { Logger } from '../logger';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  required?: boolean;
  /** Shown in the usage line for a value, e.g. PATH. */
  metavar?: string;
  help: string;
}

export type OptionValues = Record<string, string | boolean | undefined>;

/** What a command line prints and asks through: the one I/O type of the three programs. */
export interface CliIo {
  /** One line (or several) to stdout; the line break is the io's. */
  out(text: string): void;
  /** One line (or several) to stderr. */
  err(text: string): void;
  /** Raw bytes for stderr (the logger's JSON lines). */
  errWrite(chunk: string): void;
  /** Asks a question on the terminal (the backup's sign-in); absent where nobody can answer. */
  ask?(question: string): Promise<string>;
}

/** The process's own streams, with questions asked on the terminal. */
export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  errWrite: (chunk) => process.stderr.write(chunk),
  ask: async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return (await rl.question(question)).trim();
    } finally {
      rl.close();
    }
  },
};

export interface CommandContext {
  /** The environment the command reads (a copy, with the program's global options applied). */
  env: Env;
  io: CliIo;
  /** Structured logs on stderr at LOG_LEVEL. */
  logger: Logger;
}

/**
 * The values a command's flags give, typed from its declaration: a string flag's text (always there when
 * the flag is required), `true` for a boolean flag given, absent otherwise.
 */
export type ValuesOf<O extends Record<string, OptionSpec>> = {
  [K in keyof O]: [O[K]['type']] extends ['boolean']
    ? true | undefined
    : [O[K]['type']] extends ['string']
      ? O[K]['required'] extends true
        ? string
        : string | undefined
      : OptionValues[string];
};

export interface Command<
  C = CommandContext,
  O extends Record<string, OptionSpec> = Record<string, OptionSpec>,
> {
  name: string;
  summary: string;
  options: O;
  /** The usage line, where the one made from the flags would mislead (a choice between flags). */
  usage?: string;
  /** Names of positional arguments (most commands take none). */
  positionals?: { names: string[]; min: number };
  run(ctx: C, values: ValuesOf<O>, positionals: string[]): Promise<number>;
}

/**
 * A command whose `run` reads its values typed from its flags (as citty's defineCommand):
 * `defineCommand<Context>()({ options: { chat: { type: 'string', required: true, ... } }, run(ctx, v) {...} })`
 * gives `v.chat: string`. Curried, so the context is named and the flags inferred.
 */
export function defineCommand<C = CommandContext>() {
  return <const O extends Record<string, OptionSpec>>(command: Command<C, O>): Command<C, O> => command;
}

/** What a usage line or help text needs of a command. */
type Described = Pick<Command<never>, 'name' | 'summary' | 'options' | 'positionals' | 'usage'>;

export class UsageError extends Error {
  override name = 'UsageError';
}

const flag = (name: string, spec: OptionSpec) => (spec.short ? `-${spec.short}/--${name}` : `--${name}`);

/** `usage: <program> <command> [-h] ...`, from the command's flags and positionals. */
export function usageLine(program: string, command: Described): string {
  if (command.usage) return command.usage;
  const parts = [`usage: ${program}`, command.name, '[-h]'];
  for (const [name, spec] of Object.entries(command.options)) {
    const shown = spec.short ? `-${spec.short}` : `--${name}`;
    const text = spec.type === 'string' ? `${shown} ${spec.metavar ?? name.toUpperCase()}` : shown;
    parts.push(spec.required ? text : `[${text}]`);
  }
  for (const [i, name] of (command.positionals?.names ?? []).entries()) {
    parts.push(i < (command.positionals?.min ?? 0) ? name : `[${name}]`);
  }
  return parts.join(' ');
}

export function commandHelp(program: string, command: Described): string {
  const lines = [
    usageLine(program, command),
    '',
    command.summary,
    '',
    'options:',
    '  -h, --help  show this help',
  ];
  for (const [name, spec] of Object.entries(command.options)) {
    const shown = spec.short ? `-${spec.short}, --${name}` : `--${name}`;
    const withValue = spec.type === 'string' ? `${shown} ${spec.metavar ?? name.toUpperCase()}` : shown;
    lines.push(`  ${withValue.padEnd(30)}${spec.help}`);
  }
  return lines.join('\n');
}

/** Parses the command's own arguments; throws UsageError naming the problem. */
export function parseCommandArgs(
  command: Described,
  args: string[],
): { values: OptionValues; positionals: string[]; help: boolean } {
  const byLong = new Map(Object.entries(command.options));
  const byShort = new Map(
    Object.entries(command.options)
      .filter(([, s]) => s.short)
      .map(([name, s]) => [s.short as string, name]),
  );
  const values: OptionValues = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
      if (!byLong.has(name)) throw new UsageError(`unrecognized arguments: ${arg}`);
    } else if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) {
      name = byShort.get(arg.slice(1, 2));
      if (!name) throw new UsageError(`unrecognized arguments: ${arg}`);
      if (arg.length > 2) inline = arg.slice(2);
    } else {
      positionals.push(arg);
      continue;
    }
    const spec = byLong.get(name) as OptionSpec;
    if (spec.type === 'boolean') {
      if (inline !== undefined)
        throw new UsageError(`argument ${flag(name, spec)}: ignored explicit argument '${inline}'`);
      values[name] = true;
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`argument ${flag(name, spec)}: expected one argument`);
    values[name] = value;
  }
  if (help) return { values, positionals, help };
  const missing = Object.entries(command.options)
    .filter(([name, spec]) => spec.required && values[name] === undefined)
    .map(([name, spec]) => flag(name, spec));
  const names = command.positionals?.names ?? [];
  if (positionals.length < (command.positionals?.min ?? 0)) {
    missing.push(...names.slice(positionals.length, command.positionals?.min));
  }
  if (missing.length > 0) throw new UsageError(`the following arguments are required: ${missing.join(', ')}`);
  if (positionals.length > names.length) {
    throw new UsageError(`unrecognized arguments: ${positionals.slice(names.length).join(' ')}`);
  }
  return { values, positionals, help };
}

/** A whole number from a flag, or a usage error naming the flag. */
export function intOption(values: OptionValues, name: string, fallback: number, min = 0): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw) || Number(raw) < min) {
    throw new UsageError(`argument --${name}: invalid int value: '${String(raw)}'`);
  }
  return Number(raw);
}

/** A number from a flag, or a usage error naming the flag. */
export function numberOption(values: OptionValues, name: string, fallback: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(value) || value < 0) {
    throw new UsageError(`argument --${name}: invalid float value: '${String(raw)}'`);
  }
  return value;
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

import pino, { type LevelWithSilent, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { ConfigError, type Env, enumVar, stringVar } from './env';

export type { Logger } from 'pino';

/**
 * One JSON logger per service. Never log credentials, cookies, tokens, message text or chat names:
 * the redaction below is a safety net, not a licence.
 */
export function createLogger(service: string, level = 'info', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name: service,
    level,
    base: { service },
    redact: {
      paths: ['password', 'token', 'apiKey', '*.password', '*.token', '*.apiKey'],
      censor: '[redacted]',
    },
  };
  return pino(options, destination ?? standardOutput());
}

/**
 * Where log lines go when no destination is given: standard output, as JSON (one object a line, for a log
 * collector), or as short readable lines (time, level, service, message and its fields) when
 * `LOG_FORMAT=pretty`. Unset, the format follows the terminal: readable when standard output is one (so
 * `npm start`'s banner is not buried under request lines), JSON otherwise (a container, a pipe).
 */
function standardOutput(): pino.DestinationStream {
  const format = enumVar(process.env, 'LOG_FORMAT', ['json', 'pretty', 'auto'] as const, 'auto');
  const readable = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  if (!readable) return pino.destination(1);
  return pretty({
    destination: 1,
    sync: true,
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,name,service',
    singleLine: true,
    messageFormat: '{service} {msg}',
  });
}

/** A logger that drops everything (tests that assert no log lines pass their own). */
export const silentLogger = (): Logger => pino({ level: 'silent' });

/** Level names a `LOG_LEVEL` may carry: pino's, and the Python ones of the archive's seed, in any case. */
const LEVELS: Record<string, LevelWithSilent> = {
  trace: 'trace',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  fatal: 'fatal',
  critical: 'fatal',
  silent: 'silent',
};

/**
 * `LOG_LEVEL`, read the one way of the three services: unset is `info`; a name it does not know is a
 * configuration error, or `info` where the service's seed says so (`unknown: 'info'`, the archive).
 */
export function logLevelVar(
  env: Env,
  options: { name?: string; unknown?: 'error' | 'info' } = {},
): LevelWithSilent {
  const name = options.name ?? 'LOG_LEVEL';
  const raw = stringVar(env, name);
  if (raw === undefined) return 'info';
  const level = LEVELS[raw.toLowerCase()];
  if (level) return level;
  if (options.unknown === 'info') return 'info';
  throw new ConfigError(`${name} must be one of ${Object.keys(LEVELS).join(', ')}, not "${raw}"`);
}

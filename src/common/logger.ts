import pino, { type Logger } from 'pino';

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
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that drops everything (tests that assert no log lines pass their own). */
export const silentLogger = (): Logger => pino({ level: 'silent' });

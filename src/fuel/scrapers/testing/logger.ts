import { createLogger, type Logger } from '../../../common/logger';

export interface CapturedLogger {
  logger: Logger;
  /** The `msg` of every line written, in order. */
  messages: string[];
  /** Every line as written: `{level, msg, …}`. */
  records: { level: number; msg: string }[];
}

/** A real pino logger whose JSON lines are kept in memory. */
export function captureLogger(level = 'info'): CapturedLogger {
  const records: { level: number; msg: string }[] = [];
  const messages: string[] = [];
  const logger = createLogger('fuel', level, {
    write(chunk: string) {
      const record = JSON.parse(chunk) as { level: number; msg: string };
      records.push(record);
      messages.push(record.msg);
    },
  });
  return { logger, messages, records };
}

import { describe, expect, it } from 'vitest';
import { ConfigError } from './env';
import { logLevelVar } from './logger';

describe('LOG_LEVEL, read once for the three services', () => {
  it.each([
    [undefined, 'info'],
    ['debug', 'debug'],
    ['WARNING', 'warn'],
    ['Warn', 'warn'],
    ['CRITICAL', 'fatal'],
    ['silent', 'silent'],
  ])('%s is %s', (value, level) => {
    expect(logLevelVar(value === undefined ? {} : { LOG_LEVEL: value })).toBe(level);
  });

  it('refuses a name it does not know, or reads it as info where the seed says so', () => {
    expect(() => logLevelVar({ LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(logLevelVar({ LOG_LEVEL: 'loud' }, { unknown: 'info' })).toBe('info');
  });
});

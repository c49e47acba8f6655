import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './env';
import { logLevelVar } from './logger';
import { ROOT } from './services';

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

describe('LOG_FORMAT: readable lines on a terminal, JSON elsewhere', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "import('./src/common/logger.ts').then(({ createLogger }) => createLogger('fuel').info({ status: 200 }, 'request done'))",
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' },
    );

  it('writes JSON to a pipe, and one readable line with LOG_FORMAT=pretty', () => {
    const json = run({});
    expect(JSON.parse(json.stdout.trim())).toMatchObject({
      service: 'fuel',
      status: 200,
      msg: 'request done',
    });
    const readable = run({ LOG_FORMAT: 'pretty' });
    expect(readable.stdout.trim()).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: fuel request done \{"status":200\}$/);
    expect(run({ LOG_FORMAT: 'json' }).stdout.trim()).toMatch(/^\{"level":30,/);
    expect(run({ LOG_FORMAT: 'fancy' }).stderr).toContain(
      'LOG_FORMAT must be one of json, pretty, auto, not "fancy"',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parseServerVersion } from '../config';
import { openSqliteStore } from '../store/sqlite';
import { legacyAtStart, legacyDefault, loadServerSettings } from './server-settings';

const v = (text: string) => parseServerVersion('SUBTITLES_SERVER_VERSION', text);

describe('legacy authorization', () => {
  it.each([
    ['10.11', true],
    ['10.11.11', true],
    ['10.10.7', true],
    ['12.0', false],
    ['12.1', false],
    ['13.0', false],
  ])('defaults for server version %s to %s', (version, expected) => {
    expect(legacyDefault(v(version))).toBe(expected);
  });

  it.each([
    [
      'the version default on a new data folder (10.11)',
      { stored: undefined, lastVersion: undefined, version: '10.11' },
      true,
    ],
    [
      'the version default on a new data folder (12.0)',
      { stored: undefined, lastVersion: undefined, version: '12.0' },
      false,
    ],
    [
      'the admin choice kept across restarts (off on 10.11)',
      { stored: false, lastVersion: '10.11', version: '10.11' },
      false,
    ],
    [
      'the admin choice kept across restarts (on on 12.0)',
      { stored: true, lastVersion: '12.0', version: '12.0' },
      true,
    ],
    [
      'switched off by an upgrade from 10.11 to 12.0',
      { stored: true, lastVersion: '10.11', version: '12.0' },
      false,
    ],
    [
      'the override on (over a stored off)',
      { override: true, stored: false, lastVersion: '12.0', version: '12.0' },
      true,
    ],
    [
      'the override off (over the version default)',
      { override: false, stored: undefined, lastVersion: undefined, version: '10.11' },
      false,
    ],
  ])('at start: %s', (_name, input, expected) => {
    expect(
      legacyAtStart({
        override: 'override' in input ? input.override : undefined,
        stored: input.stored,
        lastVersion: input.lastVersion,
        version: v(input.version),
      }),
    ).toBe(expected);
  });

  it('keeps the switch and the server id in the store', async () => {
    const store = openSqliteStore(':memory:');
    const first = await loadServerSettings(store, {
      serverVersion: v('10.11'),
      legacyAuthorization: undefined,
    });
    expect(first.legacy.enabled).toBe(true);
    expect(first.serverId).toMatch(/^[0-9a-f]{32}$/);
    await first.legacy.set(false);
    const second = await loadServerSettings(store, {
      serverVersion: v('10.11'),
      legacyAuthorization: undefined,
    });
    expect(second.legacy.enabled).toBe(false);
    expect(second.serverId).toBe(first.serverId);
    await second.legacy.set(true);
    const upgraded = await loadServerSettings(store, {
      serverVersion: v('12.0'),
      legacyAuthorization: undefined,
    });
    expect(upgraded.legacy.enabled).toBe(false);
    await store.close();
  });
});

import type { ServerVersion } from '../config';
import type { SubtitlesStore } from '../store/store';
import { randomHex32 } from './secrets';

const LEGACY = 'enable_legacy_authorization';
const VERSION = 'server_version';
const SERVER_ID = 'server_id';

/** Legacy authorization is on by default before 12.0 (10.11 is the version the plugin targets), off from 12.0. */
export const legacyDefault = (version: ServerVersion) => version.major < 12;

const majorOf = (text: string) => Number(text.split('.')[0]);

/**
 * The legacy authorization setting at start: the environment override when given; otherwise the stored
 * choice, except that a 12.0 server started over a data folder of an earlier version switches it off
 * (as the real upgrade does); otherwise the version default.
 */
export function legacyAtStart(input: {
  override: boolean | undefined;
  stored: boolean | undefined;
  lastVersion: string | undefined;
  version: ServerVersion;
}): boolean {
  if (input.override !== undefined) return input.override;
  if (input.stored === undefined) return legacyDefault(input.version);
  const upgradedTo12 =
    input.lastVersion !== undefined && majorOf(input.lastVersion) < 12 && input.version.major >= 12;
  return upgradedTo12 ? false : input.stored;
}

/** The admin switch: read on every request, saved on every change. */
export class LegacyAuthorization {
  constructor(
    private readonly store: SubtitlesStore,
    private value: boolean,
  ) {}

  get enabled(): boolean {
    return this.value;
  }

  async set(enabled: boolean): Promise<void> {
    await this.store.setSetting(LEGACY, String(enabled));
    this.value = enabled;
  }
}

export interface ServerSettings {
  serverId: string;
  legacy: LegacyAuthorization;
}

export async function loadServerSettings(
  store: SubtitlesStore,
  config: { serverVersion: ServerVersion; legacyAuthorization: boolean | undefined },
): Promise<ServerSettings> {
  let serverId = await store.getSetting(SERVER_ID);
  if (!serverId) {
    serverId = randomHex32();
    await store.setSetting(SERVER_ID, serverId);
  }
  const stored = await store.getSetting(LEGACY);
  const enabled = legacyAtStart({
    override: config.legacyAuthorization,
    stored: stored === undefined ? undefined : stored === 'true',
    lastVersion: await store.getSetting(VERSION),
    version: config.serverVersion,
  });
  await store.setSetting(LEGACY, String(enabled));
  await store.setSetting(VERSION, config.serverVersion.text);
  return { serverId, legacy: new LegacyAuthorization(store, enabled) };
}

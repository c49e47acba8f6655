import type { StoredApiKey, StoredUser, SubtitlesStore } from '../store/store';
import { InvalidInputError } from './errors';
import { DUMMY_HASH, digest, hashPassword, randomHex32, verifyPassword } from './secrets';

export type Principal =
  | { kind: 'api-key'; isAdmin: true }
  | { kind: 'session'; isAdmin: boolean; userId: string; userName: string; tokenHash: string };

const now = () => new Date().toISOString();

export function checkName(field: string, name: string, max: number): string {
  const trimmed = name.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (trimmed.length === 0 || trimmed.length > max || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new InvalidInputError(field, `${field} must be 1 to ${max} printable characters`);
  }
  return trimmed;
}

export async function createUser(
  store: SubtitlesStore,
  input: { name: string; password: string; isAdmin: boolean },
): Promise<StoredUser> {
  const user: StoredUser = {
    id: randomHex32(),
    name: checkName('name', input.name, 128),
    passwordHash: await hashPassword(input.password),
    hasPassword: input.password.length > 0,
    isAdmin: input.isAdmin,
    createdAt: now(),
  };
  await store.createUser(user);
  return user;
}

/** Who the client is, from the authorization header's `Client`, `Device`, `DeviceId` and `Version`. */
export interface ClientInfo {
  client: string;
  device: string;
  deviceId: string;
  version: string;
}

const CLIENT_FIELDS = ['Client', 'Device', 'DeviceId', 'Version'] as const;

/**
 * The client fields of an authorization header; the media server refuses a sign-in without all four
 * (400), so this throws InvalidInputError naming the header.
 */
export function clientInfo(params: Record<string, string> | undefined): ClientInfo {
  const missing = CLIENT_FIELDS.filter((field) => !params?.[field]?.trim());
  if (missing.length > 0) {
    throw new InvalidInputError(
      'Authorization',
      `the authorization header must name the client: ${missing.join(', ')} missing`,
    );
  }
  const value = (field: (typeof CLIENT_FIELDS)[number]) => (params?.[field] ?? '').trim();
  return {
    client: value('Client'),
    device: value('Device'),
    deviceId: value('DeviceId'),
    version: value('Version'),
  };
}

export interface SignedIn {
  user: StoredUser;
  accessToken: string;
  session: { id: string; client: ClientInfo; at: string };
  /** How many earlier sessions of the user on the same device were ended. */
  ended: number;
}

/**
 * Checks name and password and opens a session, ending the user's earlier session on the same device;
 * undefined when the name or the password is wrong.
 */
export async function signIn(
  store: SubtitlesStore,
  input: { name: string; password: string },
  client: ClientInfo,
): Promise<SignedIn | undefined> {
  const user = await store.findUserByName(input.name.trim());
  const matches = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !matches) return undefined;
  const accessToken = randomHex32();
  const id = randomHex32();
  const at = now();
  const ended = await store.openSession({
    id,
    tokenHash: digest(accessToken),
    userId: user.id,
    ...client,
    createdAt: at,
  });
  return { user, accessToken, session: { id, client, at }, ended };
}

/** Ends a signed-in user's session; an API key ends nothing (keys are revoked with the command line). */
export async function signOut(store: SubtitlesStore, principal: Principal): Promise<void> {
  if (principal.kind === 'session') await store.endSession(principal.tokenHash);
}

export async function createApiKey(
  store: SubtitlesStore,
  name: string,
): Promise<{ id: number; key: string }> {
  const key = randomHex32();
  const id = await store.createApiKey({
    name: checkName('name', name, 64),
    keyHash: digest(key),
    keyPrefix: key.slice(0, 6),
    createdAt: now(),
  });
  return { id, key };
}

export const listApiKeys = (store: SubtitlesStore): Promise<StoredApiKey[]> => store.listApiKeys();

/** Revokes by the key itself, or by the id `apikey list` shows (for a key whose value is lost). */
export function revokeApiKey(store: SubtitlesStore, keyOrId: string): Promise<boolean> {
  if (/^\d+$/.test(keyOrId)) return store.deleteApiKeyById(Number(keyOrId));
  return store.deleteApiKeyByHash(digest(keyOrId.trim()));
}

/** Who a token belongs to: an API key (always an administrator) or a signed-in user's session. */
export async function resolveToken(store: SubtitlesStore, token: string): Promise<Principal | undefined> {
  const hash = digest(token);
  const at = now();
  if (await store.useApiKey(hash, at)) return { kind: 'api-key', isAdmin: true };
  const user = await store.useSession(hash, at);
  if (!user) return undefined;
  return { kind: 'session', isAdmin: user.isAdmin, userId: user.id, userName: user.name, tokenHash: hash };
}

/**
 * Reading environment variables once, with clear messages. A service's config.ts is the only reader of
 * process.env; it builds a frozen config object from these and throws ConfigError on a bad value.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

const present = (env: Env, name: string) => {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
};

export function stringVar(env: Env, name: string, fallback: string): string;
export function stringVar(env: Env, name: string): string | undefined;
export function stringVar(env: Env, name: string, fallback?: string): string | undefined {
  return present(env, name) ?? fallback;
}

export function intVar(
  env: Env,
  name: string,
  fallback: number,
  bounds: { min?: number; max?: number } = {},
): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = bounds;
  if (!/^-?\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${named(env, name)} must be a whole number from ${min} to ${max}, not "${raw}"`);
  }
  return value;
}

export function numberVar(
  env: Env,
  name: string,
  fallback: number,
  bounds: { min?: number; max?: number } = {},
): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  const { min = -Infinity, max = Infinity } = bounds;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(`${named(env, name)} must be a number from ${min} to ${max}, not "${raw}"`);
  }
  return value;
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

export function boolVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const word = raw.toLowerCase();
  if (TRUE.has(word)) return true;
  if (FALSE.has(word)) return false;
  throw new ConfigError(
    `Invalid boolean value for ${named(env, name)}: "${raw}" (use true, false, 1, 0, yes, no, on or off)`,
  );
}

export function enumVar<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!allowed.includes(raw as T)) {
    throw new ConfigError(`${named(env, name)} must be one of ${allowed.join(', ')}, not "${raw}"`);
  }
  return raw as T;
}

export function portVar(env: Env, name: string, fallback: number): number {
  return intVar(env, name, fallback, { min: 0, max: 65535 });
}

/** For each environment scopedEnv made, the variables a prefixed one stands for (`PORT` ← `FUEL_PORT`). */
const ORIGINS = new WeakMap<Env, Map<string, string>>();

/**
 * With `npm start` running every service in one process, a variable meant for one service can carry its
 * prefix (`FUEL_DATABASE_URL`); the prefixed value wins over the plain one for that service only.
 */
export function scopedEnv(env: Env, prefix: string): Env {
  const scoped: Env = { ...env };
  const origins = new Map(ORIGINS.get(env));
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(prefix) && value !== undefined) {
      scoped[name.slice(prefix.length)] = value;
      origins.set(name.slice(prefix.length), name);
    }
  }
  ORIGINS.set(scoped, origins);
  return scoped;
}

/** A variable as the user named it: an error about `PORT` read from `FUEL_PORT` names `FUEL_PORT`. */
export const named = (env: Env, name: string): string => ORIGINS.get(env)?.get(name) ?? name;

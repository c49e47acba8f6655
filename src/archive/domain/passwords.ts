import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);

/** OWASP's figure for PBKDF2-HMAC-SHA256; tests pass a small count to stay fast. */
export const PASSWORD_ITERATIONS = 600_000;
const SCHEME = 'pbkdf2-sha256';
const KEY_BYTES = 32;

/**
 * A viewer password as stored: `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`. The count travels with
 * the hash, so raising it later leaves existing accounts able to log in.
 */
export async function hashPassword(password: string, iterations = PASSWORD_ITERATIONS): Promise<string> {
  const salt = randomBytes(16).toString('hex');
  const key = await pbkdf2Async(password, salt, iterations, KEY_BYTES, 'sha256');
  return `${SCHEME}$${iterations}$${salt}$${key.toString('hex')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, rounds, salt, hash] = stored.split('$');
  const iterations = Number(rounds);
  if (scheme !== SCHEME || !salt || !hash || !Number.isInteger(iterations) || iterations < 1) return false;
  const expected = Buffer.from(hash, 'hex');
  const key = await pbkdf2Async(password, salt, iterations, expected.length, 'sha256');
  return expected.length > 0 && timingSafeEqual(key, expected);
}

/**
 * A hash to spend the same time on when no account matched, so the answer time does not tell whether a
 * username exists.
 */
export function decoyHash(iterations = PASSWORD_ITERATIONS): string {
  return `${SCHEME}$${iterations}$${'0'.repeat(32)}$${'0'.repeat(64)}`;
}

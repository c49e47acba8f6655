import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** 128 random bits as 32 lowercase hex digits: API keys, session tokens, ids (Jellyfin's GUID "N" form). */
export const randomHex32 = () => randomBytes(16).toString('hex');

/** Tokens are random, so a plain digest is enough to store them without keeping them. */
export const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

// scrypt with N = 2^15, r = 8, p = 1: about 32 MiB and tens of milliseconds per check.
const COST = 15;
const BLOCK = 8;
const PARALLEL = 1;
const KEY_LENGTH = 32;

function derive(
  password: string,
  salt: Buffer,
  cost: number,
  block: number,
  parallel: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N: 2 ** cost, r: block, p: parallel, maxmem: 256 * 2 ** cost * block },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST, BLOCK, PARALLEL);
  return ['scrypt', COST, BLOCK, PARALLEL, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, cost, block, parallel, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    Number(cost),
    Number(block),
    Number(parallel),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Spends the same time as a real check, so an unknown user name cannot be told from a wrong password. */
export const DUMMY_HASH = 'scrypt$15$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

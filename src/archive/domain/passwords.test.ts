import { describe, expect, it } from 'vitest';
import { decoyHash, hashPassword, PASSWORD_ITERATIONS, verifyPassword } from './passwords';
import { constantTimeEqual } from './secrets';

describe('viewer passwords', () => {
  it('uses at least 600,000 PBKDF2-SHA256 rounds by default', async () => {
    expect(PASSWORD_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(decoyHash()).toMatch(/^pbkdf2-sha256\$600000\$/);
  });

  it('verifies the right password only, with the cost stored beside the hash', async () => {
    const stored = await hashPassword('correct-horse-battery', 1000);
    expect(stored).toMatch(/^pbkdf2-sha256\$1000\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(await verifyPassword('correct-horse-battery', stored)).toBe(true);
    expect(await verifyPassword('correct-horse-batterY', stored)).toBe(false);
    expect(await hashPassword('correct-horse-battery', 1000)).not.toBe(stored);
    expect(await verifyPassword('anything', 'garbage')).toBe(false);
    expect(await verifyPassword('anything', decoyHash(10))).toBe(false);
  });

  it('compares secrets of any length', () => {
    expect(constantTimeEqual('admin', 'admin')).toBe(true);
    expect(constantTimeEqual('admin', 'admin2')).toBe(false);
    expect(constantTimeEqual('', 'x')).toBe(false);
  });
});

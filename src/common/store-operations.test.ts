import { describe, expect, it } from 'vitest';
import { bindOperations } from './store-operations';

interface Things {
  countThings(min: number, now?: Date): Promise<string>;
  name: string;
}

describe('bindOperations', () => {
  it('makes each operation a method with the connection given first, and nothing else', async () => {
    const connection = { dialect: 'sqlite' };
    const bound = bindOperations<Things, 'countThings', typeof connection>(connection, {
      countThings: async (c, min, now = new Date(0)) => `${c.dialect}:${min}:${now.toISOString()}`,
    });
    expect(Object.keys(bound)).toEqual(['countThings']);
    expect(await bound.countThings(3)).toBe('sqlite:3:1970-01-01T00:00:00.000Z');
    expect(await bound.countThings(4, new Date(1000))).toBe('sqlite:4:1970-01-01T00:00:01.000Z');
  });
});

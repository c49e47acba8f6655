import { describe, expect, it } from 'vitest';
import { bindQueries } from './archive-store';
import type { Driver } from './driver';

const driver = { dialect: 'sqlite' } as unknown as Driver;

describe('bindQueries', () => {
  it('turns each exported async (db, ...args) function into a method with the driver bound', async () => {
    const module = {
      async countThings(db: Driver, min: number, now = new Date(0)) {
        return `${db.dialect}:${min}:${now.toISOString()}`;
      },
      LIMIT: 10,
      helper: (x: string) => x.toUpperCase(),
    };
    const bound = bindQueries(driver, [module]);
    expect(Object.keys(bound)).toEqual(['countThings']);
    expect(await bound.countThings(3)).toBe('sqlite:3:1970-01-01T00:00:00.000Z');
  });

  it('refuses a name that two modules export', () => {
    const a = { async same(_db: Driver) {} };
    const b = { async same(_db: Driver) {} };
    expect(() => bindQueries(driver, [a, b])).toThrow(/same is exported by two query modules/);
  });
});

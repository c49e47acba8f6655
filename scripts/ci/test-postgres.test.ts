import { describe, expect, it } from 'vitest';
import { ensureTestPostgres, type PostgresSetup, PostgresUnavailable } from './test-postgres';

function machine(answers: (string | null)[], overrides: Partial<PostgresSetup> = {}) {
  const said: string[] = [];
  let started = 0;
  const setup: PostgresSetup = {
    probe: async () => answers.shift() ?? null,
    canStart: true,
    userServer: false,
    start: () => {
      started++;
    },
    say: (line) => said.push(line),
    ...overrides,
  };
  return { setup, said, started: () => started };
}

describe('the test tiers’ PostgreSQL', () => {
  it('is left alone when it answers', async () => {
    const m = machine([null]);
    await ensureTestPostgres(m.setup);
    expect({ said: m.said, started: m.started() }).toEqual({ said: [], started: 0 });
  });

  it('is started with the CI script when nothing answers and this machine may, saying so in one line', async () => {
    const m = machine(['ECONNREFUSED', null]);
    await ensureTestPostgres(m.setup);
    expect(m.started()).toBe(1);
    expect(m.said).toHaveLength(1);
    expect(m.said[0]).toMatch(
      /does not answer on 127\.0\.0\.1:5432: starting one with scripts\/ci\/postgres\.sh/,
    );
  });

  it('stops the run with what to run where it may not start one', async () => {
    const m = machine(['ECONNREFUSED'], { canStart: false });
    const error = await ensureTestPostgres(m.setup).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresUnavailable);
    expect((error as Error).message).toMatch(/sudo bash scripts\/ci\/postgres\.sh/);
    expect((error as Error).message).not.toContain('\n');
    expect(m.started()).toBe(0);
  });

  it('never starts one in place of a server the user named', async () => {
    const m = machine(['ECONNREFUSED'], { userServer: true });
    await expect(ensureTestPostgres(m.setup)).rejects.toThrow(/TEST_POSTGRES_URL/);
    expect(m.started()).toBe(0);
  });

  it('fails when the script ran and still nothing answers', async () => {
    const m = machine(['ECONNREFUSED', 'ECONNREFUSED']);
    await expect(ensureTestPostgres(m.setup)).rejects.toThrow(/still does not answer/);
  });
});

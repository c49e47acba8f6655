// Dredd against the live fuel server (in process, port 0, demo dataset, fake upstreams): every documented
// example, 0 failing. The same configuration and hooks CI uses (contract-tests/dredd/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundledDocument } from '../../src/common/documents';
import { documentedOperations } from '../../src/common/http/operations';
import { type ExamplePages, writeExamplePages } from '../../src/common/testing/example-pages';
import { startTestFuel, type TestFuel } from '../../src/fuel/testing/server';
import { runDredd } from '../lib/dredd';

describe('Dredd on the live fuel server', () => {
  let fuel: TestFuel;
  let pages: ExamplePages;
  beforeAll(async () => {
    pages = await writeExamplePages('fuel');
    fuel = await startTestFuel({ webDist: pages.distRoot });
  });
  afterAll(async () => {
    await fuel?.close();
    await pages?.remove();
  });

  it('passes every documented example', async () => {
    const { code, output } = await runDredd('fuel', fuel.url, {});
    const summary = output.match(/complete: (\d+) passing, (\d+) failing, (\d+) errors/);
    expect(summary, output).not.toBeNull();
    // One success per operation of the document (the icon among them).
    expect(Number(summary?.[1]), output).toBe(documentedOperations(loadBundledDocument('fuel')).length);
    expect({ failing: summary?.[2], errors: summary?.[3], code }, output).toEqual({
      failing: '0',
      errors: '0',
      code: 0,
    });
  }, 120_000);
});

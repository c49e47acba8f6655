import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startPrism } from '../../scripts/prism';
import { mockCredentials } from '../lib/credentials';
import { loadDocument, operationsOf, SchemaValidator, SERVICES } from '../lib/document';
import { buildRequest, checkResponse } from '../lib/exchange';

// `npm run mock -- <service>` serves these same documents; here each GET is called once on a fresh mock.
describe.each(SERVICES)('Prism mock of %s', (service) => {
  const doc = loadDocument(service);
  const validator = new SchemaValidator(service, doc);
  let mock: RunningMock;

  beforeAll(async () => {
    mock = await startPrism(service);
  }, 60_000);
  afterAll(async () => {
    await mock?.stop();
  });

  const gets = operationsOf(doc).filter((op) => op.method === 'get');
  it.each(gets.map((op) => [op.operationId, op] as const))('serves %s with a valid 2xx', async (_id, op) => {
    const { url, init } = buildRequest(doc, op, mock.url, mockCredentials(doc));
    const res = await fetch(url, init);
    const checked = await checkResponse(doc, validator, op, res);
    expect(checked.problems).toEqual([]);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
  });
});

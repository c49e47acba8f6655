import { describe, expect, it } from 'vitest';
import { startPrism } from '../../scripts/prism';
import { credentialHeaders, mockCredentials } from '../lib/credentials';
import { loadDocument, SERVICES } from '../lib/document';
import { runDredd } from '../lib/dredd';

// The Dredd configuration and hooks that CI runs against the live servers, proved on each document's mock.
describe.each(SERVICES)('Dredd on the %s document', (service) => {
  it('passes against the Prism mock', async () => {
    const doc = loadDocument(service);
    const mock = await startPrism(service);
    try {
      const { code, output } = await runDredd(
        service,
        mock.url,
        credentialHeaders(doc, mockCredentials(doc)),
      );
      const summary = output.match(/complete: (\d+) passing, (\d+) failing, (\d+) errors/);
      expect(summary, output).not.toBeNull();
      expect(Number(summary?.[1])).toBeGreaterThan(0);
      expect({ failing: summary?.[2], errors: summary?.[3], code }, output).toEqual({
        failing: '0',
        errors: '0',
        code: 0,
      });
    } finally {
      await mock.stop();
    }
  }, 120_000);
});

import path from 'node:path';
import { lint, loadConfig } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { ROOT, SERVICES } from '../lib/document';

// The same engine and redocly.yaml as `npm run lint:spec`; warnings count too.
describe('the hand-written documents lint clean', () => {
  it.each(SERVICES)('%s has no lint problems', async (service) => {
    const config = await loadConfig({ configPath: path.join(ROOT, 'redocly.yaml') });
    const problems = await lint({
      ref: path.join(ROOT, 'openapi', service, 'openapi.yaml'),
      config: config.forAlias(service),
    });
    const report = problems.map(
      (p) =>
        `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.source.absoluteRef}${p.location[0]?.pointer}`,
    );
    expect(report).toEqual([]);
  });
});

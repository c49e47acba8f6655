/**
 * No decision in the services' code compares the path as spelled by the client: every check binds to
 * the operation the front door matched (src/common/http/matched-operation.ts). Test stand-ins (fake
 * upstream servers) are outside the rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');
const PATH_COMPARISON =
  /\breq\.(path|url|originalUrl|baseUrl)\b[^;\n]*?[!=]==|[!=]==\s*req\.(path|url|originalUrl|baseUrl)\b/;

/** Files allowed a path comparison, and why. */
const EXCEPTIONS: Record<string, string> = {
  'common/metrics.ts':
    'the metrics listener on its own port has one route and no access decision (it binds to 127.0.0.1)',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ['fixtures', 'testing', 'fakes'].includes(entry.name) ? [] : sources(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$|fake-/.test(entry.name) ? [full] : [];
  });
}

describe('path comparisons', () => {
  it('no service code compares a request path to a string', () => {
    const found = sources(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${path.relative(SRC, file)}:${i + 1}` }))
        .filter(({ line }) => PATH_COMPARISON.test(line))
        .filter(() => !(path.relative(SRC, file) in EXCEPTIONS))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('the rule sees the comparisons it is meant to catch', () => {
    for (const line of [
      "if (req.method !== 'POST' || req.path !== PATH) return next();",
      "if (req.url === '/internal/push') {",
      "if ('/x' === req.originalUrl) {",
    ])
      expect(PATH_COMPARISON.test(line), line).toBe(true);
  });
});

/**
 * Every regular expression of the services' code runs in time that grows with its input's length, never
 * with its square or worse: a request, an export or a feed could otherwise stall all three services of one
 * process (a coordinate pattern once took 2.6 s on a 15,000-character text). Each literal of the production
 * code under src/ is read from the source and checked by recheck's automaton checker; so is each route
 * pattern the front door builds from the three documents. A `new RegExp` of any other kind must be named
 * below with what it reads.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadBundledDocument } from '../src/common/documents';
import { OperationTable } from '../src/common/http/matched-operation';
import { SERVICES } from '../src/common/services';

const ROOT = path.join(import.meta.dirname, '..');

/** Patterns built at run time, by file, with what they read (checked by hand or below). */
const BUILT: Record<string, string> = {
  'src/archive/model/int64.ts': 'the placeholder of its own JSON.stringify output, from a constant; linear',
  'src/common/http/matched-operation.ts': "the documents' route patterns, checked below",
};

interface Found {
  where: string;
  source: string;
  flags: string;
}

function productionFiles(): string[] {
  return execFileSync('git', ['ls-files', 'src'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.test(-d)?\.ts$/.test(f))
    .filter((f) => !f.includes('/testing/') && !f.includes('/fakes/'));
}

function scan(files: string[]): { literals: Found[]; built: string[] } {
  const literals: Found[] = [];
  const built: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      readFileSync(path.join(ROOT, file), 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const where = (node: ts.Node) =>
      `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isRegularExpressionLiteral(node)) {
        const slash = node.text.lastIndexOf('/');
        literals.push({
          where: where(node),
          source: node.text.slice(1, slash),
          flags: node.text.slice(slash + 1),
        });
      } else if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'RegExp'
      ) {
        built.push(file);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { literals, built };
}

const verdict = ({ source, flags }: { source: string; flags: string }) => {
  const result = checkSync(source, flags, { checker: 'automaton', timeout: 10_000 });
  return result.status === 'vulnerable'
    ? `${result.complexity.type}${'degree' in result.complexity ? ` (degree ${result.complexity.degree})` : ''}`
    : result.status;
};

describe('regular expressions on input', () => {
  const { literals, built } = scan(productionFiles());

  it('finds the literals it checks', () => {
    expect(literals.length).toBeGreaterThan(150);
  });

  it('are all linear: every literal of the production code', { timeout: 120_000 }, () => {
    const slow = literals
      .map((l) => `${l.where} /${l.source}/${l.flags}: ${verdict(l)}`)
      .filter((l) => !l.endsWith(': safe'));
    expect(slow).toEqual([]);
  });

  it("are all linear: the front door's route patterns of the three documents", { timeout: 60_000 }, () => {
    const slow = SERVICES.flatMap((service) =>
      new OperationTable(loadBundledDocument(service))
        .patterns()
        .map((p) => `${service} ${p}: ${verdict(p)}`)
        .filter((l) => !l.endsWith(': safe')),
    );
    expect(slow).toEqual([]);
  });

  it('names every pattern built at run time', () => {
    expect([...new Set(built)].filter((file) => !BUILT[file])).toEqual([]);
  });

  it('tells a polynomial pattern from a linear one (the check itself)', () => {
    expect(verdict({ source: String.raw`^\s*(\d+)\s*[,;\s]\s*(\d+)\s*$`, flags: '' })).toBe(
      'polynomial (degree 2)',
    );
    expect(verdict({ source: String.raw`\/+$`, flags: '' })).toBe('polynomial (degree 2)');
    expect(verdict({ source: '^(a+)+$', flags: '' })).toBe('exponential');
    expect(verdict({ source: String.raw`^\d{4}-\d{2}$`, flags: '' })).toBe('safe');
  });
});

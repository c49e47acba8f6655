/**
 * The README runner's marks (blocks.ts), read without running anything: every command block of the
 * documents says how it runs or why it does not, each option names a line the block has, and no line the
 * runner sends still holds a placeholder nothing stands in for. The runner itself (run.test.ts) is in the
 * slow tier.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocksOf, DOCUMENTS, isCommandBlock, parseMark, placeholdersIn, shellLines } from './blocks';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const blocks = DOCUMENTS.flatMap((document) => blocksOf(ROOT, document)).filter(isCommandBlock);

describe('the README’s command blocks', () => {
  it('are each marked, and every mark reads', () => {
    expect(blocks.length).toBeGreaterThan(15);
    expect(blocks.filter((b) => !b.mark).map((b) => `${b.where}: ${b.problem ?? 'no mark'}`)).toEqual([]);
    const counts = { scratch: 0, demo: 0, skip: 0 };
    for (const b of blocks) if (b.mark) counts[b.mark.state]++;
    console.log(`README blocks: ${counts.scratch} scratch, ${counts.demo} demo, ${counts.skip} not run`);
  });

  it('name, in every option, a line the block has, and in every given file one the repository has', () => {
    const stale: string[] = [];
    for (const b of blocks) {
      const lines = shellLines(b.code);
      const rules = [
        ...(b.mark?.serves ?? []),
        ...(b.mark?.keeps ?? []),
        ...(b.mark?.fails ?? []),
        ...(b.mark?.omits ?? []),
      ];
      for (const rule of rules) {
        const matching = lines.filter((line) => line.includes(rule.part));
        if (matching.length !== 1) stale.push(`${b.where}: "${rule.part}" names ${matching.length} lines`);
      }
      for (const given of b.mark?.given ?? []) {
        if (!existsSync(path.join(ROOT, given.from))) stale.push(`${b.where}: no ${given.from}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('leave no placeholder in a line the runner sends that nothing stands in for', () => {
    const left: string[] = [];
    for (const b of blocks) {
      const mark = b.mark;
      if (!mark || mark.state === 'skip' || (b.language !== 'sh' && b.language !== 'bash')) continue;
      for (const line of shellLines(b.code)) {
        if (mark.omits.some((rule) => line.includes(rule.part))) continue;
        for (const placeholder of placeholdersIn(line)) {
          if (!mark.with.some((w) => w.placeholder === placeholder)) left.push(`${b.where}: ${placeholder}`);
        }
      }
    }
    expect(left).toEqual([]);
  });

  it('show the Go and Java calls the SDK smoke tests make, line for line but the address', () => {
    const smoke: Record<string, string> = {
      go: readFileSync(path.join(ROOT, 'sdks/go/smoke_test.go'), 'utf8'),
      java: readFileSync(path.join(ROOT, 'sdks/java/src/test/java/specyard/smoke/SmokeTest.java'), 'utf8'),
    };
    const missing: string[] = [];
    for (const b of blocks.filter((x) => x.language in smoke)) {
      for (const line of b.code.split('\n').map((l) => l.trim())) {
        // The address is the server the smoke test started; the Go import line is the file's own.
        if (!line || line.includes('127.0.0.1') || line.startsWith('import ')) continue;
        if (!smoke[b.language]?.includes(line)) missing.push(`${b.where}: ${line}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('read marks strictly', () => {
    expect(() => parseMark('later')).toThrow(/unknown state/);
    expect(() => parseMark('skip')).toThrow(/because/);
    expect(() => parseMark('demo; expects "x"')).toThrow(/unknown option/);
    const mark = parseMark('demo; with "<key>" = /API key: (\\S+); x/; fails "a; b" with "c"; expect "d"');
    expect(mark.with[0]?.pattern.source).toBe('API key: (\\S+); x');
    expect(mark.fails).toEqual([{ part: 'a; b', text: 'c' }]);
    expect(mark.expect).toEqual(['d']);
  });
});

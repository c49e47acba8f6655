/**
 * Every installed package runs on the Node versions package.json declares (`engines`): what `npm ci`
 * checks package by package, warning EBADENGINE, is checked here on the lockfile, against the lowest
 * version the declaration admits and the one running.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../src/common/services';

const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

describe('engines', () => {
  it('every package of the lockfile accepts the Node versions the project declares', () => {
    const declared: string = read('package.json').engines.node;
    const lowest = semver.minVersion(declared)?.version ?? '';
    expect(lowest).not.toBe('');
    const lock = read('package-lock.json') as { packages: Record<string, { engines?: { node?: string } }> };
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .flatMap(([name, entry]) => {
        const wanted = entry.engines?.node;
        if (!wanted || !semver.validRange(wanted)) return [];
        return [lowest, process.version].some((version) => !semver.satisfies(version, wanted))
          ? [`${name.replace(/^.*node_modules\//, '')} wants node ${wanted}`]
          : [];
      });
    expect(refusing).toEqual([]);
  });
});

/**
 * Shared test cases: a suite written once as a function every backend's test file calls. A backend leaves
 * a case out only by naming it with its reason; the reason shows in the report, and a name that matches no
 * case fails the file.
 */
import { expect, it as vitestIt } from 'vitest';

export type CaseSkips = Record<string, string>;

/** The `it` a case file declares its cases with, for one backend's run, leaving out the cases `skip` names. */
export function sharedCases(
  suite: string,
  skip: CaseSkips = {},
): (name: string, test: () => Promise<void>) => void {
  const named = new Set<string>();
  vitestIt(`${suite}: every skipped case exists`, () => {
    expect(Object.keys(skip).filter((name) => !named.has(name))).toEqual([]);
  });
  return (name, test) => {
    named.add(name);
    const reason = skip[name];
    if (reason === undefined) vitestIt(name, test);
    else vitestIt.skip(`${name} (left out on this backend: ${reason})`, test);
  };
}

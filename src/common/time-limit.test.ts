import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { timeLimit } from './time-limit';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Resolves with the abort reason of the signal made inside, holding nothing of it but its listener. */
function abortedReason(make: () => AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    const signal = make();
    signal.addEventListener('abort', () => resolve(signal.reason));
  });
}

describe('timeLimit', () => {
  it('aborts a joined signal with a TimeoutError even when a garbage collection comes first', async () => {
    const reason = abortedReason(() => timeLimit(60, new AbortController().signal));
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    collectGarbage();
    const error = (await reason) as DOMException;
    expect(error.name).toBe('TimeoutError');
    expect(error.message).toBe('The operation was aborted due to timeout');
  });

  it('aborts on its own, and when the joined signal aborts first, with that reason', async () => {
    expect(((await abortedReason(() => timeLimit(10))) as DOMException).name).toBe('TimeoutError');
    const controller = new AbortController();
    const reason = abortedReason(() => timeLimit(60_000, controller.signal));
    controller.abort(new Error('stopping'));
    expect(await reason).toEqual(new Error('stopping'));
  });
});

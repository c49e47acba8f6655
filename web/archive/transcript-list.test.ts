import { describe, expect, it } from 'vitest';
import type { Transcript } from './api';
import { keepAsked } from './transcript-list';

const t = (id: number, status: Transcript['status']) => ({ id, status }) as Transcript;

describe('a message’s transcripts read again', () => {
  it('keeps a request the answer does not hold yet before the server’s list, and takes the server’s once it does', () => {
    const asked = [t(9, 'queued')];
    expect(keepAsked(asked, []).map((x) => x.id)).toEqual([9]);
    expect(keepAsked(asked, [t(3, 'done')]).map((x) => [x.id, x.status])).toEqual([
      [9, 'queued'],
      [3, 'done'],
    ]);
    expect(keepAsked(asked, [t(9, 'running')]).map((x) => [x.id, x.status])).toEqual([[9, 'running']]);
  });

  it('lets a finished one go when the server no longer has it', () => {
    expect(keepAsked([t(4, 'done'), t(5, 'failed')], [])).toEqual([]);
  });
});

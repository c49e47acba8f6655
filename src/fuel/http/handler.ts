import type { Response } from 'express';
import type { operations } from '../../../generated/fuel/types';
import type { Handlers } from '../../common/http/operations';

/** Some of the fuel operations' handlers: each handlers module makes its share from the app's wiring. */
export type FuelHandlers = Partial<Handlers<operations>>;

export const CACHE = {
  config: 'public, s-maxage=3600, stale-while-revalidate=7200',
  fiveMinutes: 'public, s-maxage=300, stale-while-revalidate=600',
  oneMinute: 'public, s-maxage=60, stale-while-revalidate=300',
  exchangeRates: 'public, s-maxage=3600, stale-while-revalidate=86400',
  staleExchangeRates: 'public, s-maxage=60',
  stream: 'no-cache, no-transform',
} as const;

/**
 * Sends a JSON body given as pieces of text, each written as soon as it is made and paused while the
 * socket's buffer is full, so a large answer is neither built whole nor held twice. The body is not
 * checked against the document here (the contract suites check it).
 */
export async function sendJsonPieces(res: Response, pieces: Iterable<string>): Promise<void> {
  res.status(200).type('application/json; charset=utf-8');
  for (const piece of pieces) {
    if (res.destroyed) return;
    if (!res.write(piece)) await drainedOrClosed(res);
  }
  res.end();
}

/** Resolves when the socket takes more, or when it closed; removes both listeners either way. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

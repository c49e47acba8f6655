import { type RunningMock, startPrism } from '../../scripts/prism';
import type { Service } from './document';

export type TargetKind = 'prism' | 'live';

export interface Target extends RunningMock {
  kind: TargetKind;
}

/**
 * Where a contract suite sends its requests: `CONTRACT_TARGET=prism` (the default) starts a Prism mock of
 * the service's document; `CONTRACT_TARGET=live` uses the server at `CONTRACT_BASE_URL`.
 */
export async function contractTarget(service: Service): Promise<Target> {
  const kind = (process.env.CONTRACT_TARGET ?? 'prism') as TargetKind;
  if (kind === 'prism') return { kind, ...(await startPrism(service)) };
  if (kind === 'live') {
    const url = process.env.CONTRACT_BASE_URL;
    if (!url)
      throw new Error(
        'CONTRACT_TARGET=live needs CONTRACT_BASE_URL (the running server, e.g. http://127.0.0.1:3000)',
      );
    return { kind, url: url.replace(/\/$/, ''), stop: async () => {} };
  }
  throw new Error(`CONTRACT_TARGET must be prism or live, not ${kind}`);
}

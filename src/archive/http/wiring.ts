/**
 * The archive viewer's wiring: what the handlers work with, built once by createArchiveApp and given to
 * each handlers module (the per-request context is context.ts).
 */
import type { Logger } from 'pino';
import type { ArchiveConfig, LoginModes } from '../config';
import type { SlidingWindowLimiter } from '../domain/rate-limit';
import type { SessionManager } from '../domain/sessions';
import type { Thumbnailer } from '../domain/thumbnails';
import type { Live } from '../live/live';
import type { ArchiveStore, ChatStats } from '../store/store';
import type { TtlCache } from './cache';
import type { HostRule } from './hosts';

export interface ArchiveWiring {
  config: ArchiveConfig;
  modes: LoginModes;
  store: ArchiveStore;
  sessions: SessionManager;
  /** WebSocket hub, event publisher, Web Push and transcripts. */
  live: Live;
  limiter: SlidingWindowLimiter;
  /** Whether a request names one of the viewer's own hosts (hosts.ts). */
  ownHost: HostRule;
  /** Per-chat statistics, kept 60 seconds (seed). */
  chatStats: TtlCache<ChatStats>;
  passwordIterations: number;
  thumbnails: Thumbnailer;
  /** The folder of the built web pages (undefined: `web/dist`). */
  webDist: string | undefined;
  now: () => number;
  logger: Logger;
}

import type { operations } from '../../../generated/subtitles/types';
import type { OperationHandler } from '../../common/http/operations';
import type { SubtitlesConfig } from '../config';
import type { Probe } from '../domain/probe';
import type { TranscriptionQueue } from '../domain/queue';
import type { ServerSettings } from '../domain/server-settings';
import type { SignInThrottle } from '../domain/sign-in-throttle';
import type { SubtitlesStore } from '../store/store';

export type Handler<K extends keyof operations> = OperationHandler<operations[K]>;

/** What the handlers work with, kept in the app's locals by http/app.ts. */
export interface Services {
  config: SubtitlesConfig;
  store: SubtitlesStore;
  queue: TranscriptionQueue;
  probe: Probe;
  settings: ServerSettings;
  /** Failed sign-ins per client (built by createSubtitlesApp from the config). */
  signIns: SignInThrottle;
  /** The server's own address once it listens (for probing what it serves). */
  selfUrl: () => string | undefined;
}

export const services = (req: { app: { locals: Record<string, unknown> } }): Services =>
  req.app.locals.subtitles as Services;

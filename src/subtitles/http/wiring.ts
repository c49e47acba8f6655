import type { operations } from '../../../generated/subtitles/types';
import type { Handlers } from '../../common/http/operations';
import type { SubtitlesConfig } from '../config';
import type { Probe } from '../domain/probe';
import type { TranscriptionQueue } from '../domain/queue';
import type { ServerSettings } from '../domain/server-settings';
import type { SignInThrottle } from '../domain/sign-in-throttle';
import type { SubtitlesStore } from '../store/store';

/** Some of the operations' handlers: each handlers module makes its share from the app's wiring. */
export type SubtitlesHandlers = Partial<Handlers<operations>>;

/** The media-server host's wiring: what the handlers work with, built once by createSubtitlesApp and given to each handlers module. */
export interface SubtitlesWiring {
  config: SubtitlesConfig;
  store: SubtitlesStore;
  queue: TranscriptionQueue;
  probe: Probe;
  settings: ServerSettings;
  /** Failed sign-ins per client (built by createSubtitlesApp from the config). */
  signIns: SignInThrottle;
  /** The folder of the built pages (`web/dist` unless a test serves pages of its own). */
  webDist?: string | undefined;
  /** The server's own address once it listens (for probing what it serves). */
  selfUrl: () => string | undefined;
}

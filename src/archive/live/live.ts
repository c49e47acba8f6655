/**
 * Live updates of one viewer, wired together: publisher (where events enter) → event bus → WebSocket hub
 * and Web Push; transcripts publish through the same publisher. `start` (VAPID keys, LISTEN) and `attach`
 * (the HTTP server's upgrades) come after the app is built.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Logger } from 'pino';
import type { ArchiveConfig } from '../config';
import type { Principal } from '../domain/principal';
import type { ArchiveStore } from '../store/store';
import { EventBus } from './events';
import { WsHub } from './hub';
import type { Resolver } from './public-address';
import { LivePublisher } from './publisher';
import { resolvePushSecret } from './push-secret';
import { Transcription } from './transcription';
import { WebPush } from './web-push';

/** Knobs tests and benchmarks turn; production uses the defaults. */
export interface LiveOptions {
  heartbeatMs?: number;
  sessionCheckMs?: number;
  allowPrivatePushEndpoints?: boolean;
  pushBackoffMs?: (attempt: number) => number;
  /** How push endpoint names are resolved before each send (tests). */
  pushResolve?: Resolver;
}

export interface LiveDeps {
  config: ArchiveConfig;
  store: ArchiveStore;
  logger: Logger;
  now: () => number;
  authenticate(req: IncomingMessage): Promise<Principal | null>;
  sessionIdOf(key: string): string;
}

export class Live {
  readonly bus: EventBus;
  readonly publisher: LivePublisher;
  readonly hub: WsHub;
  readonly push: WebPush;
  readonly transcription: Transcription;
  /** The bearer secret `/internal/push` callers must send (null: loopback callers only). */
  readonly pushSecret: string | null;

  constructor(deps: LiveDeps, options: LiveOptions = {}) {
    const { config, store, logger, now } = deps;
    this.pushSecret = resolvePushSecret(config);
    this.bus = new EventBus((error) => logger.warn({ err: error }, 'live updates: listener failed'));
    this.publisher = new LivePublisher({
      store,
      bus: this.bus,
      logger,
      postgresUrl: config.database.backend === 'postgresql' ? config.database.url : null,
    });
    this.hub = new WsHub({
      store,
      logger,
      authenticate: deps.authenticate,
      sessionIdOf: deps.sessionIdOf,
      corsOrigins: config.corsOrigins,
      displayChatIds: config.displayChatIds,
      maxConnections: config.websocket.maxConnections,
      maxConnectionsPerLogin: config.websocket.maxConnectionsPerLogin,
      maxSubscriptions: config.websocket.maxSubscriptionsPerConnection,
      withTranscripts: config.transcription.enabled,
      backupPath: config.media.backupPath,
      now,
      ...(options.heartbeatMs !== undefined && { heartbeatMs: options.heartbeatMs }),
      ...(options.sessionCheckMs !== undefined && { sessionCheckMs: options.sessionCheckMs }),
    });
    this.push = new WebPush({
      mode: config.push.mode,
      vapid: config.push.vapid,
      store,
      logger,
      displayChatIds: config.displayChatIds,
      ...(options.allowPrivatePushEndpoints !== undefined && {
        allowPrivateEndpoints: options.allowPrivatePushEndpoints,
      }),
      ...(options.pushBackoffMs && { backoffMs: options.pushBackoffMs }),
      ...(options.pushResolve && { resolve: options.pushResolve }),
    });
    this.transcription = new Transcription({
      config: config.transcription,
      store,
      logger,
      now,
      publish: (event) => this.publisher.publish(event),
    });
    this.bus.on((event) => this.hub.enqueue(event));
    this.bus.on((event) => this.push.onEvent(event));
  }

  async start(): Promise<void> {
    await this.push.start();
    await this.publisher.start();
  }

  attach(server: Server): void {
    this.hub.attach(server);
  }

  async close(): Promise<void> {
    await this.publisher.close();
    await this.hub.close();
    this.push.close();
  }
}

/** For tests: a WebSocket client of `/ws/updates` that records every frame and waits for the ones it needs. */
import WebSocket from 'ws';

export interface Frame {
  type: string;
  [key: string]: unknown;
}

export class TestSocket {
  readonly frames: Frame[] = [];
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(frame)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(frame);
        }
      }
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Opens a socket; resolves once it is open (or closed by the server straight away). */
  static async open(
    base: string,
    options: { cookie?: string; origin?: string; headers?: Record<string, string>; autoPong?: boolean } = {},
  ): Promise<TestSocket> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.cookie) headers.cookie = `viewer_auth=${options.cookie}`;
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/updates`, {
      headers,
      ...(options.origin && { origin: options.origin }),
      ...(options.autoPong === false && { autoPong: false }),
    });
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('close', () => resolve());
      ws.once('error', reject);
    });
    return socket;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first frame received at index `from` or later that matches (waiting for it if need be). */
  next(match: (f: Frame) => boolean, from = 0): Promise<Frame> {
    const seen = this.frames.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** Sends a frame and waits for the reply of the given type. */
  async ask(frame: unknown, type: string): Promise<Frame> {
    const from = this.frames.length;
    this.send(frame);
    return this.next((f) => f.type === type, from);
  }

  close(): void {
    this.ws.close();
  }
}

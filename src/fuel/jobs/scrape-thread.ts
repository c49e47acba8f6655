/**
 * The server's side of the scrape thread (scrape-worker.ts): runs a key there and resolves with its
 * summary; the run's log lines come back to this thread's logger unchanged. A thread that fails or exits
 * fails the runs it had (the scheduler logs them as fatal for that tick) and the next run starts a new one.
 */
import type { Worker } from 'node:worker_threads';
import type { Logger } from '../../common/logger';
import { startWorker } from '../../common/worker-entry';
import type { RunSummary } from '../scrapers/types';
import type { FromScrapeWorker, ScrapeWorkerData, ToScrapeWorker } from './scrape-worker';

interface Pending {
  resolve(summary: RunSummary): void;
  reject(error: Error): void;
}

export class ScrapeThread {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly data: ScrapeWorkerData,
    private readonly logger: Logger,
  ) {}

  /** Starts the thread ahead of the first run (it opens its own database connection). */
  start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = startWorker('fuel-scrape-worker', new URL('./scrape-worker.ts', import.meta.url), {
      workerData: { scrapeWorker: this.data },
    });
    this.worker = worker;
    const ready = new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        if (this.worker === worker) {
          this.worker = undefined;
          this.ready = undefined;
        }
        for (const run of this.pending.values()) run.reject(error);
        this.pending.clear();
        reject(error);
      };
      worker.on('message', (message: FromScrapeWorker) => {
        if ('ready' in message) {
          this.logger.info('[scraper] scrape thread started');
          resolve();
        } else if ('log' in message) this.logger[message.log.level](message.log.line);
        else if ('done' in message) this.settle(message.done.id)?.resolve(message.done.summary);
        else if ('failed' in message)
          this.settle(message.failed.id)?.reject(new Error(message.failed.message));
      });
      worker.on('error', (error: Error) => {
        this.logger.error({ err: error }, 'scrape thread failed');
        fail(error);
      });
      worker.on('exit', (code) => fail(new Error(`scrape thread exited (${code})`)));
    });
    // A failure is reported to the runs waiting on it; nobody else has to handle it.
    ready.catch(() => undefined);
    this.ready = ready;
    return ready;
  }

  async run(key: string, signal: AbortSignal): Promise<RunSummary> {
    await this.start();
    const worker = this.worker;
    if (!worker) throw new Error('scrape thread is not running');
    const id = this.nextId++;
    const done = new Promise<RunSummary>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    const abort = () =>
      this.post(worker, {
        abort: { id, reason: String((signal.reason as Error)?.message ?? signal.reason) },
      });
    this.post(worker, { run: { id, key } });
    // A run stopped before it started still starts, and stops at its first step, as it would here.
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    try {
      return await done;
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  /** Closes the thread's database connection and ends it (after the runs in progress, see the scheduler). */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    this.ready = undefined;
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (message: FromScrapeWorker) => {
        if ('closed' in message) resolve();
      });
      worker.once('exit', () => resolve());
    });
    this.post(worker, { close: true });
    await closed;
    await worker.terminate();
  }

  private post(worker: Worker, message: ToScrapeWorker): void {
    worker.postMessage(message);
  }

  private settle(id: number): Pending | undefined {
    const run = this.pending.get(id);
    this.pending.delete(id);
    return run;
  }
}

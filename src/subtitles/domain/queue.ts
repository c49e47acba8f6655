/**
 * The transcription queue: jobs kept in the store (one per media file and language), worked off by N
 * workers. What `GET …/Queue` reports is kept in memory and changed in the same step as the store, so
 * every answer is true at the moment it is given.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { components } from '../../../generated/subtitles/types';
import { type JobSource, jobKey, type QueueJob, type SubtitlesStore } from '../store/store';
import { findMediaFiles, hasSubtitle, itemName, resolveMediaFile, subtitlePath } from './media';
import { extractAudio, type Transcriber } from './transcribe';

export type QueueStatus = components['schemas']['QueueStatus'];
export type Phase = components['schemas']['QueuePhase'];
export type EnqueueResult = components['schemas']['EnqueueResult'];
export type ScanResult = components['schemas']['ScanResult'];

export interface QueueSettings {
  store: SubtitlesStore;
  transcribe: Transcriber;
  ffmpeg: string;
  mediaDir: string;
  workers: number;
  maxAttempts: number;
  jobTimeoutMs: number;
  logger: Logger;
}

interface WorkerState {
  id: number;
  item: string | null;
  phase: Phase;
  /** Order in which workers took their current item: the latest one is the queue's `currentItem`. */
  takenAt: number;
}

type Outcome = { kind: 'written' } | { kind: 'failed'; message: string } | { kind: 'stopped' };

const now = () => new Date().toISOString();

export class TranscriptionQueue {
  private queued = 0;
  private queuedRequests = 0;
  private processed = 0;
  private failed = 0;
  private lastError: string | null = null;
  private readonly workers: WorkerState[];
  private taken = 0;
  private generation = 0;
  private waiters: (() => void)[] = [];
  private stopping = false;
  private readonly abort = new AbortController();
  private loops: Promise<void>[] = [];

  private constructor(private readonly settings: QueueSettings) {
    this.workers = Array.from({ length: settings.workers }, (_, i) => ({
      id: i + 1,
      item: null,
      phase: 'idle',
      takenAt: 0,
    }));
  }

  /** Opens the queue: jobs a stopped process left running count one attempt and wait again. */
  static async open(settings: QueueSettings): Promise<TranscriptionQueue> {
    const queue = new TranscriptionQueue(settings);
    for (const job of await settings.store.listRunning()) {
      const attempts = job.attempts + 1;
      if (attempts >= settings.maxAttempts) {
        await settings.store.finish(job.id);
        queue.failed += 1;
        queue.lastError = `${job.item}: interrupted by a server stop`;
      } else {
        await settings.store.requeue(job.id, attempts);
      }
    }
    const counts = await settings.store.queueCounts();
    queue.queued = counts.queued;
    queue.queuedRequests = counts.queuedRequests;
    return queue;
  }

  start(): void {
    this.loops = this.workers.map((worker) => this.loop(worker));
  }

  /** Stops the workers; jobs in progress go back to the queue as they were. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort(new Error('the server is stopping'));
    this.wake();
    await Promise.all(this.loops);
  }

  status(): QueueStatus {
    const busy = this.workers.filter((w) => w.item !== null).sort((a, b) => b.takenAt - a.takenAt);
    const current = busy[0];
    return {
      isProcessing: busy.length > 0,
      currentItem: current?.item ?? null,
      remaining: this.queued,
      processed: this.processed,
      failed: this.failed,
      lastError: this.lastError,
      phase: current?.phase ?? 'idle',
      pendingRequests: this.queuedRequests,
      workers: this.workers.map(({ id, item, phase }) => ({ id, item, phase })),
    };
  }

  async enqueue(input: { path: string; language: string }): Promise<EnqueueResult> {
    const file = resolveMediaFile(this.settings.mediaDir, input.path);
    const item = itemName(file);
    const queued = await this.add(file, input.language, 'request');
    return { path: file, item, language: input.language, queued };
  }

  /** Queues every media file of the library without a subtitle in that language. */
  async scan(language: string): Promise<ScanResult> {
    const files = await findMediaFiles(this.settings.mediaDir);
    const inQueue = await this.settings.store.queuedKeys();
    let queued = 0;
    for (const file of files) {
      if (inQueue.has(jobKey(file, language)) || hasSubtitle(file, language)) continue;
      if (await this.add(file, language, 'scan')) queued += 1;
    }
    return { language, scanned: files.length, queued };
  }

  private async add(file: string, language: string, source: JobSource): Promise<boolean> {
    const added = await this.settings.store.enqueue({
      path: file,
      language,
      item: itemName(file),
      source,
      enqueuedAt: now(),
    });
    if (added) {
      this.queued += 1;
      if (source === 'request') this.queuedRequests += 1;
      this.wake();
    }
    return added;
  }

  private wake(): void {
    this.generation += 1;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private sleep(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      if (ms !== undefined) setTimeout(resolve, ms).unref();
    });
  }

  private async loop(worker: WorkerState): Promise<void> {
    while (!this.stopping) {
      try {
        const seen = this.generation;
        const job = await this.settings.store.claimNext(worker.id, now());
        if (!job) {
          if (seen === this.generation && !this.stopping) await this.sleep();
          continue;
        }
        this.queued -= 1;
        if (job.source === 'request') this.queuedRequests -= 1;
        Object.assign(worker, { item: job.item, phase: 'extracting', takenAt: ++this.taken });
        await this.settle(worker, job, await this.work(worker, job));
      } catch (error) {
        // A store fault must not end the worker: it tries again a little later.
        this.settings.logger.error({ err: error, worker: worker.id }, 'queue worker error');
        Object.assign(worker, { item: null, phase: 'idle' });
        if (!this.stopping) await this.sleep(1000);
      }
    }
  }

  private async work(worker: WorkerState, job: QueueJob): Promise<Outcome> {
    const { signal } = this.abort;
    const timeoutMs = this.settings.jobTimeoutMs;
    let dir: string | undefined;
    try {
      if (!existsSync(job.path)) throw new Error(`media file not found: ${job.path}`);
      dir = await mkdtemp(path.join(tmpdir(), 'subtitles-job-'));
      const wav = path.join(dir, 'audio.wav');
      await extractAudio(this.settings.ffmpeg, job.path, wav, signal, timeoutMs);
      worker.phase = 'transcribing';
      const srt = await this.settings.transcribe({
        wav,
        language: job.language,
        outPrefix: path.join(dir, 'subtitle'),
        signal,
        timeoutMs,
      });
      if (signal.aborted) return { kind: 'stopped' };
      worker.phase = 'writing';
      const target = subtitlePath(job.path, job.language);
      const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
      await writeFile(temp, srt);
      await rename(temp, target);
      return { kind: 'written' };
    } catch (error) {
      if (signal.aborted) return { kind: 'stopped' };
      return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  private async settle(worker: WorkerState, job: QueueJob, outcome: Outcome): Promise<void> {
    const { store, logger, maxAttempts } = this.settings;
    const log = { job: job.id, worker: worker.id, language: job.language };
    if (outcome.kind === 'stopped') {
      await store.release(job.id);
      this.requeued(job);
    } else if (outcome.kind === 'written') {
      await store.finish(job.id);
      this.processed += 1;
      logger.info(log, 'subtitle written');
    } else {
      const attempts = job.attempts + 1;
      const final = attempts >= maxAttempts;
      if (final) await store.finish(job.id);
      else await store.requeue(job.id, attempts);
      this.lastError = `${job.item}: ${outcome.message}`;
      if (final) this.failed += 1;
      else this.requeued(job);
      logger.warn({ ...log, attempts, final }, 'transcription failed');
    }
    Object.assign(worker, { item: null, phase: 'idle' });
  }

  private requeued(job: QueueJob): void {
    this.queued += 1;
    if (job.source === 'request') this.queuedRequests += 1;
  }
}

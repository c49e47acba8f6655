/** At most `size` holders at once; waiters are served first come, first served and may give up. */
export class Semaphore {
  private held = 0;
  private readonly waiting: { grant: () => void; signal?: AbortSignal; onAbort: () => void }[] = [];

  constructor(readonly size: number) {}

  get inUse(): number {
    return this.held;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        signal,
        grant: () => {
          signal?.removeEventListener('abort', entry.onAbort);
          this.held++;
          resolve();
        },
        onAbort: () => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  release(): void {
    this.held--;
    this.waiting.shift()?.grant();
  }

  async use<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}

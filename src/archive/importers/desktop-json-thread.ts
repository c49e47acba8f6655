/**
 * readDesktopJson on a thread of its own (desktop-json-worker.ts), for the files where that pays: the same
 * events in the same order, the same errors. Starting the thread costs more than it saves on small files,
 * which are read on the caller's thread.
 */
import { statSync } from 'node:fs';
import { startWorker } from '../../common/worker-entry';
import { readDesktopJson } from './desktop-json';
import type { FromJsonWorker, JsonWorkerData, ToJsonWorker } from './desktop-json-worker';
import { receiveEvent } from './posted-messages';
import { ImportError, type ImportEvent } from './types';

/** From this size on, the file is read on its own thread (a few thousand messages). */
export const THREAD_FROM_BYTES = 4 * 1024 * 1024;

const BATCH = 500;
const AHEAD = 4;

/** The export's events, read on a thread of their own when the file is at least `threadFrom` bytes. */
export function readDesktopJsonFile(
  file: string,
  threadFrom = THREAD_FROM_BYTES,
): AsyncGenerator<ImportEvent> {
  return statSync(file).size >= threadFrom ? readOnThread(file) : readDesktopJson(file);
}

async function* readOnThread(file: string): AsyncGenerator<ImportEvent> {
  const worker = startWorker('archive-json-worker', new URL('./desktop-json-worker.ts', import.meta.url), {
    workerData: { file, batch: BATCH, ahead: AHEAD } satisfies JsonWorkerData,
    // A smaller young generation than V8's default: the import's peak memory at 1,000,000 messages is
    // 235-242 MB with it and 260-344 MB without (scripts/bench/README.md, command line), at the same speed.
    resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 256 },
  });
  const inbox: (FromJsonWorker | { lost: Error })[] = [];
  let wake: (() => void) | null = null;
  const deliver = (message: FromJsonWorker | { lost: Error }) => {
    inbox.push(message);
    const w = wake;
    wake = null;
    w?.();
  };
  worker.on('message', deliver);
  worker.on('error', (error: Error) => deliver({ lost: error }));
  worker.on('exit', (code) => deliver({ lost: new Error(`the export's reading thread exited (${code})`) }));
  try {
    while (true) {
      const message = inbox.shift();
      if (!message) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if ('events' in message) {
        worker.postMessage({ credit: 1 } satisfies ToJsonWorker);
        for (const event of message.events) yield receiveEvent(event);
      } else if ('done' in message) {
        return;
      } else if ('failed' in message) {
        // The reader's own refusals (not valid JSON, no chat, ...) arrive as the ImportErrors they were.
        const { name, message: text } = message.failed;
        throw name === 'ImportError' ? new ImportError(text) : new Error(text);
      } else {
        throw message.lost;
      }
    }
  } finally {
    await worker.terminate();
  }
}

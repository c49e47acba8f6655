/**
 * The thread that reads a large `result.json` for the import (desktop-json-thread.ts): the streaming parse and
 * the mapping of each entry are a third of an import's CPU, so on their own thread they overlap with the
 * database's writes. Reads `workerData.file` with readDesktopJson and posts its events in order, in batches
 * (`{ events }`, each message packed: posted-messages.ts), then `{ done: true }` or
 * `{ failed: { name, message } }`. It runs at most `ahead` batches ahead of the reader, which returns one
 * `{ credit: 1 }` per batch it takes, so memory stays flat.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readDesktopJson } from './desktop-json';
import { type PostedEvent, postEvent } from './posted-messages';
import type { ImportEvent } from './types';

export interface JsonWorkerData {
  file: string;
  /** Events per posted batch. */
  batch: number;
  /** Batches posted and not yet taken, at most. */
  ahead: number;
}

export type FromJsonWorker =
  | { events: PostedEvent[] }
  | { done: true }
  | { failed: { name: string; message: string } };

export type ToJsonWorker = { credit: number };

const port = parentPort;
const data = workerData as JsonWorkerData;
let credit = data.ahead;
let wake: (() => void) | null = null;
port?.on('message', (message: ToJsonWorker) => {
  credit += message.credit;
  const w = wake;
  wake = null;
  w?.();
});

async function post(events: ImportEvent[]): Promise<void> {
  while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  port?.postMessage({ events: events.map(postEvent) } satisfies FromJsonWorker);
}

try {
  let events: ImportEvent[] = [];
  for await (const event of readDesktopJson(data.file)) {
    events.push(event);
    if (events.length >= data.batch) {
      await post(events);
      events = [];
    }
  }
  if (events.length > 0) await post(events);
  port?.postMessage({ done: true } satisfies FromJsonWorker);
} catch (error) {
  const failed = error instanceof Error ? error : new Error(String(error));
  port?.postMessage({ failed: { name: failed.name, message: failed.message } } satisfies FromJsonWorker);
}
// Nothing else holds the thread open once the parent's port is let go.
port?.unref();

/**
 * Bree's job file for every scraper key. Bree gives each run of a job a worker thread and will not start a
 * second one while it lives, which is the overlap guard. The run itself happens on the main thread, where
 * the store and the scrapers' shared state live: it starts when Bree creates this worker and answers
 * `finished` when it ends, and only then does this worker tell Bree it is done.
 */
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', (message) => {
  if (message === 'finished') parentPort?.postMessage('done');
});

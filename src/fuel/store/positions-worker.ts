/**
 * The thread that builds the stations' k-d tree (positions.ts) when there are many stations: sorting a
 * million points took about 0.3 s, which on the thread that answers HTTP held every request for that long
 * after each scrape. Each message is `{ id, lons, lats }`; the answer is `{ id, data }`, the index's
 * buffer (transferred), or `{ id, error }`.
 */
import { parentPort } from 'node:worker_threads';
import KDBush from 'kdbush';

parentPort?.on('message', ({ id, lons, lats }: { id: number; lons: Float64Array; lats: Float64Array }) => {
  try {
    const index = new KDBush(lons.length);
    for (let at = 0; at < lons.length; at++) index.add(lons[at] as number, lats[at] as number);
    index.finish();
    parentPort?.postMessage({ id, data: index.data }, [index.data as ArrayBuffer]);
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

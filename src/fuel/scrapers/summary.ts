import type { ClusterRefresh } from '../store/store';
import type { RunSummary } from './types';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
const counts = (s: RunSummary) => `${s.stations} stations, ${s.prices} prices in ${seconds(s.durationMs)}`;

/** The scheduler's line after a run: `[scraper] ES: OK — 12 stations, 40 prices in 1.2s`. */
export function schedulerLine(key: string, summary: RunSummary): string {
  const outcome = summary.errors.length === 0 ? 'OK' : `${summary.errors.length} error(s)`;
  return `[scraper] ${key}: ${outcome} — ${counts(summary)}`;
}

/** The command line tool's summary of one source, with the list of errors when it failed. */
export function summaryBlock(summary: RunSummary): string[] {
  const ok = summary.errors.length === 0;
  const lines = [`  [${summary.source}] ${summary.key}: ${ok ? 'OK' : 'ERRORS'} — ${counts(summary)}`];
  for (const error of summary.errors) lines.push(`    - ${error}`);
  return lines;
}

/** The line a rebuild of the map's clusters logs (model/cluster-pyramid.ts). */
export function clustersLine(clusters: ClusterRefresh): string {
  return `map clusters rebuilt: ${clusters.rebuilt.join(', ')} (${clusters.cells} cells, ${clusters.seconds.toFixed(1)} s)`;
}

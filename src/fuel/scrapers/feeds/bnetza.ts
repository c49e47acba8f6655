import { decodeText, getBytes } from '../http';
import { type Bounds, clean, inBounds, maxPowerKw, orNull, parseCsv } from '../parse';
import type { AfterRunContext, FetchResult, RawStation, Scraper } from '../types';

/** Germany with a margin; positions outside are wrong (or abroad) and skipped. */
const GERMANY: Bounds = { minLat: 47, maxLat: 55.5, minLon: 5.5, maxLon: 15.5 };
const OPERATIONAL = 'in betrieb';

/** A coordinate with a decimal comma (`52,521918`); anything else (`50,9413.5`, empty) is malformed. */
function germanDecimal(value: string | undefined): number | null {
  const text = clean(value);
  if (!/^-?\d+(,\d+)?$/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text.replace(',', '.'));
}

export interface RegisterStats {
  rows: number;
  merged: number;
  notOperational: number;
  outOfBounds: number;
  malformed: number;
}

/**
 * The register: preamble lines, then a `;`-separated header and one row per charging device. Columns
 * are found by name, so both layouts read: the newer one (preamble, `Status`, `Nennleistung Stecker1` …)
 * and the older one (no preamble, no `Status`, `Anschlussleistung` and `P1 [kW]` …). Devices at the same position (to 5 decimals, about 1 m) are one station.
 */
export function parseRegister(text: string): { result: FetchResult; stats: RegisterStats } {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''), ';');
  const headerIndex = rows.findIndex((row) => row.includes('Betreiber') && row.includes('Breitengrad'));
  if (headerIndex < 0) throw new Error('BNetzA register: no header row with "Betreiber" and "Breitengrad"');
  const header = (rows[headerIndex] as string[]).map((cell) => cell.trim());
  const column = (name: string, required = true): number => {
    const index = header.indexOf(name);
    if (index < 0 && required) throw new Error(`BNetzA register: column "${name}" not found`);
    return index;
  };
  const operator = column('Betreiber');
  const latColumn = column('Breitengrad');
  const lonColumn = column('Längengrad');
  const status = column('Status', false);
  const display = column('Anzeigename (Karte)', false);
  const street = column('Straße', false);
  const number = column('Hausnummer', false);
  const postcode = column('Postleitzahl', false);
  const town = column('Ort', false);
  const site = column('Standortbezeichnung', false);
  // A connector's own power (`Nennleistung Stecker1`, older files `P1 [kW]`) is what a car can draw; the
  // device's total (two 22 kW connectors make 44 kW) is read only when no connector says anything.
  const columnsMatching = (pattern: RegExp) =>
    header.map((name, index) => (pattern.test(name) ? index : -1)).filter((index) => index >= 0);
  const connectorColumns = columnsMatching(/^(Nennleistung Stecker\d+|P\d+ \[kW\])$/);
  const deviceColumns = columnsMatching(/^(Nennleistung Ladeeinrichtung \[kW\]|Anschlussleistung)$/);
  const stats: RegisterStats = { rows: 0, merged: 0, notOperational: 0, outOfBounds: 0, malformed: 0 };
  const stations = new Map<string, RawStation>();
  const cell = (row: string[], index: number) => (index >= 0 ? clean(row[index]) : '');
  for (const row of rows.slice(headerIndex + 1)) {
    if (row.every((value) => value.trim() === '')) continue;
    stats.rows++;
    // Older files have no status column: everything listed then was in service.
    if (status >= 0 && cell(row, status).toLowerCase() !== OPERATIONAL) {
      stats.notOperational++;
      continue;
    }
    let lat = germanDecimal(row[latColumn]);
    let lon = germanDecimal(row[lonColumn]);
    if (lat === null || lon === null) {
      stats.malformed++;
      continue;
    }
    if (!inBounds(lat, lon, GERMANY)) {
      if (!inBounds(lon, lat, GERMANY)) {
        stats.outOfBounds++;
        continue;
      }
      [lat, lon] = [lon, lat];
    }
    const power =
      maxPowerKw(connectorColumns.map((index) => germanDecimal(row[index]))) ??
      maxPowerKw(deviceColumns.map((index) => germanDecimal(row[index])));
    const id = `bnetza-${lat.toFixed(5)}_${lon.toFixed(5)}`;
    const known = stations.get(id);
    if (known) {
      stats.merged++;
      known.powerKw = maxPowerKw([known.powerKw, power]);
      continue;
    }
    const brand = orNull(cell(row, display)) ?? orNull(cell(row, operator));
    const streetLine = [cell(row, street), cell(row, number)].filter(Boolean).join(' ');
    stations.set(id, {
      externalId: id,
      name: cell(row, site) || [brand, streetLine].filter(Boolean).join(' ') || 'Ladestation',
      brand,
      address: [streetLine, cell(row, postcode)].filter(Boolean).join(', '),
      city: cell(row, town),
      lat,
      lon,
      type: 'ev_charger',
      powerKw: power,
    });
  }
  return { result: { stations: [...stations.values()], prices: [] }, stats };
}

export interface BnetzaOptions {
  url: string;
  /** `APP_BNETZA_MIN_STATIONS`: a run must refresh this many stations before it prunes and retires. */
  minStations: number;
  timeoutMs?: number;
}

/** Germany's official charger register, one file a day, read whole (5-minute limit). */
export function bnetzaScraper(options: BnetzaOptions): Scraper<FetchResult> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  return {
    key: 'EV_DE_BNETZA',
    source: 'bnetza',
    country: 'DE',
    timeoutMs,
    async fetch(ctx) {
      const { result, stats } = parseRegister(decodeText(await getBytes(ctx, options.url, { timeoutMs })));
      ctx.log.info(
        `[bnetza] DE: ${stats.rows} rows → ${result.stations.length} stations (merged ${stats.merged}, skipped ` +
          `${stats.notOperational} not operational, ${stats.outOfBounds} out of bounds, ${stats.malformed} malformed)`,
      );
      return result;
    },
    /**
     * After a healthy run: the register's stations this run did not list are gone (or moved), and the
     * crowdsourced German chargers duplicate it. A thin run (a broken download) must not delete anything.
     */
    async afterRun({ store, log, refreshed }: AfterRunContext): Promise<string[]> {
      if (refreshed.length < options.minStations) {
        log.info(
          `[bnetza] DE: refreshed ${refreshed.length} stations, fewer than ${options.minStations}; skipped pruning and retiring`,
        );
        return [];
      }
      const pruned = await store.deleteStationsBySource('bnetza', 'DE', { exceptExternalIds: refreshed });
      const retired = await store.deleteStationsBySource('ocm', 'DE');
      log.info(
        `[bnetza] DE: pruned ${pruned} stations no longer listed; retired ${retired} crowdsourced chargers`,
      );
      return [];
    },
  };
}

/**
 * The one storage interface of the fuel service. Two adapters implement it (sqlite/, postgres/: the same
 * files in each) and pass one shared suite (store.cases.ts, run by each adapter's test file). Stores know
 * nothing about HTTP.
 *
 * Names in this file are a contract with the scrapers and the HTTP layer: add, never rename or remove.
 */
import type { BBox, LonLat } from '../model/geometry';
import type { TileAddress } from '../model/tiles';

export type StationType = 'fuel' | 'ev_charger' | 'both';

/** The fuel code that selects EV charge points (stations of type `ev_charger` and `both`). */
export const EV_FUEL = 'EV';

/** One station as a scraper hands it over. `externalId` + `country` is its durable identity. */
export interface StationInput {
  externalId: string;
  /** ISO 3166-1 alpha-2 code of the scraper's country (not derived from the coordinates). */
  country: string;
  type: StationType;
  name: string;
  brand: string | null;
  address: string;
  city: string;
  lon: number;
  lat: number;
  /** EV chargers: highest single-connector power in kW; absent or null when the source gives none. */
  powerKw?: number | null;
  /** The source (scraper) that writes this row; the last writer wins. */
  source: string;
}

/** One price as a scraper hands it over; it is matched to its station by `externalId` + `country`. */
export interface PriceInput {
  externalId: string;
  country: string;
  fuel: string;
  price: number;
  /** ISO 4217 code. */
  currency: string;
  /** When the scraper stored the price; defaults to the moment of the write. */
  reportedAt?: Date;
}

/**
 * The prices a replace is given: a list, or anything that hands out its i-th price, so a feed of 4,000,000
 * prices can keep them as columns rather than as objects (about 330 MB as objects).
 */
export interface PriceList {
  readonly length: number;
  at(index: number): PriceInput | undefined;
}

/** A station's durable identity (country and external id) as one string. */
export type StationKey = string;

export function stationKey(country: string, externalId: string): StationKey {
  return `${country}\u0000${externalId}`;
}

export interface FailedBatch {
  /**
   * Place of the batch's first station in the order the store writes them: by sample key (input.ts,
   * inSampleKeyOrder).
   */
  offset: number;
  /** Stations of the input in the batch. */
  size: number;
  message: string;
}

export interface UpsertResult {
  /** Stations written (inserted, updated or already as given) by the batches that succeeded. */
  count: number;
  /** Batches that failed; their stations were not written. Empty on full success. */
  failedBatches: FailedBatch[];
}

export interface UpsertOptions {
  /** Stations per write batch; default 500. */
  batchSize?: number;
}

export interface ReplacePricesOptions {
  /**
   * Record each changed price in the price history (default true); false when the history is turned off
   * (`APP_PRICE_HISTORY_DAYS=0`). PostgreSQL then does not read back the prices it replaces; SQLite reads
   * them either way, to write only what changed.
   */
  history?: boolean;
}

export interface ReplacePricesResult {
  /** Prices stored: written, or left as they were when already stored as given. */
  inserted: number;
  /** Prices left out: no station with that externalId in that country, or another country than asked. */
  skipped: number;
  /** Price rows this source had for the country before the replace (each kept, updated or deleted). */
  deleted: number;
}

export interface DeleteBySourceOptions {
  /** Stations of the source that stay (those the source still lists). */
  exceptExternalIds?: Iterable<string>;
}

export type { BBox, LonLat };

/** One station as the read queries return it, with its latest price for the fuel asked for. */
export interface StationRow {
  id: string;
  externalId: string;
  country: string;
  type: StationType;
  name: string;
  brand: string | null;
  address: string;
  city: string;
  lon: number;
  lat: number;
  powerKw: number | null;
  /** The newest price for the fuel asked; null for EV selections. */
  price: number | null;
  currency: string | null;
  reportedAt: Date | null;
}

/** A place found among the stations: a town (`address` null) or a station's address. */
export interface PlaceRow {
  city: string;
  address: string | null;
  country: string;
  lon: number;
  lat: number;
}

export interface BoxQuery {
  bbox: BBox;
  fuel: string;
  /** At most this many rows; when more match, a deterministic selection spread over the box. */
  limit: number;
}

/** One map tile of a fuel's stations (model/tiles.ts). */
export interface TileQuery extends TileAddress {
  fuel: string;
}

/** What a refresh of the cluster table did (model/cluster-pyramid.ts). */
export interface ClusterRefresh {
  /** The fuels whose cells were built again ('EV': the charge points). */
  rebuilt: string[];
  cells: number;
  seconds: number;
}

export interface BoxResult {
  stations: StationRow[];
  /** More stations matched than `limit`. */
  truncated: boolean;
}

/**
 * Stations as the map's answers write them: each station one GeoJSON Feature as JSON text, which
 * parses to what `stationFeature` (domain/features.ts) makes of the station's row (`features.test.ts` holds
 * the two together on both backends). The database writes each text up to its price's time, which this process
 * adds (feature-format.ts); SQLite writes numbers in a form that reads back as the same value
 * (`52.520006599999988` where JSON.stringify writes `52.52000659999999`).
 */
export interface FeatureTexts {
  /**
   * The Feature texts in order, joined with commas into runs of about 32 KB (feature-text.ts): the runs
   * joined with commas, in brackets, are the array of Features. Made as the rows are read (FeatureRuns) or
   * as the answer is written (featureRunsOf), so iterated once.
   */
  runs: Iterable<string>;
  /** How many Features the runs hold. */
  count: number;
  /** More stations matched than `limit`. */
  truncated: boolean;
}

export interface NearestQuery {
  lon: number;
  lat: number;
  /** Great-circle radius. */
  radiusKm: number;
  fuel: string;
  limit: number;
}

export interface NearestRow extends StationRow {
  /** Great-circle distance from the point, not rounded. */
  distanceKm: number;
}

export interface CorridorQuery {
  /** 2 or more [lon, lat] points. */
  line: LonLat[];
  fuel: string;
  /** Greatest distance on the globe from the line. */
  corridorKm: number;
  /** At most this many rows, the first ones along the line. */
  limit: number;
}

export interface CorridorRow extends StationRow {
  /** Position along the line, 0 (start) to 1 (end). */
  routeFraction: number;
}

export interface CorridorResult {
  stations: CorridorRow[];
  /** More stations were in the corridor than `limit`. */
  truncated: boolean;
}

export interface CountryStats {
  code: string;
  stations: number;
  prices: number;
  /** Newest `reportedAt` of the country's prices; null when it has none. */
  lastUpdate: Date | null;
}

export interface StoreStats {
  totals: { stations: number; prices: number };
  /** Every country with rows, most stations first. */
  countries: CountryStats[];
}

/** One stored price change of one station and fuel. */
export interface PriceChangeRow {
  externalId: string;
  price: number;
  currency: string;
  source: string;
  changedAt: Date;
}

export interface HistoryQuery {
  country: string;
  fuel: string;
  /** Changes from this moment on, and for each station the last change before it (the price then). */
  since: Date;
  /** One station only. */
  externalId?: string;
}

export type StoreBackend = 'sqlite' | 'postgresql';

/** Along the line first; stations at the same place (beyond an end) by their identity, on every backend. */
export function byRouteOrder(
  a: { routeFraction: number; country: string; externalId: string },
  b: { routeFraction: number; country: string; externalId: string },
): number {
  return (
    a.routeFraction - b.routeFraction ||
    (a.country < b.country ? -1 : a.country > b.country ? 1 : 0) ||
    (a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : 0)
  );
}

/**
 * The stations behind the Feature texts, as rows: the oracle the store suites and the fuel benchmark
 * check `stationFeaturesInBox` and `stationFeaturesAlongLine` against. Both adapters keep them, but they are
 * off the store's production interface: no route reads rows (testing/stores.ts `stationRows` reaches them).
 */
export interface StationRowReads {
  stationsInBox(query: BoxQuery): Promise<BoxResult>;
  stationsAlongLine(query: CorridorQuery): Promise<CorridorResult>;
}

export interface FuelStore {
  readonly backend: StoreBackend;

  // Reads for the HTTP routes.
  /** The stations of a box, as GeoJSON Feature texts (their rows: StationRowReads.stationsInBox). */
  stationFeaturesInBox(query: BoxQuery): Promise<FeatureTexts>;
  nearestStations(query: NearestQuery): Promise<NearestRow[]>;
  /**
   * The tile's stations as a Mapbox Vector Tile (model/tiles.ts): below STREET_ZOOM a `clusters` layer, a
   * point per cell of the grid with `count`, `cheapest`, `median` and `currency`; from it on a `stations`
   * layer, every station its own point with its Feature's properties. No station: no bytes.
   */
  stationTile(query: TileQuery): Promise<Uint8Array>;
  /**
   * Builds the low zooms' clusters again (model/cluster-pyramid.ts) for each fuel whose stations or prices
   * changed since its last build; those tiles come from the last build (before a fuel's first, from the
   * stations). Work of seconds at millions of stations: the scrape thread runs it after each run, the
   * command line after a scrape.
   */
  refreshStationClusters(): Promise<ClusterRefresh>;
  /**
   * Moves with every write that changes what the map shows (a station's place or type, a newest price) and
   * with every build of the clusters: tiles kept in memory are answered only while it stays the same.
   */
  tileVersion(): Promise<string>;
  /** The stations along a line, as GeoJSON Feature texts (their rows: StationRowReads.stationsAlongLine). */
  stationFeaturesAlongLine(query: CorridorQuery): Promise<FeatureTexts>;
  stats(): Promise<StoreStats>;
  /** Whether a station with this durable identity exists. */
  hasStation(country: string, externalId: string): Promise<boolean>;
  /**
   * Places among the stations' own towns, then their addresses, whose text holds `text` (case-insensitive
   * for ASCII letters): the geocoder of a setup without one. A town is placed at the middle of its
   * stations; most stations first.
   */
  searchPlaces(text: string, limit: number): Promise<PlaceRow[]>;
  /** Price changes of the country's stations for the fuel, by station then time (see HistoryQuery). */
  priceHistory(query: HistoryQuery): Promise<PriceChangeRow[]>;

  // Writes for the scrapers.
  /**
   * Inserts or updates stations by externalId + country, in batches. Duplicates in the input collapse to
   * their last occurrence (one write within a batch; across batches the later write wins). A station given
   * as it is stored is left untouched. A failing batch is reported in `failedBatches` and the next batch
   * still runs.
   */
  upsertStations(stations: StationInput[], options?: UpsertOptions): Promise<UpsertResult>;
  /**
   * Replaces every price of `source` for stations of `country` with `prices`, in ONE transaction: readers
   * see the old set or the new one, never a mix. Prices of other sources and countries are untouched.
   * Written as a difference (price-diff.ts): a price already stored as given is left alone, one whose value
   * or time moved is updated in place, and only new ones are inserted and withdrawn ones deleted; prices
   * that share station, fuel and currency are matched in the order given and stored. In the same
   * transaction, unless `history` is false, each price that differs from this source's previous price for
   * that station, fuel and currency (or is new) adds a row to the price history.
   */
  replacePrices(
    source: string,
    country: string,
    prices: PriceList,
    options?: ReplacePricesOptions,
  ): Promise<ReplacePricesResult>;
  /** Deletes the `fuel` stations of the country that no source prices any more; never EV chargers. */
  deleteOrphanFuelStations(country: string): Promise<number>;
  /** Deletes the stations of the country last written by `source` (with their prices), in one transaction. */
  deleteStationsBySource(source: string, country: string, options?: DeleteBySourceOptions): Promise<number>;
  countStationsBySource(source: string, country: string): Promise<number>;
  /**
   * Deletes the country's price history older than `before`, keeping for each station and fuel the last
   * change before it (the price in force at the cut); `null` deletes all of it (the history turned off).
   * Returns the rows deleted.
   */
  prunePriceHistory(country: string, before: Date | null): Promise<number>;

  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

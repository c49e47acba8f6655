/**
 * The Feature texts' SQL on SQLite, from the one description in feature-format.ts. `json_quote` writes a
 * number in the shortest form that reads back as the same value, as JavaScript does, or with 17 digits.
 */
import {
  featureHeadSql as featureHead,
  featureTailSql,
  fuelTypePrefixSql,
  type JsonSql,
} from '../feature-format';
import { EV_FUEL } from '../store';

const json: JsonSql = {
  string: (sql) => `json_quote(${sql})`,
  number: (sql) => `json_quote(${sql})`,
  object: (pairs) => `json_object(${pairs.map(([key, value]) => `'${key}', ${value}`).join(', ')})`,
  point: (lon, lat) => `json_array(${lon}, ${lat})`,
};

/**
 * Two columns for `finishFeatureText` (feature-format.ts): the station's Feature up to the opening quote of
 * its price's time, and that time in milliseconds (NULL for chargers, whose text is whole): the stored
 * `feature_head` (migration 004) and the tail for the fuel asked for (`@fuel`). The time is written in
 * this process, as on PostgreSQL: `strftime` for it cost SQLite about 0.8 µs a row (scripts/bench/README.md,
 * fuel decisions).
 */
export function featureJson(fuel: string): string {
  const text = `s.feature_head || ${featureTailSql(json, fuel, fuelTypePrefixSql(json, '@fuel'))}`;
  return fuel === EV_FUEL ? `${text}, NULL` : `${text}, p.reported_at`;
}

/**
 * `feature_head` from the upsert's parameters (`@name`, `@lon`, …), with the id, external id and country
 * given as SQL expressions.
 */
export function featureHeadSql(id: string, externalId: string, country: string): string {
  const given: Record<string, string> = { id, external_id: externalId, country };
  return featureHead(json, (property, column) => given[column] ?? `@${property}`, '@lon', '@lat');
}

/**
 * The Feature texts' SQL on PostgreSQL, from the one description in feature-format.ts. Numbers are written
 * as PostgreSQL writes float8, the shortest text that reads back as the same value (extra_float_digits 1,
 * which every pool sets: `createPgPool`).
 */
import { featureHeadSql, featureTailSql, type JsonSql } from '../feature-format';
import { EV_FUEL } from '../store';

export { fuelTypePrefix } from '../feature-format';

const json: JsonSql = {
  string: (sql) => `to_json(${sql})::text`,
  number: (sql) => `${sql}::text`,
  object: (pairs) =>
    `json_build_object(${pairs.map(([key, value]) => `'${key}', ${value}`).join(', ')})::text`,
  point: (lon, lat) => `'[' || ${lon} || ',' || ${lat} || ']'`,
};

/**
 * Two columns for `finishFeatureText` (feature-format.ts): the station's Feature up to the opening quote of
 * its price's time, and that time in milliseconds (NULL for chargers, whose text is whole): the stored
 * `feature_head` (migration 006) and the tail. `prefixParam` is the placeholder of `fuelTypePrefix(fuel)`:
 * written once by this process rather than by `to_json` for every row. The time is cut to the millisecond
 * before it becomes a float8, so that rounding it gives the millisecond exactly (`extract` would give the
 * same through numeric arithmetic, which cost 4 ms of a 20,000-station box).
 */
export function featureTextSql(fuel: string, prefixParam: string): string {
  const text = `s.feature_head || ${featureTailSql(json, fuel, `${prefixParam}::text`)}`;
  return fuel === EV_FUEL
    ? `${text}, NULL::float8`
    : `${text}, round(date_part('epoch', date_trunc('milliseconds', p.reported_at)) * 1000)`;
}

/**
 * `feature_head` from a row's columns: `t` names the row, `id` the station's id, `lon` and `lat` its
 * coordinates as float8.
 */
export const featureHeadOf = (t: string, id: string, lon: string, lat: string) =>
  featureHeadSql(json, (property, column) => (property === 'id' ? id : `${t}.${column}`), lon, lat);

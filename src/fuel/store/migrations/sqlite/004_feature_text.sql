-- The map's answers (a box of 20,000 stations, a corridor's thousands) are GeoJSON Features written by
-- SQLite. Writing each station's fields and its price on every read (a json_object and a strftime per row)
-- was half of a box's query; they are now written with the row, once (scripts/bench/README.md).
--
-- stations.feature_head: the Feature's text up to the station's own properties, unclosed:
--   {"type":"Feature","geometry":{"type":"Point","coordinates":[lon,lat]},"properties":{"id":…,"city":…
-- prices.price_json and latest_prices.price_json: the price's properties, without braces:
--   "fuelType":…,"currency":…,"price":…,"reportedAt":"…Z"
-- The store writes both with every row it inserts or changes; here the rows already stored get theirs.
-- The last value of each object is a string, so rtrim takes off only its closing brace.
ALTER TABLE stations ADD COLUMN feature_head TEXT NOT NULL DEFAULT '';
UPDATE stations SET feature_head =
  '{"type":"Feature","geometry":{"type":"Point","coordinates":' || json_array(lon, lat) || '},"properties":' ||
  rtrim(json_object('id', id, 'externalId', external_id, 'country', country, 'name', name, 'brand', brand,
    'address', address, 'city', city), '}');

ALTER TABLE prices ADD COLUMN price_json TEXT NOT NULL DEFAULT '';
UPDATE prices SET price_json = substr(rtrim(json_object('fuelType', fuel, 'currency', currency, 'price', price,
  'reportedAt', strftime('%Y-%m-%dT%H:%M:%fZ', reported_at / 1000.0, 'unixepoch')), '}'), 2);

ALTER TABLE latest_prices ADD COLUMN price_json TEXT NOT NULL DEFAULT '';
UPDATE latest_prices SET price_json = substr(rtrim(json_object('fuelType', fuel, 'currency', currency,
  'price', price, 'reportedAt', strftime('%Y-%m-%dT%H:%M:%fZ', reported_at / 1000.0, 'unixepoch')), '}'), 2);

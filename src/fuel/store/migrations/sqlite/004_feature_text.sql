-- The map's answers (a box of 20,000 stations, a corridor's thousands) are GeoJSON Features written by
-- SQLite. Writing each station's own fields as JSON on every read (a json_object per row) was a sixth of
-- a box's query; the text is now written with the station, when it is inserted or changes
-- (scripts/bench/README.md). stations.feature_head is the Feature's text up to the station's own
-- properties, unclosed:
--   {"type":"Feature","geometry":{"type":"Point","coordinates":[lon,lat]},"properties":{"id":…,"city":…
-- The object ends with a string (the city), so rtrim takes off only its closing brace.
ALTER TABLE stations ADD COLUMN feature_head TEXT NOT NULL DEFAULT '';
UPDATE stations SET feature_head =
  '{"type":"Feature","geometry":{"type":"Point","coordinates":' || json_array(lon, lat) || '},"properties":' ||
  rtrim(json_object('id', id, 'externalId', external_id, 'country', country, 'name', name, 'brand', brand,
    'address', address, 'city', city), '}');

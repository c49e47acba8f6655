-- A station's Feature text up to its own properties, unclosed, kept with the row instead of its fields alone
-- (fields_json, migration 003), as on SQLite (its migration 004):
--   {"type":"Feature","geometry":{"type":"Point","coordinates":[lon,lat]},"properties":{"id":…,"city":…
-- Writing the coordinates on every read (ST_X and ST_Y read the geometry each, then float8 to text) was
-- about a quarter of the server's time for a 20,000-station box (scripts/bench/README.md, "ninth pass").
-- The numbers are written as float8 is (the shortest text that reads back as the same value).
ALTER TABLE stations ADD COLUMN feature_head text;
UPDATE stations SET feature_head = '{"type":"Feature","geometry":{"type":"Point","coordinates":[' ||
  ST_X(geom) || ',' || ST_Y(geom) || ']},"properties":' || rtrim(fields_json, '}');
ALTER TABLE stations ALTER COLUMN feature_head SET NOT NULL;
ALTER TABLE stations DROP COLUMN fields_json;

-- Each price carries its station's place key (model/tiles.ts placeKey): the bits of the station's position
-- in units (x and y at 2^25 a side, computed as the live tiles' SQL computes them, postgres/tiles.ts inUnits)
-- interleaved, a row's bit first. A tile's prices of a fuel are then one range of a price index, read from a
-- few neighbouring pages, where each station's price was a page of its own (station ids, and so the other
-- price index, are in sample-key order): a street tile of central Rome read 4,810 such pages from disk, 578
-- of its 696 ms (scripts/bench/README.md, vector tiles).

-- In PL/pgSQL: about 1 µs a call. The same as nested SQL functions took 54 µs (PostgreSQL does not inline a
-- SQL function whose argument is an expression it reads twice), and made a feed's run of 100,000 stations
-- and 400,000 prices two to three times as long.
CREATE FUNCTION fuel_place_key(geom geometry) RETURNS bigint
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  lat double precision := greatest(-85.0511287798066, least(85.0511287798066, ST_Y(geom)));
  x bigint := floor(least((ST_X(geom) + 180) / 360, 1 - 2.220446049250313e-16) * 2 ^ 25)::bigint;
  y bigint := floor(greatest(0, least(0.5 - ln((1 + sin(radians(lat))) / (1 - sin(radians(lat)))) / (4 * pi()),
    1 - 2.220446049250313e-16)) * 2 ^ 25)::bigint;
BEGIN
  -- Each number's 25 bits spread to the even places (bit i to bit 2i), then the row's put before the column's.
  x := (x | (x << 16)) & 281470681808895;
  x := (x | (x << 8)) & 71777214294589695;
  x := (x | (x << 4)) & 1085102592571150095;
  x := (x | (x << 2)) & 3689348814741910323;
  x := (x | (x << 1)) & 6148914691236517205;
  y := (y | (y << 16)) & 281470681808895;
  y := (y | (y << 8)) & 71777214294589695;
  y := (y | (y << 4)) & 1085102592571150095;
  y := (y | (y << 2)) & 3689348814741910323;
  y := (y | (y << 1)) & 6148914691236517205;
  RETURN (y << 1) | x;
END;
$$;

ALTER TABLE prices ADD COLUMN place_key bigint;
UPDATE prices p SET place_key = fuel_place_key(s.geom) FROM stations s WHERE s.id = p.station_id;
ALTER TABLE prices ALTER COLUMN place_key SET NOT NULL;

-- A tile's newest prices of a fuel: one range, newest first per station, read from the index alone.
CREATE INDEX prices_place_idx ON prices (fuel, place_key, station_id, reported_at DESC, id DESC)
  INCLUDE (price, currency);

-- A station that moves takes its prices' keys with it.
CREATE FUNCTION fuel_prices_follow_station() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE prices SET place_key = fuel_place_key(NEW.geom) WHERE station_id = NEW.id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER stations_prices_place AFTER UPDATE OF geom ON stations
  FOR EACH ROW WHEN (ST_X(OLD.geom) <> ST_X(NEW.geom) OR ST_Y(OLD.geom) <> ST_Y(NEW.geom))
  EXECUTE FUNCTION fuel_prices_follow_station();

-- Each price carries its station's place key (model/tiles.ts placeKey): the bits of the station's position
-- in units (x and y at 2^25 a side, computed as the live tiles' SQL computes them, postgres/tiles.ts inUnits)
-- interleaved, a row's bit first. A tile's prices of a fuel are then one range of a price index, read from a
-- few neighbouring pages, where each station's price was a page of its own (station ids, and so the other
-- price index, are in sample-key order): a street tile of central Rome read 4,810 such pages from disk, 578
-- of its 696 ms (scripts/bench/README.md, vector tiles).

-- One step of spreading a number's bits apart: v's bits, each moved `shift` places up where `mask` keeps them.
CREATE FUNCTION fuel_spread_step(v bigint, shift integer, mask bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (v | (v << shift)) & mask;

-- The bits of v (below 2^32) at the even places: bit i at bit 2i.
CREATE FUNCTION fuel_spread_bits(v bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN fuel_spread_step(fuel_spread_step(fuel_spread_step(fuel_spread_step(fuel_spread_step(v,
    16, 281470681808895), 8, 71777214294589695), 4, 1085102592571150095), 2, 3689348814741910323),
    1, 6148914691236517205);

CREATE FUNCTION fuel_place_key(geom geometry) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (fuel_spread_bits(floor(greatest(0, least(0.5 - ln(
      (1 + sin(radians(greatest(-85.0511287798066, least(85.0511287798066, ST_Y(geom))))))
      / (1 - sin(radians(greatest(-85.0511287798066, least(85.0511287798066, ST_Y(geom))))))) / (4 * pi()),
      1 - 2.220446049250313e-16)) * 2 ^ 25)::bigint) << 1)
    | fuel_spread_bits(floor(least((ST_X(geom) + 180) / 360, 1 - 2.220446049250313e-16) * 2 ^ 25)::bigint);

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
  FOR EACH ROW WHEN (fuel_place_key(OLD.geom) IS DISTINCT FROM fuel_place_key(NEW.geom))
  EXECUTE FUNCTION fuel_prices_follow_station();

CREATE EXTENSION IF NOT EXISTS postgis;

CREATE TABLE stations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  external_id text NOT NULL,
  country text NOT NULL,
  station_type text NOT NULL CHECK (station_type IN ('fuel', 'ev_charger', 'both')),
  name text NOT NULL,
  brand text,
  address text NOT NULL,
  city text NOT NULL,
  geom geometry(Point, 4326) NOT NULL
    CHECK (ST_X(geom) BETWEEN -180 AND 180 AND ST_Y(geom) BETWEEN -90 AND 90),
  power_kw double precision,
  source text NOT NULL,
  -- A stable pseudo-random number per station: an oversized box keeps the rows with the smallest keys,
  -- which is deterministic and spread over the box.
  sample_key integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (external_id, country)
);

CREATE INDEX stations_geom_idx ON stations USING gist (geom);
CREATE INDEX stations_geography_idx ON stations USING gist ((geom::geography));
CREATE INDEX stations_country_source_idx ON stations (country, source);
CREATE INDEX stations_country_type_idx ON stations (country, station_type);
-- Walked in order to cut an oversized box (see sample_key).
CREATE INDEX stations_sample_key_idx ON stations (sample_key, country, external_id);

CREATE TABLE prices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  station_id uuid NOT NULL REFERENCES stations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  fuel text NOT NULL,
  price double precision NOT NULL CHECK (price > 0 AND price < 1e12),
  currency text NOT NULL,
  reported_at timestamptz NOT NULL DEFAULT now(),
  source text NOT NULL
);

-- "Latest price of fuel F per station".
CREATE INDEX prices_latest_idx ON prices (station_id, fuel, reported_at DESC, id DESC);
CREATE INDEX prices_source_idx ON prices (source, station_id);

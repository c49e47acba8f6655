-- A number that moves whenever a statement adds, changes or deletes stations. A store keeps every station's
-- position in memory for the corridor search and reads them again when the number has moved since it read
-- them. A table row, not a sequence: a sequence moves before the writer commits, and a reader could label
-- the positions it read before that commit with the new number. An upsert that leaves a whole batch as it
-- was (most of a feed, every run) changes no row and leaves the number alone.
CREATE TABLE stations_version (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  version bigint NOT NULL
);
INSERT INTO stations_version (version) VALUES (0);

CREATE FUNCTION stations_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Two branches: a TRUNCATE has no transition table to ask.
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE stations_version SET version = version + 1;
  ELSIF EXISTS (SELECT 1 FROM changed) THEN
    UPDATE stations_version SET version = version + 1;
  END IF;
  RETURN NULL;
END
$$;

-- A statement trigger with a transition table takes one event each.
CREATE TRIGGER stations_version_insert AFTER INSERT ON stations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION stations_version_bump();
CREATE TRIGGER stations_version_update AFTER UPDATE ON stations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION stations_version_bump();
CREATE TRIGGER stations_version_delete AFTER DELETE ON stations
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION stations_version_bump();
CREATE TRIGGER stations_version_truncate AFTER TRUNCATE ON stations
  FOR EACH STATEMENT EXECUTE FUNCTION stations_version_bump();

-- A new station's R*Tree entry is written by the upsert (sqlite/write.ts), after the rows of its batch,
-- instead of by a trigger between each row and the next: the index's inserts then follow one another
-- without the stations table's in between, which took about 15 % off an upsert of new stations at
-- 1,000,000 stored (scripts/bench/README.md). Moves and deletions keep their triggers.
DROP TRIGGER stations_rtree_insert;

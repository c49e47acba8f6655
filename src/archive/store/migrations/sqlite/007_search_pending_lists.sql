-- PostgreSQL's revision 7 bounds the pending lists of its GIN indexes; SQLite has nothing of the kind.
-- The revision exists on both backends so that their numbers stay one sequence (migrate-sqlite-to-postgres
-- and merge compare them).
SELECT 1;

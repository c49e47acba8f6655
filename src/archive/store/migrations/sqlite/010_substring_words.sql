-- PostgreSQL's revision 10 indexes the words of each message for in-chat search; SQLite's trigram index
-- (009) asks for the needle's rarest trigrams instead. The revision exists on both backends so that their
-- numbers stay one sequence (migrate-sqlite-to-postgres and merge compare them).
SELECT 1;

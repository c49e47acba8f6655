-- In-chat search asks the vocabulary of revision 10 for the words holding a needle on every search. The
-- statement is prepared, and after five runs PostgreSQL plans it once for every needle; that one plan
-- cannot see the needle, and with a LIMIT beside it a scan of the whole vocabulary could look cheaper
-- than the trigram index (1.5 ms against 0.03 for an absent word on the benchmark's archive). The lookup
-- is this function, whose plan reads the trigram index whatever the needle: a scan of the table is
-- turned off inside it, and the vocabulary's other index becomes a hash index, which (unlike a B-tree)
-- cannot be read whole in place of the table (the planner took that too, on a vocabulary of random
-- words). Its lookups by equality (the trigger's, and '' for the words too long to index) work the same.
DROP INDEX idx_message_search_words;
CREATE INDEX idx_message_search_words ON message_search_words USING hash (word);

-- The function runs as the archive's owner, so a role granted the archive's tables before revision 10
-- (and so not its vocabulary) can search too; only the roles that may read the messages may call it.
-- Its search path is the archive's schema, then pg_temp: a caller's temporary table of the same name is
-- never read in the owner's place. The vocabulary's trigger (revision 10) gets the same path.
DO $migration$
BEGIN
  EXECUTE format($create$
    CREATE FUNCTION archive_search_words_holding(pattern text, most integer) RETURNS SETOF text
      LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = %I, pg_temp SET enable_seqscan = off AS $body$
    BEGIN
      RETURN QUERY SELECT w.word FROM message_search_words w
        WHERE w.word LIKE pattern ESCAPE '\' OR w.word = '' LIMIT most;
    END $body$$create$, current_schema());
  EXECUTE format('ALTER FUNCTION archive_keep_search_words() SET search_path = %I, pg_temp', current_schema());
END
$migration$;

REVOKE ALL ON FUNCTION archive_search_words_holding(text, integer) FROM PUBLIC;

DO $migration$
DECLARE
  reader record;
BEGIN
  FOR reader IN
    SELECT DISTINCT grantee FROM information_schema.role_table_grants
     WHERE table_schema = current_schema() AND table_name = 'messages' AND privilege_type = 'SELECT'
       AND grantee <> current_user
  LOOP
    IF reader.grantee = 'PUBLIC' THEN
      GRANT EXECUTE ON FUNCTION archive_search_words_holding(text, integer) TO PUBLIC;
    ELSE
      EXECUTE format('GRANT EXECUTE ON FUNCTION archive_search_words_holding(text, integer) TO %I', reader.grantee);
    END IF;
  END LOOP;
END
$migration$;

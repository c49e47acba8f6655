-- A GIN index takes new entries into a pending list first (fastupdate), merged into the index itself when
-- the list outgrows gin_pending_list_limit (4 MB by default) or a vacuum runs: on an archive that only
-- grows, autovacuum comes after a fifth of the table is new. Every search through the index reads the
-- whole list: 86 pending pages (2,986 entries) after a bulk write of 1,000,000 messages had a few-hit
-- word's index scan at 0.81 ms instead of 0.24, and a full list (512 pages) costs a search several
-- milliseconds. The lists are kept to 64 kB here (8 pages, merged every few hundred words), and merged
-- now; the bulk commands merge them again when they finish (capabilities.ts, compactFullTextIndex).
ALTER INDEX idx_messages_text_search SET (gin_pending_list_limit = 64);
ALTER INDEX idx_messages_tags SET (gin_pending_list_limit = 64);
ALTER INDEX idx_media_transcripts_text_search SET (gin_pending_list_limit = 64);
SELECT gin_clean_pending_list('idx_messages_text_search'::regclass),
       gin_clean_pending_list('idx_messages_tags'::regclass),
       gin_clean_pending_list('idx_media_transcripts_text_search'::regclass);

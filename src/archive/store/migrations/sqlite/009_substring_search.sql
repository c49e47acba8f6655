-- In-chat search finds a substring of the casefolded text (`GET /api/chats/{ref}/messages?search=`). Without
-- an index a rare word reads every message of the chat. This index holds each message's searched text,
-- casefolded by the same function the search's own check uses (archive_casefold, which every connection of
-- the archive registers), cut into trigrams: every substring of three characters or more of that text has
-- all its trigrams here, so the messages holding all of a needle's trigrams are a superset of those holding
-- the needle, and the search checks each of them exactly as before (queries/messages.ts). No content (the
-- text is in messages), no positions (detail = none: the exact check does what positions would), deletes by
-- rowid (contentless_delete).
--
-- A needle's trigrams are not all worth asking for: a common one's list costs more to read than the
-- candidates it removes. messages_substrings_counts holds how many messages hold each trigram (and, under
-- the empty term, how many messages there are), taken from the index's own vocabulary here and after each
-- bulk command (search.ts, compactSearchIndex); a search asks for its rarest trigrams by it
-- (model/search.ts, pickTrigrams). Counts only choose: any choice finds every match.
--
-- Each text is indexed with one space after it, so every place a two-character needle stands is the start
-- of a trigram: a message holding "ab" holds a trigram "ab…", and the trigrams of the index beginning
-- with "ab" (a range of its vocabulary) find them all. The space only adds trigrams: it takes nothing
-- from the superset a longer needle finds.

CREATE VIRTUAL TABLE messages_substrings USING fts5(
  body, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1', detail = none
);

CREATE TRIGGER messages_substrings_ai AFTER INSERT ON messages BEGIN
  INSERT INTO messages_substrings (rowid, body)
    VALUES (new.pk, archive_casefold(coalesce(new.text, '') || ' ' || coalesce(new.poll_text, '')) || ' ');
END;
CREATE TRIGGER messages_substrings_ad AFTER DELETE ON messages BEGIN
  DELETE FROM messages_substrings WHERE rowid = old.pk;
END;
CREATE TRIGGER messages_substrings_au AFTER UPDATE OF text, poll_text ON messages BEGIN
  DELETE FROM messages_substrings WHERE rowid = old.pk;
  INSERT INTO messages_substrings (rowid, body)
    VALUES (new.pk, archive_casefold(coalesce(new.text, '') || ' ' || coalesce(new.poll_text, '')) || ' ');
END;

INSERT INTO messages_substrings (rowid, body)
  SELECT pk, archive_casefold(coalesce(text, '') || ' ' || coalesce(poll_text, '')) || ' ' FROM messages ORDER BY pk;
INSERT INTO messages_substrings (messages_substrings) VALUES ('optimize');

CREATE VIRTUAL TABLE messages_substrings_vocabulary USING fts5vocab(messages_substrings, row);
CREATE TABLE messages_substrings_counts (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO messages_substrings_counts (term, docs)
  SELECT term, doc FROM messages_substrings_vocabulary
  UNION ALL SELECT '', count(*) FROM messages;

/**
 * Full-text search over turns on PostgreSQL, the counterpart of the SQLite generation's FTS5
 * table (`porter unicode61 remove_diacritics 2`), run once on a new generation schema (the
 * connection's search_path is that schema, so unqualified names land in it).
 *
 * - Words: punctuation and symbols become spaces before PostgreSQL's parser sees the text, so it
 *   splits where unicode61 does ("5.99" is two tokens, "e-mail" two, "don't" two) instead of
 *   reading floats, hyphenated words, e-mails and URLs as tokens of their own. Accents are folded
 *   by `unaccent` first ("café" is "cafe"), as remove_diacritics folds them.
 * - Stems: the snowball English stemmer with no stopword list (FTS5 indexes every word, so a
 *   transcript search for "where is my refund" needs all four words on both).
 * - `turn_search`: one row per turn, fed by triggers in the turn's transaction as turn_fts is: the
 *   turn's lexemes (user side weighted A, agent side B, so `turn_type` is a weight filter), a GIN
 *   index on them, and the turn's token count (bm25's document length). A table of its own, not a
 *   column of conversation_turn: the turn rows stay exactly the SQLite generation's.
 * - `turn_term`: every lexeme indexed, for semantic search's fuzzy expansion by prefix (fts5vocab
 *   on SQLite). Kept by the same trigger; a term already there costs one index probe and no write.
 *   Terms are never removed (the projection never deletes turns; a stale term would only add an
 *   alternative that matches nothing). C collation: byte order, as fts5vocab lists terms.
 * - `conversation.id` and `started_at` in C collation: the keyset order (started_at DESC, id DESC)
 *   and its row-value comparison are byte order on any database locale, as on SQLite.
 *
 * Needs a UTF8 database and the `unaccent` extension (contrib; a trusted extension, so a role that
 * may create in the database installs it; or an administrator installs it in public beforehand).
 */
export const CONVERSATIONS_POSTGRES_SETUP: string[] = [
  `ALTER TABLE conversation ALTER COLUMN id TYPE text COLLATE "C", ALTER COLUMN started_at TYPE text COLLATE "C"`,
  // once per database, whichever generation comes first; public so no generation's DROP SCHEMA takes it
  `DO $$ BEGIN
     CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;
   EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL;
   END $$`,
  `CREATE TEXT SEARCH DICTIONARY turn_stem (TEMPLATE = pg_catalog.snowball, LANGUAGE = english)`,
  `CREATE TEXT SEARCH CONFIGURATION turn_words (COPY = pg_catalog.english)`,
  `ALTER TEXT SEARCH CONFIGURATION turn_words ALTER MAPPING REPLACE english_stem WITH turn_stem`,
  // ASCII punctuation, Latin-1 punctuation and symbols, general punctuation, arrows to dingbats, CJK punctuation, emoji
  `CREATE FUNCTION turn_words_of(text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $f$
     SELECT regexp_replace(public.unaccent('public.unaccent'::regdictionary, $1),
       '[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f\\u00a0-\\u00a9\\u00ab-\\u00b1\\u00b4\\u00b6-\\u00b8\\u00bb\\u00bf\\u00d7\\u00f7\\u2000-\\u206f\\u2190-\\u2bff\\u3000-\\u303f\\U0001f000-\\U0001faff]+', ' ', 'g')
   $f$`,
  `CREATE FUNCTION turn_lexemes(text) RETURNS tsvector LANGUAGE sql STABLE PARALLEL SAFE AS $f$
     SELECT to_tsvector('turn_words', turn_words_of($1))
   $f$`,
  `CREATE TABLE turn_search (
     turn_id integer PRIMARY KEY,
     conversation_id text NOT NULL,
     terms tsvector NOT NULL,
     tokens integer NOT NULL
   )`,
  `CREATE INDEX turn_search_terms ON turn_search USING gin (terms)`,
  `CREATE TABLE turn_term (term text COLLATE "C" PRIMARY KEY)`,
  // Names resolve through the writer's search_path (this generation, as every read-model connection
  // has it), not one captured here: the schema is built under a draft name and renamed into place.
  `CREATE FUNCTION turn_search_write() RETURNS trigger LANGUAGE plpgsql AS $f$
   DECLARE
     terms tsvector;
   BEGIN
     IF TG_OP <> 'INSERT' THEN
       DELETE FROM turn_search WHERE turn_id = OLD.id;
     END IF;
     IF TG_OP = 'DELETE' THEN
       RETURN NULL;
     END IF;
     terms := setweight(turn_lexemes(NEW.user_input), 'A') || setweight(turn_lexemes(NEW.agent_response), 'B');
     INSERT INTO turn_search (turn_id, conversation_id, terms, tokens)
       VALUES (NEW.id, NEW.conversation_id, terms, (SELECT coalesce(sum(array_length(positions, 1)), 0) FROM unnest(terms)));
     INSERT INTO turn_term (term) SELECT lexeme FROM unnest(terms) ON CONFLICT DO NOTHING;
     RETURN NULL;
   END
   $f$`,
  `CREATE TRIGGER turn_search_insert AFTER INSERT ON conversation_turn FOR EACH ROW EXECUTE FUNCTION turn_search_write()`,
  `CREATE TRIGGER turn_search_update AFTER UPDATE OF user_input, agent_response ON conversation_turn FOR EACH ROW EXECUTE FUNCTION turn_search_write()`,
  `CREATE TRIGGER turn_search_delete AFTER DELETE ON conversation_turn FOR EACH ROW EXECUTE FUNCTION turn_search_write()`,
];

/*
 * The "search" area on PostgreSQL: the full-text index and the queries of
 * the public index (include/heed/store_search.h), giving the rows, counts
 * and cursors src/store/sqlite_search.c gives for the same pages; where
 * the two differ is said here and in docs/serve.md ("Ranking").
 *
 * search_docs holds, per page, a tsvector of its title (weight A),
 * description (B), tags (C) and site name and host (D), the columns of
 * FTS5's table with their weights, and what SQLite's search_listed holds:
 * whether the page is listed apart from the time (status 2xx, ACAP index
 * and present not refused) and its earliest time limit. page_tags holds
 * its tags. A trigger on pages keeps both in the transaction that writes
 * the page, only when an indexed column, the status or the permissions
 * change (a 304 costs nothing), and a deleted page's rows go with it
 * (ON DELETE CASCADE). A GIN index answers the words.
 *
 * Words: the configuration heed_search lowercases, removes diacritics
 * (unaccent) and stems with Snowball's English stemmer without stop
 * words, where FTS5's tokenizer is 'porter unicode61 remove_diacritics 2':
 * Snowball's English is Porter's later stemmer, so a few words stem
 * differently (rare endings; both sides of a search stem alike, so a word
 * still finds itself). ASCII punctuation separates words before
 * PostgreSQL's parser sees the text, as in unicode61 (the parser would
 * keep "a.example" whole). heed_search_query.match is an FTS5 expression
 * on both backends, translated by heed__pg_tsquery.
 *
 * Not ported: the kept counts of SQLite's version 2 (tags, sites and
 * totals are counted from search_docs at query time here: exact, at a cost
 * that grows with the pages shown), the plans (PostgreSQL's planner
 * chooses, heed only telling it where relevance candidates are cheaper to
 * read, below; every heed_search_plan gives the same rows, as on SQLite)
 * and the cost bound (HEED_ETOOBIG). A count may be its cap from the
 * statistics ("Estimated counts", below).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heed/store_search.h"
#include "store/grams-int.h"
#include "store/pg-int.h"

/* ASCII other than letters and digits as spaces (unicode61's separators
 * in ASCII). */
#define CLEAN(t)                                                          \
	"regexp_replace(" t ", '[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-" \
	"\\x7f]+', ' ', 'g')"
/* Between two columns' vectors: a lexeme no query can hold (every query
 * word is cleaned of punctuation), one position wide, so that a phrase
 * never spans the end of one column and the start of the next (|| would
 * make them adjacent), as FTS5's phrases stay in one column. */
#define GAP " || '.:1'::tsvector || "
#define VEC(t, w)                                                             \
	"setweight(to_tsvector('heed_search', heed_grams(" CLEAN(t) ")), '" w \
	                                                            "')"
/* A text with its runs of scripts written without spaces as the index
 * holds them (grams-int.h): each run of two or more characters as its
 * bigrams, in place, so that a word's bigrams stand in a row; a lone
 * character as itself; and after the text every such character alone, so
 * that a search for one character finds it anywhere in a run. */
#define FN_GRAMS                                                               \
	"CREATE OR REPLACE FUNCTION heed_grams(t text) RETURNS text LANGUAGE " \
	"plpgsql IMMUTABLE STRICT AS $f$ DECLARE o text := ''; u text := ''; " \
	"c text; p text; n int := length(t); BEGIN IF t !~ '" HEED__GRAM_CLASS \
	"' THEN RETURN t; END IF; FOR i IN 1..n LOOP c := substr(t, i, 1); "   \
	"IF c ~ '" HEED__GRAM_CLASS "' THEN u := u || ' ' || c; IF p IS NOT "  \
	"NULL THEN o := o || ' ' || p || c; ELSIF i = n OR substr(t, i + 1, "  \
	"1) !~ '" HEED__GRAM_CLASS "' THEN o := o || ' ' || c; END IF; p := "  \
	"c; ELSE IF p IS NOT NULL THEN o := o || ' '; END IF; p := NULL; o "   \
	":= o || c; END IF; END LOOP; RETURN o || ' ' || u; END $f$;"

/* A page's record and permissions as jsonb: NULL when not JSON, as
 * SQLite's json_valid guards. */
#define FN_JSON                                                             \
	"CREATE FUNCTION heed_json(t text) RETURNS jsonb LANGUAGE plpgsql " \
	"IMMUTABLE STRICT AS $f$ BEGIN RETURN t::jsonb; EXCEPTION WHEN "    \
	"others THEN RETURN NULL; END $f$;"
/* SQLite's unixepoch() of the ISO 8601 forms heed stores (a date, a
 * time to the minute, second or fraction, an offset or Z; none: UTC),
 * NULL otherwise. Like SQLite, a day past the month's end runs into the
 * next month (2024-02-30 is 1 March), which a cast would refuse; year
 * 0000 is 1 BC. */
#define FN_UNIXEPOCH                                                           \
	"CREATE FUNCTION heed_unixepoch(t text) RETURNS bigint LANGUAGE "      \
	"plpgsql IMMUTABLE STRICT AS $f$ DECLARE m text[] := regexp_match(t, " \
	"'^(\\d{4})-(\\d{2})-(\\d{2})(?:[T ](\\d{2}):(\\d{2})(?::("            \
	"\\d{2}(?:\\.\\d+)?))?)?([Zz]|[+-]\\d{2}:\\d{2})?$'); y int; "         \
	"BEGIN IF m IS NULL OR m[2]::int NOT BETWEEN 1 AND 12 OR m[3]::int "   \
	"NOT BETWEEN 1 AND 31 OR coalesce(m[4]::int, 0) > 24 OR "              \
	"coalesce(m[5]::int, 0) > 59 OR coalesce(m[6]::numeric, 0) >= 60 "     \
	"THEN RETURN NULL; END IF; y := CASE WHEN m[1]::int = 0 THEN -1 "      \
	"ELSE m[1]::int END; RETURN floor(extract(epoch FROM "                 \
	"make_timestamp(y, m[2]::int, 1, 0, 0, 0) + make_interval(days => "    \
	"m[3]::int - 1, hours => coalesce(m[4]::int, 0), mins => "             \
	"coalesce(m[5]::int, 0), secs => coalesce(m[6]::float8, 0))) - CASE "  \
	"WHEN m[7] IS NULL OR upper(m[7]) = 'Z' THEN 0 ELSE (CASE WHEN "       \
	"left(m[7], 1) = '-' THEN -1 ELSE 1 END) * (substr(m[7], 2, "          \
	"2)::int * 3600 + substr(m[7], 5, 2)::int * 60) END); END $f$;"
/* heed_unixepoch again, at a thirtieth of the cost: a match with capture
 * groups runs PostgreSQL's slower regular expression engine (about 0.07
 * ms; 0.25 ms inside PL/pgSQL), and the index on a page's date calls it
 * for every page written. A match without captures only checks the form;
 * the fields then sit at fixed places. Like SQLite, and unlike the first
 * version, an offset or Z only follows a time: "2024-02-03-05:00" is no
 * date. */
#define FN_UNIXEPOCH_V6                                                        \
	"CREATE OR REPLACE FUNCTION heed_unixepoch(t text) RETURNS bigint "    \
	"LANGUAGE plpgsql IMMUTABLE STRICT AS $f$ DECLARE n int := "           \
	"length(t); off int := 0; y int; mo int; d int; h int := 0; mi int "   \
	":= 0; s text := '0'; BEGIN IF t !~ '^\\d{4}-\\d{2}-\\d{2}(?:[T "      \
	"]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:[Zz]|[+-]\\d{2}:\\d{2})?)?$" \
	"' THEN RETURN NULL; END IF; IF right(t, 1) IN ('Z', 'z') THEN n := "  \
	"n "                                                                   \
	"- 1; ELSIF n >= 16 AND substr(t, n - 5, 1) IN ('+', '-') THEN off "   \
	":= (CASE WHEN substr(t, n - 5, 1) = '-' THEN -1 ELSE 1 END) * "       \
	"(substr(t, n - 4, 2)::int * 3600 + substr(t, n - 1, 2)::int * 60); "  \
	"n := n - 6; END IF; y := substr(t, 1, 4)::int; mo := substr(t, 6, "   \
	"2)::int; d := substr(t, 9, 2)::int; IF n >= 16 THEN h := substr(t, "  \
	"12, 2)::int; mi := substr(t, 15, 2)::int; END IF; IF n >= 19 THEN s " \
	":= substr(t, 18, n - 17); END IF; IF mo NOT BETWEEN 1 AND 12 OR d "   \
	"NOT BETWEEN 1 AND 31 OR h > 24 OR mi > 59 OR s::numeric >= 60 THEN "  \
	"RETURN NULL; END IF; IF y = 0 THEN y := -1; END IF; RETURN "          \
	"floor(extract(epoch FROM make_timestamp(y, mo, 1, 0, 0, 0) + "        \
	"make_interval(days => d - 1, hours => h, mins => mi, secs => "        \
	"s::float8)) - off); END $f$;"
/* A record's tags that are non-empty strings, in order (TAG_ROWS). */
#define FN_TAGS                                                               \
	"CREATE FUNCTION heed_tags(r jsonb) RETURNS SETOF text LANGUAGE sql " \
	"IMMUTABLE AS $f$ SELECT v->>'value' FROM jsonb_array_elements("      \
	"CASE WHEN jsonb_typeof(r->'tags') = 'array' THEN r->'tags' END) v "  \
	"WHERE jsonb_typeof(v->'value') = 'string' AND v->>'value' <> '' "    \
	"UNION ALL SELECT v->>'value' FROM jsonb_each(CASE WHEN "             \
	"jsonb_typeof(r->'tags') = 'object' THEN r->'tags' END) e(k, v) "     \
	"WHERE jsonb_typeof(v->'value') = 'string' AND v->>'value' <> '' "    \
	"$f$;"
/* A usage refused: JSON false or 0, as json_extract(...) IS NOT 0. */
#define FN_REFUSED                                                            \
	"CREATE FUNCTION heed_refused(v jsonb) RETURNS boolean LANGUAGE sql " \
	"IMMUTABLE AS $f$ SELECT coalesce(v = 'false'::jsonb OR "             \
	"(jsonb_typeof(v) = 'number' AND (v #>> '{}')::numeric = 0), "        \
	"false) $f$;"
/* A time limit as SQLite compares it with a time: a number as itself, a
 * boolean as 0 or 1; anything else never passes (NULL: none). */
#define FN_LIMIT                                                           \
	"CREATE FUNCTION heed_limit(v jsonb) RETURNS float8 LANGUAGE sql " \
	"IMMUTABLE AS $f$ SELECT CASE jsonb_typeof(v) WHEN 'number' THEN " \
	"(v #>> '{}')::float8 WHEN 'boolean' THEN CASE WHEN v = "          \
	"'true'::jsonb THEN 1 ELSE 0 END END $f$;"
/* The usage that lists a page: present-link, or present in permissions
 * stored before present-link was (src/common/permit.c). */
#define LINK_USAGE(member)                                      \
	"coalesce(m #> '{acap,present-link," member "}', m #> " \
	"'{acap,present," member "}')"
/* What the index holds of a description: what may be shown of it, as
 * search_docs does on SQLite (sqlite_search.c, INDEXED_DESCRIPTION). */
#define DESC "(r #>> '{description,value}')"
#define INDEXED_DESCRIPTION                                                 \
	"CASE WHEN jsonb_typeof(m #> '{search,description_chars}') = "      \
	"'number' THEN left(" DESC ", least(greatest((m #>> "               \
	"'{search,description_chars}')::numeric, 0), 2147483647)::int) "    \
	"WHEN m IS NOT NULL AND m #> '{meta_robots,nosnippet}' IS "         \
	"DISTINCT FROM 'true'::jsonb AND m #> '{meta_robots,max_snippet}' " \
	"IS NULL AND NOT heed_refused(m #> '{acap,present,permitted}') "    \
	"AND NOT heed_refused(m #> '{acap,present-snippet,permitted}') "    \
	"AND m #> '{acap,present-snippet,max_length}' IS NULL AND m #> "    \
	"'{acap,present-snippet,expires}' IS NULL THEN " DESC " END"
/*
 * The rows in page_tags and search_docs of the pages whose id satisfies
 * cond (on pages p; tags_cond on page_tags), from their rows, as
 * heed_search_<name>(<arg>):
 * heed_search_index(pid) for one page (versions 1-4, which ran it from a
 * trigger) and heed_search_index_set(pids) for a set (version 5's catch
 * up). Until version 8 a page that is gone had nothing to put back, its
 * rows going with it (ON DELETE CASCADE); since, the set's rows are
 * deleted first and put back for the pages that are there.
 */
#define FN_HEAD(name, arg)                                                  \
	"CREATE OR REPLACE FUNCTION heed_search_" name "(" arg ") RETURNS " \
	"void LANGUAGE sql AS $f$ "
#define TAG_ROWS(cond, tags_cond)                                           \
	"DELETE FROM page_tags WHERE " tags_cond "; "                       \
	"INSERT INTO page_tags(tag, page_id) SELECT DISTINCT t, p.id FROM " \
	"pages p, heed_json(p.record) r, heed_tags(r) t WHERE " cond "; "
#define DOC_VECTOR                                                           \
	VEC("coalesce(p.title, '')", "A")                                    \
	GAP VEC("coalesce(" INDEXED_DESCRIPTION ", '')", "B") GAP VEC(       \
	        "coalesce((SELECT string_agg(t, ' ') FROM heed_tags(r) t), " \
	        "'')",                                                       \
	        "C") GAP VEC("coalesce((r #>> '{site_name,value}') || ' ', " \
	                     "'') || p.host",                                \
	                     "D")
#define LINK_PERMITTED LINK_USAGE("permitted")
#define LINK_EXPIRES   LINK_USAGE("expires")
#define DOC_ROWS(cond)                                                      \
	"INSERT INTO search_docs(page_id, host, tsv, listed, hidden_from, " \
	"language) SELECT p.id, p.host, " DOC_VECTOR ", p.status BETWEEN "  \
	"200 AND 299 AND NOT heed_refused(m #> '{acap,index,permitted}') "  \
	"AND NOT heed_refused(" LINK_PERMITTED "), least(heed_limit(m #> "  \
	"'{acap,index,expires}'), heed_limit(" LINK_EXPIRES "), "           \
	"heed_limit(m #> '{meta_robots,unavailable_after}')), lower(r #>> " \
	"'{language,value}') FROM pages p, heed_json(p.record) r, "         \
	"heed_json(p.permissions) m WHERE " cond
#define DOC_UPSERT                                                          \
	" ON CONFLICT (page_id) DO UPDATE SET host = excluded.host, tsv = " \
	"excluded.tsv, listed = excluded.listed, hidden_from = "            \
	"excluded.hidden_from, language = excluded.language"
#define FN_INDEX_OF(name, arg, cond, tags_cond) \
	FN_HEAD(name, arg)                      \
	TAG_ROWS(cond, tags_cond) DOC_ROWS(cond) DOC_UPSERT "; $f$;"
#define FN_INDEX \
	FN_INDEX_OF("index", "pid bigint", "p.id = pid", "page_id = pid")
#define FN_INDEX_SET                                                  \
	FN_INDEX_OF("index_set", "pids bigint[]", "p.id = ANY(pids)", \
	            "page_id = ANY(pids)")
/* Version 8's: the set's rows deleted and put back, with no foreign key
 * checked for each of them. */
#define FN_INDEX_SET_V8                                                 \
	FN_HEAD("index_set", "pids bigint[]")                           \
	TAG_ROWS("p.id = ANY(pids)", "page_id = ANY(pids)")             \
	"DELETE FROM search_docs WHERE page_id = ANY(pids); " DOC_ROWS( \
	        "p.id = ANY(pids)") "; $f$;"
/* Version 10's: each row also holds its page's views and the time its
 * freshness counts from (AT), which relevance scores from. */
#define AT(p) "coalesce(heed_unixepoch(" p ".published), " p ".fetched_at)"
#define DOC_ROWS_OF(vector, cond)                                           \
	"INSERT INTO search_docs(page_id, host, tsv, listed, hidden_from, " \
	"language, views, at) SELECT p.id, p.host, " vector                 \
	", p.status BETWEEN 200 AND 299 AND NOT heed_refused(m #> "         \
	"'{acap,index,permitted}') AND NOT heed_refused(" LINK_PERMITTED    \
	"), least(heed_limit(m #> '{acap,index,expires}'), "                \
	"heed_limit(" LINK_EXPIRES "), heed_limit(m #> "                    \
	"'{meta_robots,unavailable_after}')), lower(r #>> "                 \
	"'{language,value}'), p.views, " AT(                                \
	        "p") " FROM pages p, "                                      \
	             "heed_json(p.record) r, heed_json(p.permissions) m "   \
	             "WHERE " cond
#define DOC_ROWS_V10(cond) DOC_ROWS_OF(DOC_VECTOR, cond)
#define FN_INDEX_SET_OF(rows)                                       \
	FN_HEAD("index_set", "pids bigint[]")                       \
	TAG_ROWS("p.id = ANY(pids)", "page_id = ANY(pids)")         \
	"DELETE FROM search_docs WHERE page_id = ANY(pids); " rows( \
	        "p.id = ANY(pids)") "; $f$;"
#define FN_INDEX_SET_V10 FN_INDEX_SET_OF(DOC_ROWS_V10)
/*
 * Version 16's: each row's vector also holds its page's id as the ranges
 * of ids it lies in, 2^14, 2^18, 2^22 and 2^26 ids wide: one word each,
 * "~14.3" for ids 49,152 to 65,535, without a position. No query word
 * can be one (every query word is cleaned of punctuation, as with the
 * gap between columns), so they make no page match; a search asks for
 * them beside its words to read only the newest ids' matches from the
 * GIN index ("The newest matches read through their ids' ranges",
 * below). ts_rank_cd's length, by whose logarithm a score is divided,
 * counts each of them as one word: every page is four words longer.
 */
#define FN_BOUNDS                                                             \
	"CREATE FUNCTION heed_search_bounds(id bigint) RETURNS tsvector "     \
	"LANGUAGE sql IMMUTABLE STRICT AS $f$ SELECT array_to_tsvector("      \
	"ARRAY['~14.' || (id >> 14), '~18.' || (id >> 18), '~22.' || (id >> " \
	"22), '~26.' || (id >> 26)]) $f$;"
#define DOC_ROWS_V16(cond) \
	DOC_ROWS_OF(DOC_VECTOR " || heed_search_bounds(p.id)", cond)
#define FN_INDEX_SET_V16 FN_INDEX_SET_OF(DOC_ROWS_V16)
/* Version 10's: views, a date and, for a page without one, the fetch
 * time change without marking the page (a re-fetch that found the same
 * record), so this trigger keeps the two keys, as SQLite's
 * search_keys_au does (sqlite_search.c, version 7): one update of a row
 * by its key, only when one of them changed. A page not listed yet has
 * no row to update; the catch-up writes its keys. */
#define KEYS_TRIGGER                                                           \
	"CREATE FUNCTION heed_search_keys() RETURNS trigger LANGUAGE plpgsql " \
	"AS $f$ BEGIN UPDATE search_docs SET views = NEW.views, at = " AT(     \
	        "NEW") " WHERE page_id = NEW.id; RETURN NULL; END $f$; "       \
	               "CREATE TRIGGER "                                       \
	               "search_keys_au AFTER UPDATE OF views, published, "     \
	               "fetched_at ON "                                        \
	               "pages FOR EACH ROW WHEN (OLD.views IS DISTINCT FROM "  \
	               "NEW.views OR "                                         \
	               "OLD.published IS DISTINCT FROM NEW.published OR "      \
	               "(OLD.fetched_at IS "                                   \
	               "DISTINCT FROM NEW.fetched_at AND "                     \
	               "heed_unixepoch(NEW.published) IS "                     \
	               "NULL)) EXECUTE FUNCTION heed_search_keys();"
#define INDEX_ALL                                                       \
	"DELETE FROM page_tags; DELETE FROM search_docs; SELECT count(" \
	"heed_search_index(id)) FROM pages;"
/* Version 5's: the marks go too, and the set function does the rest. */
#define INDEX_ALL_V5                                                      \
	"DELETE FROM search_pending; DELETE FROM page_tags; DELETE FROM " \
	"search_docs; SELECT heed_search_index_set(array_agg(id)) FROM "  \
	"pages;"
/* Whether an update of pages changes what the index holds of it: not a
 * 304 (checked_at), not a re-fetch that found the same record. */
#define PAGE_CHANGED                                                         \
	"AFTER UPDATE OF title, record, host, status, permissions ON pages " \
	"FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR "        \
	"OLD.record IS DISTINCT FROM NEW.record OR OLD.host IS DISTINCT "    \
	"FROM NEW.host OR OLD.status IS DISTINCT FROM NEW.status OR "        \
	"OLD.permissions IS DISTINCT FROM NEW.permissions)"

/* Version 3 is SQLite's third migration (the full-text index, tags and
 * what is listed): a PostgreSQL store starts there, so one area version
 * means the same answers on both backends. A later migration must be
 * added to both backends under the same number. */
static const char *const pg_search_migrations[] = {
        "CREATE EXTENSION IF NOT EXISTS unaccent;"
        "CREATE TEXT SEARCH DICTIONARY heed_stem (TEMPLATE = snowball, "
        "Language = english);"
        "CREATE TEXT SEARCH CONFIGURATION heed_search (COPY = simple);"
        "ALTER TEXT SEARCH CONFIGURATION heed_search ALTER MAPPING FOR "
        "asciiword, word, numword, asciihword, hword, numhword, "
        "hword_asciipart, hword_part, hword_numpart WITH unaccent, "
        "heed_stem;"
        "CREATE TABLE search_docs ("
        "  page_id BIGINT PRIMARY KEY REFERENCES pages(id) ON DELETE "
        "CASCADE,"
        "  host TEXT COLLATE \"C\" NOT NULL,"
        "  tsv tsvector NOT NULL,"
        "  listed BOOLEAN NOT NULL,"
        "  hidden_from DOUBLE PRECISION,"
        "  language TEXT);"
        "CREATE INDEX search_docs_tsv ON search_docs USING gin (tsv);"
        "CREATE INDEX search_docs_host ON search_docs (host);"
        "CREATE INDEX search_docs_timed ON search_docs (hidden_from) "
        "WHERE hidden_from IS NOT NULL;"
        "CREATE TABLE page_tags (tag TEXT COLLATE \"C\" NOT NULL, page_id "
        "BIGINT NOT NULL REFERENCES pages(id) ON DELETE CASCADE, PRIMARY "
        "KEY (tag, page_id));"
        "CREATE INDEX page_tags_page ON page_tags (page_id);" FN_JSON
                FN_UNIXEPOCH FN_TAGS FN_REFUSED FN_LIMIT FN_GRAMS FN_INDEX
        "CREATE INDEX pages_search_views ON pages ((-coalesce(views, -1)), "
        "id);"
        "CREATE INDEX pages_search_date ON pages ((coalesce("
        "-heed_unixepoch(published), 9223372036854775807)), id);"
        "CREATE INDEX pages_search_fetched ON pages ((-fetched_at), id);"
        "CREATE INDEX pages_search_host_fetched ON pages (host, "
        "fetched_at);"
        "CREATE FUNCTION heed_search_pages() RETURNS trigger LANGUAGE "
        "plpgsql AS $f$ BEGIN PERFORM heed_search_index(NEW.id); RETURN "
        "NULL; END $f$;"
        "CREATE TRIGGER search_pages_ai AFTER INSERT ON pages FOR EACH ROW "
        "EXECUTE FUNCTION heed_search_pages();"
        "CREATE TRIGGER search_pages_au " PAGE_CHANGED
        " EXECUTE FUNCTION heed_search_pages();" INDEX_ALL,
        "SELECT 1;",
        "SELECT 1;",
        /* 4: each thing shown asks its own ACAP usage (present-link
         * lists a page), and the index holds only what may be shown of
         * a description (sqlite_search.c's version 4). */
        FN_GRAMS FN_INDEX INDEX_ALL,
        /* 5: the index off the page's write path, as on SQLite
         * (sqlite_search.c's version 5): a written page is only marked,
         * and the index catches up a set at a time. */
        "DROP TRIGGER search_pages_ai ON pages; DROP TRIGGER "
        "search_pages_au ON pages; DROP FUNCTION heed_search_pages();"
        "CREATE TABLE search_pending (page_id BIGINT PRIMARY KEY);" FN_INDEX_SET
        "CREATE FUNCTION heed_search_mark() RETURNS trigger LANGUAGE "
        "plpgsql AS $f$ BEGIN INSERT INTO search_pending(page_id) VALUES "
        "(NEW.id) ON CONFLICT DO NOTHING; RETURN NULL; END $f$;"
        "CREATE TRIGGER search_mark_ai AFTER INSERT ON pages FOR EACH ROW "
        "EXECUTE FUNCTION heed_search_mark();"
        "CREATE TRIGGER search_mark_au " PAGE_CHANGED
        " EXECUTE FUNCTION heed_search_mark();",
        /* 6: the date of a page read at a thirtieth of the cost, and as
         * SQLite reads it (above); the index on it is built again for
         * the dates the first version read otherwise. */
        FN_UNIXEPOCH_V6 "REINDEX INDEX pages_search_date;",
        /* 7: SQLite keeps a page's sort keys beside its listing, so that
         * scoring a match does not read its pages row. Nothing here yet:
         * PostgreSQL reads whether a match is listed from search_docs
         * already, and its views and dates from the page. */
        "SELECT 1;",
        /* 8: no foreign keys from the index's rows to pages. Each row
         * written asked its page for a share lock, half of what writing
         * a page's tags cost; a page deleted is now marked, as on
         * SQLite, and its catch-up takes its rows out. */
        "ALTER TABLE page_tags DROP CONSTRAINT page_tags_page_id_fkey;"
        "ALTER TABLE search_docs DROP CONSTRAINT "
        "search_docs_page_id_fkey;"
        "CREATE FUNCTION heed_search_mark_gone() RETURNS trigger LANGUAGE "
        "plpgsql AS $f$ BEGIN INSERT INTO search_pending(page_id) VALUES "
        "(OLD.id) ON CONFLICT DO NOTHING; RETURN NULL; END $f$;"
        "CREATE TRIGGER search_mark_ad AFTER DELETE ON pages FOR EACH ROW "
        "EXECUTE FUNCTION heed_search_mark_gone();" FN_INDEX_SET_V8,
        /* 9: SQLite's tokenizer indexes word pairs for its phrases.
         * Nothing here: PostgreSQL's phrases (<->) read its positions. */
        "SELECT 1;",
        /* 10: a page's relevance sort keys beside its listing, as
         * SQLite's version 7 keeps them: scoring 5,000 matches read
         * 5,000 pages rows and parsed 5,000 dates (RELEVANCE below). */
        "ALTER TABLE search_docs ADD COLUMN views BIGINT, ADD COLUMN at "
        "BIGINT;"
        "UPDATE search_docs d SET views = p.views, at = " AT(
                "p") " FROM pages p WHERE p.id = d.page_id;" FN_INDEX_SET_V10
                KEYS_TRIGGER "ANALYZE search_docs;",
        /* 11: as SQLite's: the pages area's pages_host_fetched (its
         * version 3) is the same index. */
        "DROP INDEX pages_search_host_fetched;",
        /* 12: SQLite's FTS5 merges its segments less often. Nothing
         * here: a GIN index has no segments to merge. */
        "SELECT 1;",
        /* 13: ANALYZE keeps the frequencies of 4,000 lexemes of the
         * index, not 1,000, from a sample of 120,000 rows, not 30,000.
         * A prefix's estimate sums the frequencies of the kept lexemes it
         * begins, so with 1,000 a prefix of less common words was
         * estimated at half its pages ("nib:*": 14,979 for 27,465 at
         * 1,000,000 pages), and its relevance candidates were read from
         * the GIN index, every match, where walking the key reads fewer
         * pages (candidates_by_index). ANALYZE of 1,000,000 pages: 1.0 s
         * instead of 0.6 to 0.7 (docs/performance.md). */
        ("ALTER TABLE search_docs ALTER COLUMN tsv SET STATISTICS 400;"
         "ANALYZE search_docs;"),
        /* 14: SQLite's FTS5 gathers more tokens before it writes a
         * segment. Nothing here: a GIN index has its own pending list. */
        "SELECT 1;",
        /* 15: SQLite finds inserted pages by their ids instead of a
         * trigger. Nothing here: PostgreSQL keeps its trigger, whose
         * cost beside a sweep was not measured. */
        "SELECT 1;",
        /* 16: each row's vector holds its page's id's ranges (above), so
         * that a word's or prefix's newest matches are read without the
         * others: a prefix of 20,000 to 35,000 pages took 70 to 180 ms at
         * 1,000,000 pages, every match read or the key walked, and takes
         * 35 to 45 (docs/performance.md). The rows already there get
         * theirs. */
        FN_BOUNDS FN_INDEX_SET_V16
        "UPDATE search_docs SET tsv = tsv || heed_search_bounds(page_id);"
        "ANALYZE search_docs;",
};

const struct heed_store_area heed__pg_search_area = {
        "search",
        pg_search_migrations,
        (int)HEED_ARRAY_SIZE(pg_search_migrations),
};

/* The visibility rule at $1 (now), from what the trigger kept: SHOWN of
 * sqlite_search.c. */
#define SHOWN                                                      \
	"(d.listed AND (d.hidden_from IS NULL OR d.hidden_from > " \
	"$1::bigint))"

#define PAGE_COLUMNS                                                           \
	"p.url, p.final_url, p.host, p.status, p.fetched_at, p.checked_at, "   \
	"p.title, p.views, p.published, p.modified, p.etag, p.last_modified, " \
	"p.source_lastmod, p.permissions, p.mode, p.record"

/* Sort keys, ascending, as in sqlite_search.c; the pages_search_*
 * indexes hold the same expressions. */
#define KEY_VIEWS   "(-coalesce(p.views, -1))"
#define KEY_DATE    "coalesce(-heed_unixepoch(p.published), 9223372036854775807)"
#define KEY_FETCHED "(-p.fetched_at)"
/* Relevance (docs/serve.md, "Ranking"): ts_rank_cd weighted by column as
 * bm25 is (title 10, description 4, tags 6, site 2, scaled to 1), times
 * 10 so that it weighs against the boosts about as bm25 does, negated
 * (lower is better), less the same views and freshness boosts, from the
 * keys search_docs keeps (version 10): a candidate is scored without its
 * pages row. */
#define KEY_SCORE                                                           \
	"(-10 * ts_rank_cd('{0.2, 0.6, 0.4, 1.0}', d.tsv, " TSQUERY         \
	", 1)::float8 - 0.4 * log((1 + greatest(coalesce(d.views, 0), "     \
	"0))::float8) - 1.0::float8 / (1 + greatest(($1::bigint / 86400 * " \
	"86400) - d.at, 0) / 86400.0::float8 / 30.0::float8))"

/* Every filter, NULL filtering nothing: $2 the tsquery text, $3 host, $4
 * tag, $5 language, $6 $7 published range, $8 $9 views range. Each
 * statement is sent unnamed, so the server plans it with its values: a
 * NULL filter folds away, and TSQUERY, immutable, folds into a constant
 * that the GIN index answers and the planner estimates from the
 * lexemes' statistics. (Taken from a join, LEFT JOIN to_tsquery(...)
 * q(q), the constant became a join filter instead, tested on every
 * listed page with no estimate: a search read all of search_docs and
 * pages, 0.3 to 3 s at 100,000 pages; docs/performance.md.) */
#define TSQUERY "to_tsquery('heed_search', $2::text)"
/* A page's published date in [$6, $7] (the pages row p). */
#define PUBLISHED_IN                                                  \
	" AND ($6::bigint IS NULL OR heed_unixepoch(p.published) >= " \
	"$6::bigint) AND ($7::bigint IS NULL OR "                     \
	"heed_unixepoch(p.published) <= $7::bigint)"
/* The tag filter on the page id named: TAG_ANY whatever $4, TAG_GIVEN
 * when $4 is not NULL. PostgreSQL turns an EXISTS into a join only when
 * it stands alone in the WHERE clause, and does so before it folds
 * "$4 IS NULL" away: inside TAG_ANY's OR it stays a subplan that hashes
 * every page of the tag (149,452 for a frequent one at 1,000,000 pages),
 * about twice the time of the join TAG_GIVEN allows. */
#define TAG_EXISTS(id)                                                 \
	"EXISTS(SELECT 1 FROM page_tags t WHERE t.tag = $4::text AND " \
	"t.page_id = " id ")"
#define TAG_ANY(id) " AND ($4::text IS NULL OR " TAG_EXISTS(id) ")"
/* The words of the tag $4 as the index holds a tag's (VEC of column C),
 * without positions: every page with the tag holds each of them, so
 * TAG_GIVEN asks the GIN index for them beside the query's words, and
 * reads the rows of the pages holding both rather than of every page
 * holding the words (18,464 rows read for 241 results at 1,000,000 pages,
 * docs/performance.md); page_tags still decides. A tag without a word
 * (punctuation alone) asks nothing of the index. */
#define TAG_WORDS \
	"plainto_tsquery('heed_search', heed_grams(" CLEAN("$4::text") "))"
#define TAG_GIVEN(id)                                                 \
	" AND " TAG_EXISTS(id) " AND (numnode(" TAG_WORDS ") = 0 OR " \
	                       "d.tsv @@ " TAG_WORDS ")"
/* The filters over the host and views columns named, the tag's (tag),
 * then the date's (dates). */
#define FILTERS_OF(host, views, tag, dates)                                 \
	" AND ($2::text IS NULL OR d.tsv @@ " TSQUERY ")"                   \
	" AND ($3::text IS NULL OR " host " = $3::text)" tag                \
	" AND ($5::text IS NULL OR d.language = lower($5::text) OR "        \
	"substr(d.language, 1, length($5::text) + 1) = lower($5::text) || " \
	"'-')"                                                              \
	" AND ($8::bigint IS NULL OR " views " >= $8::bigint)"              \
	" AND ($9::bigint IS NULL OR " views " <= $9::bigint)" dates
/* Over pages p joined to search_docs d, for the sorts, whose keys the
 * pages_search_* indexes hold. */
#define FILTERS      FILTERS_OF("p.host", "p.views", TAG_ANY("p.id"), PUBLISHED_IN)
#define FROM_MATCHED "pages p JOIN search_docs d ON d.page_id = p.id"
/* Over search_docs d, for relevance's candidates and the counts. A
 * row whose page is gone is one the catch-up has not taken out yet, so
 * its page is marked in search_pending (search_mark_ad): only the few
 * marked rows are asked whether their page is there, instead of every
 * match probing pages. The pages row is read only for a date range. */
#define DOC_FILTERS(tag)                                                \
	FILTERS_OF("d.host", "d.views", tag("d.page_id"),               \
	           " AND NOT EXISTS(SELECT 1 FROM search_pending s "    \
	           "WHERE s.page_id = d.page_id AND NOT EXISTS(SELECT " \
	           "1 FROM pages p WHERE p.id = s.page_id)) AND "       \
	           "($6::bigint IS NULL AND $7::bigint IS NULL OR "     \
	           "EXISTS(SELECT 1 FROM pages p WHERE p.id = "         \
	           "d.page_id" PUBLISHED_IN "))")

/* A sort's statement: $10 $11 the cursor (NULL: from the start), $12
 * the limit. */
#define SORTED(key)                                                         \
	"SELECT p.id, " PAGE_COLUMNS ", s.k FROM (SELECT p.id AS sid, " key \
	" AS k FROM " FROM_MATCHED " WHERE " SHOWN FILTERS                  \
	" AND ($11::bigint IS NULL OR (" key " >= $10::bigint AND (" key    \
	" > $10::bigint OR p.id > $11::bigint))) ORDER BY " key ", p.id "   \
	"LIMIT $12::bigint) s JOIN pages p ON p.id = s.sid ORDER BY s.k, "  \
	"s.sid;"

/* The views order read from search_docs alone, which keeps each page's
 * views (version 10), counting every match on the way, as relevance's
 * candidates from the GIN index are counted (BY_INDEX): for a word
 * of about 1 % of the pages, walking pages_search_views to the 21st
 * match and then counting up to 10,000 read about as many rows each
 * (155 to 203 ms and 109 to 113 ms for "koni", about 14,500 pages at
 * 1,000,000) as reading every match here once (145 to 168 ms;
 * docs/performance.md). Each row carries the count and the snapshot, as
 * RELEVANCE_OF's. */
#define VIEWS_COUNTED                                                          \
	"SELECT p.id, " PAGE_COLUMNS ", s.k, s.n, "                            \
	"pg_current_snapshot()::text FROM (SELECT m.sid, m.k, m.n FROM "       \
	"(SELECT d.page_id AS sid, (-coalesce(d.views, -1)) AS k, count(*) "   \
	"OVER () AS n FROM search_docs d WHERE " SHOWN                         \
	DOC_FILTERS(TAG_ANY) " OFFSET 0) m WHERE $11::bigint IS NULL OR (m.k " \
	                     ">= $10::bigint AND "                             \
	                     "(m.k > $10::bigint OR m.sid > $11::bigint)) "    \
	                     "ORDER BY m.k, m.sid "                            \
	                     "LIMIT $12::bigint) s JOIN pages p ON p.id = "    \
	                     "s.sid ORDER BY s.k, "                            \
	                     "s.sid;"

/* Relevance: the $13 newest matches that pass the filters, ordered by
 * score, the cursor resuming within them (sqlite_search.c's
 * relevance_sql). The candidates are chosen and scored (n), every one
 * from the row that found it, never looked up again: walking the key
 * back (BY_KEY), they come in order and nothing is sorted or held before
 * the limit; read from the GIN index (BY_INDEX), every match is scored
 * as it is read, and only its id and score go on through the count and
 * the sort by id that keeps the newest. Looking each candidate up by its
 * key to score it instead was half of such a search (4 buffers and a
 * subplan each: 27 of 41 ms for 3,426 candidates at 100,000 pages), and
 * scoring a match costs less than a lookup (docs/performance.md). The
 * tsvector must not ride through that sort (5,000 whole rows sorted past
 * work_mem onto disk): OFFSET 0 closes the scoring subquery. Each row
 * also carries how many candidates there were and the snapshot they were
 * read in ("Counts from the search", below). OFFSET 0 keeps the score a
 * column of c: without it, PostgreSQL moved the cursor's test on c.k into
 * c as the expression, so that a page after the first scored every
 * candidate three times (twice in the test, once for the order).
 * candidates is the statement of the candidates' ids (nid) and scores,
 * n their count: the candidates, or every match (BY_INDEX). The rows
 * after the page ($12 of them shown), up to $14, come as their ids and
 * scores alone, for the pages that follow ("Next pages from the search",
 * below). */
#define RELEVANCE_OF(candidates, n)                                           \
	"SELECT s.sid, " PAGE_COLUMNS ", s.k, s.n, "                          \
	"pg_current_snapshot()::text FROM (SELECT t.sid, t.k, t.n, "          \
	"row_number() OVER (ORDER BY t.k, t.sid) AS o FROM (SELECT c.fid AS " \
	"sid, c.k AS k, c.n AS n FROM (SELECT n.nid AS fid, n.score AS k, " n \
	" AS n FROM (" candidates                                             \
	") n OFFSET 0) c WHERE $11::bigint IS NULL OR (c.k >= "               \
	"$10::float8 AND (c.k > $10::float8 OR c.fid > $11::bigint)) ORDER "  \
	"BY c.k, c.fid LIMIT $14::bigint) t) s LEFT JOIN pages p ON p.id = "  \
	"s.sid AND s.o <= $12::bigint WHERE s.o > $12::bigint OR p.id IS "    \
	"NOT NULL ORDER BY s.k, s.sid;"
/* Every match that passes the filters, its id and score. */
#define MATCHES_SCORED(tag)                                                   \
	"SELECT d.page_id AS nid, " KEY_SCORE " AS score FROM search_docs d " \
	"WHERE " SHOWN                                                        \
	DOC_FILTERS(tag)

/* A count: $10 the cap. */
#define COUNTED(tag)                                                      \
	"(SELECT count(*) FROM (SELECT 1 FROM search_docs d WHERE " SHOWN \
	DOC_FILTERS(tag) " LIMIT $10::bigint) c)"
#define COUNT_OF(tag) "SELECT " COUNTED(tag) ";"
/*
 * Counts from the search. A relevance search whose candidates were every
 * match that may be shown (fewer than it scores), or that read them from
 * the GIN index (BY_INDEX), has counted every match; the
 * count that follows it with the same filters (the API's and the results
 * page's "about N results") takes that number when nothing committed
 * between the two, which is when both statements read the same snapshot
 * ($11): the same rows, so the count a reading of the matches gives.
 * Otherwise, and only then, the matches are read ($12 the kept count).
 * SQLite keeps the same count (sqlite_search.c) for the same reason: the
 * count of a phrase read every page holding its words a second time.
 */
#define COUNT_KEPT_OF(tag)                                               \
	"SELECT CASE WHEN pg_current_snapshot()::text = $11::text THEN " \
	"least($12::bigint, $10::bigint) ELSE " COUNTED(tag) " END;"

/* The count kept from a relevance search (heed__pg.counted), in one
 * block: its filters as filters_key gives them, then its snapshot. */
struct heed__pg_counted {
	int64_t count;
	const char *snapshot;
	char key[];
};

/* A query's parameters as text: $1..$14 of the statements above, $15
 * the bound of the newest matches (BOUNDED, below). */
struct params {
	const char *v[15];
	char buf[11][HEED_PG_INT_SIZE];
	char score[32];
	char *tsquery; /* owned */
};

static const char *opt(struct params *p, int i, int64_t v, bool given)
{
	return given ? heed__pg_i64(p->buf[i], v) : NULL;
}

/* Fills p from q: HEED_EINVAL when q's match is not an expression the
 * translation takes (FTS5's reason in diag). */
static heed_status make_params(heed_store *store,
                               const struct heed_search_query *q,
                               struct params *p, struct heed_diag *diag)
{
	heed_search_sort sort = heed__search_sort(q);
	heed_status rc;

	memset(p, 0, sizeof(*p));
	if (q->match && *q->match) {
		rc = heed__pg_tsquery(store->alloc, q->match, &p->tsquery,
		                      diag);
		if (rc != HEED_OK)
			return rc;
	}
	p->v[0] = heed__pg_i64(p->buf[0], q->now_s);
	p->v[1] = p->tsquery;
	p->v[2] = q->host;
	p->v[3] = q->tag;
	p->v[4] = q->language && *q->language ? q->language : NULL;
	p->v[5] = opt(p, 5, q->published_from_s,
	              q->published_from_s != HEED_STORE_NO_DATE);
	p->v[6] = opt(p, 6, q->published_to_s,
	              q->published_to_s != HEED_STORE_NO_DATE);
	p->v[7] = opt(p, 7, q->min_views, q->min_views >= 0);
	p->v[8] = opt(p, 8, q->max_views, q->max_views >= 0);
	if (q->after.id > 0) {
		if (sort == HEED_SEARCH_SORT_RELEVANCE) {
			/* %.17g gives the double back exactly. */
			snprintf(p->score, sizeof(p->score), "%.17g",
			         q->after.score);
			p->v[9] = p->score;
		} else {
			p->v[9] = heed__pg_i64(
			        p->buf[9],
			        heed__search_key_to_sql(sort, q->after.key));
		}
		p->v[10] = heed__pg_i64(p->buf[1], q->after.id);
	}
	return HEED_OK;
}

/* The filters of p ($1 to $9: the time, the words and the others) as one
 * string, each as its length and text or "-" for NULL, so that two
 * queries have the same string exactly when they have the same filters:
 * written to buf, of room bytes, when it fits (buf NULL: not written).
 * Returns its length. */
static size_t filters_key(const struct params *p, char *buf, size_t room)
{
	size_t n = 0;

	for (int i = 0; i < 9; i++) {
		const char *v = p->v[i];
		bool fits = buf && n < room;
		int w = v ? snprintf(fits ? buf + n : NULL, fits ? room - n : 0,
		                     "%zu:%s", strlen(v), v)
		          : snprintf(fits ? buf + n : NULL, fits ? room - n : 0,
		                     "-");
		n += (size_t)w;
	}
	return n;
}

/* The filters of p as filters_key gives them, allocated; NULL out of
 * memory. */
static char *filters_key_dup(heed_store *store, const struct params *p,
                             size_t *len)
{
	char *key;

	*len = filters_key(p, NULL, 0);
	key = heed__malloc(store->alloc, *len + 1);
	if (key)
		filters_key(p, key, *len + 1);
	return key;
}

static void forget_count(heed_store *store)
{
	heed__free(store->alloc, store->pg->counted);
	store->pg->counted = NULL;
}

static void forget_ranked(heed_store *store)
{
	heed__free(store->alloc, store->pg->ranked);
	store->pg->ranked = NULL;
}

void heed__pg_search_forget(heed_store *store)
{
	forget_count(store);
	forget_ranked(store);
}

/* Keeps count, the candidates of the relevance search of p read in
 * snapshot, for the count that follows it (COUNT_KEPT_OF). Out of
 * memory, nothing is kept: the count reads the matches. */
static void keep_count(heed_store *store, const struct params *p, int64_t count,
                       const char *snapshot)
{
	size_t klen, slen = strlen(snapshot);
	char *key = filters_key_dup(store, p, &klen);
	struct heed__pg_counted *c;

	forget_count(store);
	c = key ? heed__malloc(store->alloc, sizeof(*c) + klen + slen + 2)
	        : NULL;
	if (c) {
		c->count = count;
		memcpy(c->key, key, klen + 1);
		c->snapshot = memcpy(c->key + klen + 1, snapshot, slen + 1);
		store->pg->counted = c;
	}
	heed__free(store->alloc, key);
}

/* The count kept for the filters of p, or NULL. */
static const struct heed__pg_counted *kept_count(heed_store *store,
                                                 const struct params *p)
{
	const struct heed__pg_counted *c = store->pg->counted;
	size_t klen;
	char *key;
	bool same;

	if (!c || !(key = filters_key_dup(store, p, &klen)))
		return NULL;
	same = strcmp(key, c->key) == 0;
	heed__free(store->alloc, key);
	return same ? c : NULL;
}

/* The rows PostgreSQL estimates for sql, an EXPLAIN taking the first n
 * of p's parameters, from the first line of its plan ("... (cost=a..b
 * rows=N width=w)"); -1 when it cannot say. */
static double explain_rows(heed_store *store, const char *sql, int n,
                           const struct params *p)
{
	PGresult *r = heed__pg_query(store, sql, n, p->v);
	const char *line =
	        r && PQntuples(r) > 0 ? heed__pg_text(r, 0, 0) : NULL;
	const char *rows = line ? strstr(line, " rows=") : NULL;
	double v = rows ? strtod(rows + 6, NULL) : -1;

	PQclear(r);
	return v;
}

/*
 * Where the relevance candidates come from. PostgreSQL takes the newest
 * matches either by walking the key back from the newest page, testing
 * each page it passes and stopping at the $13th match, or from the GIN
 * index, reading every matching page and sorting the ids. It walks for
 * words of 1 to 2 % of the pages at 1,000,000 (360,000 rows read for
 * "mulo", 14,182 pages; 150 to 200 ms where the index takes 30 to 90) and
 * for every phrase, which it estimates as its words anywhere in a page
 * ("kapa rila": 132,509 pages estimated, 3,804 found), so that it reads
 * the whole table for a phrase of fewer than 5,000 pages (0.4 to 1 s).
 * The pages read decide (docs/performance.md): for W matches of R rows,
 * a walk reads $13 x R / W rows, on that many over the rows a page holds,
 * and the index about one page per match while they are sparse. So the
 * index is chosen when W x W x (rows a page) < $13 x R, W the words'
 * estimate (about 18,000 at 1,000,000 pages); and for a phrase when its
 * words are together in fewer than a quarter of the pages, since the
 * walk only stops early when the phrase is about as common as its words.
 * Otherwise PostgreSQL chooses. "+ 0" keeps the planner from reading the
 * key in order.
 */
#define BY_KEY(tag) \
	MATCHES_SCORED(tag) " ORDER BY d.page_id DESC LIMIT $13::bigint"
/* Read from the index, every match is read before the newest are taken:
 * counting them all there costs nothing more, and the count that follows
 * is then that number (keep_candidates) for words of more matches than
 * are scored, which otherwise read up to 10,000 rows again (a results
 * page 2 of a word in 1 % of the pages; docs/performance.md). */
#define COUNT_CANDIDATES "count(*) OVER ()"
#define BY_INDEX_OF(matches)                                              \
	"SELECT m.nid, m.score, count(*) OVER () AS total FROM (" matches \
	" OFFSET 0) m ORDER BY m.nid + 0 DESC LIMIT $13::bigint"
#define BY_INDEX(tag)    BY_INDEX_OF(MATCHES_SCORED(tag))
#define PHRASE_WALK_FROM 4 /* its words in a quarter of the pages */
#define WORDS_ROWS                                                 \
	"EXPLAIN SELECT 1 FROM search_docs d WHERE " SHOWN " AND " \
	"d.tsv @@ " TSQUERY ";"
#define TABLE_SIZE                                              \
	"SELECT reltuples, relpages FROM pg_class WHERE oid = " \
	"'search_docs'::regclass;"

/* Whether the tsquery text t holds a phrase: a quoted operand of words
 * separated by spaces (pg_tsquery.c). */
static bool has_phrase(const char *t)
{
	bool quoted = false;

	for (; t && *t; t++) {
		if (*t == '\'')
			quoted = !quoted;
		else if (*t == ' ' && quoted)
			return true;
	}
	return false;
}

/* PostgreSQL's estimate of the matches of p's words that may be shown;
 * -1 when it cannot say, or p has no words. */
static double words_estimate(heed_store *store, const struct params *p)
{
	return p->tsquery ? explain_rows(store, WORDS_ROWS, 2, p) : -1;
}

/* Whether the relevance candidates of p, scored of them, are better read
 * from the GIN index than by walking the key (above); words: the
 * estimate of its matches (words_estimate). */
static bool candidates_by_index(heed_store *store, const struct params *p,
                                double words, double scored)
{
	double rows = 0, pages = 0;
	PGresult *r;

	if (words < 0)
		return false;
	r = heed__pg_query(store, TABLE_SIZE, 0, NULL);
	if (r && PQntuples(r) > 0 && heed__pg_text(r, 0, 0)) {
		rows = strtod(heed__pg_text(r, 0, 0), NULL);
		pages = (double)heed__pg_int(r, 0, 1, 0);
	}
	PQclear(r);
	if (rows <= 0 || pages <= 0)
		return false;
	if (has_phrase(p->tsquery))
		return words * PHRASE_WALK_FROM < rows;
	return words * words * (rows / pages) < scored * rows;
}

/* Whether the tsquery text t is one quoted word, or one prefix, without
 * a column's weight (which the estimate does not see). */
static bool one_term(const char *t)
{
	size_t n = t ? strlen(t) : 0;

	if (n < 3 || t[0] != '\'' || strchr(t, ' '))
		return false;
	if (t[n - 1] == '\'')
		return strchr(t + 1, '\'') == t + n - 1;
	return n > 4 && strcmp(t + n - 3, "':*") == 0 &&
	       strchr(t + 1, '\'') == t + n - 3;
}

/* Whether p asks for one term (one_term) and filters by nothing but the
 * time ($3 to $9 NULL): what the statistics' estimates are of. */
static bool one_term_alone(const struct params *p)
{
	if (!one_term(p->tsquery))
		return false;
	for (int i = 2; i < 9; i++)
		if (p->v[i])
			return false;
	return true;
}

/*
 * The newest matches read through their ids' ranges (version 16). From
 * the GIN index, a word's or prefix's candidates are every match, sorted
 * by id to keep the newest: a prefix of 20,000 to 35,000 pages at
 * 1,000,000 read and scored that many rows (80 to 180 ms), and walking
 * the key back read 140,000 to 330,000 (70 to 110 ms). For one term with
 * no other filter, which the statistics put in BOUNDED_FROM times the
 * pages scored or more, the search can also ask for the ranges of the
 * newest ids that would hold BOUNDED_MARGIN times the pages scored if the
 * matches were spread evenly over the ids: the GIN index then gives only
 * the matches there, 6,000 to 8,000 rows, each read and scored at about
 * BOUND_ROW_COST times a row the walk tests, after every match's entry
 * in the index at about BOUND_ENTRY_COST times such a row. It does when
 * that costs less than the walk: for words in about 15,000 to 37,000
 * pages at 1,000,000, 35 to 45 ms where the walk took 70 to 110; a more
 * common word walks to its newest matches sooner (docs/performance.md).
 * When fewer than it scores are in the ranges (most of the word's pages
 * are old ones), the search runs again without them; otherwise the
 * newest matches are those every match gives. The ranges reach 2^26 ids
 * past the newest id read just before, so that the pages indexed between
 * the two statements are not left out. Such a search has not counted
 * every match (keep_candidates): the count that follows it rests on the
 * statistics (estimate_reaches) for caps up to BOUNDED_FROM x scored /
 * ESTIMATE_MARGIN, 10,000 for 5,000 scored.
 */
#define BOUNDED_FROM     3
#define BOUNDED_MARGIN   1.5
#define BOUND_ROW_COST   15
#define BOUND_ENTRY_COST 0.4
#define BOUND_WORDS_MAX  64 /* of the widest ranges: ids below 2^32 */
#define ID_SPAN          "SELECT min(page_id), max(page_id) FROM search_docs;"
#define BOUNDED                                                           \
	RELEVANCE_OF(BY_INDEX_OF(MATCHES_SCORED(TAG_ANY) " AND d.tsv @@ " \
	                                                 "$15::tsquery"), \
	             "n.total")

/* The words of the ranges (FN_BOUNDS) that hold every id from from to
 * 2^26 past top, as a tsquery of them, allocated: the narrower ranges up
 * to the edge of the next wider one, then the widest. NULL out of memory,
 * or when more than BOUND_WORDS_MAX of the widest would be needed. */
static char *bound_query(heed_store *store, int64_t from, int64_t top)
{
	static const int shifts[] = {14, 18, 22, 26}; /* FN_BOUNDS's */
	const int levels = (int)HEED_ARRAY_SIZE(shifts);
	const int widest = shifts[levels - 1];
	int64_t b = from >> shifts[0], last = (top >> widest) + 1;
	size_t room = (size_t)(levels * 16 + BOUND_WORDS_MAX + 1) * 32, len = 0;
	char *q;

	if (last - (from >> widest) > BOUND_WORDS_MAX ||
	    !(q = heed__malloc(store->alloc, room)))
		return NULL;
	for (int i = 0; i < levels; i++) {
		int step = i + 1 < levels ? shifts[i + 1] - shifts[i] : 0;
		while (step ? (b & ((INT64_C(1) << step) - 1)) != 0 : b <= last)
			len += (size_t)snprintf(
			        q + len, room - len, "%s'~%d.%lld'",
			        len ? " | " : "", shifts[i], (long long)b++);
		b >>= step;
	}
	return q;
}

/* The bound of the newest matches of p (above) as bound_query gives it,
 * or NULL when none applies or the walk costs less. words: the estimate
 * of its matches; the walk meets one in every span / words rows, span
 * the ids from the lowest to the highest (the table's rows but for
 * deleted pages). */
static char *newest_bounds(heed_store *store, const struct params *p,
                           double words, double scored)
{
	PGresult *r;
	int64_t lo = 0, hi = 0;
	double span, width, walked, bounded;
	bool known;

	if (words < BOUNDED_FROM * scored || !one_term_alone(p))
		return NULL;
	r = heed__pg_query(store, ID_SPAN, 0, NULL);
	known = r && PQntuples(r) == 1 && heed__pg_text(r, 0, 1);
	if (known) {
		lo = heed__pg_int(r, 0, 0, 0);
		hi = heed__pg_int(r, 0, 1, 0);
	}
	PQclear(r);
	span = (double)hi - (double)lo + 1;
	width = scored * BOUNDED_MARGIN * span / words + 1;
	walked = scored * span / words;
	bounded = words * BOUND_ENTRY_COST +
	          scored * BOUNDED_MARGIN * BOUND_ROW_COST;
	if (!known || width >= span || bounded >= walked)
		return NULL;
	return bound_query(store, hi + 1 - (int64_t)width, hi);
}

/* The relevance search of p read through the bound of its newest matches
 * (above), when one applies and its ranges hold as many matches as it
 * scores; NULL otherwise, or when it failed (the search without the
 * bound then runs, and reports a failure of the store). */
static PGresult *bounded_search(heed_store *store, struct params *p,
                                double words)
{
	double scored = strtod(p->v[12], NULL);
	char *bounds = newest_bounds(store, p, words, scored);
	PGresult *r = NULL;

	if (bounds) {
		p->v[14] = bounds;
		r = heed__pg_query(store, BOUNDED, 15, p->v);
		p->v[14] = NULL;
		if (r && (PQntuples(r) == 0 ||
		          (double)heed__pg_int(r, 0, 18, 0) < scored)) {
			PQclear(r);
			r = NULL;
		}
	}
	heed__free(store->alloc, bounds);
	return r;
}

static const char *relevance_sql(bool tagged, bool by_index)
{
	if (by_index)
		return tagged ? RELEVANCE_OF(BY_INDEX(TAG_GIVEN), "n.total")
		              : RELEVANCE_OF(BY_INDEX(TAG_ANY), "n.total");
	return tagged ? RELEVANCE_OF(BY_KEY(TAG_GIVEN), COUNT_CANDIDATES)
	              : RELEVANCE_OF(BY_KEY(TAG_ANY), COUNT_CANDIDATES);
}

/* The statement of the views, date and fetched orders. */
static const char *sorted_sql(heed_search_sort sort)
{
	switch (sort) {
	case HEED_SEARCH_SORT_VIEWS:
		return SORTED(KEY_VIEWS);
	case HEED_SEARCH_SORT_DATE:
		return SORTED(KEY_DATE);
	default:
		return SORTED(KEY_FETCHED);
	}
}

/* Row i of a search's result: id, the page's columns, the sort key. */
static void read_hit(const PGresult *r, int i, heed_search_sort sort,
                     struct heed_search_hit *hit)
{
	int c = 17; /* after the id and the page's 16 columns */

	memset(hit, 0, sizeof(*hit));
	hit->id = heed__pg_int(r, i, 0, 0);
	heed__pg_read_page(r, i, 1, &hit->page);
	hit->cursor.id = hit->id;
	if (PQnfields(r) <= c)
		return;
	if (sort == HEED_SEARCH_SORT_RELEVANCE) {
		const char *k = heed__pg_text(r, i, c);
		hit->score = k ? strtod(k, NULL) : 0;
		hit->cursor.score = hit->score;
	} else {
		hit->cursor.key = heed__search_key_from_sql(
		        sort, heed__pg_int(r, i, c, 0));
	}
}

/* Keeps the count of a search's matches (r, of the query of p) when it
 * has it: every match counted (by_index: BY_INDEX, VIEWS_COUNTED),
 * or relevance candidates that were every match, fewer than it scores
 * ($13). */
static void keep_candidates(heed_store *store, const struct params *p,
                            const PGresult *r, bool by_index)
{
	int64_t n = PQntuples(r) > 0 ? heed__pg_int(r, 0, 18, -1) : -1;
	const char *snapshot =
	        PQntuples(r) > 0 ? heed__pg_text(r, 0, 19) : NULL;

	if (n >= 0 && snapshot && (by_index || n < strtoll(p->v[12], NULL, 10)))
		keep_count(store, p, n, snapshot);
	else
		forget_count(store);
}

/*
 * Next pages from the search. A relevance search reads the rows of
 * KEPT_PAGES pages after its cursor, the first shown and the others as
 * their ids and scores alone, and keeps those (heed__pg's ranked) with its
 * filters, how many it scores and its snapshot. The search of a page
 * after it, with the same filters, whose cursor is one of those rows and
 * which they cover, reads only its rows' pages, by id, and takes them
 * when that read sees the same snapshot: nothing committed between, so
 * the same candidates, scores and order its own statement would give.
 * Its time may be later, on the same day (UTC; the scores count days):
 * then no page may have been hidden between the two times (a probe of
 * search_docs_timed), and every page shown at the first is at the
 * second. (A third of the bench's pages 2 at 1,000,000 pages came in
 * the second after their page 1.)
 * Otherwise, and only then, it runs its statement. A page 2 of a word of
 * 5,000 to 18,000 pages scored them all again: 100 to 180 ms at
 * 1,000,000 pages (docs/performance.md). The same store connection must
 * serve both searches: heed serve's threads take theirs from a pool.
 */
#define KEPT_PAGES 10
#define RANKED_PAGE                                                          \
	"SELECT p.id, " PAGE_COLUMNS ", x.k, NULL, "                         \
	"pg_current_snapshot()::text FROM unnest($1::bigint[], "             \
	"$2::float8[]) WITH ORDINALITY x(id, k, o) JOIN pages p ON p.id = "  \
	"x.id WHERE NOT EXISTS(SELECT 1 FROM search_docs h WHERE "           \
	"h.hidden_from > $3::bigint AND h.hidden_from <= $4::bigint) ORDER " \
	"BY x.o;"

/* The rows kept after a relevance search, in one block: its filters
 * (filters_key) and scored count, its snapshot, then n ids and scores in
 * order. */
struct heed__pg_ranked {
	char *key;
	char *snapshot;
	int64_t now_s; /* the search's time */
	bool complete; /* the rows reach the last candidate */
	int n;
	int64_t *ids;
	double *scores;
};

/* The filters of p but its time, how many it scores and its day,
 * allocated; NULL out of memory. */
static char *ranked_key(heed_store *store, const struct params *p)
{
	struct params untimed = *p;
	size_t klen, room;
	char *key, *out;

	untimed.v[0] = NULL;
	key = filters_key_dup(store, &untimed, &klen);
	room = klen + strlen(p->v[12]) + HEED_PG_INT_SIZE + 3;
	out = key ? heed__malloc(store->alloc, room) : NULL;
	if (out)
		snprintf(out, room, "%s|%s|%lld", key, p->v[12],
		         strtoll(p->v[0], NULL, 10) / 86400);
	heed__free(store->alloc, key);
	return out;
}

/* Keeps the rows of r, the relevance search of p, when it holds more
 * than limit (the rows shown and the one that says there are more): a
 * page after. Out of memory, nothing is kept. */
static void keep_ranked(heed_store *store, const struct params *p,
                        const PGresult *r, int limit)
{
	int rows = PQntuples(r);
	const char *snapshot = rows > 0 ? heed__pg_text(r, 0, 19) : NULL;
	char *key = ranked_key(store, p);
	size_t klen = key ? strlen(key) : 0, slen;
	struct heed__pg_ranked *k = NULL;
	char *at;

	forget_ranked(store);
	if (key && snapshot && rows > limit) {
		slen = strlen(snapshot);
		k = heed__malloc(store->alloc,
		                 sizeof(*k) +
		                         (size_t)rows * (sizeof(int64_t) +
		                                         sizeof(double)) +
		                         klen + slen + 2);
	}
	if (k) {
		k->ids = (int64_t *)(k + 1);
		k->scores = (double *)(k->ids + rows);
		at = (char *)(k->scores + rows);
		k->key = memcpy(at, key, klen + 1);
		k->snapshot = memcpy(at + klen + 1, snapshot, slen + 1);
		k->n = rows;
		k->now_s = strtoll(p->v[0], NULL, 10);
		k->complete = rows < strtoll(p->v[13], NULL, 10);
		for (int i = 0; i < rows; i++) {
			const char *v = heed__pg_text(r, i, 17);
			k->ids[i] = heed__pg_int(r, i, 0, 0);
			k->scores[i] = v ? strtod(v, NULL) : 0;
		}
		store->pg->ranked = k;
	}
	heed__free(store->alloc, key);
}

/* Where the page after q's cursor starts in the kept rows, when they
 * are of the search of p and hold its want rows (or every row left);
 * -1 otherwise. */
static int ranked_start(heed_store *store, const struct params *p,
                        const struct heed_search_query *q, int want)
{
	const struct heed__pg_ranked *k = store->pg->ranked;
	char *key;
	bool same;
	int i = 0;

	if (!k || q->after.id <= 0 || q->now_s < k->now_s ||
	    !(key = ranked_key(store, p)))
		return -1;
	same = strcmp(key, k->key) == 0;
	heed__free(store->alloc, key);
	while (same && i < k->n &&
	       (k->ids[i] != q->after.id || k->scores[i] != q->after.score))
		i++;
	if (!same || i == k->n || (k->n - i - 1 < want && !k->complete) ||
	    i + 1 == k->n)
		return -1;
	return i + 1;
}

/* The n ids or scores of the kept rows from from, as a PostgreSQL array
 * literal; NULL out of memory. */
static char *ranked_array(heed_store *store, int from, int n, bool scores)
{
	const struct heed__pg_ranked *k = store->pg->ranked;
	size_t room = (size_t)n * 26 + 3, len = 1;
	char *a = heed__malloc(store->alloc, room);

	if (!a)
		return NULL;
	a[0] = '{';
	for (int i = from; i < from + n; i++)
		len += (size_t)(scores ? snprintf(a + len, room - len,
		                                  "%s%.17g",
		                                  i > from ? "," : "",
		                                  k->scores[i])
		                       : snprintf(a + len, room - len, "%s%lld",
		                                  i > from ? "," : "",
		                                  (long long)k->ids[i]));
	snprintf(a + len, room - len, "}");
	return a;
}

/* The page after q's cursor from the kept rows (ranked_start), its want
 * rows or those left: NULL when they are not kept, or the read of their
 * pages saw another snapshot than theirs. */
static PGresult *ranked_page(heed_store *store, const struct params *p,
                             const struct heed_search_query *q, int want)
{
	int from = ranked_start(store, p, q, want), n;
	const char *v[4];
	char *ids, *scores, then[HEED_PG_INT_SIZE];
	PGresult *r = NULL;

	if (from < 0)
		return NULL;
	n = store->pg->ranked->n - from < want ? store->pg->ranked->n - from
	                                       : want;
	ids = ranked_array(store, from, n, false);
	scores = ranked_array(store, from, n, true);
	if (ids && scores) {
		v[0] = ids;
		v[1] = scores;
		v[2] = heed__pg_i64(then, store->pg->ranked->now_s);
		v[3] = p->v[0];
		r = heed__pg_query(store, RANKED_PAGE, 4, v);
	}
	heed__free(store->alloc, ids);
	heed__free(store->alloc, scores);
	if (r && (PQntuples(r) != n || !heed__pg_text(r, 0, 19) ||
	          strcmp(heed__pg_text(r, 0, 19),
	                 store->pg->ranked->snapshot) != 0)) {
		PQclear(r);
		r = NULL;
	}
	return r;
}

static heed_status pg_search(heed_store *store,
                             const struct heed_search_query *q,
                             heed_search_fn *fn, void *ud, bool *more,
                             struct heed_diag *diag)
{
	heed_search_sort sort = heed__search_sort(q);
	char limit[HEED_PG_INT_SIZE], scored[HEED_PG_INT_SIZE];
	struct params p;
	heed_status rc = make_params(store, q, &p, diag);
	bool by_index = false, kept = false;
	PGresult *r;
	int rows;

	if (rc != HEED_OK)
		return rc;
	p.v[11] = heed__pg_i64(limit, (int64_t)q->limit + 1);
	p.v[12] = heed__pg_i64(
	        scored,
	        q->max_scored > 0 && q->max_scored < HEED_SEARCH_MAX_SCORED
	                ? q->max_scored
	                : HEED_SEARCH_MAX_SCORED);
	p.v[13] = heed__pg_i64(p.buf[10], ((int64_t)q->limit + 1) * KEPT_PAGES);
	if (sort == HEED_SEARCH_SORT_RELEVANCE &&
	    (r = ranked_page(store, &p, q, q->limit + 1))) {
		kept = true;
	} else if (sort == HEED_SEARCH_SORT_RELEVANCE) {
		double words = words_estimate(store, &p);
		if (!(r = bounded_search(store, &p, words))) {
			by_index = candidates_by_index(store, &p, words,
			                               strtod(p.v[12], NULL));
			r = heed__pg_query(
			        store, relevance_sql(q->tag != NULL, by_index),
			        14, p.v);
		}
		if (r)
			keep_ranked(store, &p, r, q->limit + 1);
	} else if (sort == HEED_SEARCH_SORT_VIEWS && !q->tag &&
	           candidates_by_index(store, &p, words_estimate(store, &p),
	                               strtod(p.v[12], NULL))) {
		by_index = true;
		r = heed__pg_query(store, VIEWS_COUNTED, 12, p.v);
	} else {
		r = heed__pg_query(store, sorted_sql(sort), 12, p.v);
	}
	if (r && !kept && (sort == HEED_SEARCH_SORT_RELEVANCE || by_index))
		keep_candidates(store, &p, r, by_index);
	heed__free(store->alloc, p.tsquery);
	if (!r)
		return heed__store_fail(store, diag, "searching");
	rows = PQntuples(r);
	for (int i = 0; i < rows; i++) {
		struct heed_search_hit hit;
		if (i == q->limit) {
			if (more)
				*more = true;
			break;
		}
		read_hit(r, i, sort, &hit);
		if (fn(ud, &hit))
			break;
	}
	PQclear(r);
	return HEED_OK;
}

/*
 * Estimated counts. A count up to its cap reads that many matches (10,000
 * pages' rows for the API's "about N results": 25 to 55 ms at 1,000,000
 * pages, as long as the search itself; docs/performance.md). For one word
 * or one prefix and no other filter, PostgreSQL's statistics of the
 * lexemes (the frequencies ANALYZE keeps of the most common ones) say how
 * many pages match: within a few per cent for a word, and for a prefix
 * (the frequencies of the kept lexemes it begins, combined) within 7 %
 * of the count at 1,000,000 pages since version 13 keeps 4,000 lexemes
 * (up to half below it with 1,000). The count is its cap when that
 * estimate of the shown matches is at least ESTIMATE_MARGIN times the
 * cap, and read otherwise. So a count is exact below its cap, and "at
 * least the cap" rests on the statistics for words that common: wrong
 * only if a third of a word's pages stopped being shown since the table
 * was last analyzed (autovacuum analyzes it after a tenth of its rows
 * changed). numnode leaves out a word the configuration splits into
 * several lexemes: the estimate of such a phrase is of its words apart.
 */
#define ESTIMATE_MARGIN 1.5
#define ESTIMATE                                                   \
	"EXPLAIN SELECT 1 FROM search_docs d WHERE " SHOWN " AND " \
	"numnode(" TSQUERY ") = 1 AND d.tsv @@ " TSQUERY ";"

/* Whether the count of p is cap by the statistics' estimate: one term
 * and no filter but the time (one_term_alone). */
static bool estimate_reaches(heed_store *store, const struct params *p,
                             int64_t cap)
{
	/* The comparison is in doubles: no cap overflows it. */
	if (cap <= 0 || !one_term_alone(p))
		return false;
	return explain_rows(store, ESTIMATE, 2, p) >=
	       (double)cap * ESTIMATE_MARGIN;
}

static heed_status pg_count(heed_store *store,
                            const struct heed_search_query *q, int64_t cap,
                            int64_t *count, struct heed_diag *diag)
{
	const struct heed__pg_counted *kept;
	char n[HEED_PG_INT_SIZE];
	struct params p;
	heed_status rc = make_params(store, q, &p, diag);
	PGresult *r;

	if (rc != HEED_OK)
		return rc;
	p.v[9] = heed__pg_i64(p.buf[9], cap < 0 ? 0 : cap);
	kept = kept_count(store, &p);
	if (!kept && estimate_reaches(store, &p, cap)) {
		heed__free(store->alloc, p.tsquery);
		*count = cap;
		return HEED_OK;
	}
	if (kept) {
		p.v[10] = kept->snapshot;
		p.v[11] = heed__pg_i64(n, kept->count);
		r = heed__pg_query(store,
		                   q->tag ? COUNT_KEPT_OF(TAG_GIVEN)
		                          : COUNT_KEPT_OF(TAG_ANY),
		                   12, p.v);
	} else {
		r = heed__pg_query(
		        store, q->tag ? COUNT_OF(TAG_GIVEN) : COUNT_OF(TAG_ANY),
		        10, p.v);
	}
	heed__free(store->alloc, p.tsquery);
	if (!r)
		return heed__store_fail(store, diag, "searching");
	*count = heed__pg_int(r, 0, 0, 0);
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_page(heed_store *store, int64_t id, int64_t now_s,
                           heed_search_fn *fn, void *ud)
{
	char now[HEED_PG_INT_SIZE], ids[HEED_PG_INT_SIZE];
	const char *params[] = {heed__pg_i64(now, now_s),
	                        heed__pg_i64(ids, id)};
	PGresult *r = heed__pg_query(
	        store,
	        "SELECT p.id, " PAGE_COLUMNS " FROM pages p JOIN search_docs d "
	        "ON d.page_id = p.id WHERE p.id = $2::bigint AND " SHOWN ";",
	        2, params);
	struct heed_search_hit hit;
	bool found;

	if (!r)
		return HEED_ESTORE;
	found = PQntuples(r) > 0;
	if (found) {
		read_hit(r, 0, HEED_SEARCH_SORT_FETCHED, &hit);
		fn(ud, &hit);
	}
	PQclear(r);
	return found ? HEED_OK : HEED_ENOTFOUND;
}

static heed_status pg_tags(heed_store *store, const char *host, int limit,
                           int64_t now_s, heed_search_tag_fn *fn, void *ud)
{
	char now[HEED_PG_INT_SIZE], lim[HEED_PG_INT_SIZE];
	const char *params[] = {heed__pg_i64(now, now_s), host,
	                        heed__pg_i64(lim, limit)};
	PGresult *r = heed__pg_query(
	        store,
	        "SELECT t.tag, count(*) AS n FROM page_tags t JOIN search_docs "
	        "d ON d.page_id = t.page_id WHERE " SHOWN
	        " AND ($2::text IS NULL OR d.host = $2::text) GROUP BY t.tag "
	        "ORDER BY n DESC, t.tag LIMIT $3::bigint;",
	        3, params);

	if (!r)
		return HEED_ESTORE;
	for (int i = 0; i < PQntuples(r); i++) {
		struct heed_search_tag t = {heed__pg_text(r, i, 0),
		                            heed__pg_int(r, i, 1, 0)};
		if (fn(ud, &t))
			break;
	}
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_sites(heed_store *store, const char *after_host,
                            int limit, int64_t now_s, heed_search_site_fn *fn,
                            void *ud)
{
	char now[HEED_PG_INT_SIZE], lim[HEED_PG_INT_SIZE];
	const char *params[] = {heed__pg_i64(now, now_s), after_host,
	                        heed__pg_i64(lim, limit)};
	/* The site name and last fetch from each host's newest shown page,
	 * read backwards along pages_host_fetched. */
	PGresult *r = heed__pg_query(
	        store,
	        "SELECT k.host, l.site_name, k.n, l.fetched_at FROM (SELECT "
	        "d.host, count(*) AS n FROM search_docs d WHERE " SHOWN
	        " AND d.host > coalesce($2::text, '') GROUP BY d.host ORDER BY "
	        "d.host LIMIT $3::bigint) k CROSS JOIN LATERAL (SELECT "
	        "heed_json(p.record) #>> '{site_name,value}' AS site_name, "
	        "p.fetched_at FROM pages p JOIN search_docs d ON d.page_id = "
	        "p.id WHERE p.host = k.host AND " SHOWN
	        " ORDER BY p.fetched_at DESC, p.id DESC LIMIT 1) l ORDER BY "
	        "k.host;",
	        3, params);

	if (!r)
		return HEED_ESTORE;
	for (int i = 0; i < PQntuples(r); i++) {
		struct heed_search_site s = {
		        heed__pg_text(r, i, 0),
		        heed__pg_text(r, i, 1),
		        heed__pg_int(r, i, 2, 0),
		        heed__pg_int(r, i, 3, 0),
		};
		if (fn(ud, &s))
			break;
	}
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_totals(heed_store *store, int64_t now_s,
                             struct heed_search_totals *t)
{
	char now[HEED_PG_INT_SIZE];
	const char *params[] = {heed__pg_i64(now, now_s)};
	PGresult *r = heed__pg_query(
	        store,
	        "SELECT count(*), count(DISTINCT d.host), (SELECT "
	        "count(DISTINCT t.tag) FROM page_tags t JOIN search_docs d ON "
	        "d.page_id = t.page_id WHERE " SHOWN
	        ") FROM search_docs d WHERE " SHOWN ";",
	        1, params);

	if (!r)
		return HEED_ESTORE;
	t->pages = heed__pg_int(r, 0, 0, 0);
	t->sites = heed__pg_int(r, 0, 1, 0);
	t->tags = heed__pg_int(r, 0, 2, 0);
	PQclear(r);
	return HEED_OK;
}

/* Calls fn with each row of r (bucket, pages) as a chart's bucket. */
static void each_bucket(const PGresult *r, bool per_day,
                        heed_search_bucket_fn *fn, void *ud)
{
	for (int i = 0; i < PQntuples(r); i++) {
		struct heed_search_bucket b =
		        heed__search_bucket(per_day, heed__pg_int(r, i, 0, 0),
		                            heed__pg_int(r, i, 1, 0));
		if (fn(ud, &b))
			break;
	}
}

static heed_status pg_per_day(heed_store *store, const char *host, int days,
                              int64_t now_s, heed_search_bucket_fn *fn,
                              void *ud)
{
	int64_t today = now_s - (now_s % 86400 + 86400) % 86400;
	char now[HEED_PG_INT_SIZE], from[HEED_PG_INT_SIZE],
	        to[HEED_PG_INT_SIZE];
	const char *params[] = {
	        heed__pg_i64(now, now_s), host,
	        heed__pg_i64(from, today - (int64_t)(days - 1) * 86400),
	        heed__pg_i64(to, today)};
	PGresult *r = heed__pg_query(
	        store,
	        "SELECT day, (SELECT count(*) FROM pages p JOIN search_docs d "
	        "ON d.page_id = p.id WHERE p.fetched_at >= day AND "
	        "p.fetched_at < day + 86400 AND ($2::text IS NULL OR p.host = "
	        "$2::text) AND " SHOWN ") FROM generate_series($3::bigint, "
	        "$4::bigint, 86400) day ORDER BY day;",
	        4, params);

	if (!r)
		return HEED_ESTORE;
	each_bucket(r, true, fn, ud);
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_views(heed_store *store, const char *host, int64_t now_s,
                            heed_search_bucket_fn *fn, void *ud)
{
	char now[HEED_PG_INT_SIZE];
	const char *params[] = {heed__pg_i64(now, now_s), host};
	/* Bucket = number of digits (0 for a count of 0), the empty ones
	 * below the largest included. */
	PGresult *r = heed__pg_query(
	        store,
	        "WITH c(b, n) AS (SELECT CASE WHEN p.views <= 0 THEN 0 ELSE "
	        "length(p.views::text) END, count(*) FROM pages p JOIN "
	        "search_docs d ON d.page_id = p.id WHERE p.views IS NOT NULL "
	        "AND ($2::text IS NULL OR p.host = $2::text) AND " SHOWN
	        " GROUP BY 1) SELECT r.b, coalesce(c.n, 0) FROM "
	        "generate_series(0, (SELECT max(b) FROM c)) r(b) LEFT JOIN c "
	        "ON c.b = r.b ORDER BY r.b;",
	        2, params);

	if (!r)
		return HEED_ESTORE;
	each_bucket(r, false, fn, ud);
	PQclear(r);
	return HEED_OK;
}

/* The rebuild's statements; the front runs them in one transaction. */
static heed_status pg_reindex(heed_store *store)
{
	return store->backend->exec(store, INDEX_ALL_V5);
}

/*
 * One set of marked pages, taken with SKIP LOCKED: workers catching up at
 * once take disjoint sets, and a worker marking a page another is
 * catching up with waits for that one to commit, then marks it again.
 * Uncommitted marks are not seen, so a page is caught up with only once
 * its write has committed.
 */
static heed_status pg_catch_up(heed_store *store, int64_t limit,
                               int64_t *indexed)
{
	char n[24];
	const char *params[] = {n};
	PGresult *r;

	*indexed = 0;
	snprintf(n, sizeof(n), "%lld", (long long)limit);
	r = heed__pg_query(
	        store,
	        "WITH b AS (DELETE FROM search_pending WHERE page_id IN "
	        "(SELECT page_id FROM search_pending ORDER BY page_id LIMIT "
	        "$1 FOR UPDATE SKIP LOCKED) RETURNING page_id) SELECT "
	        "count(*), heed_search_index_set(array_agg(page_id)) FROM b;",
	        1, params);
	if (!r)
		return HEED_ESTORE;
	*indexed = heed__pg_int(r, 0, 0, 0);
	PQclear(r);
	return HEED_OK;
}

static heed_status pg_behind(heed_store *store, int64_t *pages)
{
	PGresult *r = heed__pg_query(
	        store, "SELECT count(*) FROM search_pending;", 0, NULL);

	if (!r)
		return HEED_ESTORE;
	*pages = heed__pg_int(r, 0, 0, 0);
	PQclear(r);
	return HEED_OK;
}

const struct heed__search_ops heed__pg_search_ops = {
        .search = pg_search,
        .count = pg_count,
        .page = pg_page,
        .tags = pg_tags,
        .sites = pg_sites,
        .totals = pg_totals,
        .per_day = pg_per_day,
        .views = pg_views,
        .reindex = pg_reindex,
        .catch_up = pg_catch_up,
        .behind = pg_behind,
};

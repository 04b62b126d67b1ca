/*
 * Rows a batch holds back on PostgreSQL (struct heed__sql_held in
 * src/store/sql-int.h): a page, a visit or a frontier state is kept here
 * instead of being sent, and the rows of one kind go to the server
 * together as one statement whose parameters are arrays, one a column
 * (`... FROM unnest($1::text[], $2::int8[], ...)`), planned once like
 * every batch statement (pg.c, "Statements planned once").
 *
 * pg.c sends them before the batch commits and before any statement that
 * may see them, and forgets them with the batch (a ROLLBACK, a batch given
 * up). Once sent, a held kind's statement is one of the batch's writes
 * like any other: pipelined, kept in the batch's log and done again with
 * it when the server loses the batch (pg.c, "Batches done again"), so a
 * batch done again sends the same rows the same way. A row held and not
 * yet sent when the server loses the batch is simply sent later, into the
 * transaction that does the batch again.
 *
 * Workload: a batch holds the answers of up to 900 ms, a few hundred to a
 * few thousand rows a kind; HELD_MAX bounds the memory and the scan that
 * finds a row of the same name.
 */
#include <stdio.h>
#include <string.h>

#include "store/pg-int.h"
#include "store/sql-int.h"

/* Rows of one kind held at most: the next one sends them first. */
#define HELD_MAX 1024
/* Statements held: the crawl's batches hold three. */
#define HELD_SETS 8

/* One held row: its values' pointers, then their bytes, in one block. */
struct held_row {
	uint64_t name; /* row_name() */
	const char **values;
};

struct held_set {
	const struct heed__sql_held *what;
	struct held_row *rows; /* HELD_MAX of them */
	int count;
};

struct heed__pg_held {
	struct held_set sets[HELD_SETS];
	int count;
};

static void forget_rows(heed_store *store, struct held_set *set)
{
	for (int i = 0; i < set->count; i++)
		heed__free(store->alloc, set->rows[i].values);
	set->count = 0;
}

void heed__pg_held_drop(heed_store *store)
{
	struct heed__pg_held *h = store->pg->held;

	if (!h)
		return;
	for (int i = 0; i < h->count; i++)
		forget_rows(store, &h->sets[i]);
}

/* Frees the held rows and their sets (pg_close). */
void heed__pg_held_free(heed_store *store)
{
	struct heed__pg_held *h = store->pg->held;

	if (!h)
		return;
	heed__pg_held_drop(store);
	for (int i = 0; i < h->count; i++)
		heed__free(store->alloc, h->sets[i].rows);
	heed__free(store->alloc, h);
	store->pg->held = NULL;
}

/* The set of held, made the first time; NULL when out of memory or when
 * more statements than HELD_SETS are held (they are then sent at once). */
static struct held_set *set_of(heed_store *store,
                               const struct heed__sql_held *held)
{
	struct heed__pg_held *h = store->pg->held;
	struct held_set *set;

	if (!h &&
	    !(h = store->pg->held = heed__calloc(store->alloc, 1, sizeof(*h))))
		return NULL;
	for (int i = 0; i < h->count; i++)
		if (h->sets[i].what == held)
			return &h->sets[i];
	if (h->count == HELD_SETS)
		return NULL;
	set = &h->sets[h->count];
	set->rows = heed__calloc(store->alloc, HELD_MAX, sizeof(*set->rows));
	if (!set->rows)
		return NULL;
	set->what = held;
	set->count = 0;
	h->count++;
	return set;
}

/* A copy of the n values in one block; NULL when out of memory. */
static const char **copy_values(heed_store *store, const char *const *values,
                                int n)
{
	size_t size = (size_t)n * sizeof(char *);
	const char **copy;
	char *o;

	for (int i = 0; i < n; i++)
		if (values[i])
			size += strlen(values[i]) + 1;
	if (!(copy = heed__malloc(store->alloc, size)))
		return NULL;
	o = (char *)(copy + n);
	for (int i = 0; i < n; i++) {
		size_t len = values[i] ? strlen(values[i]) + 1 : 0;
		copy[i] = values[i] ? memcpy(o, values[i], len) : NULL;
		o += len;
	}
	return copy;
}

/* The text of marker m's value (NULL as ""), m 0 none. */
static const char *key_text(const char *const *values, int m)
{
	return m && values[m - 1] ? values[m - 1] : "";
}

/* The hash of the row's name; with one marker, the hash of its text
 * (row_named finds a row by it). */
static uint64_t row_name(const struct heed__sql_held *held,
                         const char *const *values)
{
	uint64_t name = heed__hash_str(key_text(values, held->key));

	if (held->key_also)
		name ^= heed__hash_str(key_text(values, held->key_also));
	return name;
}

/* Whether values name the held row r of held's kind; name is
 * row_name(held, values). */
static bool named_by(const struct heed__sql_held *held,
                     const struct held_row *r, uint64_t name,
                     const char *const *values)
{
	const char *const *had = r->values;

	return r->name == name &&
	       strcmp(key_text(had, held->key), key_text(values, held->key)) ==
	               0 &&
	       strcmp(key_text(had, held->key_also),
	              key_text(values, held->key_also)) == 0;
}

heed_status heed__pg_hold(heed_store *store, const struct heed__sql_held *held,
                          const char *const *values)
{
	uint64_t name = row_name(held, values);
	struct held_set *set = set_of(store, held);
	const char **copy;
	heed_status rc;
	int i;

	if (!set)
		return HEED_ENOMEM;
	if (set->count == HELD_MAX) {
		rc = heed__pg_held_send(store, held->kind);
		if (rc != HEED_OK)
			return rc;
	}
	if (!(copy = copy_values(store, values, held->params)))
		return HEED_ENOMEM;
	for (i = 0; i < set->count; i++)
		if (named_by(held, &set->rows[i], name, values))
			break;
	if (i < set->count && held->answer) {
		/* Inserted if new: the first row of the name stays. */
		heed__free(store->alloc, copy);
		return HEED_OK;
	}
	if (i < set->count)
		heed__free(store->alloc, set->rows[i].values);
	else
		set->count++;
	set->rows[i].name = name;
	set->rows[i].values = copy;
	return HEED_OK;
}

/* Room for value v as an element of an array's text: quoted, each '"'
 * and '\\' escaped by a '\\'; NULL unquoted. */
static size_t element_size(const char *v)
{
	return v ? 2 * strlen(v) + 2 : 4;
}

static char *put_element(char *o, const char *v)
{
	if (!v) {
		memcpy(o, "NULL", 4);
		return o + 4;
	}
	*o++ = '"';
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			*o++ = '\\';
		*o++ = *v;
	}
	*o++ = '"';
	return o;
}

/* The rows' column col as the text of an array, "{...}", at o: returns
 * the byte after its NUL. */
static char *put_column(char *o, const struct held_row *rows, int count,
                        int col)
{
	*o++ = '{';
	for (int i = 0; i < count; i++) {
		if (i)
			*o++ = ',';
		o = put_element(o, rows[i].values[col]);
	}
	*o++ = '}';
	*o++ = '\0';
	return o;
}

/* The held row whose key is key, looked for from row *from on (the
 * server answers rows in the order they were sent, so the walk is one
 * pass), then from the start; -1 if none. */
static int row_named(const struct held_set *set, const char *key, int *from)
{
	int col = set->what->key - 1;
	uint64_t name = heed__hash_str(key);

	for (int n = 0; n < set->count; n++) {
		int i = (*from + n) % set->count;
		const char *k = set->rows[i].values[col];
		if (set->rows[i].name == name && strcmp(k ? k : "", key) == 0) {
			*from = i + 1;
			return i;
		}
	}
	return -1;
}

/* The ids r gave set's rows (its second column, found by the key in its
 * third) as the text of an array in the rows' order, NULL for a row it
 * did not write; NULL when out of memory. Free with heed__free. */
static char *ids_given(heed_store *store, const struct held_set *set,
                       const PGresult *r)
{
	const char **ids = heed__calloc(store->alloc, (size_t)set->count + 1,
	                                sizeof(*ids));
	size_t size = 3;
	char *text = NULL, *o;
	int from = 0;

	if (!ids)
		return NULL;
	for (int i = 0; i < PQntuples(r); i++) {
		int row = row_named(set, PQgetvalue(r, i, 2), &from);
		if (row >= 0)
			ids[row] = PQgetvalue(r, i, 1);
	}
	for (int i = 0; i < set->count; i++)
		size += element_size(ids[i]) + 1;
	if ((text = o = heed__malloc(store->alloc, size)) != NULL) {
		*o++ = '{';
		for (int i = 0; i < set->count; i++) {
			if (i)
				*o++ = ',';
			o = put_element(o, ids[i]);
		}
		*o++ = '}';
		*o = '\0';
	}
	heed__free(store->alloc, ids);
	return text;
}

/* Sends st, set's rows of a kind that answers, waiting for its answer:
 * each row it returns is told to the store (heed__store_answer), and the
 * ids it gave are kept for a batch done again. */
static heed_status send_answering(heed_store *store, const struct held_set *set,
                                  const struct heed__pg_stmt *st)
{
	PGresult *r = heed__pg_query_st(store, st);
	heed_status rc = r ? HEED_OK : heed__pg_failed(store);
	char *ids;

	for (int i = 0; r && rc == HEED_OK && i < PQntuples(r); i++)
		rc = heed__store_answer(store, PQgetvalue(r, i, 0));
	if (r && rc == HEED_OK && set->what->ids) {
		ids = ids_given(store, set, r);
		if (ids)
			heed__pg_redo_bind_last(store, set->what->params, ids);
		else
			rc = HEED_ENOMEM;
		heed__free(store->alloc, ids);
	}
	PQclear(r);
	return rc;
}

/* Sends set's rows as one statement and forgets them. */
static heed_status send_set(heed_store *store, struct held_set *set)
{
	const struct heed__sql_held *what = set->what;
	const char *params[HEED__SQL_PARAMS];
	size_t size = 0;
	heed_status rc = HEED_ENOMEM;
	char *text, *o;

	for (int col = 0; col < what->params; col++) {
		size += 3 + (size_t)set->count; /* braces, commas, NUL */
		for (int i = 0; i < set->count; i++)
			size += element_size(set->rows[i].values[col]);
	}
	text = o = heed__malloc(store->alloc, size);
	if (text) {
		const struct heed__pg_stmt st = {.sql = what->many,
		                                 .n = what->params + what->ids,
		                                 .params = params,
		                                 .blind = HEED__HELD_ALL};
		for (int col = 0; col < what->params; col++) {
			params[col] = o;
			o = put_column(o, set->rows, set->count, col);
		}
		if (what->ids)
			params[what->params] = "{}"; /* each drawn */
		rc = what->answer ? send_answering(store, set, &st)
		                  : heed__pg_run_st(store, &st, NULL);
	} else {
		snprintf(store->errmsg, sizeof(store->errmsg),
		         "out of memory sending a batch's rows");
	}
	heed__free(store->alloc, text);
	forget_rows(store, set);
	return rc;
}

/* Whether the value of marker m (0: none, "") is want (NULL: any). */
static bool key_is(const char *const *values, int m, const char *want)
{
	return !want || strcmp(key_text(values, m), want) == 0;
}

/* Whether a row of set has one of the n keys as its key: by the rows'
 * names where the key alone names them, as a list of a thousand URLs
 * is held against a batch's hundreds of rows. */
static bool holds_one_of(const struct held_set *set, const char *const *keys,
                         size_t n)
{
	const struct heed__sql_held *what = set->what;

	for (size_t k = 0; k < n; k++) {
		uint64_t name = heed__hash_str(keys[k]);
		for (int r = 0; r < set->count; r++)
			if ((what->key_also || set->rows[r].name == name) &&
			    key_is(set->rows[r].values, what->key, keys[k]))
				return true;
	}
	return false;
}

bool heed__pg_held_names(const heed_store *store,
                         const struct heed__sql_scope *scope)
{
	const struct heed__pg_held *h = store->pg ? store->pg->held : NULL;

	for (int i = 0; h && i < h->count; i++) {
		const struct held_set *set = &h->sets[i];
		const struct heed__sql_held *what = set->what;
		if (!(what->kind & scope->kind))
			continue;
		if (scope->keys) {
			if (holds_one_of(set, scope->keys, scope->nkeys))
				return true;
			continue;
		}
		for (int r = 0; r < set->count; r++)
			if (key_is(set->rows[r].values, what->key,
			           scope->key) &&
			    key_is(set->rows[r].values, what->key_also,
			           scope->key_also))
				return true;
	}
	return false;
}

heed_status heed__pg_held_send(heed_store *store, unsigned kinds)
{
	struct heed__pg_held *h = store->pg ? store->pg->held : NULL;
	heed_status rc = HEED_OK;

	for (int i = 0; h && i < h->count; i++) {
		struct held_set *set = &h->sets[i];
		heed_status one;
		if (!(set->what->kind & kinds) || !set->count)
			continue;
		one = send_set(store, set);
		if (rc == HEED_OK)
			rc = one;
	}
	return rc;
}

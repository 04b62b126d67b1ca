/*
 * The store front: picks a backend from the location and runs the area
 * migrations. Everything backend-specific is behind struct heed_store_backend.
 */
#include <stdio.h>
#include <string.h>

#include "store/store-int.h"

/* The core area: what every other area may rely on. Later areas append
 * their own migrations in their own files and register below. */
static const char *const core_migrations[] = {
        "CREATE TABLE heed_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
};

const struct heed_store_area heed__store_core_area = {
        "core",
        core_migrations,
        (int)HEED_ARRAY_SIZE(core_migrations),
};

const struct heed_store_area *const heed__store_areas[] = {
        &heed__store_core_area,     &heed__store_sites_area,
        &heed__store_irc_area,      &heed__store_pages_area,
        &heed__store_frontier_area, &heed__store_visits_area,
        &heed__store_search_area,   &heed__store_arrangements_area,
        &heed__store_leases_area,   NULL,
};
const int heed__store_area_count = (int)HEED_ARRAY_SIZE(heed__store_areas) - 1;

heed_status heed__store_fail(heed_store *store, struct heed_diag *diag,
                             const char *what)
{
	const char *why = store->backend->errmsg(store);

	snprintf(store->errmsg, sizeof(store->errmsg), "%s: %s", what, why);
	return heed_diag_set(diag, HEED_ESTORE, 0, 0, "%s", store->errmsg);
}

heed_status heed__store_not_ported(heed_store *store, const char *area)
{
	if (area)
		snprintf(store->errmsg, sizeof(store->errmsg),
		         "the %s store does not have the %s area yet",
		         store->backend->title, area);
	else
		snprintf(store->errmsg, sizeof(store->errmsg),
		         "the %s store does not have this area yet",
		         store->backend->title);
	/* heed__store_fail asks the backend: the same words there. */
	memcpy(store->backend_err, store->errmsg, sizeof(store->backend_err));
	return HEED_ENOTSUP;
}

void heed__store_list_foreign(char *buf, size_t size, int *listed, int *count,
                              const char *name)
{
	size_t len = strlen(buf);

	(*count)++;
	if (*listed < *count - 1 || len + strlen(name) + 2 + 16 >= size)
		return;
	snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name);
	(*listed)++;
}

/* The version of an area in this store, refusing one newer than this
 * heed. 0 for a store that has no heed_schema yet. */
static heed_status area_version(heed_store *store,
                                const struct heed_store_area *area,
                                int *version, struct heed_diag *diag)
{
	*version = 0;
	if (store->found == HEED_STORE_FOUND_NEW)
		return HEED_OK;
	if (store->backend->schema_version(store, area->name, version) !=
	    HEED_OK)
		return heed__store_fail(store, diag, "reading schema version");
	if (*version > area->count)
		return heed_diag_set(diag, HEED_ESTORE, 0, 0,
		                     "store area '%s' is at schema version %d, "
		                     "newer than this heed (%d): upgrade heed",
		                     area->name, *version, area->count);
	return HEED_OK;
}

/* Applies an area's pending migrations, inside the caller's transaction. */
static heed_status migrate_area(heed_store *store,
                                const struct heed_store_area *area,
                                struct heed_diag *diag)
{
	const struct heed_store_backend *be = store->backend;
	int version;
	heed_status rc = area_version(store, area, &version, diag);

	for (; rc == HEED_OK && version < area->count; version++) {
		char record[160];
		snprintf(record, sizeof(record),
		         "INSERT INTO heed_schema(area, version) VALUES('%s', "
		         "%d) "
		         "ON CONFLICT(area) DO UPDATE SET version = "
		         "excluded.version;",
		         area->name, version + 1);
		if (be->exec(store, area->migrations[version]) != HEED_OK ||
		    be->exec(store, record) != HEED_OK)
			rc = heed__store_fail(store, diag, "migrating schema");
	}
	return rc;
}

/*
 * Brings every area up to date and marks the store, all in ONE
 * transaction: a failure anywhere (a table in the way, a full disk, a
 * crash) leaves the file as it was, never half a schema. The versions are
 * read again inside the transaction, so two heed processes opening one
 * new store at once migrate it once. BEGIN IMMEDIATE takes the write lock
 * at once, waiting the busy timeout for another writer.
 */
static heed_status migrate(heed_store *store, struct heed_diag *diag)
{
	const struct heed_store_backend *be = store->backend;
	heed_status rc = HEED_OK;
	int i;

	if (be->exec(store, be->migrate_begin_sql) != HEED_OK)
		return heed__store_fail(store, diag, "migrating schema");
	if (be->exec(store, HEED_SCHEMA_TABLE_SQL) != HEED_OK)
		rc = heed__store_fail(store, diag, "migrating schema");
	/* heed_schema exists from here on, in this transaction. */
	store->found = HEED_STORE_FOUND_UNMARKED;
	for (i = 0; rc == HEED_OK && be->areas[i]; i++)
		rc = migrate_area(store, be->areas[i], diag);
	if (rc == HEED_OK && be->exec(store, be->mark_sql) != HEED_OK)
		rc = heed__store_fail(store, diag, "marking the store");
	if (rc == HEED_OK && be->exec(store, "COMMIT;") != HEED_OK)
		rc = heed__store_fail(store, diag, "committing migrations");
	if (rc != HEED_OK) {
		be->exec(store, "ROLLBACK;");
		return rc;
	}
	store->found = HEED_STORE_FOUND_MARKED;
	return HEED_OK;
}

/*
 * Decides what the opened store needs, reading only: refuses an area newer
 * than this heed; for a reader, refuses an area older than this heed (see
 * HEED_STORE_OPEN_READONLY); for a writer, migrates and marks when
 * anything is pending, and writes nothing when nothing is.
 */
static heed_status settle(heed_store *store, struct heed_diag *diag)
{
	bool pending = store->found != HEED_STORE_FOUND_MARKED;
	heed_status rc;
	int i, version;

	for (i = 0; store->backend->areas[i]; i++) {
		const struct heed_store_area *area = store->backend->areas[i];
		rc = area_version(store, area, &version, diag);
		if (rc != HEED_OK)
			return rc;
		if (version < area->count &&
		    (store->flags & HEED_STORE_OPEN_READONLY))
			return heed_diag_set(
			        diag, HEED_ESTORE, 0, 0,
			        "'%s' was written by an older heed (area '%s' "
			        "at schema version %d of %d): run a heed "
			        "command "
			        "that writes to it (heed crawl, heed site "
			        "qualify or reset, heed serve --reindex) to "
			        "upgrade it",
			        store->location, area->name, version,
			        area->count);
		pending = pending || version < area->count;
	}
	if (store->flags & HEED_STORE_OPEN_READONLY)
		return HEED_OK;
	if (pending && (rc = migrate(store, diag)) != HEED_OK)
		return rc;
	if (store->backend->writer_sql &&
	    store->backend->exec(store, store->backend->writer_sql) != HEED_OK)
		return heed__store_fail(store, diag, "setting up the store");
	return HEED_OK;
}

heed_status heed_store_open(heed_store **out, const char *location,
                            const struct heed_allocator *alloc,
                            struct heed_diag *diag)
{
	return heed_store_open_ex(out, location, 0, alloc, diag);
}

/* The backends, asked in turn whether a location is theirs; the last
 * (SQLite, whose locations are paths) takes any. */
static const struct heed_store_backend *const backends[] = {
        &heed__pg_backend,
        &heed__sqlite_backend,
};

static const struct heed_store_backend *backend_for(const char *location)
{
	size_t i = 0;

	while (i + 1 < HEED_ARRAY_SIZE(backends) &&
	       !backends[i]->accepts(location))
		i++;
	return backends[i];
}

heed_status heed_store_open_ex(heed_store **out, const char *location,
                               unsigned flags,
                               const struct heed_allocator *alloc,
                               struct heed_diag *diag)
{
	const struct heed_store_backend *backend;
	heed_store *store;
	heed_status rc;

	*out = NULL;
	if (!location || !*location)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "no store location");
	backend = backend_for(location);
	alloc = alloc ? alloc : heed_allocator_default();
	store = heed__calloc(alloc, 1, sizeof(*store));
	if (!store)
		return HEED_ENOMEM;
	store->alloc = alloc;
	store->lock_fd = -1;
	store->flags = flags;
	store->reconnect_ms = HEED_STORE_RECONNECT_TIMEOUT_MS;
	/* Messages name the store without its password; a second handle
	 * (heed_store_open_beside) opens it as it was given. */
	store->location = backend->shown(alloc, location);
	store->given = heed__strndup(alloc, location, strlen(location));
	if (!store->location || !store->given) {
		heed__free(alloc, store->location);
		heed__free(alloc, store->given);
		heed__free(alloc, store);
		return HEED_ENOMEM;
	}
	store->backend = backend;
	rc = store->backend->open(store, location, flags, diag);
	if (rc == HEED_OK)
		rc = settle(store, diag);
	store->settled = rc == HEED_OK;
	if (rc != HEED_OK) {
		heed_store_close(store);
		return rc;
	}
	*out = store;
	return HEED_OK;
}

void heed_store_close(heed_store *store)
{
	if (!store)
		return;
	/* What this writer wrote is searchable once it is gone. A failure
	 * leaves the marks for the next writer: nothing is lost, and a
	 * store whose connection just failed is not waited on again. */
	if (!(store->flags & HEED_STORE_OPEN_READONLY) && store->settled &&
	    store->backend->search && !store->backend->in_tx(store) &&
	    !heed_store_tx_lost(store))
		heed_store_search_catch_up(store, 0, NULL);
	store->backend->close(store);
	heed__sql_site_parts_free(store);
	heed__free(store->alloc, store->answers);
	heed__free(store->alloc, store->location);
	heed__free(store->alloc, store->given);
	heed__free(store->alloc, store);
}

heed_status heed_store_open_beside(heed_store **out, const heed_store *store,
                                   struct heed_diag *diag)
{
	heed_status rc;

	*out = NULL;
	if (!store->backend->writers_together)
		return heed_diag_set(diag, HEED_ENOTSUP, 0, 0,
		                     "a %s store takes one writer at a time",
		                     store->backend->title);
	rc = heed_store_open_ex(out, store->given, store->flags, store->alloc,
	                        diag);
	if (rc == HEED_OK)
		heed_store_set_reconnect(*out, store->reconnect_ms,
		                         &store->log);
	return rc;
}

static bool has_area(const heed_store *store, const char *name)
{
	for (int i = 0; store->backend->areas[i]; i++)
		if (strcmp(store->backend->areas[i]->name, name) == 0)
			return true;
	return false;
}

heed_status heed_store_require(heed_store *store, const char *const *areas,
                               struct heed_diag *diag)
{
	char missing[160] = "";
	int listed = 0, count = 0;

	for (int i = 0; areas ? areas[i] != NULL : i < heed__store_area_count;
	     i++) {
		const char *name =
		        areas ? areas[i] : heed__store_areas[i]->name;
		if (!has_area(store, name))
			heed__store_list_foreign(missing, sizeof(missing),
			                         &listed, &count, name);
	}
	if (count == 0)
		return HEED_OK;
	snprintf(store->errmsg, sizeof(store->errmsg),
	         "the %s store does not have the %s area%s yet",
	         store->backend->title, missing, count > 1 ? "s" : "");
	return heed_diag_set(diag, HEED_ENOTSUP, 0, 0, "%s", store->errmsg);
}

const char *heed_store_backend_name(const heed_store *store)
{
	return store->backend->name;
}

bool heed_store_location_is_postgres(const char *location)
{
	return location && backend_for(location) == &heed__pg_backend;
}

heed_status heed_store_lock(heed_store *store, struct heed_diag *diag)
{
	return store->backend->lock(store, diag);
}

heed_status heed_store_lock_shared(heed_store *store, struct heed_diag *diag)
{
	if (!store->backend->lock_shared)
		return heed_diag_set(diag, HEED_ENOTSUP, 0, 0,
		                     "workers (heed crawl --worker) need a "
		                     "PostgreSQL store, not %s",
		                     store->backend->title);
	return store->backend->lock_shared(store, diag);
}

void heed_store_set_reconnect(heed_store *store, int64_t timeout_ms,
                              const struct heed_logger *log)
{
	static const struct heed_logger none = {0};

	store->reconnect_ms = timeout_ms > 0 ? timeout_ms : 0;
	store->log = log ? *log : none;
}

heed_status heed_store_begin(heed_store *store)
{
	return store->backend->exec(store, store->backend->begin_sql);
}

heed_status heed_store_begin_batch(heed_store *store)
{
	if (store->backend->begin_batch)
		return store->backend->begin_batch(store);
	return heed_store_begin(store);
}

heed_status heed_store_commit(heed_store *store)
{
	heed_status rc = store->backend->exec(store, "COMMIT;");

	if (rc == HEED_OK)
		store->answers_kept = store->answers_len;
	return rc;
}

bool heed_store_tx_lost(const heed_store *store)
{
	return store->backend->tx_lost && store->backend->tx_lost(store);
}

heed_status heed_store_rollback(heed_store *store)
{
	/* The rows the transaction wrote are gone, and so are their
	 * answers; those of batches committed stay. */
	store->answers_len = store->answers_kept;
	return store->backend->exec(store, "ROLLBACK;");
}

heed_status heed__store_answer(heed_store *store, const char *value)
{
	size_t len = strlen(value) + 1;

	if (store->answers_cap - store->answers_len < len) {
		size_t cap = store->answers_cap ? store->answers_cap : 4096;
		char *n;
		while (cap - store->answers_len < len)
			cap *= 2;
		n = heed__realloc(store->alloc, store->answers, cap);
		if (!n) {
			snprintf(
			        store->errmsg, sizeof(store->errmsg),
			        "out of memory keeping a written row's answer");
			return HEED_ENOMEM;
		}
		store->answers = n;
		store->answers_cap = cap;
	}
	memcpy(store->answers + store->answers_len, value, len);
	store->answers_len += len;
	return HEED_OK;
}

heed_status heed_store_schema_version(heed_store *store, const char *area,
                                      int *version)
{
	return store->backend->schema_version(store, area, version);
}

const char *heed_store_errmsg(const heed_store *store)
{
	return store->errmsg;
}

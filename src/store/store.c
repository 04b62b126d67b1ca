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

static const struct heed_store_area core_area = {
        "core",
        core_migrations,
        (int)HEED_ARRAY_SIZE(core_migrations),
};

const struct heed_store_area *const heed__store_areas[] = {
        &core_area,
        &heed__store_sites_area,
        &heed__store_irc_area,
        &heed__store_pages_area,
        &heed__store_frontier_area,
};
const int heed__store_area_count = (int)HEED_ARRAY_SIZE(heed__store_areas);

heed_status heed__store_fail(heed_store *store, struct heed_diag *diag,
                             const char *what)
{
	const char *why = store->db ? sqlite3_errmsg(store->db) : "no database";

	snprintf(store->errmsg, sizeof(store->errmsg), "%s: %s", what, why);
	return heed_diag_set(diag, HEED_ESTORE, 0, 0, "%s", store->errmsg);
}

/* Brings one area up to date, one transaction per migration so that a crash
 * mid-way leaves a consistent, resumable version. */
static heed_status migrate_area(heed_store *store,
                                const struct heed_store_area *area,
                                struct heed_diag *diag)
{
	const struct heed_store_backend *be = store->backend;
	int version = 0;
	heed_status rc = be->schema_version(store, area->name, &version);

	if (rc != HEED_OK)
		return heed__store_fail(store, diag, "reading schema version");
	if (version > area->count)
		return heed_diag_set(diag, HEED_ESTORE, 0, 0,
		                     "store area '%s' is at schema version %d, "
		                     "newer than this heed (%d): upgrade heed",
		                     area->name, version, area->count);
	for (; version < area->count; version++) {
		char record[160];
		snprintf(record, sizeof(record),
		         "INSERT INTO heed_schema(area, version) VALUES('%s', "
		         "%d) "
		         "ON CONFLICT(area) DO UPDATE SET version = "
		         "excluded.version;",
		         area->name, version + 1);
		if (be->exec(store, "BEGIN IMMEDIATE;") != HEED_OK ||
		    be->exec(store, area->migrations[version]) != HEED_OK ||
		    be->exec(store, record) != HEED_OK) {
			rc = heed__store_fail(store, diag, "migrating schema");
			be->exec(store, "ROLLBACK;");
			return rc;
		}
		if (be->exec(store, "COMMIT;") != HEED_OK)
			return heed__store_fail(store, diag,
			                        "committing migration");
	}
	return HEED_OK;
}

heed_status heed_store_open(heed_store **out, const char *location,
                            const struct heed_allocator *alloc,
                            struct heed_diag *diag)
{
	const char *name = location; /* as the user wrote it, for messages */
	heed_store *store;
	heed_status rc;
	int i;

	*out = NULL;
	if (!location || !*location)
		return heed_diag_set(diag, HEED_EINVAL, 0, 0,
		                     "no store location");
	if (strncmp(location, "postgres:", 9) == 0 ||
	    strncmp(location, "postgresql:", 11) == 0)
		return heed_diag_set(
		        diag, HEED_ECONFIG, 0, 0,
		        "the PostgreSQL store backend is not built in "
		        "this version; use a SQLite path");
	if (strncmp(location, "sqlite:", 7) == 0)
		location += 7;
	alloc = alloc ? alloc : heed_allocator_default();
	store = heed__calloc(alloc, 1, sizeof(*store));
	if (!store)
		return HEED_ENOMEM;
	store->alloc = alloc;
	store->lock_fd = -1;
	store->location = heed__strndup(alloc, name, strlen(name));
	if (!store->location) {
		heed__free(alloc, store);
		return HEED_ENOMEM;
	}
	store->backend = &heed__sqlite_backend;
	rc = store->backend->open(store, location, diag);
	for (i = 0; rc == HEED_OK && i < heed__store_area_count; i++)
		rc = migrate_area(store, heed__store_areas[i], diag);
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
	store->backend->close(store);
	heed__free(store->alloc, store->location);
	heed__free(store->alloc, store);
}

const char *heed_store_backend_name(const heed_store *store)
{
	return store->backend->name;
}

heed_status heed_store_lock(heed_store *store, struct heed_diag *diag)
{
	return store->backend->lock(store, diag);
}

heed_status heed_store_begin(heed_store *store)
{
	return store->backend->exec(store, "BEGIN IMMEDIATE;");
}

heed_status heed_store_commit(heed_store *store)
{
	return store->backend->exec(store, "COMMIT;");
}

heed_status heed_store_rollback(heed_store *store)
{
	return store->backend->exec(store, "ROLLBACK;");
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

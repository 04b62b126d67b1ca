/*
 * heed/store.h: where heed keeps what it learns (site state, pages, the
 * frontier, IRC networks) across runs.
 *
 * One interface, several backends behind a table of functions (Redis's ae_*
 * habit): SQLite is the default and embedded; PostgreSQL is for several
 * machines crawling together. Each area of heed (sites, pages, irc...) has its
 * own header, include/heed/store_<area>.h, whose functions take the store
 * opened here. The schema is versioned per area and migrated on open.
 */
#ifndef HEED_STORE_H
#define HEED_STORE_H

#include <stdbool.h>

#include "heed/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heed_store heed_store;

/*
 * Opens (creating if needed) the store named by location: a file path or
 * "sqlite:PATH" for SQLite (":memory:" for a throw-away store), or a
 * PostgreSQL connection URI, "postgresql://USER@HOST:PORT/DB" or
 * "postgres://..." (any URI libpq takes; docs/storage.md says which areas
 * PostgreSQL has so far). Messages name a PostgreSQL store with its
 * password replaced by "***". Applies pending
 * schema migrations. On failure returns HEED_ESTORE (or HEED_ENOMEM /
 * HEED_ECONFIG) with the reason in diag (may be NULL), and *out is NULL.
 * alloc may be NULL. The caller closes the store with heed_store_close().
 * A file that is not a heed store is refused untouched (heed_store_open_ex
 * below says which). For commands that write; readers use
 * heed_store_open_ex(..., HEED_STORE_OPEN_READONLY, ...).
 */
heed_status heed_store_open(heed_store **out, const char *location,
                            const struct heed_allocator *alloc,
                            struct heed_diag *diag);

/*
 * A heed store marks itself: SQLite's PRAGMA application_id (the 32-bit
 * integer at offset 68 of the database header) is this number, "heed" in
 * ASCII, written in the same transaction as the store's first tables.
 * `file heed.db` and other tools can read it without SQLite.
 */
#define HEED_STORE_APPLICATION_ID 0x68656564

/* Flags of heed_store_open_ex(), or'ed. 0 is heed_store_open(). */
enum heed_store_open_flags {
	/* The store must exist already: a missing file (or an empty one,
	 * or ":memory:") is refused with HEED_ENOTFOUND and "no store at
	 * 'LOCATION'" in diag, and nothing is created. For writers that
	 * have nothing to write into a new store (`heed site reset`). */
	HEED_STORE_OPEN_EXISTING = 1u << 0,
	/* Implies HEED_STORE_OPEN_EXISTING. The database is opened read-only
	 * (SQLite's SQLITE_OPEN_READONLY): the store is never written, not
	 * even migrated or marked. A store an older heed made (an area
	 * below this heed's schema version) is refused with HEED_ESTORE and
	 * a message to run a command that writes: the readers' queries are
	 * written for the current schema, and guessing what an old one
	 * holds would show wrong figures rather than fail. A store made
	 * before heed marked its stores is read as it is. For readers
	 * (`heed stats`, `heed export`, `heed site report`, `heed irc
	 * list`); writes through it fail with HEED_ESTORE. */
	HEED_STORE_OPEN_READONLY = 1u << 1,
};

/*
 * heed_store_open() with flags (enum heed_store_open_flags). Whatever the
 * flags, a file that is not a heed store is refused untouched with
 * HEED_ESTORE and a message in diag naming it: a file that is not a SQLite
 * database ("'X' is not a heed store: it is not a SQLite database"), a
 * database marked by another application (its application_id is not
 * HEED_STORE_APPLICATION_ID), and an unmarked database holding tables heed
 * did not create ("'X' is not a heed store: it holds tables heed did not
 * create (a, b)"). An unmarked database whose tables are all heed's, the
 * table heed_schema among them, is a store made before the mark: it is read
 * as it is, and marked when next opened by a writer.
 *
 * A writer applies every pending migration, and the mark, in ONE
 * transaction: when any of it fails, the file is left as it was.
 */
heed_status heed_store_open_ex(heed_store **out, const char *location,
                               unsigned flags,
                               const struct heed_allocator *alloc,
                               struct heed_diag *diag);

/* Closes the store and frees it, releasing its crawl lock if it holds it.
 * NULL does nothing. */
void heed_store_close(heed_store *store);

/*
 * Opens a second handle on the store store has open (its location, flags,
 * allocator and reconnect settings; not its crawl lock), for writes that
 * run on another thread beside store's own: each handle is used by one
 * thread at a time. The caller closes it with heed_store_close(). Returns
 * HEED_ENOTSUP (with a message in diag) for a SQLite store, which takes
 * one writer at a time: the two handles' transactions would only wait for
 * each other. Otherwise as heed_store_open_ex().
 */
heed_status heed_store_open_beside(heed_store **out, const heed_store *store,
                                   struct heed_diag *diag);

/*
 * Takes the store's exclusive crawl lock for as long as the store stays
 * open (one crawl per store). heed_store_close releases it, and
 * so does the operating system when the process dies, so a killed crawl
 * never blocks the next one. Only writers that must run alone (a crawl)
 * take it; readers never do: stats, export and report keep reading during
 * a crawl.
 *
 * Returns HEED_OK, also when this store already holds the lock and for an
 * in-memory store, which has nothing to lock. Returns HEED_EBUSY when
 * another open store holds it, in this process or another, with a message
 * in diag naming the store and the holder's process id ("store 'heed.db'
 * is in use by another heed process (pid 1234)"; without the pid when the
 * holder has not written it yet); HEED_EIO when the lock file cannot be
 * created or locked (the message says why); HEED_ENOMEM. store must not be
 * NULL; diag may be NULL. With SQLite the lock is a file beside the
 * database, PATH.lock, holding the holder's pid; it stays after the crawl
 * and is never a sign of a crawl by itself.
 */
heed_status heed_store_lock(heed_store *store, struct heed_diag *diag);

/*
 * The crawl lock shared by the workers of one store (heed crawl --worker):
 * any number of workers hold it together, and while one does a
 * lone crawl's heed_store_lock answers HEED_EBUSY, and the other way round.
 * Released like the exclusive lock. HEED_ENOTSUP (with a message) for a
 * SQLite store: workers share a PostgreSQL store only.
 */
heed_status heed_store_lock_shared(heed_store *store, struct heed_diag *diag);

/*
 * Whether the store's backend has every area named in areas (a list ended
 * by NULL; NULL: all of heed's areas). HEED_OK, or HEED_ENOTSUP with the
 * missing ones in diag ("the PostgreSQL store does not have the pages,
 * visits areas yet"). Every area heed has today exists on both backends;
 * the check stays for a backend that lacks one, so that a command refuses
 * before it starts rather than failing half-way. The functions of a
 * missing area return HEED_ENOTSUP too.
 */
heed_status heed_store_require(heed_store *store, const char *const *areas,
                               struct heed_diag *diag);

/* Whether location names a PostgreSQL store (a "postgres:" or
 * "postgresql:" URI) rather than a SQLite file; NULL is SQLite's default. */
bool heed_store_location_is_postgres(const char *location);

/* "sqlite", "postgres". Static. */
const char *heed_store_backend_name(const heed_store *store);

/*
 * What a PostgreSQL store does when it loses its connection (the server
 * restarted, a network cut): outside a transaction it reconnects, waiting
 * 0.1 s doubling to 5 s (with jitter) between attempts for at most
 * timeout_ms in all (default 60 s; 0: fail at once with HEED_ESTORE),
 * restores the session (read-only, the crawl lock: HEED_EBUSY when another
 * process took the lock meanwhile) and runs the statement again, once.
 * Each attempt is logged at warning level to log (may be NULL; copied).
 * A SQLite store ignores both.
 */
#define HEED_STORE_RECONNECT_TIMEOUT_MS 60000
void heed_store_set_reconnect(heed_store *store, int64_t timeout_ms,
                              const struct heed_logger *log);

/*
 * Transactions group writes so that a crash leaves all or none of them.
 * Nested calls are not supported: begin, then commit or rollback.
 *
 * A PostgreSQL store that loses its connection inside a transaction cannot
 * carry it on: that call returns HEED_ERETRY, and so does every later one
 * until heed_store_rollback (HEED_OK: the store reconnected, nothing of the
 * transaction was written) or heed_store_commit (HEED_ERETRY, never
 * HEED_OK); the caller then redoes the whole transaction. A connection
 * lost during COMMIT itself is HEED_ERETRY too, though the server may have
 * committed: a transaction that may be redone must be safe to apply twice.
 */
heed_status heed_store_begin(heed_store *store);

/*
 * heed_store_begin for a batch that the store may do again by itself. A
 * PostgreSQL store keeps a copy of each statement of the batch until it
 * ends; when the server loses the batch (a restart, a cut connection, a
 * deadlock it broke by aborting the batch), the store makes the
 * connection again as heed_store_set_reconnect allows, sends the batch's
 * statements again in a new transaction and goes on: the caller does not
 * hear of it (a warning is logged). A connection lost during COMMIT is
 * settled by asking the server whether the batch's transaction committed.
 *
 * Done again, every statement must get the answer it got the first time
 * (the same rows read, the same count of rows written), since the caller
 * may have acted on it. When one does not (another session changed what
 * the batch read), or the batch is lost REDO_ATTEMPTS times in a row (4),
 * or the connection cannot be made again, the batch is given up: the
 * call answers HEED_ERETRY and heed_store_tx_lost is true, as for
 * heed_store_begin's transaction, and the caller redoes it its own way.
 * So a batch must not claim rows for itself (FOR UPDATE SKIP LOCKED): done
 * again, it would claim others. For SQLite this is heed_store_begin.
 */
heed_status heed_store_begin_batch(heed_store *store);

heed_status heed_store_commit(heed_store *store);
heed_status heed_store_rollback(heed_store *store);

/* Whether the last call failed because the transaction was lost (it
 * answered HEED_ERETRY): with the connection, or ended by the server to
 * break a deadlock or a serialization conflict; the caller rolls back and
 * redoes the transaction rather than give up. Always false for SQLite. */
bool heed_store_tx_lost(const heed_store *store);

/* The schema version of an area ("core", "sites", "irc", ...) in this store,
 * or 0 when the area has no tables yet. */
heed_status heed_store_schema_version(heed_store *store, const char *area,
                                      int *version);

/* The last backend error message, for logs. Valid until the next call on
 * the store; never NULL. */
const char *heed_store_errmsg(const heed_store *store);

#ifdef __cplusplus
}
#endif

#endif /* HEED_STORE_H */

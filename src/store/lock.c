/*
 * The crawl lock: one `heed crawl` per store at a time, while
 * readers (stats, export, site report) go on reading through SQLite's WAL
 * and never take it.
 *
 * Why flock() on a file of its own, "<database>.lock":
 * - SQLite takes POSIX (fcntl) record locks on the database file. POSIX
 *   locks belong to the process, not to the descriptor: a second lock taken
 *   inside the same process succeeds, and closing any descriptor of the
 *   file drops every lock the process holds on it, SQLite's included. So
 *   the lock cannot be an fcntl lock, and heed keeps its hands off the
 *   database file.
 * - flock() locks belong to the open file description: two heed_store
 *   handles in one process exclude each other as two processes do, and the
 *   kernel releases the lock when the descriptor is closed, which happens
 *   when the process dies however it dies. A killed crawl never blocks the
 *   next one, and there is no stale pid to judge.
 * - On NFS, Linux emulates flock() with an fcntl() lock on the whole file.
 *   On the database file that lock would collide with SQLite's own; on a
 *   file of its own it collides with nothing.
 *
 * The file is never unlinked: a process that opened it just before the
 * unlink would lock the orphaned file while the next process creates and
 * locks a new one, and both would crawl. It holds the holder's pid and a
 * newline, only so that a refused locker can name the holder; the lock is
 * the flock, never the content.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "store/store-int.h"

#define LOCK_SUFFIX ".lock"

/* Room for a pid in decimal, its newline and a NUL. */
#define LOCK_PID_BYTES 24

/* Writes our pid over the file's content. A failure (a full disk) is not
 * an error: the lock is held either way, only the refusal message of the
 * next locker goes without a pid. */
static bool write_holder(int fd)
{
	char buf[LOCK_PID_BYTES];
	int n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());

	if (ftruncate(fd, 0) != 0)
		return false;
	return pwrite(fd, buf, (size_t)n, 0) == n;
}

/* The pid in the lock file, or 0 when it holds none: the holder may be
 * between its truncate and its write. */
static long read_holder(int fd)
{
	char buf[LOCK_PID_BYTES], *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	pid = strtol(buf, &end, 10);
	if (errno != 0 || end == buf || *end != '\n' || pid <= 0)
		return 0;
	return pid;
}

/* The status and message for a flock() that failed with err on fd. */
static heed_status refusal(const heed_store *store, int fd, const char *path,
                           int err, struct heed_diag *diag)
{
	long holder;

	if (err != EWOULDBLOCK)
		return heed_diag_set(diag, HEED_EIO, 0, 0,
		                     "cannot lock '%s': %s", path,
		                     strerror(err));
	holder = read_holder(fd);
	return heed__store_busy(store, diag, holder);
}

heed_status heed__store_busy(const heed_store *store, struct heed_diag *diag,
                             long holder)
{
	if (holder > 0)
		return heed_diag_set(diag, HEED_EBUSY, 0, 0,
		                     "store '%s' is in use by another heed "
		                     "process (pid %ld)",
		                     store->location, holder);
	return heed_diag_set(diag, HEED_EBUSY, 0, 0,
	                     "store '%s' is in use by another heed process",
	                     store->location);
}

heed_status heed__store_lock_file(heed_store *store, const char *db_path,
                                  struct heed_diag *diag)
{
	size_t len = strlen(db_path);
	heed_status st = HEED_OK;
	char *path;
	int fd, rc;

	if (store->lock_fd >= 0)
		return HEED_OK;
	path = heed__malloc(store->alloc, len + sizeof(LOCK_SUFFIX));
	if (!path)
		return HEED_ENOMEM;
	memcpy(path, db_path, len);
	memcpy(path + len, LOCK_SUFFIX, sizeof(LOCK_SUFFIX));
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		st = heed_diag_set(diag, HEED_EIO, 0, 0,
		                   "cannot create the lock file '%s': %s", path,
		                   strerror(errno));
		goto out;
	}
	do
		rc = flock(fd, LOCK_EX | LOCK_NB);
	while (rc != 0 && errno == EINTR);
	if (rc != 0) {
		st = refusal(store, fd, path, errno, diag);
		close(fd);
		goto out;
	}
	(void)write_holder(fd);
	store->lock_fd = fd;
out:
	heed__free(store->alloc, path);
	return st;
}

void heed__store_unlock(heed_store *store)
{
	if (store->lock_fd < 0)
		return;
	close(store->lock_fd);
	store->lock_fd = -1;
}

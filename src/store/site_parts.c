/*
 * Which partition holds a site's rows on PostgreSQL (sql-int.h,
 * heed__sql_site_partition), asked of the server once a site and kept.
 *
 * A statement over a table partitioned by hash reads one partition for a
 * site only once it knows the site. Kept for any site (a batch's
 * statements are prepared), PostgreSQL plans it again at every run
 * instead, since it prices a plan for any site at all sixteen partitions;
 * made to keep that plan, it would lock every partition and its indexes
 * at every run before pruning them. Either way the server spends several
 * times the read itself: 35 to 60 us a read of one row against 3 to 8
 * for the same read of the partition by name (docs/performance.md). So
 * a statement run for every page a crawl asks again, the read of a URL's
 * visit, names the partition. Which one a site falls in is PostgreSQL's
 * to say (satisfies_hash_partition, the test its partitions' constraints
 * make), so it is asked rather than computed here: one round trip a
 * site, kept in a small table of slots by a hash of the site, a later
 * site taking the slot of an earlier one. SQLite has no partitions.
 */
#include <stdio.h>
#include <string.h>

#include "common/common-int.h"
#include "store/sql-int.h"

/* Sites kept: more than a crawler holds at once, in 64 KiB of slots. */
#define SITE_PARTS_SLOTS 4096

struct heed__site_part {
	char *site; /* owned; NULL: a free slot */
	int part;
};

struct heed__site_parts {
	struct heed__site_part slot[SITE_PARTS_SLOTS];
};

/* visits and the frontier are partitioned by the same text of the site
 * (its origin, text COLLATE "C"), so the answer for one is the other's. */
#define PARTITION_OF                                                        \
	"SELECT r FROM generate_series(0, " HEED__SITE_PARTITIONS_SQL " - " \
	"1) r WHERE "                                                       \
	"satisfies_hash_partition('visits'::regclass,"                      \
	" " HEED__SITE_PARTITIONS_SQL ", r, ?1::text);"

static heed_status ask_partition(heed_store *store, const char *site, int *part)
{
	struct heed__sql q;
	int64_t r = -1;
	heed_status rc;

	if (heed__sql_prepare_apart(store, &q, PARTITION_OF) != HEED_OK)
		return HEED_ESTORE;
	heed__sql_text(&q, 1, site);
	rc = heed__sql_one(&q, heed__sql_read_int, &r);
	if (rc == HEED_ENOTFOUND ||
	    (rc == HEED_OK && (r < 0 || r >= HEED__SITE_PARTITIONS))) {
		snprintf(store->errmsg, sizeof(store->errmsg),
		         "no partition of visits takes the site %s", site);
		memcpy(store->backend_err, store->errmsg,
		       sizeof(store->errmsg));
		return HEED_ESTORE;
	}
	*part = (int)r;
	return rc;
}

heed_status heed__sql_site_partition(heed_store *store, const char *site,
                                     int *part)
{
	struct heed__site_part *s;
	char *copy;
	heed_status rc;

	*part = -1;
	if (heed__sql_dialect(store) != HEED__SQL_PG)
		return HEED_OK;
	if (!store->site_parts) {
		store->site_parts = heed__calloc(store->alloc, 1,
		                                 sizeof(*store->site_parts));
		if (!store->site_parts)
			return HEED_ENOMEM;
	}
	s = &store->site_parts->slot[heed__hash_str(site) % SITE_PARTS_SLOTS];
	if (s->site && strcmp(s->site, site) == 0) {
		*part = s->part;
		return HEED_OK;
	}
	rc = ask_partition(store, site, part);
	if (rc != HEED_OK)
		return rc;
	/* The answer stands without its copy: a site not kept is asked
	 * again next time. */
	copy = heed__strndup(store->alloc, site, strlen(site));
	if (copy) {
		heed__free(store->alloc, s->site);
		s->site = copy;
		s->part = *part;
	}
	return HEED_OK;
}

void heed__sql_site_parts_free(heed_store *store)
{
	if (!store->site_parts)
		return;
	for (size_t i = 0; i < SITE_PARTS_SLOTS; i++)
		heed__free(store->alloc, store->site_parts->slot[i].site);
	heed__free(store->alloc, store->site_parts);
	store->site_parts = NULL;
}

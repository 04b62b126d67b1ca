/*
 * heed/serve.h: the public index (`heed serve`): a read-only web
 * list and JSON API of what heed collected, served over HTTP by
 * libmicrohttpd from the store while a crawl writes it.
 *
 * Every value that came from a crawled page or an IRC server is treated as
 * hostile: escaped for where it goes, links only to http(s), a strict
 * Content-Security-Policy, and bounded requests. What a site did not
 * permit (ACAP present-*, time limits, nosnippet, max-snippet) is not
 * shown. docs/serve.md describes the pages, the API and the rules.
 */
#ifndef HEED_SERVE_H
#define HEED_SERVE_H

#include <stdio.h>

#include "heed/common.h"
#include "heed/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heed_serve heed_serve;

struct heed_serve_options {
	/* The settings: the store (store.location), the identity shown at
	 * /bots, and the [serve] section (listen, base_url, threads,
	 * page_size). Must outlive the server. */
	const struct heed_config *config;
	/* Where to write one line per request (NCSA combined format plus the
	 * time taken in microseconds), flushed per line; NULL: no log. */
	FILE *access_log;
	const struct heed_allocator *alloc; /* NULL: the default */
};

/*
 * Opens the store read-only, binds config->serve_listen and starts
 * answering on libmicrohttpd's threads. Returns HEED_OK with *out set;
 * HEED_ECONFIG for a listen address that is not ADDR:PORT, HEED_EIO when
 * it cannot bind (the reason in diag), HEED_ENOTFOUND / HEED_ESTORE when
 * the store cannot be opened (heed_store_open_ex's messages), HEED_ENOMEM.
 * Stop it with heed_serve_stop().
 */
heed_status heed_serve_start(heed_serve **out,
                             const struct heed_serve_options *options,
                             struct heed_diag *diag);

/* The port the server listens on: the one chosen by the system when the
 * listen address said port 0. */
unsigned heed_serve_port(const heed_serve *server);

/* Stops answering, waits for requests in progress, closes the store and
 * frees the server. NULL does nothing. */
void heed_serve_stop(heed_serve *server);

#ifdef __cplusplus
}
#endif

#endif /* HEED_SERVE_H */

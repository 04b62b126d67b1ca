/*
 * Reading a command's input file, bounded. Standard input is read the same
 * way, so `heed robots check - URL` works in a pipe.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define READ_CHUNK 65536

heed_status heed_cli_read_file(const char *path, size_t max_bytes, char **data,
                               size_t *len, int *truncated)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t used = 0, cap = 0;
	char sink[READ_CHUNK];
	heed_status rc = HEED_OK;

	*data = NULL;
	*len = 0;
	*truncated = 0;
	if (!f)
		return HEED_EIO;
	for (;;) {
		size_t want, got;
		if (used == max_bytes) {
			/* Drain the rest so a pipe's writer is not killed by
			 * SIGPIPE, and remember that it existed. */
			got = fread(sink, 1, sizeof(sink), f);
			if (got)
				*truncated = 1;
			if (got < sizeof(sink))
				break;
			continue;
		}
		if (cap - used < READ_CHUNK && cap < max_bytes + 1) {
			size_t ncap = cap ? cap * 2 : READ_CHUNK + 1;
			char *p;
			if (ncap > max_bytes + 1)
				ncap = max_bytes + 1;
			p = realloc(buf, ncap);
			if (!p) {
				rc = HEED_ENOMEM;
				break;
			}
			buf = p;
			cap = ncap;
		}
		want = cap - 1 - used;
		got = fread(buf + used, 1, want, f);
		used += got;
		if (got < want)
			break;
	}
	if (rc == HEED_OK && ferror(f))
		rc = HEED_EIO;
	if (f != stdin)
		fclose(f);
	if (rc != HEED_OK) {
		free(buf);
		return rc;
	}
	if (!buf) {
		buf = malloc(1);
		if (!buf)
			return HEED_ENOMEM;
	}
	buf[used] = '\0';
	*data = buf;
	*len = used;
	return HEED_OK;
}

/*
 * heed/common.h: what every libheed module shares.
 *
 * Status codes are generated from one list (HEED_STATUS_MAP) so that the
 * enum, heed_status_name() and heed_strerror() can never disagree. Values are
 * part of the ABI: never renumber one; a retired value stays in the list as
 * HEED_OBSOLETEnn.
 *
 * Details that a status cannot carry go into a struct heed_diag that the
 * caller owns (curl's error buffer, Redis's err argument). libheed never
 * prints, never exits and never aborts: the caller decides what to show.
 */
#ifndef HEED_COMMON_H
#define HEED_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HEED_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* XX(name, number, message) */
#define HEED_STATUS_MAP(XX)                                  \
	XX(OK, 0, "success")                                 \
	XX(ENOMEM, 1, "out of memory")                       \
	XX(EINVAL, 2, "invalid argument")                    \
	XX(ETOOBIG, 3, "input exceeds a size limit")         \
	XX(EPARSE, 4, "input could not be parsed")           \
	XX(ENOTFOUND, 5, "not found")                        \
	XX(EIO, 6, "input/output error")                     \
	XX(EDNS, 7, "DNS lookup failed")                     \
	XX(ENET, 8, "network error")                         \
	XX(ETIMEDOUT, 9, "timed out")                        \
	XX(ESTORE, 10, "storage error")                      \
	XX(EDENIED, 11, "refused by policy")                 \
	XX(EPROTO, 12, "protocol violation by the peer")     \
	XX(ECONFIG, 13, "invalid configuration")             \
	XX(EBUSY, 14, "in use by another process")           \
	XX(ENOTSUP, 15, "not supported by this backend yet") \
	XX(ERETRY, 16,                                       \
	   "the store's connection was lost; the transaction was rolled back")

typedef enum heed_status {
#define HEED_XX(name, num, msg) HEED_##name = num,
	HEED_STATUS_MAP(HEED_XX)
#undef HEED_XX
} heed_status;

/* "HEED_ENOMEM" for HEED_ENOMEM; "HEED_UNKNOWN" for a value not in the map.
 * The string is static: never free it. */
const char *heed_status_name(heed_status status);

/* A sentence describing status ("out of memory"). Static: never free it. */
const char *heed_strerror(heed_status status);

/* Room for one diagnostic message, including its NUL. */
#define HEED_DIAG_SIZE 256

/* Where a failure happened, filled in by a function that takes a diag.
 * The caller owns it; passing NULL means "I do not need details". */
struct heed_diag {
	unsigned line;                /* 1-based line of the input, 0 if none */
	unsigned column;              /* 1-based column, 0 if unknown */
	char message[HEED_DIAG_SIZE]; /* NUL-terminated, possibly truncated */
};

/* Sets diag (when not NULL) to line, column and a printf-style message.
 * Returns status so that callers can write `return heed_diag_set(...)`. */
heed_status heed_diag_set(struct heed_diag *diag, heed_status status,
                          unsigned line, unsigned column, const char *fmt, ...)
        __attribute__((format(printf, 5, 6)));

/*
 * The allocator every libheed object takes from its context. Tests plug in
 * cmocka's leak checker or an allocator that fails the n-th call; NULL means
 * the C library's malloc family. The functions behave like malloc, realloc
 * and free: realloc(NULL, n) allocates, free(NULL) does nothing.
 */
struct heed_allocator {
	void *(*malloc_fn)(void *ud, size_t size);
	void *(*realloc_fn)(void *ud, void *ptr, size_t size);
	void (*free_fn)(void *ud, void *ptr);
	void *ud;
};

/* The allocator libheed uses when a caller passes NULL. Never NULL itself. */
const struct heed_allocator *heed_allocator_default(void);

/* Log levels, most severe first: a callback sees a message only when its
 * level is at most the configured one. */
typedef enum heed_log_level {
	HEED_LOG_ERROR = 0,
	HEED_LOG_WARN = 1,
	HEED_LOG_INFO = 2,
	HEED_LOG_DEBUG = 3,
} heed_log_level;

/* "error", "warn", "info", "debug". Static. */
const char *heed_log_level_name(heed_log_level level);

/* A log sink: level, module category ("robots", "net"...) and the message,
 * which is only valid during the call. */
typedef void heed_log_fn(void *ud, heed_log_level level, const char *module,
                         const char *message);

/* A logger as the I/O shells carry it. fn may be NULL (discard). */
struct heed_logger {
	heed_log_fn *fn;
	void *ud;
	heed_log_level level;
};

/* Formats and delivers one message if logger and its fn are set and level is
 * enabled; formatting is skipped otherwise (curl's infof habit). */
void heed_log(const struct heed_logger *logger, heed_log_level level,
              const char *module, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

/* The library's version as "MAJOR.MINOR.PATCH". Static. */
const char *heed_version(void);

#ifdef __cplusplus
}
#endif

#endif /* HEED_COMMON_H */

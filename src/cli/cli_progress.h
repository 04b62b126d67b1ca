/*
 * The one writer of standard error's lines while a long command runs: it
 * alone knows whether a progress line is on the terminal, so a log line
 * or an error never lands glued after the progress text.
 *
 * On a terminal the progress line is one line redrawn in place ("\r" and
 * clear to its end); a line written meanwhile clears it first, is written
 * with its newline, and the progress line is drawn again below it.
 * Without a terminal no "\r" and no escape sequence is ever written: the
 * progress line becomes an ordinary log line every interval, and once at
 * the end.
 */
#ifndef HEED_CLI_PROGRESS_H
#define HEED_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "heed/common.h"

typedef enum heed_cli_progress_mode {
	HEED_CLI_PROGRESS_OFF = 0, /* no progress shown (--quiet) */
	HEED_CLI_PROGRESS_TTY,     /* one line redrawn on the terminal */
	HEED_CLI_PROGRESS_LOG,     /* a log line every interval */
} heed_cli_progress_mode;

/*
 * Starts showing progress in mode. In HEED_CLI_PROGRESS_LOG the lines go
 * to log (borrowed until heed_cli_progress_end; its level is not looked
 * at, a progress line is asked for) at info level under the module
 * "progress", one every interval_ms of the command's own elapsed time,
 * none when interval_ms is 0.
 */
void heed_cli_progress_begin(heed_cli_progress_mode mode, int64_t interval_ms,
                             const struct heed_logger *log);

/* The progress at elapsed_ms since the start; final is the last call.
 * text is one line, without a newline. */
void heed_cli_progress_show(const char *text, int64_t elapsed_ms, bool final);

/* Leaves the last progress line on the terminal (ended by a newline) and
 * stops showing progress. */
void heed_cli_progress_end(void);

/* Writes text and a newline to stderr, clearing the progress line first
 * and drawing it again after, when one is on the terminal. Every line a
 * command writes to stderr goes through here (heed_cli_error, the
 * loggers of cli_config.c and --log json). */
void heed_cli_stderr_line(const char *text);

#endif /* HEED_CLI_PROGRESS_H */

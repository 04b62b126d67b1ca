/*
 * The progress line and every other stderr line of a command, through one
 * state: whether a progress line is shown, and its text for redrawing.
 * The CLI is one thread, so the state is the process's.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_progress.h"

/* "Clear to the end of the line" after a carriage return (ECMA-48 EL). */
#define CLEAR_LINE "\r\033[K"

static struct {
	heed_cli_progress_mode mode;
	int64_t interval_ms;
	int64_t last_ms; /* elapsed time of the last log line */
	bool logged;     /* a log line was written */
	const struct heed_logger *log;
	bool shown;     /* TTY: a progress line is on the terminal */
	char text[512]; /* TTY: what it says, to draw again */
} progress;

void heed_cli_progress_begin(heed_cli_progress_mode mode, int64_t interval_ms,
                             const struct heed_logger *log)
{
	memset(&progress, 0, sizeof(progress));
	progress.mode = mode;
	progress.interval_ms = interval_ms > 0 ? interval_ms : 0;
	progress.log = log;
}

static void draw(void)
{
	fputs(CLEAR_LINE, stderr);
	fputs(progress.text, stderr);
	fflush(stderr);
	progress.shown = true;
}

/* A log line every interval, counted from the start; the final one
 * always (unless the lines are off), so a log ends with the last count. */
static void log_progress(const char *text, int64_t elapsed_ms, bool final)
{
	if (!progress.interval_ms || !progress.log || !progress.log->fn)
		return;
	if (!final && elapsed_ms - progress.last_ms < progress.interval_ms)
		return;
	/* The engine's last call and the command's final one can fall on
	 * the same moment: one line says it. */
	if (final && progress.logged && elapsed_ms == progress.last_ms)
		return;
	progress.last_ms = elapsed_ms;
	progress.logged = true;
	progress.log->fn(progress.log->ud, HEED_LOG_INFO, "progress", text);
}

void heed_cli_progress_show(const char *text, int64_t elapsed_ms, bool final)
{
	switch (progress.mode) {
	case HEED_CLI_PROGRESS_TTY:
		snprintf(progress.text, sizeof(progress.text), "%s", text);
		draw();
		break;
	case HEED_CLI_PROGRESS_LOG:
		log_progress(text, elapsed_ms, final);
		break;
	case HEED_CLI_PROGRESS_OFF:
		break;
	}
}

void heed_cli_progress_end(void)
{
	if (progress.shown) {
		fputc('\n', stderr);
		fflush(stderr);
	}
	memset(&progress, 0, sizeof(progress));
}

void heed_cli_stderr_line(const char *text)
{
	bool redraw = progress.shown;

	if (redraw)
		fputs(CLEAR_LINE, stderr);
	fputs(text, stderr);
	fputc('\n', stderr);
	if (redraw)
		draw();
	else
		fflush(stderr);
}

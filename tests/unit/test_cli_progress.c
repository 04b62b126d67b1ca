/*
 * Unit tests for src/cli/cli_progress.c: on a terminal a log line clears the
 * progress line, is written whole, and the progress line is drawn again;
 * without one, progress lines come at the interval, the final one once, and
 * never a "\r" or escape byte.
 */
#include "heed_test.h"

#include <unistd.h>

#include "cli/cli_progress.h"

#define CLEAR "\r\033[K"

/* Standard error, captured into a temporary file. */
struct capture {
	FILE *file;
	int saved;
};

static void capture_start(struct capture *c)
{
	fflush(stderr);
	c->file = tmpfile();
	assert_non_null(c->file);
	c->saved = dup(STDERR_FILENO);
	assert_true(c->saved >= 0);
	assert_true(dup2(fileno(c->file), STDERR_FILENO) >= 0);
}

/* Stops capturing; returns what was written (static, NUL-terminated). */
static const char *capture_end(struct capture *c)
{
	static char text[4096];
	size_t n;

	fflush(stderr);
	assert_true(dup2(c->saved, STDERR_FILENO) >= 0);
	close(c->saved);
	rewind(c->file);
	n = fread(text, 1, sizeof(text) - 1, c->file);
	text[n] = '\0';
	fclose(c->file);
	return text;
}

/* A logger that keeps the lines it is given, one per row. */
struct lines {
	char text[16][128];
	size_t count;
};

static void keep_line(void *ud, heed_log_level level, const char *module,
                      const char *message)
{
	struct lines *l = ud;

	assert_int_equal(level, HEED_LOG_INFO);
	assert_string_equal(module, "progress");
	assert_true(l->count < 16);
	snprintf(l->text[l->count++], sizeof(l->text[0]), "%s", message);
}

static void test_terminal_log_line_clears_and_redraws(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c);
	heed_cli_progress_begin(HEED_CLI_PROGRESS_TTY, 0, NULL);
	heed_cli_progress_show("1 pages", 1000, false);
	heed_cli_stderr_line("heed: [crawl] a log line");
	heed_cli_progress_show("2 pages", 2000, false);
	heed_cli_progress_end();
	assert_string_equal(capture_end(&c), CLEAR
	                    "1 pages" CLEAR "heed: [crawl] a log line\n" CLEAR
	                    "1 pages" CLEAR "2 pages\n");
}

static void test_line_without_progress_is_plain(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c);
	heed_cli_stderr_line("heed: before");
	heed_cli_progress_begin(HEED_CLI_PROGRESS_OFF, 0, NULL);
	heed_cli_progress_show("1 pages", 1000, true);
	heed_cli_stderr_line("heed: quiet");
	heed_cli_progress_end();
	/* A terminal's progress never shown: no newline at the end. */
	heed_cli_progress_begin(HEED_CLI_PROGRESS_TTY, 0, NULL);
	heed_cli_progress_end();
	assert_string_equal(capture_end(&c), "heed: before\nheed: quiet\n");
}

static void test_log_lines_at_the_interval(void **state)
{
	struct lines l = {0};
	struct heed_logger log = {keep_line, &l, HEED_LOG_ERROR};
	struct capture c;

	(void)state;
	capture_start(&c);
	heed_cli_progress_begin(HEED_CLI_PROGRESS_LOG, 1000, &log);
	heed_cli_progress_show("at 0.5", 500, false);
	heed_cli_progress_show("at 1.0", 1000, false);
	heed_cli_progress_show("at 1.9", 1900, false);
	heed_cli_progress_show("at 2.1", 2100, false);
	heed_cli_progress_show("final 2.1", 2100, true); /* said already */
	heed_cli_progress_end();
	heed_cli_progress_begin(HEED_CLI_PROGRESS_LOG, 1000, &log);
	heed_cli_progress_show("at 1.0", 1000, false);
	heed_cli_progress_show("final 1.4", 1400, true);
	heed_cli_progress_end();
	/* Nothing of it on stderr itself: the logger has it all. */
	assert_string_equal(capture_end(&c), "");
	assert_int_equal(l.count, 4);
	assert_string_equal(l.text[0], "at 1.0");
	assert_string_equal(l.text[1], "at 2.1");
	assert_string_equal(l.text[2], "at 1.0");
	assert_string_equal(l.text[3], "final 1.4");
}

static void test_interval_zero_logs_nothing(void **state)
{
	struct lines l = {0};
	struct heed_logger log = {keep_line, &l, HEED_LOG_INFO};

	(void)state;
	heed_cli_progress_begin(HEED_CLI_PROGRESS_LOG, 0, &log);
	heed_cli_progress_show("at 5", 5000, false);
	heed_cli_progress_show("final", 6000, true);
	heed_cli_progress_end();
	assert_int_equal(l.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_terminal_log_line_clears_and_redraws),
	        cmocka_unit_test(test_line_without_progress_is_plain),
	        cmocka_unit_test(test_log_lines_at_the_interval),
	        cmocka_unit_test(test_interval_zero_logs_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

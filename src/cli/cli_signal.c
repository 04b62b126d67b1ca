/*
 * SIGINT and SIGTERM as a request to stop cleanly, for the commands that
 * run long (heed crawl, heed site qualify). Between heed_cli_catch_stop()
 * and heed_cli_release_stop() a signal only sets heed_cli_stop: the crawl
 * engine sees it within a poll, ends what is in flight, saves its state
 * and returns, and the command exits 130 (HEED_EXIT_INTERRUPTED). Outside
 * (reading settings, printing a summary), the default actions apply.
 */
#include <signal.h>

#include "cli/cli.h"

volatile sig_atomic_t heed_cli_stop;

static void on_stop_signal(int sig)
{
	(void)sig;
	heed_cli_stop = 1;
}

void heed_cli_catch_stop(void)
{
	signal(SIGINT, on_stop_signal);
	signal(SIGTERM, on_stop_signal);
}

void heed_cli_release_stop(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

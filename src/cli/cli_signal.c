/*
 * SIGINT and SIGTERM as a request to stop cleanly, for the commands that
 * run long (heed crawl, heed site qualify, heed irc crawl and reset).
 * Between heed_cli_catch_stop() and heed_cli_release_stop() the first
 * signal only sets heed_cli_stop: the command ends what is in flight
 * (requests, IRC visits with QUIT), saves its state and exits 130
 * (HEED_EXIT_INTERRUPTED). A second one kills as usual (SA_RESETHAND),
 * for an operator who will not wait for that; the store's transactions
 * keep it whole either way.
 */
#include <signal.h>
#include <string.h>

#include "cli/cli.h"

volatile sig_atomic_t heed_cli_stop;

static void on_stop_signal(int sig)
{
	(void)sig;
	heed_cli_stop = 1;
}

static void set_stop_action(void (*handler)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void heed_cli_catch_stop(void)
{
	set_stop_action(on_stop_signal, SA_RESETHAND);
}

void heed_cli_release_stop(void)
{
	set_stop_action(SIG_DFL, 0);
}

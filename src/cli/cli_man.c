/*
 * Manual pages from the help texts: `heed help --man [COMMAND]` writes
 * heed(1) or heed-COMMAND(1) in troff (man macros), and the build installs
 * what it writes (man/meson.build). The help text stays the one source: a
 * page is that text cut into the sections a manual has, so the page and
 * `heed help COMMAND` can never disagree.
 *
 * How a help text is read (commands.c keeps to it, and test_man.py checks
 * that every option a command accepts is in its page):
 *   "Usage: heed ..." and the lines under it that start with "heed" or "["
 *       are the SYNOPSIS;
 *   a line indented 2 to 6 spaces that starts with "-" is an option: its
 *       names and argument, then (after the argument, or two spaces) what
 *       it does; lines indented 8 or more continue it;
 *   a line indented 2 spaces that starts with a lower-case word is an
 *       item of a list (a subcommand) continued the same way;
 *   a paragraph starting "Exit status" is the EXIT STATUS;
 *   "Options:" is dropped (the page has its own heading); every other
 *       line is DESCRIPTION text, a blank line ending a paragraph.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* A help text's lines, one at a time, without copying it. */
struct lines {
	const char *p;
};

static bool next_line(struct lines *l, const char **s, size_t *len)
{
	const char *nl;

	if (!*l->p)
		return false;
	nl = strchr(l->p, '\n');
	*s = l->p;
	*len = nl ? (size_t)(nl - l->p) : strlen(l->p);
	l->p = nl ? nl + 1 : l->p + *len;
	return true;
}

static size_t indent_of(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && s[i] == ' ')
		i++;
	return i;
}

/* Text for troff: backslashes and minus signs escaped, and a control
 * character at the start of a line defused. */
static void put_text(FILE *out, const char *s, size_t len, bool line_start)
{
	for (size_t i = 0; i < len; i++) {
		if (line_start && i == 0 && (s[i] == '.' || s[i] == '\''))
			fputs("\\&", out);
		if (s[i] == '\\')
			fputs("\\e", out);
		else if (s[i] == '-')
			fputs("\\-", out);
		else
			fputc(s[i], out);
	}
}

static void put_str(FILE *out, const char *s, bool line_start)
{
	put_text(out, s, strlen(s), line_start);
}

/* The end of an option's names and argument within s: the first word
 * after them that is neither an option nor an argument (arguments are in
 * capitals, or hold '|' or '='), or two spaces. */
static size_t option_term_len(const char *s, size_t len)
{
	size_t i = 0, end = 0;
	bool had_arg = false;

	while (i < len) {
		size_t w = i, j;
		bool option, arg = false;

		if (i + 1 < len && s[i] == ' ' && s[i + 1] == ' ')
			break;
		while (w < len && s[w] == ' ')
			w++;
		j = w;
		while (j < len && s[j] != ' ')
			j++;
		if (j == w)
			break;
		option = s[w] == '-';
		for (size_t k = w; k < j && !option; k++)
			if (isupper((unsigned char)s[k]) || s[k] == '|' ||
			    s[k] == '=')
				arg = true;
		if (!option && (!arg || had_arg))
			break;
		had_arg = had_arg || arg;
		end = j;
		i = j;
	}
	return end;
}

/* "-s, --site HOST" as bold names and an italic argument. */
static void put_option_term(FILE *out, const char *s, size_t len)
{
	size_t i = 0;

	fputs(".TP\n", out);
	while (i < len) {
		size_t j = i;
		bool comma;

		while (j < len && s[j] != ' ')
			j++;
		comma = j > i && s[j - 1] == ',';
		fputs(s[i] == '-' ? "\\fB" : "\\fI", out);
		put_text(out, s + i, j - i - (comma ? 1 : 0), false);
		fputs("\\fR", out);
		if (comma)
			fputc(',', out);
		while (j < len && s[j] == ' ')
			j++;
		if (j < len)
			fputc(' ', out);
		i = j;
	}
	fputc('\n', out);
}

/* A line's text without its indent, for a paragraph being filled. */
static void put_words(FILE *out, const char *s, size_t len)
{
	size_t in = indent_of(s, len);

	if (in < len) {
		put_text(out, s + in, len - in, true);
		fputc('\n', out);
	}
}

/* What a line of a help text is part of; PART_NONE: nothing (a blank
 * line, or "Options:", which the page's heading replaces). */
enum part { PART_NONE, PART_TEXT, PART_ITEM, PART_OPTION, PART_EXIT };

/* A line of in spaces of indent, after a line of part cur. */
static enum part classify(const char *s, size_t len, size_t in, enum part cur)
{
	if (in == len)
		return PART_NONE;
	if (in >= 8 && (cur == PART_ITEM || cur == PART_OPTION))
		return cur; /* a continuation */
	if (in >= 2 && in <= 6 && s[in] == '-')
		return PART_OPTION;
	if (in == 2 && islower((unsigned char)s[in]))
		return PART_ITEM;
	if (in == 0 && len >= 11 && strncmp(s, "Exit status", 11) == 0)
		return PART_EXIT;
	if (cur == PART_EXIT)
		return PART_EXIT;
	if (in == 0 && len == 8 && strncmp(s, "Options:", 8) == 0)
		return PART_NONE;
	return PART_TEXT;
}

/* A list entry: the term in bold (an item) or as an option, then the
 * rest of the line. */
static void put_entry(FILE *out, const char *s, size_t len, enum part kind)
{
	size_t t;

	if (kind == PART_OPTION) {
		t = option_term_len(s, len);
		put_option_term(out, s, t);
	} else {
		t = strcspn(s, " ");
		if (t > len)
			t = len;
		fputs(".TP\n\\fB", out);
		put_text(out, s, t, false);
		fputs("\\fR\n", out);
	}
	put_words(out, s + t, len - t);
}

/* One section of a page (DESCRIPTION text or items, OPTIONS, EXIT
 * STATUS): the lines of the help text after its synopsis that are part
 * of want. */
static void put_section(FILE *out, const char *rest, enum part want)
{
	struct lines l = {rest};
	const char *s;
	size_t len;
	enum part cur = PART_NONE;
	bool blank = false, wrote = false;

	while (next_line(&l, &s, &len)) {
		size_t in = indent_of(s, len);
		enum part kind = classify(s, len, in, cur);

		if (in == len)
			blank = true;
		if (kind == PART_NONE) {
			/* A blank line ends text and exit status; a list
			 * entry goes on until the next line at its indent. */
			if (cur == PART_TEXT || cur == PART_EXIT || in != len)
				cur = PART_NONE;
			continue;
		}
		if (kind == want &&
		    (kind == PART_ITEM || kind == PART_OPTION) && in < 8) {
			put_entry(out, s + in, len - in, kind);
			wrote = true;
		} else if (kind == want) {
			/* A new paragraph after a blank line. */
			if (blank && wrote)
				fputs(".PP\n", out);
			/* The heading says it already. */
			if (strncmp(s, "Exit status: ", 13) == 0) {
				s += 13;
				len -= 13;
			}
			put_words(out, s, len);
			wrote = true;
		}
		blank = false;
		cur = kind;
	}
}

/* The synopsis: each "heed ..." form on its own line. Returns where the
 * rest of the help text starts. */
static const char *put_synopsis(FILE *out, const char *help)
{
	struct lines l = {help};
	const char *s, *rest = help;
	size_t len;

	fputs(".SH SYNOPSIS\n.nf\n", out);
	while (next_line(&l, &s, &len)) {
		size_t in = indent_of(s, len);
		if (strncmp(s, "Usage: ", 7) == 0) {
			s += 7;
			len -= 7;
			in = 0;
		} else if (in == 0 || in == len ||
		           (strncmp(s + in, "heed ", 5) != 0 && s[in] != '[')) {
			break;
		}
		if (strncmp(s + in, "heed ", 5) == 0) {
			fputs("\\fBheed\\fR ", out);
			in += 5;
		} else {
			fputs("    ", out);
		}
		put_text(out, s + in, len - in, false);
		fputc('\n', out);
		rest = l.p;
	}
	fputs(".fi\n", out);
	return rest;
}

static void put_title(FILE *out, const char *page)
{
	fputs(".TH ", out);
	for (const char *p = page; *p; p++) {
		if (*p == '-')
			fputs("\\-", out);
		else
			fputc(toupper((unsigned char)*p), out);
	}
	fprintf(out, " 1 \"\" \"heed %s\" \"User Commands\"\n", HEED_VERSION);
}

static bool help_has(const char *help, const char *option)
{
	return strstr(help, option) != NULL;
}

/* FILES and ENVIRONMENT: the settings file and store of the commands
 * that read settings, and the proxy variables of those that fetch. */
static void put_files(FILE *out, const char *help)
{
	fputs(".SH FILES\n", out);
	if (!help_has(help, "--config")) {
		fputs("Only the files named on the command line.\n", out);
	} else {
		fputs(".TP\n\\fI./heed.ini\\fR\nThe settings, read when "
		      "present and no \\fB\\-\\-config\\fR names another "
		      "file.\n",
		      out);
		fputs(".TP\n\\fIheed.db\\fR\nThe store: the setting "
		      "store.location, or \\fB\\-\\-store\\fR.\n",
		      out);
	}
	fputs(".SH ENVIRONMENT\n", out);
	if (help_has(help, "--proxy"))
		fputs("\\fBhttps_proxy\\fR, \\fBHTTPS_PROXY\\fR, "
		      "\\fBhttp_proxy\\fR, \\fBall_proxy\\fR, "
		      "\\fBALL_PROXY\\fR, "
		      "\\fBno_proxy\\fR, \\fBNO_PROXY\\fR: read only with "
		      "\\fB\\-\\-proxy env\\fR or the setting net.proxy = env; "
		      "otherwise heed uses no proxy, whatever they hold.\n",
		      out);
	else
		fputs("No environment variable changes what this command "
		      "does.\n",
		      out);
}

/* The other pages; self is the command's name, NULL for heed(1). */
static void put_see_also(FILE *out, const char *self)
{
	bool first = true;

	fputs(".SH SEE ALSO\n", out);
	if (self) {
		fputs("\\fBheed\\fR(1)", out);
		first = false;
	}
	for (size_t i = 0; i < heed_cli_command_count; i++) {
		if (self && strcmp(self, heed_cli_commands[i].name) == 0)
			continue;
		fprintf(out, "%s\\fBheed\\-%s\\fR(1)", first ? "" : ",\n",
		        heed_cli_commands[i].name);
		first = false;
	}
	fputc('\n', out);
	fputs(".PP\nThe documentation in heed's source, docs/ (configuration, "
	      "crawling, security).\n",
	      out);
}

void heed_cli_print_man(FILE *out, const struct heed_cli_command *cmd)
{
	char page[64];
	const char *rest;

	snprintf(page, sizeof(page), "heed-%s", cmd->name);
	put_title(out, page);
	fputs(".SH NAME\n", out);
	put_str(out, page, true);
	fputs(" \\- ", out);
	put_str(out, cmd->summary, false);
	fputc('\n', out);
	rest = put_synopsis(out, cmd->help);
	fputs(".SH DESCRIPTION\n", out);
	put_section(out, rest, PART_TEXT);
	put_section(out, rest, PART_ITEM);
	fputs(".SH OPTIONS\n", out);
	put_section(out, rest, PART_OPTION);
	fputs(".SH EXIT STATUS\n", out);
	if (strstr(rest, "Exit status"))
		put_section(out, rest, PART_EXIT);
	else
		fputs("0 success, 1 failure, 2 usage error.\n", out);
	put_files(out, cmd->help);
	put_see_also(out, cmd->name);
}

void heed_cli_print_man_main(FILE *out)
{
	put_title(out, "heed");
	fputs(".SH NAME\nheed \\- a polite metadata crawler for the web and "
	      "IRC networks\n"
	      ".SH SYNOPSIS\n.nf\n\\fBheed\\fR [\\-\\-help] [\\-\\-version] "
	      "\\fICOMMAND\\fR [\\fIARGS\\fR]...\n.fi\n"
	      ".SH DESCRIPTION\n"
	      "heed crawls web sites politely (one request per second per "
	      "site at most, robots.txt and ACAP obeyed) and stores one "
	      "metadata record per page; it also builds a public list of "
	      "IRC networks and channels, honouring their CRAWLER token. "
	      "Each command has its own page, "
	      "\\fBheed\\-\\fR\\fICOMMAND\\fR(1), "
	      "and prints the same text with \\fBheed help\\fR "
	      "\\fICOMMAND\\fR.\n"
	      ".SH COMMANDS\n",
	      out);
	for (size_t i = 0; i < heed_cli_command_count; i++) {
		fprintf(out, ".TP\n\\fBheed\\-%s\\fR(1)\n",
		        heed_cli_commands[i].name);
		put_str(out, heed_cli_commands[i].summary, true);
		fputc('\n', out);
	}
	fputs(".SH OPTIONS\n"
	      ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nList the commands.\n"
	      ".TP\n\\fB\\-V\\fR, \\fB\\-\\-version\\fR\nPrint the versions "
	      "of heed and its libraries.\n"
	      ".SH EXIT STATUS\n"
	      "0 success, 1 failure, 2 usage error; some commands add 75 "
	      "(another heed process holds the store) and 130 (stopped by "
	      "SIGINT or SIGTERM): see each command's page.\n",
	      out);
	put_files(out, "--config --proxy");
	put_see_also(out, NULL);
}

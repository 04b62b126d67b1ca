/*
 * IRC message parsing and line framing (modern.ircdocs.horse, "Message
 * format"; IRCv3 message-tags).
 *
 *   ['@' tags SP] [':' source SP] command [params] CRLF
 *
 * Separators may be one or more spaces; the trailing parameter (after " :")
 * is an ordinary parameter that may hold spaces. Tag values are unescaped
 * (\: \s \\ \r \n; an unknown escape or a lone trailing backslash drops the
 * backslash). The whole line is copied into the message, so a parse result
 * owns its strings and never points into the caller's buffer.
 *
 * Hostile input: lines up to HEED_IRC_BUF_MAX bytes are parsed whatever
 * they hold (NUL ends the line, invalid UTF-8 stays as bytes); anything
 * longer is refused by the parser and skipped whole by the reader.
 */
#include <string.h>

#include "irc/irc-int.h"

static char *skip_spaces(char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* Unescapes a tag value in place (message-tags "Escaping values"). */
static void unescape_tag_value(char *v)
{
	char *out = v;

	for (; *v; v++) {
		if (*v != '\\') {
			*out++ = *v;
			continue;
		}
		v++;
		switch (*v) {
		case ':':
			*out++ = ';';
			break;
		case 's':
			*out++ = ' ';
			break;
		case '\\':
			*out++ = '\\';
			break;
		case 'r':
			*out++ = '\r';
			break;
		case 'n':
			*out++ = '\n';
			break;
		case '\0':
			v--;
			break; /* lone trailing backslash: dropped */
		default:
			*out++ = *v;
			break;
		}
	}
	*out = '\0';
}

/* Splits "k1=v1;k2;k3=" in place into msg->tags; extra tags are ignored. */
static void parse_tags(struct heed_irc_msg *msg, char *p)
{
	while (*p) {
		char *end = strchr(p, ';');
		char *eq;

		if (end)
			*end = '\0';
		eq = strchr(p, '=');
		if (eq)
			*eq = '\0';
		if (*p && msg->ntags < HEED_IRC_MAX_TAGS) {
			struct heed_irc_tag *t = &msg->tags[msg->ntags++];
			t->key = p;
			t->value = eq ? eq + 1 : "";
			if (eq)
				unescape_tag_value(eq + 1);
		}
		if (!end)
			break;
		p = end + 1;
	}
}

/* Cuts the next space-delimited word at p, returns where the rest starts. */
static char *cut_word(char *p)
{
	char *sp = strchr(p, ' ');

	if (!sp)
		return p + strlen(p);
	*sp = '\0';
	return skip_spaces(sp + 1);
}

static int three_digits(const char *c)
{
	if (strlen(c) != 3)
		return -1;
	for (int i = 0; i < 3; i++)
		if (c[i] < '0' || c[i] > '9')
			return -1;
	return (c[0] - '0') * 100 + (c[1] - '0') * 10 + (c[2] - '0');
}

static void parse_params(struct heed_irc_msg *msg, char *p)
{
	while (*p) {
		if (*p == ':' || msg->nparams == HEED_IRC_MAX_PARAMS - 1) {
			/* The trailing parameter, or the rest of a line with
			 * more parameters than we keep: nothing is dropped. */
			msg->has_trailing = *p == ':';
			msg->params[msg->nparams++] = *p == ':' ? p + 1 : p;
			return;
		}
		msg->params[msg->nparams++] = p;
		p = cut_word(p);
	}
}

static void clear(struct heed_irc_msg *msg)
{
	msg->source = NULL;
	msg->command = NULL;
	msg->numeric = -1;
	msg->nparams = 0;
	msg->ntags = 0;
	msg->has_trailing = false;
	msg->overlong = false;
}

heed_status heed_irc_msg_parse(struct heed_irc_msg *msg, const char *line,
                               size_t len)
{
	char *p;
	const char *nul = memchr(line, '\0', len);

	clear(msg);
	if (nul)
		len = (size_t)(nul - line);
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len > HEED_IRC_BUF_MAX)
		return HEED_ETOOBIG;
	memcpy(msg->buf, line, len);
	msg->buf[len] = '\0';
	p = skip_spaces(msg->buf);
	if (*p == '@') {
		char *rest = cut_word(p);
		if ((size_t)(rest - p) > HEED_IRC_TAGS_MAX)
			return HEED_ETOOBIG;
		parse_tags(msg, p + 1);
		p = rest;
	}
	/* 510 bytes of message plus CRLF make the 512-byte limit. */
	msg->overlong = strlen(p) > HEED_IRC_LINE_MAX - 2;
	if (*p == ':') {
		msg->source = p + 1;
		p = cut_word(p);
	}
	if (!*p) {
		clear(msg);
		return HEED_EPARSE;
	}
	msg->command = p;
	p = cut_word(p);
	msg->numeric = three_digits(msg->command);
	parse_params(msg, p);
	return HEED_OK;
}

const char *heed_irc_msg_param(const struct heed_irc_msg *msg, size_t i)
{
	return i < msg->nparams ? msg->params[i] : "";
}

const char *heed_irc_msg_tag(const struct heed_irc_msg *msg, const char *key)
{
	for (size_t i = 0; i < msg->ntags; i++)
		if (strcmp(msg->tags[i].key, key) == 0)
			return msg->tags[i].value;
	return NULL;
}

void heed_irc_msg_source_nick(const struct heed_irc_msg *msg, char *buf,
                              size_t size)
{
	size_t n;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (!msg->source)
		return;
	n = strcspn(msg->source, "!@");
	if (n >= size)
		n = size - 1;
	memcpy(buf, msg->source, n);
	buf[n] = '\0';
}

void heed_irc_reader_init(struct heed_irc_reader *r)
{
	r->len = 0;
	r->discarding = false;
	r->overlong_lines = 0;
	r->lines = 0;
}

/* A complete line is in r->line: hand it out unless it is empty. */
static bool finish_line(struct heed_irc_reader *r, const char **line,
                        size_t *line_len)
{
	size_t n = r->len;

	r->len = 0;
	if (r->discarding) {
		r->discarding = false;
		return false;
	}
	if (n > 0 && r->line[n - 1] == '\r')
		n--;
	if (n == 0)
		return false;
	r->line[n] = '\0';
	r->lines++;
	*line = r->line;
	*line_len = n;
	return true;
}

size_t heed_irc_reader_feed(struct heed_irc_reader *r, const char *data,
                            size_t len, const char **line, size_t *line_len)
{
	size_t used = 0;

	*line = NULL;
	*line_len = 0;
	while (used < len) {
		const char *lf = memchr(data + used, '\n', len - used);
		size_t chunk = lf ? (size_t)(lf - (data + used)) : len - used;

		/* One byte more than the limit allows for the CR. */
		if (!r->discarding && r->len + chunk > HEED_IRC_BUF_MAX + 1) {
			r->discarding = true;
			r->overlong_lines++;
		}
		if (!r->discarding) {
			memcpy(r->line + r->len, data + used, chunk);
			r->len += chunk;
		}
		used += chunk;
		if (!lf)
			break;
		used++; /* the LF */
		if (finish_line(r, line, line_len))
			return used;
	}
	return used;
}

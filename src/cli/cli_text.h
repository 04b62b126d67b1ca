/*
 * Showing text that came from the network (a robots.txt body, a server's
 * words) safely: JSON strings that every parser accepts, terminal output
 * that a hostile file cannot drive.
 */
#ifndef HEED_CLI_TEXT_H
#define HEED_CLI_TEXT_H

#include <json-c/json.h>
#include <stddef.h>

/* A JSON string of len octets: invalid UTF-8 becomes U+FFFD (json-c
 * escapes control octets itself). NULL when memory runs out. */
json_object *heed_cli_json_text(const char *s, size_t len);

/* Prints len octets to stdout with control octets (but newline and tab)
 * shown as \xNN. */
void heed_cli_print_text(const char *s, size_t len);

/* Room for what heed_cli_short writes. */
#define HEED_CLI_SHORT_SIZE 128

/* A value as a message shows it, in buf (at least HEED_CLI_SHORT_SIZE
 * bytes): control octets as \xNN, and when that is longer than 80 bytes,
 * its first 80 (never inside a UTF-8 sequence or an escape), then "…" and
 * the value's length in bytes. A 100 kB URL thus ends a line cleanly
 * instead of filling the terminal or being cut by a fixed buffer. Returns
 * buf. */
const char *heed_cli_short(const char *s, char *buf, size_t size);

#endif /* HEED_CLI_TEXT_H */

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

#endif /* HEED_CLI_TEXT_H */

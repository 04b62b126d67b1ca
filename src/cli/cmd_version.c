/*
 * `heed version` (and `heed --version`): heed's version, then the libraries
 * it was built with, so a bug report says everything in one paste.
 */
#include <curl/curl.h>
#include <ares.h>
#include <json-c/json_c_version.h>
#include <libxml/xmlversion.h>
#include <sqlite3.h>
#include <stdio.h>

#include "cli/cli.h"

int heed_cmd_version(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		return heed_cli_usage("version", "takes no arguments");
	printf("heed %s\n", heed_version());
	printf("libcurl %s, c-ares %s, SQLite %s, libxml2 %s, json-c %s\n",
	       curl_version_info(CURLVERSION_NOW)->version, ares_version(NULL),
	       sqlite3_libversion(), LIBXML_DOTTED_VERSION, json_c_version());
	puts("License: MIT <https://opensource.org/licenses/MIT>\n"
	     "This is free software: you are free to change and redistribute "
	     "it.");
	return HEED_EXIT_OK;
}

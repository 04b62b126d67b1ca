/*
 * The table of heed's subcommands. Adding a command is one row here, its
 * prototype in cli.h and its cmd_<name>.c file.
 */
#include "cli/cli.h"
#include "cli/cli_config.h"

#define DNS_HELP                                                              \
	"Usage: heed dns [--dns-server ADDR:PORT] [--json] NAME|ADDRESS...\n" \
	"Look names and addresses up the way heed does before it crawls:\n"   \
	"every IPv4 and IPv6 address of a NAME, in the order heed tries\n"    \
	"them, with TTLs and CNAMEs; every PTR name of an ADDRESS.\n"         \
	"\n"                                                                  \
	"  -s, --dns-server ADDR[:PORT][,...]  ask these servers only\n"      \
	"                                      (default: /etc/resolv.conf)\n" \
	"  -j, --json          print JSON\n"                                  \
	"  -h, --help          show this help\n"                              \
	"\n"                                                                  \
	"Exit status: 0 if every lookup found an answer, 1 if not, 2 usage.\n"

#define PAGE_HELP                                                          \
	"Usage: heed page [--format html|markdown] [--output FILE]\n"      \
	"Write the operator's crawler page from the settings: the\n"       \
	"User-Agent, contact, what is collected, crawl modes and\n"        \
	"schedules, the rate limit, robots.txt / ACAP / meta robots\n"     \
	"support, how to opt out, and how to verify the crawler's\n"       \
	"addresses (verify.domain). Publish it at identity.contact_url.\n" \
	"\n"                                                               \
	"  -f, --format FORMAT  html (default) or markdown\n"              \
	"  -o, --output FILE    write to FILE (default: standard "         \
	"output)\n" HEED_CLI_CONFIG_HELP                                   \
	"  -h, --help           show this help\n"                          \
	"\n"                                                               \
	"Exit status: 0 written, 1 failure, 2 usage or settings error.\n"

#define VERIFY_HELP                                                          \
	"Usage: heed verify [--domain SUFFIX]... [--ranges FILE]\n"          \
	"                   [--dns-server ADDR:PORT] [--json] IP...\n"       \
	"Check that each IP belongs to the crawler's operator:\n"            \
	"step 1, its PTR names (every one); step 2, for each name under a\n" \
	"domain SUFFIX (at a label boundary), its A or AAAA records must\n"  \
	"include the IP. With a ranges file, membership in the published\n"  \
	"ranges is a second, independent proof. Prints each step.\n"         \
	"\n"                                                                 \
	"  -d, --domain SUFFIX  the operator's domain (repeatable;\n"        \
	"                       default: the verify.domain setting)\n"       \
	"  -r, --ranges FILE    published ranges, JSON with ipv4Prefix /\n"  \
	"                       ipv6Prefix (default: verify.ranges_file)\n"  \
	"  -s ADDR[:PORT][,...] short for --dns-server (below)\n"            \
	"  -j, --json           print JSON\n" HEED_CLI_CONFIG_HELP           \
	"  -h, --help           show this help\n"                            \
	"\n"                                                                 \
	"Exit status: 0 if every IP verified, 1 if not, 2 usage error.\n"

#define CRAWL_HELP                                                             \
	"Usage: heed crawl [--incremental] [OPTION]... [URL]...\n"             \
	"Crawl the sites of the start URLs politely (one request per second\n" \
	"per site at most, robots.txt and ACAP obeyed, media never\n"          \
	"requested) and store one metadata record per page.\n"                 \
	"Default mode: follow public links within the limits. Incremental\n"   \
	"mode: read sitemaps (robots.txt, /sitemap.xml) and feeds, fetch "     \
	"only\n"                                                               \
	"new and changed entries (dates, conditional GET). A run that was\n"   \
	"stopped or killed is resumed by the next `heed crawl`; one crawl\n"   \
	"runs on a store at a time. With no start URL and no run to\n"         \
	"resume, the sites the store knows are crawled again from their\n"     \
	"`/` (those not qualified until later left out).\n"                    \
	"\n"                                                                   \
	"  -i, --incremental      the incremental mode (crawl.incremental)\n"  \
	"      --sites FILE       start URLs, one per line "                   \
	"(crawl.sites_file)\n"                                                 \
	"      --max-pages N      pages per site (crawl.max_pages)\n"          \
	"      --max-depth N      links from a start URL (crawl.max_depth)\n"  \
	"      --max-url-length N longest URL queued (crawl.max_url_bytes)\n"  \
	"      --max-repeat N     path segment repeats "                       \
	"(crawl.max_path_repeat)\n"                                            \
	"      --max-time DUR     longest run, e.g. 2h (crawl.max_run_time)\n" \
	"      --concurrency N    requests in flight (crawl.concurrency)\n"    \
	"      --restart          start afresh instead of resuming\n"          \
	"      --refresh due|all  known URLs: due ones only, asked for\n"      \
	"                         conditionally (default), or all of them\n"   \
	"                         whole (crawl.refresh)\n"                     \
	"      --schedule         keep running: a full crawl every\n"          \
	"                         crawl.full_interval (7d), incremental\n"     \
	"                         ones every crawl.incremental_interval\n"     \
	"                         (6h)\n"                                      \
	"      --dry-run          qualify the sites (robots.txt fetched\n"     \
	"                         politely: the only requests), then print\n"  \
	"                         per site the URLs a crawl would ask for\n"   \
	"                         first and the robots.txt line or owner's\n"  \
	"                         pattern that allows or refuses each, or\n"   \
	"                         why the site is not qualified; nothing\n"    \
	"                         is written (no store is made)\n"             \
	"      --limit N          --dry-run: URLs per site (10; 0 all)\n"      \
	"      --worker           one of several workers on a PostgreSQL\n"    \
	"                         store: each fetches only the hosts it\n"     \
	"                         holds a lease on, a fair share; joins the\n" \
	"                         open run or begins one; ends when no host\n" \
	"                         is left to anyone (crawl.worker)\n"          \
	"      --worker-name NAME this worker's name in the leases\n"          \
	"                         (crawl.worker_name; HOSTNAME:PID)\n"         \
	"      --lease DUR        a host lease's length, e.g. 30s; a dead\n"   \
	"                         worker's hosts are taken over after it\n"    \
	"                         (crawl.lease)\n"                             \
	"      --json             --dry-run: print JSON\n"                     \
	"  -q, --quiet            errors only: no warnings, no progress,\n"    \
	"                         no summary (the exit status is the same)\n"  \
	"  -v, --verbose          one log level more (log.level, info by\n"    \
	"                         default): debug adds each request and its\n" \
	"                         answer, robots.txt steps, URLs not due\n"    \
	"                         and links not queued\n"                      \
	"      --progress-interval DUR  without a terminal, a progress\n"      \
	"                         log line this often, e.g. 10s (30s; 0\n"     \
	"                         none; log.progress_interval); on a\n"        \
	"                         terminal one line redrawn in place\n"        \
	"      --log json|text    log format on standard "                     \
	"error\n" HEED_CLI_PROXY_HELP HEED_CLI_CONFIG_HELP                     \
	"  -h, --help             show this help\n"                            \
	"\n"                                                                   \
	"Exit status: 0 done (some sites may have failed: see the summary;\n"  \
	"a dry run that printed its report), 1 no site could be crawled or\n"  \
	"a failure, 2 usage or settings error (-q with -v)\n"                  \
	"or a start URL heed cannot take, 75 another heed process is\n"        \
	"crawling into the store (try later), 130 stopped by SIGINT or\n"      \
	"SIGTERM (the run stays open: the next crawl resumes it; with\n"       \
	"--schedule, which ends that way, 0).\n"

#define EXPORT_HELP                                                            \
	"Usage: heed export [--format jsonl|csv] [--site HOST] [--since "      \
	"DATE]\n"                                                              \
	"                   [--output FILE] [--store PATH]\n"                  \
	"       heed export --irc [--format jsonl|csv] [--output FILE]\n"      \
	"Write the stored page records: one JSON object per line (jsonl, "     \
	"the\n"                                                                \
	"default: every column and the whole extraction record) or CSV with "  \
	"a\n"                                                                  \
	"header row (url, final_url, host, status, fetched_at, title,\n"       \
	"description, views, tags, published, modified, language, mode).\n"    \
	"With --irc, the public IRC list instead: JSON Lines objects with a\n" \
	"\"type\" of irc_network, irc_server or irc_channel; CSV has the\n"    \
	"channels only.\n"                                                     \
	"\n"                                                                   \
	"  -f, --format FMT    jsonl or csv\n"                                 \
	"  -s, --site HOST     only this site: HOST on any port, or\n"         \
	"                      HOST:PORT on that port only\n"                  \
	"      --since DATE    only pages fetched at or after DATE\n"          \
	"                      (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or @UNIX)\n"  \
	"      --csv-raw       CSV cells as stored; without it a cell\n"       \
	"                      starting with = + - @ TAB or CR gets a\n"       \
	"                      leading ' (a spreadsheet shows, never runs\n"   \
	"                      it)\n"                                          \
	"      --irc           the IRC networks, servers and channels\n"       \
	"  -o, --output FILE   write there instead of standard "               \
	"output\n" HEED_CLI_CONFIG_HELP                                        \
	"  -h, --help          show this help\n"

#define STATS_HELP                                                            \
	"Usage: heed stats [--json] [--store PATH]\n"                         \
	"Print what the store holds: pages per site and HTTP status, how "    \
	"many\n"                                                              \
	"carry a view count, the frontier's queue and the last crawl runs.\n" \
	"\n"                                                                  \
	"  -j, --json          print JSON\n" HEED_CLI_CONFIG_HELP             \
	"  -h, --help          show this help\n"
#define QUEUE_HELP                                                            \
	"Usage: heed queue [--site SITE] [--limit N] [--json] [--store "      \
	"PATH]\n"                                                             \
	"Show what is due for a revisit and when, from the URLs the store\n"  \
	"knows (pages, sitemaps, feeds): per site, the known URLs, those "    \
	"due\n"                                                               \
	"now and within 24 hours, the next due date and what the last\n"      \
	"visit found; with --site, the site's URLs by due date with their\n"  \
	"interval, last outcome and kind. Reads only (docs/crawling.md).\n"   \
	"\n"                                                                  \
	"  -s, --site SITE     one site: its origin (https://host[:port]) "   \
	"or\n"                                                                \
	"                      a URL of it; HOST (every port) or HOST:PORT\n" \
	"  -n, --limit N       at most N sites, or N URLs per site with\n"    \
	"                      --site (default 50; 0: all)\n"                 \
	"  -j, --json          print JSON\n" HEED_CLI_CONFIG_HELP             \
	"  -h, --help          show this help\n"                              \
	"\n"                                                                  \
	"Exit status: 0 shown, 1 no store, a store error or no known URL\n"   \
	"of SITE, 2 usage or settings error.\n"
#define SERVE_HELP                                                             \
	"Usage: heed serve [--listen ADDR:PORT] [--base-url URL] "             \
	"[OPTION]...\n"                                                        \
	"       heed serve --reindex [--store PATH]\n"                         \
	"Serve the public index of what heed collected: search, records,\n"    \
	"sites, tags, IRC networks and the crawler page as HTML, and the\n"    \
	"same as JSON under /api/v1/ (docs/serve.md). Read-only: it serves\n"  \
	"while a crawl writes. Runs until SIGINT or SIGTERM.\n"                \
	"\n"                                                                   \
	"  -l, --listen ADDR:PORT  where to listen (serve.listen; port 0:\n"   \
	"                          any free port, printed when ready)\n"       \
	"      --base-url URL      links start with URL, behind a reverse\n"   \
	"                          proxy (serve.base_url)\n"                   \
	"      --threads N         request threads (serve.threads)\n"          \
	"      --access-log FILE   one line per request; - for standard\n"     \
	"                          output (serve.access_log)\n"                \
	"      --reindex           rebuild the search index from the stored\n" \
	"                          pages and exit\n"                           \
	"      --store PATH        the store (store.location)\n"               \
	"      --config FILE       read settings from FILE (default:\n"        \
	"                          ./heed.ini if any)\n"                       \
	"      --set SECTION.KEY=VALUE\n"                                      \
	"                          override one setting (repeatable)\n"        \
	"      --contact-url URL   the crawler page /bots names\n"             \
	"      --contact-email ADDR\n"                                         \
	"                          the address /bots names\n"                  \
	"  -h, --help              show this help\n"                           \
	"\n"                                                                   \
	"Exit status: 0 stopped by a signal or reindexed, 1 failure (no\n"     \
	"store, address in use), 2 usage or settings error, 75 --reindex\n"    \
	"while a crawl holds the store.\n"
#define SITE_HELP                                                              \
	"Usage: heed site qualify [OPTIONS] URL...\n"                          \
	"       heed site report [--json] [OPTIONS] HOST...\n"                 \
	"       heed site reset [OPTIONS] HOST...\n"                           \
	"Run the robots.txt lifecycle of the sites of URLs now (every "        \
	"address,\n"                                                           \
	"two passes, statuses, redirects, retry and re-check intervals) and\n" \
	"store the outcome; show what heed knows of a host's sites "           \
	"(robots.txt,\n"                                                       \
	"rules in force, last and next attempt, failures, state and "          \
	"reason);\n"                                                           \
	"or clear a host's failure state. See docs/robots-lifecycle.md.\n"     \
	"\n"                                                                   \
	"  -j, --json             print JSON\n" HEED_CLI_PROXY_HELP            \
	        HEED_CLI_CONFIG_HELP                                           \
	"  -h, --help             show this help\n"                            \
	"\n"                                                                   \
	"Exit status: qualify 0 when every site is qualified, 1 otherwise,\n"  \
	"75 when a crawl holds the store, 130 stopped by SIGINT or SIGTERM;\n" \
	"report and reset 1 when a host has no site in the store (or there\n"  \
	"is no store); 2 usage or settings error.\n"

#define SITES_HELP                                                             \
	"Usage: heed sites list [--json] [OPTIONS]\n"                          \
	"       heed sites show|pause|resume|forget [OPTIONS] HOST\n"          \
	"       heed sites set HOST [--delay DUR] [--max-pages N]\n"           \
	"                 [--mode full|incremental|paused] [--include "        \
	"PAT]...\n"                                                            \
	"                 [--exclude PAT]... [--window HH:MM-HH:MM]...\n"      \
	"                 [--endpoint URL] [--endpoint-kind source|oembed]\n"  \
	"                 [--note TEXT] [--clear FIELD]...\n"                  \
	"Record what a site's owner asked of heed, per host name (all its\n"   \
	"ports and schemes); every crawl honours it. See docs/crawling.md,\n"  \
	"\"Arrangements with site owners\".\n"                                 \
	"\n"                                                                   \
	"  --delay DUR        between requests: 5s, 1500ms, 2m (never under\n" \
	"                     1s: a smaller value is raised, and said)\n"      \
	"  --max-pages N      pages per run\n"                                 \
	"  --mode MODE        full, incremental (only its sitemaps, feeds\n"   \
	"                     and endpoint, in every run) or paused (never\n"  \
	"                     contacted, not even robots.txt)\n"               \
	"  --include PAT      only paths matching PAT (robots.txt syntax:\n"   \
	"                     '*' any, final '$' the end); repeatable\n"       \
	"  --exclude PAT      never paths matching PAT; repeatable\n"          \
	"  --window HH:MM-HH:MM  hours (UTC) requests may start; repeatable\n" \
	"  --endpoint URL     a feed (RSS, Atom, JSON Feed) or sitemap on\n"   \
	"                     the host, read as a source\n"                    \
	"  --endpoint-kind KIND  source (the default: a feed or sitemap) or\n" \
	"                     oembed: the pages the site's sitemaps and\n"     \
	"                     feeds list are read through\n"                   \
	"                     URL?url=PAGE&format=json, not their HTML\n"      \
	"  --note TEXT        the owner's contact and the arrangement's "      \
	"date\n"                                                               \
	"  --clear FIELD      forget delay, max-pages, mode, include, "        \
	"exclude,\n"                                                           \
	"                     window, endpoint, note or all\n"                 \
	"  -j, --json         print JSON\n" HEED_CLI_CONFIG_HELP               \
	"  -h, --help         show this help\n"                                \
	"\n"                                                                   \
	"A list option given replaces the stored list. Exit status: 0 done,\n" \
	"1 no such arrangement or a store failure, 2 usage or a bad value.\n"

#define VERSION_HELP            \
	"Usage: heed version\n" \
	"Print heed's version and the versions of the libraries it uses.\n"

#define EXTRACT_HELP                                                           \
	"Usage: heed extract --url URL [--content-type TYPE]\n"                \
	"                    [--header 'Name: value']... [--agent TOKEN]\n"    \
	"                    [--html | --feed | --record] FILE\n"              \
	"Print, as JSON, the metadata record, links and robots directives\n"   \
	"heed would take from a page, or the entries of a feed (RSS, Atom,\n"  \
	"JSON Feed) or sitemap.\n"                                             \
	"FILE is the response body (- for standard input); nothing is\n"       \
	"fetched. URL is the page's address (links resolve against it).\n"     \
	"The charset in the Content-Type wins over the page's own.\n"          \
	"\n"                                                                   \
	"\"record\" is exactly the record a crawl stores for the page and\n"   \
	"`heed export` writes as \"record\" (one writer makes all three);\n"   \
	"beside it are what the crawl keeps apart: \"robots\" (the\n"          \
	"directives) and \"links\" (the list; the record counts them).\n"      \
	"A crawl reads the Content-Type, ETag, Last-Modified and\n"            \
	"X-Robots-Tag headers: give those with --header to match it.\n"        \
	"\n"                                                                   \
	"  -u, --url URL           the page's address (required)\n"            \
	"  -c, --content-type TYPE the response's Content-Type\n"              \
	"  -H, --header HEADER     a response header, 'Name: value'\n"         \
	"                          (repeatable)\n"                             \
	"  -a, --agent TOKEN       apply <meta name=TOKEN> and TOKEN:\n"       \
	"                          X-Robots-Tag\n"                             \
	"      --html, --feed      force the kind (default: Content-Type,\n"   \
	"                          then sniff)\n"                              \
	"  -r, --record            print the record alone on one line, byte\n" \
	"                          for byte as `heed export` writes it\n"      \
	"                          (pages only)\n"                             \
	"  -h, --help              show this help\n"
#define ROBOTS_HELP                                                            \
	"Usage: heed robots check [--agent NAME] [--json] FILE URL...\n"       \
	"       heed robots check --usage USAGE [--purpose P]... FILE "        \
	"URL...\n"                                                             \
	"       heed robots explain [--agent NAME] [--usage USAGE] FILE URL\n" \
	"       heed robots lint [--json] FILE\n"                              \
	"What heed makes of a robots.txt file (RFC 9309) and its ACAP 1.1 "    \
	"fields.\nFILE - is standard input.\n"                                 \
	"\n"                                                                   \
	"  check   print, for each URL, allowed or disallowed and the rule\n"  \
	"          that decided it (FILE:LINE: Disallow: /private/); exit 0\n" \
	"          when every URL is allowed, 1 when any is disallowed. "      \
	"With\n"                                                               \
	"          --usage, --purpose or ACAP fields in FILE the answer is\n"  \
	"          ACAP's (crawl unless --usage says otherwise)\n"             \
	"  explain print the chain of fields that decided, with line\n"        \
	"          numbers and reasons; exit 0 permitted, 1 prohibited\n"      \
	"          (URL FILE, the old order, is read when URL has a scheme)\n" \
	"  lint    print every diagnostic as FILE:LINE: message (unknown\n"    \
	"          field, missing colon, rule before any user-agent, "         \
	"invalid\n"                                                            \
	"          Crawl-delay, file over 500 KiB, ACAP errors...); exit 1 "   \
	"if\n"                                                                 \
	"          there are any (ACAP notes do not count)\n"                  \
	"\n"                                                                   \
	"  -a, --agent NAME  the crawler's product token or User-Agent\n"      \
	"                    (default: heed)\n"                                \
	"      --usage USAGE an ACAP usage: crawl follow index preserve\n"     \
	"                    present other present-original ... "              \
	"present-link\n"                                                       \
	"      --purpose P   a usage purpose (ACAP-usage-purpose), "           \
	"repeatable\n"                                                         \
	"      --now SECONDS the time for ACAP time limits (Unix seconds)\n"   \
	"      --first-indexed SECONDS  when the resource was first indexed\n" \
	"                    (for time-limit=n-days; default: now)\n"          \
	"      --reference LOCATOR=FILE  read FILE as the file an\n"           \
	"                    ACAP-permissions-reference LOCATOR names\n"       \
	"      --json        print one JSON document instead of text\n"        \
	"  -h, --help        print this help\n"                                \
	"\n"                                                                   \
	"Exit status: 0 allowed / clean, 1 disallowed / diagnostics or an\n"   \
	"unreadable FILE, 2 usage error. See docs/robots.md, docs/acap.md.\n"

#define IRC_HELP                                                               \
	"Usage: heed irc crawl [OPTIONS] NETWORK...\n"                         \
	"       heed irc check [OPTIONS] HOST[:PORT]\n"                        \
	"       heed irc list [--store PATH] [--network KEY]\n"                \
	"       heed irc reset [--store PATH] NETWORK...\n"                    \
	"Build the public list of IRC networks, servers and channels,\n"       \
	"honouring each network's CRAWLER token (docs/irc.md).\n"              \
	"\n"                                                                   \
	"NETWORK is host, host:port, irc://host[:port] or "                    \
	"ircs://host[:port]\n"                                                 \
	"(TLS with certificate verification, port 6697 by default).\n"         \
	"Names are resolved by heed's resolver (net.dns_server), and the\n"    \
	"addresses `heed crawl` refuses are refused here too: private,\n"      \
	"loopback and link-local ones unless --allow-private, reserved\n"      \
	"ones always. A refused network is not contacted and nothing of it\n"  \
	"is stored.\n"                                                         \
	"\n"                                                                   \
	"  crawl    visit each network (one connection each, several at\n"     \
	"           once), read LUSERS, LINKS and LIST, store them; "          \
	"networks\n"                                                           \
	"           inside their cooldown are skipped and reported\n"          \
	"  check    read the 005 burst only and print how heed reads the\n"    \
	"           CRAWLER token and when it would come back; stores "        \
	"nothing\n"                                                            \
	"  list     print the stored networks and public channel list\n"       \
	"  reset    lift heed's own hold on each network (the wait after a\n"  \
	"           failure, an unreachable server or a ban, and\n"            \
	"           irc.min_revisit); a cooldown the network asked for in\n"   \
	"           its CRAWLER token stays\n"                                 \
	"\n"                                                                   \
	"Options:\n"                                                           \
	"  -f, --networks FILE   more networks, one per line ('#' comments)\n" \
	"  -n, --network KEY     list: only the network KEY (as listed)\n"     \
	"      --nick NICK       the nick to ask for (default: irc.nick)\n"    \
	"      --require-consent crawl only networks saying index:allow\n"     \
	"      --insecure        TLS without certificate checks (test "        \
	"servers)\n" HEED_CLI_CONFIG_HELP                                      \
	"  -h, --help            this help\n"                                  \
	"\n"                                                                   \
	"Exit status of crawl, check and reset: 0 done (every network\n"       \
	"visited, or skipped for its cooldown; reset: every network reset),\n" \
	"1 a failure or nothing done (a network failed, was unreachable,\n"    \
	"banned heed, did not resolve or was refused by heed's address\n"      \
	"policy; reset: a network not in the store), 2 usage or settings\n"    \
	"error, 130 stopped by SIGINT or SIGTERM after the visits under way\n" \
	"said QUIT and were stored.\n"

#define STORE_HELP                                                             \
	"Usage: heed store migrate --from LOCATION --to LOCATION [--batch "    \
	"N]\n"                                                                 \
	"Copy a store to another, SQLite or PostgreSQL, in either direction\n" \
	"(docs/scaling.md, \"Moving a store to PostgreSQL\").\n"               \
	"\n"                                                                   \
	"LOCATION is a SQLite file or a postgresql:// URI. The source is\n"    \
	"only read. The destination is made (or opened) and brought to this\n" \
	"heed's versions; it must hold no heed data. Both stores' crawl\n"     \
	"locks are held while copying. A source holding data in an area the\n" \
	"destination's backend does not have yet is refused, naming it.\n"     \
	"Every table is copied in one transaction, ids kept; the search\n"     \
	"index is rebuilt by the destination. Then each table's rows and a\n"  \
	"checksum of them are printed for both stores.\n"                      \
	"\n"                                                                   \
	"Options:\n"                                                           \
	"      --from LOCATION  the store to copy\n"                           \
	"      --to LOCATION    the new store\n"                               \
	"      --batch N        rows read per batch and between progress\n"    \
	"                       updates (default 1000)\n"                      \
	"  -q, --quiet          no progress\n"                                 \
	"  -h, --help           this help\n"                                   \
	"\n"                                                                   \
	"Exit status: 0 copied and verified, 1 a failure or a table that\n"    \
	"differs after the copy, 2 usage error or a refusal (a destination\n"  \
	"holding data, areas missing or at other versions; nothing copied),\n" \
	"75 a store in use by a heed crawl.\n"

const struct heed_cli_command heed_cli_commands[] = {
        {"crawl", "crawl sites and store their pages' metadata", CRAWL_HELP,
         heed_cmd_crawl},
        {"export", "write stored records (web pages, IRC) as JSON Lines or CSV",
         EXPORT_HELP, heed_cmd_export},
        {"stats", "count stored pages per site and status", STATS_HELP,
         heed_cmd_stats},
        {"queue", "show what is due for a revisit, and when", QUEUE_HELP,
         heed_cmd_queue},
        {"serve", "serve the public index: web pages and a JSON API",
         SERVE_HELP, heed_cmd_serve},
        {"irc", "crawl IRC networks, check their CRAWLER token, list them",
         IRC_HELP, heed_cmd_irc},
        {"store", "copy a store between SQLite and PostgreSQL", STORE_HELP,
         heed_cmd_store},
        {"robots", "check URLs against a robots.txt, or lint it", ROBOTS_HELP,
         heed_cmd_robots},
        {"site", "qualify sites (robots.txt lifecycle), report, reset",
         SITE_HELP, heed_cmd_site},
        {"sites", "record per-site arrangements with site owners", SITES_HELP,
         heed_cmd_sites},
        {"extract", "show the metadata heed takes from a page or feed",
         EXTRACT_HELP, heed_cmd_extract},
        {"verify", "check that an IP is the operator's crawler", VERIFY_HELP,
         heed_cmd_verify},
        {"page", "write the operator's crawler page", PAGE_HELP, heed_cmd_page},
        {"dns", "look up names and addresses as heed does", DNS_HELP,
         heed_cmd_dns},
        {"version", "print versions and exit", VERSION_HELP, heed_cmd_version},
};

const size_t heed_cli_command_count = HEED_ARRAY_SIZE(heed_cli_commands);

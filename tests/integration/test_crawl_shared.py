"""heed crawl on a shared-address web served by a real nginx: 250 sites on
ONE loopback address, told apart by the Host header (name-based virtual
hosts), names resolved by a dnsmasq of the test's own,
default politeness settings. Judged from nginx's access log: no site gets
two requests less than 1 s apart, and every site is crawled whole
(robots.txt, home page and its 4 pages answered 200, 5 records stored).

nginx logs $msec, the END of a request, and $request_time, both with
millisecond resolution; a request's start is $msec - $request_time, which
is nginx's clock (truncated to the millisecond) when it read the request.
Starts are compared in whole milliseconds, so a logged gap of 0.999 s
means a true gap between 0.998 s and 1.000 s: under 1 s, a failure.
"""

import os
import sqlite3
import tempfile
from urllib.parse import urlsplit

from heedtest import (Checks, Dnsmasq, VirtualHostNginx, free_port,
                      run_heed_timed, scaled)
from loadserver import analyse, site_names, summary, write_sites

ADDRESS = "127.0.0.64"
SITES = 250
PAGES = 4
# Seconds; a good crawler needs about 10 (7 requests a site, 1 s apart,
# all sites in parallel).
HEED_TIMEOUT = scaled(50)


names = site_names(SITES)
paths = ["/robots.txt", "/"] + [f"/p/{i}.html" for i in range(PAGES)]
expected = {(h, p) for h in names for p in paths}
tmp = tempfile.mkdtemp(prefix="heed-shared-")
www = os.path.join(tmp, "www")
write_sites(www, names, PAGES)
store = os.path.join(tmp, "heed.db")
seeds = os.path.join(tmp, "sites.txt")
port = free_port(ADDRESS)
with open(seeds, "w") as f:
    f.write("".join(f"http://{h}:{port}/\n" for h in names))

with VirtualHostNginx(ADDRESS, port, www, HEED_TIMEOUT + 30) as nginx, \
        Dnsmasq(hosts={h: [ADDRESS] for h in names}) as dns:
    rc, err, took = run_heed_timed(
        "crawl", "--store", store, "--allow-private", "--dns-server",
        dns.server, "--contact-email", "ops@example.org", "--quiet",
        "--sites", seeds, timeout=HEED_TIMEOUT)
    log = nginx.access()

a = analyse(log, expected=expected)
print(f"shared nginx: heed exit {rc} after {took:.1f} s ({SITES} sites x "
      f"{PAGES} pages on {ADDRESS}:{port}, {len(expected)} URLs that "
      f"exist); {len({r['conn'] for r in log})} TCP connections")
print(summary(a, inflight=False), flush=True)

try:
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=10)
    rows = db.execute("SELECT url, status FROM pages").fetchall()
    db.close()
except sqlite3.Error as e:
    rows = []
    print(f"  store unreadable: {e}")
records = {}
for url, status in rows:
    u = urlsplit(url)
    records.setdefault(u.hostname, []).append((u.path or "/", status))
print(f"  store: {len(rows)} records for {len(records)} sites; "
      f"{sum(1 for h in names if len(records.get(h, [])) == PAGES + 1)} "
      f"sites with {PAGES + 1}", flush=True)


def check_heed_finished():
    assert rc == 0, (f"exit {rc} after {took:.0f} s"
                     + (" (timed out)" if rc is None else "")
                     + f"; stderr: {err.strip()[-500:]}")


def check_no_same_site_gap_under_1s():
    assert a["gaps_under"] == 0, (
        f"{a['gaps_under']} gaps under 1 s on {len(a['gap_sites'])} "
        f"sites, shortest {a['gap_shortest']:.3f} s, e.g. "
        f"{a['gaps_short'][:3]}")


def check_one_request_per_site_per_second():
    assert a["max_per_window"] <= 1, (
        f"{a['max_per_window']} requests to one site within 1 s")


def check_every_site_crawled():
    assert a["sites"] == SITES and a["coverage"] == 1, (
        f"{a['sites']} sites contacted; coverage {a['coverage']:.1%}, "
        f"{len(a['missing'])} missing, e.g. {a['missing'][:5]}")


def check_five_records_per_site():
    bad = {h: sorted(records.get(h, [])) for h in names
           if sorted(records.get(h, [])) !=
           sorted((p, 200) for p in paths if p != "/robots.txt")}
    assert not bad, (f"{len(bad)} sites without their {PAGES + 1} records "
                     f"with 200, e.g. {list(bad.items())[:2]}")


Checks().main([
    check_heed_finished,
    check_no_same_site_gap_under_1s,
    check_one_request_per_site_per_second,
    check_every_site_crawled,
    check_five_records_per_site,
])

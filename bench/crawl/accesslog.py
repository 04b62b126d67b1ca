#!/usr/bin/env python3
"""bench/crawl/accesslog.py: courtesy figures from a web server's access log.

The crawl benchmark judges a crawler by what the server saw, never by the
crawler's own counters. nginx writes one line per request in FORMAT below;
`$msec` is the time the line is written, that is the END of the request,
and `$request_time` the time since nginx read the request's first bytes,
so a request STARTED at `$msec - $request_time`. Both have millisecond
resolution: every time is turned into whole milliseconds before any
arithmetic, so a gap of exactly 1.000 s is never seen as 0.999... s.

analyse() takes (site, start_s, end_s, status, uri) tuples and returns:

- same-site gaps: for each site, the gaps between consecutive request
  starts (sorted by start); how many are under 1.000 s (and under 0.990 s,
  beyond any millisecond rounding of the two times), the shortest, the
  median, and how many sites have at least one gap under 1.000 s;
- the most requests to one site in any window [t, t + 1.000 s) (inclusive
  of its start, exclusive of its end), over every t: the busiest window
  always starts at a request, so each request's start is tried;
- requests in flight: a request with a duration is in flight over
  [start, end); one whose start and end fall in the same millisecond is in
  flight at that instant only (it overlaps what else is in flight then,
  and what starts in that millisecond). The peak over all the tuples given
  (one address, for the shared web), the most to one site at once, and
  the mean: the sum of the durations divided by the span from the first
  start to the last end (the time-weighted mean, Little's law; near 0
  when most requests take under a millisecond), and the mean that the
  requests found as they started (itself included);
- status counts and distinct (site, uri) pages answered 200.

`python3 bench/crawl/accesslog.py --self-test` checks the arithmetic on
hand-made cases; `python3 bench/crawl/accesslog.py LOG...` prints the
figures of nginx logs in FORMAT (site = the Host, or with --by-address the
server address).
"""
import argparse
import collections
import json
import sys

# The log_format the bench gives nginx: request_uri last, so that the line
# splits into a fixed number of fields whatever the URI holds.
FORMAT = ("$msec $request_time $status $connection $connection_requests "
          "$server_addr $server_port $host $request_method $body_bytes_sent "
          "$request_uri")
FIELDS = 11

Entry = collections.namedtuple(
    "Entry", "start_ms end_ms status connection connection_requests "
    "server_addr server_port host method bytes uri")

GAP_MS = 1000       # the courtesy delay: one request per second per site
NEAR_GAP_MS = 990   # under this, a short gap is not millisecond rounding
WINDOW_MS = 1000    # the sliding window for "requests to one site in 1 s"


def seconds_to_ms(text):
    """'1700000000.123' -> 1700000000123, exactly (no float)."""
    whole, _, frac = text.partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def parse_line(line):
    """One log line in FORMAT -> Entry, or None when it does not parse."""
    parts = line.rstrip("\n").split(" ", FIELDS - 1)
    if len(parts) != FIELDS:
        return None
    try:
        end_ms = seconds_to_ms(parts[0])
        took_ms = seconds_to_ms(parts[1])
        return Entry(end_ms - took_ms, end_ms, int(parts[2]), int(parts[3]),
                     int(parts[4]), parts[5], parts[6], parts[7].lower(),
                     parts[8], int(parts[9]) if parts[9].isdigit() else 0,
                     parts[10])
    except ValueError:
        return None


def read_log(path):
    """Every parsed Entry of one log file, and the count of bad lines."""
    entries, bad = [], 0
    with open(path, errors="replace") as f:
        for line in f:
            e = parse_line(line)
            if e is None:
                bad += 1
            else:
                entries.append(e)
    return entries, bad


def to_ms(t):
    return int(round(t * 1000))


def _median(sorted_values):
    n = len(sorted_values)
    if n == 0:
        return None
    if n % 2:
        return sorted_values[n // 2]
    return (sorted_values[n // 2 - 1] + sorted_values[n // 2]) / 2


def max_in_window(starts_ms, window_ms=WINDOW_MS):
    """The most of the sorted start times in any [t, t + window_ms)."""
    best, j = 0, 0
    for i, t in enumerate(starts_ms):
        if j < i:
            j = i
        while j < len(starts_ms) and starts_ms[j] < t + window_ms:
            j += 1
        best = max(best, j - i)
    return best


def in_flight(intervals_ms):
    """(peak, mean at starts) of the intervals (start, end) in flight:
    [start, end) for a positive duration, the instant {start} for a zero
    one. The mean at starts is the number in flight (itself included) that
    each request found as it started, averaged over the requests."""
    # At one millisecond: ends of positive requests first (a request
    # ending as the next starts does not overlap it), then starts, then
    # the ends of zero-length requests (which overlap what starts with them).
    events = []
    for s, e in intervals_ms:
        events.append((s, 1, 1))
        events.append((e, 0 if e > s else 2, -1))
    events.sort()
    peak = cur = seen = 0
    for _, _, d in events:
        cur += d
        peak = max(peak, cur)
        if d > 0:
            seen += cur
    return peak, (seen / len(intervals_ms) if intervals_ms else None)


def peak_in_flight(intervals_ms):
    return in_flight(intervals_ms)[0]


def analyse(requests, is_page=None):
    """Figures of (site, start_s, end_s, status, uri) tuples, in any order.

    is_page(uri) says which URIs are pages (default: all but /robots.txt)
    for pages_200. Returns a dict of plain values (JSON-ready); times are
    in seconds with millisecond resolution, None where there is nothing
    to measure (no gap, no request)."""
    if is_page is None:
        def is_page(uri):
            return uri != "/robots.txt"
    by_site = collections.defaultdict(list)
    statuses = collections.Counter()
    pages = set()
    asked = collections.Counter()
    intervals = []
    for site, start_s, end_s, status, uri in requests:
        asked[(site, uri)] += 1
        s, e = to_ms(start_s), to_ms(end_s)
        if e < s:
            e = s
        by_site[site].append((s, e))
        intervals.append((s, e))
        statuses[int(status)] += 1
        if int(status) == 200 and is_page(uri):
            pages.add((site, uri))
    gaps = []
    under = under_near = 0
    sites_under = 0
    window = site_flight = 0
    for site, iv in by_site.items():
        iv.sort()
        starts = [s for s, _ in iv]
        site_gaps = [b - a for a, b in zip(starts, starts[1:])]
        short = sum(1 for g in site_gaps if g < GAP_MS)
        under += short
        under_near += sum(1 for g in site_gaps if g < NEAR_GAP_MS)
        sites_under += short > 0
        gaps.extend(site_gaps)
        window = max(window, max_in_window(starts))
        site_flight = max(site_flight, peak_in_flight(iv))
    gaps.sort()
    busy = sum(e - s for s, e in intervals)
    span = (max(e for _, e in intervals) - min(s for s, _ in intervals)
            if intervals else 0)
    med = _median(gaps)
    peak, at_start = in_flight(intervals)
    return {
        "requests": len(intervals),
        "sites": len(by_site),
        "statuses": {str(k): statuses[k] for k in sorted(statuses)},
        "pages_200": len(pages),
        # (site, URI) pairs the server was asked for more than once: a
        # crawl (or a fleet of workers) should ask each URL once a run.
        "urls_asked_again": sum(1 for n in asked.values() if n > 1),
        "gaps": len(gaps),
        "gaps_under_1s": under,
        "gaps_under_990ms": under_near,
        "sites_with_gap_under_1s": sites_under,
        "shortest_gap_s": gaps[0] / 1000 if gaps else None,
        "median_gap_s": med / 1000 if med is not None else None,
        "max_requests_one_site_1s": window,
        "max_in_flight_one_site": site_flight,
        "peak_in_flight": peak,
        "mean_in_flight": round(busy / span, 3) if span else None,
        "mean_in_flight_at_start": (round(at_start, 3)
                                    if at_start is not None else None),
        "span_s": span / 1000,
        # The log's own clock (seconds since the epoch), for setting the
        # requests against a run's start and end.
        "first_start_s": (min(s for s, _ in intervals) / 1000
                          if intervals else None),
        "last_end_s": (max(e for _, e in intervals) / 1000
                       if intervals else None),
    }


def self_test():
    def run(tuples):
        return analyse([(s, a, b, st, "/") for s, a, b, st in tuples])

    # Two starts 0.999 s apart: one short gap, both in one window.
    r = run([("a", 0.0, 0.0, 200), ("a", 0.999, 0.999, 200)])
    assert r["gaps"] == 1 and r["gaps_under_1s"] == 1, r
    assert r["urls_asked_again"] == 1, r
    assert r["shortest_gap_s"] == 0.999 and r["sites_with_gap_under_1s"] == 1
    assert r["max_requests_one_site_1s"] == 2, r
    assert r["gaps_under_990ms"] == 0, r

    # Exactly 1.000 s apart: not short; [t, t+1) excludes the next start.
    r = run([("a", 0.0, 0.01, 200), ("a", 1.0, 1.01, 200),
             ("a", 2.0, 2.01, 200)])
    assert r["gaps_under_1s"] == 0 and r["shortest_gap_s"] == 1.0, r
    assert r["max_requests_one_site_1s"] == 1, r
    assert r["sites_with_gap_under_1s"] == 0, r

    # Starts 0, 0.5, 0.999, 1.0: [0, 1) holds three, [0.5, 1.5) three.
    r = run([("a", 1.0, 1.0, 200), ("a", 0.5, 0.5, 200),
             ("a", 0.0, 0.0, 200), ("a", 0.999, 0.999, 200)])
    assert r["gaps_under_1s"] == 3 and r["shortest_gap_s"] == 0.001, r
    assert r["max_requests_one_site_1s"] == 3, r
    assert r["gaps_under_990ms"] == 3, r

    # Two sites interleaved, out of order: only b is impolite.
    r = run([("a", 2.0, 2.0, 200), ("b", 0.2, 0.2, 404),
             ("a", 0.0, 0.0, 200), ("b", 0.1, 0.1, 200)])
    assert r["gaps"] == 2 and r["gaps_under_1s"] == 1, r
    assert r["sites_with_gap_under_1s"] == 1 and r["sites"] == 2, r
    assert r["shortest_gap_s"] == 0.1, r
    assert r["median_gap_s"] == (0.1 + 2.0) / 2, r
    assert r["statuses"] == {"200": 3, "404": 1}, r

    # Start = $msec - $request_time from log text: exact milliseconds, so a
    # 1.000 s gap stays 1.000 s (floats would give 0.99999...).
    e1 = parse_line("1700000000.128 0.005 200 7 1 127.0.0.2 18081 "
                    "s00001.bench.test GET 12 /p/1.html\n")
    e2 = parse_line("1700000001.130 0.007 200 7 2 127.0.0.2 18081 "
                    "S00001.bench.test GET 12 /p/2.html\n")
    assert e1.start_ms == 1700000000123 and e2.start_ms == 1700000001123
    assert e2.host == "s00001.bench.test"
    r = analyse([(e.host, e.start_ms / 1000, e.end_ms / 1000, e.status,
                  e.uri) for e in (e1, e2)])
    assert r["gaps_under_1s"] == 0 and r["shortest_gap_s"] == 1.0, r
    assert r["pages_200"] == 2 and r["sites"] == 1, r
    assert parse_line("garbage\n") is None

    # In flight: [0,2) [1,3) [2,4): peak 2 (the one ending at 2 is gone
    # when the third starts); mean = 6 s busy / 4 s span.
    r = run([("a", 0.0, 2.0, 200), ("b", 1.0, 3.0, 200),
             ("c", 2.0, 4.0, 200)])
    assert r["peak_in_flight"] == 2 and r["mean_in_flight"] == 1.5, r
    assert r["mean_in_flight_at_start"] == round((1 + 2 + 2) / 3, 3), r
    assert r["max_in_flight_one_site"] == 1, r
    # Back to back on one site: never two at once.
    r = run([("a", 0.0, 1.0, 200), ("a", 1.0, 2.0, 200)])
    assert r["peak_in_flight"] == 1 and r["max_in_flight_one_site"] == 1, r
    # Zero-length requests in one millisecond overlap one another, and
    # overlap a longer one in flight then.
    r = run([("a", 5.0, 5.0, 200), ("b", 5.0, 5.0, 200),
             ("c", 4.0, 6.0, 200)])
    assert r["peak_in_flight"] == 3, r
    assert r["mean_in_flight_at_start"] == (1 + 2 + 3) / 3, r
    # Two in flight to one site at once.
    r = run([("a", 0.0, 1.5, 200), ("a", 0.2, 0.3, 200)])
    assert r["max_in_flight_one_site"] == 2, r

    # Robots.txt is no page; pages are counted once per (site, uri).
    r = analyse([("a", 0, 0, 200, "/robots.txt"), ("a", 1, 1, 200, "/"),
                 ("a", 2, 2, 200, "/"), ("b", 1, 1, 200, "/"),
                 ("b", 2, 2, 404, "/x")])
    assert r["pages_200"] == 2, r

    # Nothing at all.
    r = analyse([])
    assert r["requests"] == 0 and r["shortest_gap_s"] is None, r
    assert r["peak_in_flight"] == 0 and r["mean_in_flight"] is None, r
    assert r["mean_in_flight_at_start"] is None, r
    assert max_in_window([]) == 0
    print("accesslog self-test: 11 cases passed")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--by-address", action="store_true",
                    help="site = the server address, not the Host")
    ap.add_argument("logs", nargs="*")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.logs:
        ap.error("give --self-test or LOG files")
    tuples = []
    for path in a.logs:
        for e in read_log(path)[0]:
            site = e.server_addr if a.by_address else e.host
            tuples.append((site, e.start_ms / 1000, e.end_ms / 1000,
                           e.status, e.uri))
    print(json.dumps(analyse(tuples), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

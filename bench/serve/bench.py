#!/usr/bin/env python3
"""bench/serve: `heed serve` over a store of generated records.

1. The store: build/bench/bench_serve_gen writes RECORDS records (default
   1,000,000) through the store's API in transactions of 10,000, as a
   crawl does, so the search area's FTS5 triggers index them on the way;
   it prints its write rate and the store's size. The store is kept under
   the build directory (bench/serve-store-N-SEED.db) and reused while its
   schema (tables, indexes, triggers) and its areas' versions are the
   ones the generator writes today; --regen forces a new one, --upgrade
   migrates one of an older schema instead (bench_serve_gen -u, the
   migration a writer runs).
2. The server: `heed serve --store STORE --listen 127.0.0.1:0`, started
   by this script, killed by it on every way out (and by the kernel when
   this script dies: PR_SET_PDEATHSIG).
3. Search latency: a fixed, seeded mix of queries sent one after the other
   over one kept-alive connection to /api/v1/search: a common word (ranks
   20-60 of the sample's words; the 20 before are the stop words of this
   vocabulary), a rare word (seen at most twice in the sample), two words, a phrase, a prefix, a word with a tag filter, with a
   site filter, sort=views, sort=date, and page 2 (the next_cursor of the
   first page; only the second request is timed). Words, tags, sites and
   phrases are drawn from a sample of the stored records. A sample of the
   same mix goes to /search (HTML). p50, p95, p99 and max per kind and
   overall, the time from sending the request to reading the whole answer.
   With --best-of N the API mix is sent again, each query N times in a
   row with its fastest time kept, which takes a busy machine's share out
   of the figures as far as it can be. The server's CPU for each request
   (all its threads, /proc/PID/task/*/schedstat) is printed by kind too:
   what a request cost, whatever it waited for on a shared machine.
4. Record pages per second: wrk (-t2 -c16 -d15s by default) with
   bench/serve/records.lua on /records/ID (HTML) and then /api/v1/records/ID,
   IDs drawn from the records that may be shown.
5. The server's RSS (VmRSS, VmHWM) and its parts, anonymous memory
   (RssAnon: what the server holds) and the file pages of the store's
   memory maps (RssFile: the kernel's page cache, counted once per
   mapping), sampled for their peaks; CPU seconds (utime + stime from
   /proc/PID/stat) per phase.

Only loopback; every step bounded (generator --gen-timeout, requests 30 s
each, wrk -d plus 30 s).

Usage:

    ninja -C build && python3 bench/serve/bench.py [--build build]
        [--records 1000000] [--seed 0x5eed2026] [--queries 2000]
        [--html 200] [--wrk-seconds 15] [--wrk-connections 16]
        [--wrk-threads 2] [--threads N] [--best-of N] [--regen | --upgrade]
        [--kinds phrase,tag] [--json]

--kinds times only the named kinds of the same mix (the queries the whole
mix would send of those kinds, in the same order) and skips the HTML
searches and wrk: a quicker run to compare two builds on a few kinds.
"""
import argparse
import csv
import ctypes
import io
import http.client
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLK_TCK = os.sysconf("SC_CLK_TCK")
KINDS = ["common", "rare", "two", "phrase", "prefix", "tag", "site",
         "views", "date", "page2"]


def die(msg):
    print("bench/serve: " + msg, file=sys.stderr)
    sys.exit(1)


def die_with_parent():
    """preexec_fn: the server gets SIGKILL when this script dies, however."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


# ---- the store


def store_for(args):
    gen = os.path.join(args.build, "bench", "bench_serve_gen")
    if not os.access(gen, os.X_OK):
        die("no %s: ninja -C %s bench/bench_serve_gen" % (gen, args.build))
    path = os.path.join(os.path.abspath(args.build), "bench", "serve-store-%d-%s.db"
                        % (args.records, args.seed))
    if os.path.exists(path) and not args.regen:
        if same_schema(gen, path):
            print("store: %s (cached; --regen to write it again)" % path)
            return path, None
        if args.upgrade:
            return upgraded(gen, path, args)
    for suffix in ("", "-wal", "-shm", ".tmp", ".tmp-wal", ".tmp-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)
    tmp = path + ".tmp"
    print("store: generating %d records into %s" % (args.records, path),
          flush=True)
    try:
        out = subprocess.run([gen, "-n", str(args.records), "-s", args.seed,
                              tmp], stdout=subprocess.PIPE, text=True,
                             timeout=args.gen_timeout, check=True).stdout
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError) as e:
        die("generator failed: %s" % e)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            die("the generator left %s behind" % (tmp + suffix))
    os.rename(tmp, path)
    gen_figures = {}
    for line in out.splitlines():
        print("  " + line)
        m = re.match(r"write rate: (\d+)", line)
        if m:
            gen_figures["records_per_s"] = int(m.group(1))
        m = re.match(r"write time: ([\d.]+)", line)
        if m:
            gen_figures["seconds"] = float(m.group(1))
        m = re.match(r"store size: ([\d.]+) MiB", line)
        if m:
            gen_figures["store_mib"] = float(m.group(1))
    return path, gen_figures


def upgraded(gen, path, args):
    """The cached store of an older schema, migrated by opening it for
    writing (--upgrade): what `heed crawl` does to an operator's store."""
    print("store: upgrading %s to this heed's schema" % path, flush=True)
    try:
        out = subprocess.run([gen, "-u", path], stdout=subprocess.PIPE,
                             text=True, timeout=args.gen_timeout,
                             check=True).stdout
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError) as e:
        die("upgrade failed: %s" % e)
    print("  " + out.strip())
    if not same_schema(gen, path):
        die("the upgraded store's schema is not the generator's: --regen")
    m = re.match(r"upgrade time: ([\d.]+)", out)
    return path, {"upgrade_s": float(m.group(1))} if m else None


def schema_of(path):
    """The store's tables, indexes and triggers, and its areas' versions:
    a version may change the index alone (search area 9, word pairs)."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        return db.execute("SELECT group_concat(sql, ';') FROM (SELECT sql "
                          "FROM sqlite_master ORDER BY name)").fetchone(), \
            db.execute("SELECT group_concat(area || version, ';') FROM "
                       "(SELECT area, version FROM heed_schema ORDER BY "
                       "area)").fetchone()
    finally:
        db.close()


def same_schema(gen, path):
    """Whether the cached store has the tables, indexes and triggers that
    the generator (linking today's libheed) writes: a one-record store
    says."""
    with tempfile.TemporaryDirectory(prefix="heed-bench-serve-") as d:
        probe = os.path.join(d, "probe.db")
        subprocess.run([gen, "-n", "1", probe], stdout=subprocess.DEVNULL,
                       timeout=60, check=True)
        return schema_of(probe) == schema_of(path)


class PgReader:
    """The few reads of sample_store on a PostgreSQL store, through psql
    (Debian's postgresql-client; no Python driver needed), rows as
    sqlite3 gives them."""

    def __init__(self, url):
        if not shutil.which("psql"):
            die("psql is missing (Debian package postgresql-client)")
        self.url = url

    def execute(self, sql):
        out = subprocess.run(
            ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.url,
             "-c", "COPY (%s) TO STDOUT WITH (FORMAT csv)" % sql],
            stdout=subprocess.PIPE, text=True, timeout=600, check=True)
        # Every statement here starts with an id; the rest is text.
        return Rows((int(r[0]),) + tuple(v or None for v in r[1:])
                    for r in csv.reader(io.StringIO(out.stdout)))

    def close(self):
        pass


class Rows(list):
    def fetchone(self):
        return self[0] if self else None

    def fetchall(self):
        return list(self)


def sample_store(path, seed, count=3000, pg_url=None):
    """Words, phrases, tags, sites and showable ids from the stored records
    (read-only): of the SQLite store at path, or of the PostgreSQL store
    at pg_url, which holds the same records when the generator wrote both
    with the same N and seed. Frequencies are estimated from the
    sample."""
    db = PgReader(pg_url) if pg_url else \
        sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    (top,) = db.execute("SELECT max(id) FROM pages").fetchone()
    rng = random.Random(seed)
    ids = sorted(rng.sample(range(1, top + 1), min(count, top)))
    rows = []
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        rows += db.execute(
            "SELECT id, host, title, record, permissions FROM pages "
            "WHERE status = 200 AND id IN (%s) ORDER BY id"
            % ",".join(map(str, chunk))).fetchall()
    # Every page that may be shown, for wrk: the generator hides pages with
    # ACAP present refused and with unavailable_after passed, nothing else.
    shown = [r[0] for r in db.execute(
        "SELECT id FROM pages WHERE status BETWEEN 200 AND 299 "
        "AND permissions NOT LIKE '%\"permitted\":false,\"line\":5%' "
        "AND permissions NOT LIKE '%unavailable_after%' ORDER BY id")]
    db.close()
    freq, docs, tags, hosts, titles = {}, {}, {}, [], []
    for _id, host, title, record, _perms in rows:
        rec = json.loads(record)
        text = (title or "") + " " + rec.get("description", {}).get(
            "value", "")
        for w in text.lower().split():
            freq[w] = freq.get(w, 0) + 1
        for w in set(text.lower().split()):
            docs[w] = docs.get(w, 0) + 1
        for t in rec.get("tags", []):
            tags[t["value"]] = tags.get(t["value"], 0) + 1
        hosts.append(host)
        if title:
            titles.append(title.lower().split())
    by_freq = sorted(freq, key=lambda w: (-freq[w], w))

    def share(words):
        return "%.2g-%.2g%%" % (100.0 * docs[words[-1]] / len(rows),
                                100.0 * docs[words[0]] / len(rows))

    # The 20 most frequent words are this vocabulary's stop words (in 30
    # to 95% of the records): nobody searches for "the" alone.
    common, mid = by_freq[20:60], by_freq[100:600]
    print("query words: common in %s of the records, the others in %s"
          % (share(common), share(mid)))
    return {
        "common": common,
        "mid": mid,
        "rare": sorted(w for w in freq if freq[w] <= 2),
        "tags": sorted(tags, key=lambda t: (-tags[t], t))[:100],
        "hosts": hosts,  # as often as they hold pages
        "titles": titles,
        "shown": shown,
    }


def query_mix(sample, n, seed):
    """n (kind, params) in a fixed order: each kind n / len(KINDS) times."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        common, mid = sample["common"], sample["mid"]
        if kind == "common":
            p = {"q": rng.choice(common)}
        elif kind == "rare":
            p = {"q": rng.choice(sample["rare"])}
        elif kind == "two":
            p = {"q": rng.choice(mid) + " " + rng.choice(mid)}
        elif kind == "phrase":
            t = rng.choice(sample["titles"])
            j = rng.randrange(len(t) - 1)
            p = {"q": '"%s %s"' % (t[j], t[j + 1])}
        elif kind == "prefix":
            p = {"q": rng.choice(mid)[:3] + "*"}
        elif kind == "tag":
            p = {"q": rng.choice(mid), "tag": rng.choice(sample["tags"])}
        elif kind == "site":
            p = {"q": rng.choice(mid), "site": rng.choice(sample["hosts"])}
        elif kind == "views":
            p = {"q": rng.choice(mid), "sort": "views"}
        elif kind == "date":
            p = {"q": rng.choice(mid), "sort": "date"}
        else:
            p = {"q": rng.choice(mid)}
        out.append((kind, p))
    rng.shuffle(out)
    return out


# ---- the server


class Server:
    def __init__(self, heed, store, threads, tmp):
        cmd = [heed, "serve", "--store", store, "--listen", "127.0.0.1:0"]
        if threads:
            cmd += ["--threads", str(threads)]
        self.log = open(os.path.join(tmp, "serve.log"), "w+")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True,
                                     cwd=tmp,  # no ./heed.ini
                                     preexec_fn=die_with_parent)
        self.port = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                break
        # Keep reading what it prints, so that a full pipe never blocks it.
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        if not self.port:
            self.stop()
            self.log.seek(0)
            die("heed serve did not start: " + self.log.read()[-2000:])

    def cpu_ns(self):
        """CPU time of all the server's threads, ns (schedstat: finer than
        /proc/PID/stat's ticks, so one request's share can be read)."""
        total = 0
        task = "/proc/%d/task" % self.proc.pid
        for tid in os.listdir(task):
            try:
                with open("%s/%s/schedstat" % (task, tid)) as f:
                    total += int(f.read().split()[0])
            except OSError:
                pass  # a thread that ended meanwhile
        return total

    def cpu_s(self):
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def memory_kib(self):
        """VmRSS and its parts: RssAnon (heap, stacks, SQLite's page
        caches: memory the server holds), RssFile (pages of the store's
        memory maps, shared with the kernel's page cache, counted once per
        mapping: every read-only connection maps the file), and VmHWM,
        the kernel's peak of VmRSS; plus the peaks of RssAnon and RssFile
        this script sampled (start_sampling)."""
        out = {}
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile",
                           "Threads"):
                    out[key] = int(value.split()[0])
        for key in ("RssAnon", "RssFile"):
            peak = getattr(self, "peak", {}).get(key, 0)
            out["peak" + key] = max(peak, out.get(key, 0))
        return out

    def start_sampling(self, every_s=0.1):
        """Samples RssAnon and RssFile in a thread until the server ends,
        for their peaks (the kernel keeps only VmRSS's)."""
        self.peak = {}

        def run():
            while self.proc.poll() is None:
                try:
                    m = self.memory_kib()
                except OSError:
                    return
                for key in ("RssAnon", "RssFile"):
                    self.peak[key] = max(self.peak.get(key, 0),
                                         m.get(key, 0))
                time.sleep(every_s)

        threading.Thread(target=run, daemon=True).start()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---- the measurements


def percentiles(ms):
    s = sorted(ms)
    if not s:
        return {}

    def at(p):
        return s[min(len(s) - 1, int(p / 100.0 * len(s)))]

    return {"n": len(s), "p50": at(50), "p95": at(95), "p99": at(99),
            "max": s[-1], "mean": statistics.fmean(s)}


def get(conn, path, server):
    """One request: its time (ms), the server's CPU for it (ms: all its
    threads, read before and after), status and body."""
    cpu0 = server.cpu_ns()
    t0 = time.perf_counter()
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read()
    ms = (time.perf_counter() - t0) * 1000.0
    return ms, (server.cpu_ns() - cpu0) / 1e6, r.status, body


def best_get(conn, path, server, best_of):
    """get() best_of times in a row: the fastest time and the least CPU,
    and the answer."""
    ms, cpu, status, body = get(conn, path, server)
    for _ in range(best_of - 1):
        again = get(conn, path, server)
        ms, cpu = min(ms, again[0]), min(cpu, again[1])
    return ms, cpu, status, body


def run_searches(server, mix, prefix, best_of=1):
    """Times of mix's requests by kind, the server's CPU for each (ms),
    statuses other than 200 and empty answers."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    times = {k: [] for k in KINDS}
    cpus = {k: [] for k in KINDS}
    bad = {}
    empty = {k: 0 for k in KINDS}
    for kind, params in mix:
        path = prefix + "?" + urllib.parse.urlencode(params)
        ms, cpu, status, body = best_get(conn, path, server, best_of)
        if kind == "page2" and status == 200 and prefix.startswith("/api"):
            cursor = json.loads(body).get("next_cursor")
            if not cursor:
                empty[kind] += 1
                continue
            params = dict(params, cursor=cursor)
            ms, cpu, status, body = best_get(
                conn, prefix + "?" + urllib.parse.urlencode(params), server,
                best_of)
        if status != 200:
            bad.setdefault(kind, {}).setdefault(status, 0)
            bad[kind][status] += 1
            continue
        if prefix.startswith("/api") and not json.loads(body).get("items"):
            empty[kind] += 1
        times[kind].append(ms)
        cpus[kind].append(cpu)
    conn.close()
    return times, cpus, bad, empty


def show_cpu(cpus):
    """The server's CPU per request by kind: on a machine shared with
    other jobs, what the request cost rather than how long it waited."""
    print("  server CPU per request, ms: " + ", ".join(
        "%s %.1f / %.1f" % (k, percentiles(v)["p50"], percentiles(v)["p95"])
        for k, v in cpus.items() if v) + " (p50 / p95)")
    return {k: percentiles(v) for k, v in cpus.items() if v}


def run_wrk(args, port, ids_file, route):
    lua = os.path.join(HERE, "records.lua")
    cmd = ["wrk", "-t%d" % args.wrk_threads, "-c%d" % args.wrk_connections,
           "-d%ds" % args.wrk_seconds, "--timeout", "10s", "-s", lua,
           "http://127.0.0.1:%d" % port, "--", ids_file, route,
           str(int(args.seed, 0))]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True,
                         timeout=args.wrk_seconds + 30, check=True).stdout
    fig = {}
    for line in out.splitlines():
        if line.startswith("BENCH "):
            _, key, value = line.split()
            fig[key] = float(value)
    return fig


def show_table(title, times, bad, empty):
    print(title)
    print("  %-8s %6s %8s %8s %8s %8s %6s %6s" % (
        "kind", "n", "p50 ms", "p95 ms", "p99 ms", "max ms", "empty",
        "non200"))
    every = []
    for kind in KINDS:
        p = percentiles(times[kind])
        every += times[kind]
        nb = sum(bad.get(kind, {}).values())
        if not p:
            print("  %-8s %6d %8s %8s %8s %8s %6d %6d" % (
                kind, 0, "-", "-", "-", "-", empty[kind], nb))
            continue
        print("  %-8s %6d %8.1f %8.1f %8.1f %8.1f %6d %6d" % (
            kind, p["n"], p["p50"], p["p95"], p["p99"], p["max"],
            empty[kind], nb))
    p = percentiles(every)
    if p:
        print("  %-8s %6d %8.1f %8.1f %8.1f %8.1f" % (
            "all", p["n"], p["p50"], p["p95"], p["p99"], p["max"]))
    if bad:
        print("  statuses other than 200: %s" % json.dumps(bad))
    return p


def html_and_wrk(args, server, sample, ids_file, fig):
    """The HTML searches and the record pages per second (wrk)."""
    html_mix = query_mix(sample, args.html, int(args.seed, 0) + 1)
    times, cpus, bad, empty = run_searches(server, html_mix, "/search")
    fig["html_search"] = show_table(
        "search /search (HTML), %d queries:" % len(html_mix), times, bad,
        empty)
    fig["html_search_cpu_ms"] = show_cpu(cpus)

    for route in ("/records/", "/api/v1/records/"):
        cpu0 = server.cpu_s()
        w = run_wrk(args, server.port, ids_file, route)
        w["server_cpu_s"] = server.cpu_s() - cpu0
        fig["wrk " + route] = w
        print("wrk -t%d -c%d -d%ds %sID: %.0f requests/s, p50 %.2f ms, "
              "p90 %.2f, p99 %.2f, max %.1f ms, non-2xx %d, errors %d, "
              "server CPU %.1f s" % (
                  args.wrk_threads, args.wrk_connections,
                  args.wrk_seconds, route, w["rate"], w["p50_ms"],
                  w["p90_ms"], w["p99_ms"], w["max_ms"], w["non2xx"],
                  w["errors"], w["server_cpu_s"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--heed", help="default: BUILD/heed")
    ap.add_argument("--records", type=int, default=1000000)
    ap.add_argument("--seed", default="0x5eed2026")
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--html", type=int, default=200)
    ap.add_argument("--wrk-seconds", type=int, default=15)
    ap.add_argument("--wrk-threads", type=int, default=2)
    ap.add_argument("--wrk-connections", type=int, default=16)
    ap.add_argument("--threads", type=int, default=0,
                    help="heed serve --threads (0: its default)")
    ap.add_argument("--gen-timeout", type=int, default=3600)
    ap.add_argument("--regen", action="store_true")
    ap.add_argument("--best-of", type=int, default=1,
                    help="then send each API query N times in a row and "
                    "keep its fastest: the machine's share taken out as "
                    "far as it can be")
    ap.add_argument("--upgrade", action="store_true",
                    help="migrate a cached store of an older schema "
                    "instead of writing it again")
    ap.add_argument("--kinds", help="comma-separated kinds to time alone "
                    "(of %s); no HTML searches, no wrk" % ",".join(KINDS))
    ap.add_argument("--store-pg", metavar="URL",
                    help="serve this PostgreSQL store instead, written by "
                    "`bench_serve_gen -n N -s SEED URL`: the same records "
                    "as the SQLite store of N and SEED; the queries are "
                    "drawn from it (psql), so no SQLite store is written "
                    "(the database server's own CPU and memory are not "
                    "counted)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    only = set(args.kinds.split(",")) if args.kinds else None
    if only and not only <= set(KINDS):
        die("--kinds: unknown %s" % ",".join(sorted(only - set(KINDS))))
    heed = os.path.abspath(args.heed or os.path.join(args.build, "heed"))
    if not shutil.which("wrk"):
        die("wrk is missing (Debian package wrk, scripts/install-deps)")

    if args.store_pg:
        store, gen_fig = None, None
        sample = sample_store(None, int(args.seed, 0), pg_url=args.store_pg)
        print("store: %d records, %d may be shown" % (
            args.records, len(sample["shown"])))
    else:
        store, gen_fig = store_for(args)
        sample = sample_store(store, int(args.seed, 0))
        size = sum(os.path.getsize(store + s) for s in ("", "-wal")
                   if os.path.exists(store + s))
        print("store: %d records, %d may be shown, %.1f MiB" % (
            args.records, len(sample["shown"]), size / 1048576.0))
    tmp = tempfile.mkdtemp(prefix="heed-bench-serve-")
    ids_file = os.path.join(tmp, "ids")
    with open(ids_file, "w") as f:
        f.write("\n".join(map(str, sample["shown"])) + "\n")

    server = None
    # A SIGTERM or SIGINT ends the script through SystemExit, so the
    # finally below stops the server.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda s, f: sys.exit(128 + s))
    fig = {"records": args.records, "seed": args.seed, "generator": gen_fig}
    try:
        t0 = time.monotonic()
        if args.store_pg:
            print("heed serve: the PostgreSQL store %s" % args.store_pg)
        server = Server(heed, args.store_pg or store, args.threads, tmp)
        fig["start_s"] = time.monotonic() - t0
        fig["idle"] = server.memory_kib()
        server.start_sampling()
        print("heed serve: port %d, started in %.2f s, RSS %d KiB, "
              "%d threads" % (server.port, fig["start_s"],
                              fig["idle"]["VmRSS"], fig["idle"]["Threads"]))

        mix = query_mix(sample, args.queries, int(args.seed, 0))
        if only:
            mix = [(kind, p) for kind, p in mix if kind in only]
        cpu0, t0 = server.cpu_s(), time.monotonic()
        times, cpus, bad, empty = run_searches(server, mix,
                                               "/api/v1/search")
        wall = time.monotonic() - t0
        cpu = server.cpu_s() - cpu0
        fig["api_search"] = {k: percentiles(v) for k, v in times.items()}
        fig["api_search"]["all"] = show_table(
            "search /api/v1/search, %d queries, one connection, %.1f s, "
            "server CPU %.1f s:" % (len(mix), wall, cpu), times, bad, empty)
        fig["api_search_cpu_s"] = cpu
        fig["api_search_cpu_ms"] = show_cpu(cpus)
        if args.best_of > 1:
            times, cpus, bad, empty = run_searches(
                server, mix, "/api/v1/search", args.best_of)
            fig["api_search_best"] = {k: percentiles(v)
                                      for k, v in times.items()}
            fig["api_search_best"]["all"] = show_table(
                "the same, each query sent %d times in a row, its fastest "
                "(and its least CPU) kept:" % args.best_of, times, bad,
                empty)
            fig["api_search_best_cpu_ms"] = show_cpu(cpus)

        if not only:
            html_and_wrk(args, server, sample, ids_file, fig)
        fig["end"] = server.memory_kib()
        fig["server_cpu_s"] = server.cpu_s()
        e = fig["end"]
        print("heed serve at the end: RSS %d KiB (anonymous %d, file "
              "pages of the store's maps %d), peak RSS %d KiB (sampled "
              "peaks: anonymous %d KiB, mapped file %d KiB), CPU %.1f s "
              "in all" % (e["VmRSS"], e["RssAnon"], e["RssFile"],
                          e["VmHWM"], e["peakRssAnon"], e["peakRssFile"],
                          fig["server_cpu_s"]))
    finally:
        if server:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(fig, sort_keys=True))


if __name__ == "__main__":
    main()

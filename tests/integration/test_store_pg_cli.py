"""`heed --store postgresql://...`: the URI reaches the
PostgreSQL backend of a real throwaway cluster (tests/pgcluster.py), which
holds every store area now: a crawl stores its page there, the readers
(stats, export, site report) and `heed serve` (its search included) work
on it; no message ever shows the URI's password; a server that is not
there is a clear error. The same crawl of a scripted IRC server lists the
same networks and channels from a SQLite store and from a PostgreSQL
one, and a crawl that PostgreSQL restarted under completes and stores the
same."""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from pgcluster import PgCluster  # noqa: E402
from heedtest import Checks, ScriptedHttpServer, free_port, run_heed  # noqa: E402
from irclab import HEED, Lab, ScriptedServer, heed  # noqa: E402
from servefixture import Serve  # noqa: E402

STORE_ERROR = 1
CONTACT = ["--contact-email", "ops@example.org"]
SECRET = "hunter2"

pg = PgCluster().start()
# trust authentication ignores the password: it is there to be hidden.
url = pg.url.replace("heed@", f"heed:{SECRET}@")
port = free_port("127.0.0.1")
site = ScriptedHttpServer("127.0.0.1", port, {
    "/robots.txt": ("status", 200, b"User-agent: *\n"),
    "/": ("status", 200, b"<!doctype html><title>Kestrel</title>",
          {"Content-Type": "text/html; charset=utf-8"})})


def quiet(proc):
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert SECRET not in proc.stdout + proc.stderr, proc.stderr


def crawl_stores_its_page():
    quiet(run_heed("crawl", "--store", url, "--allow-private", *CONTACT,
                   f"http://127.0.0.1:{port}/", timeout=60))
    assert "/robots.txt" in str(site.log()), site.log()
    assert pg.psql("SELECT count(*) FROM pages;").strip() == "1"
    assert pg.psql("SELECT count(*) FROM crawl_runs;").strip() == "1"
    assert pg.psql("SELECT obj_description('heed_schema'::regclass, "
                   "'pg_class');").strip() == "heed store 0x68656564"


def readers_work():
    for cmd in (["stats"], ["export"],
                ["site", "report", f"http://127.0.0.1:{port}"]):
        quiet(run_heed(*cmd, "--store", url, timeout=60))


def serve_searches_postgresql():
    quiet(run_heed("serve", "--reindex", "--store", url, timeout=60))
    srv = Serve(url)
    try:
        found = srv.json("/api/v1/search?q=kestrel")
        assert len(found["items"]) == 1, found
        assert srv.json("/api/v1/search?q=nothing")["items"] == []
        assert SECRET not in srv.stderr()
    finally:
        srv.stop()


def empty_database_is_no_store():
    pg.psql("CREATE DATABASE empty;")
    empty = url.rsplit("/", 1)[0] + "/empty"
    proc = run_heed("stats", "--store", empty, timeout=60)
    assert proc.returncode == STORE_ERROR, proc
    assert "no store at" in proc.stderr, proc.stderr
    assert SECRET not in proc.stderr, proc.stderr
    assert pg.psql("SELECT count(*) FROM pg_tables WHERE schemaname = "
                   "'public';", database="empty").strip() == "0"


def unreachable_server():
    dead = f"postgresql://heed:{SECRET}@127.0.0.1:{free_port()}/heed"
    proc = run_heed("stats", "--store", dead, timeout=60)
    assert proc.returncode == STORE_ERROR, proc
    assert "cannot connect to the PostgreSQL store" in proc.stderr, \
        proc.stderr
    assert "heed:***@127.0.0.1" in proc.stderr, proc.stderr
    assert SECRET not in proc.stderr, proc.stderr


def cluster_is_loopback_only():
    """tests/pgcluster.py's promises: loopback only, no password over
    loopback TCP, nothing else trusted, durability off (a test cluster)."""
    assert pg.psql("SHOW listen_addresses;").strip() == "127.0.0.1"
    assert pg.psql("SHOW fsync;").strip() == "off"
    assert pg.psql("SHOW unix_socket_directories;").strip() == pg.folder
    rules = pg.psql("SELECT type, address, auth_method FROM "
                    "pg_hba_file_rules ORDER BY line_number;").split()
    assert rules == ["host|127.0.0.1|trust", "host|::1|trust"], rules


def irc_same_on_both_backends():
    channels = [("#alpha", 5, "first channel"), ("#beta", 2, "b"),
                ("#delta", 9, "ünïcødé topic")]
    lists = {}
    with Lab() as lab:
        for name, store in (("sqlite", lab.path("heed.db")), ("pg", url)):
            srv = ScriptedServer(lab, f"{name}.test", channels=channels,
                                 isupport=["NETWORK=Lab CHANTYPES=#",
                                           "CRAWLER=index:allow"])
            target = f"127.0.0.1:{srv.port}"
            status, _ = heed(lab, "irc", "crawl", "--allow-private",
                             "--set", "identity.contact_email=ops@example.org",
                             target, store=store, timeout=120)
            assert status == 0, (name, status)
            assert srv.commands().count("LIST") == 1, name
            status, out = heed(lab, "irc", "list", store=store)
            assert status == 0, (name, status, out)
            # The two crawls ran seconds apart: their times differ.
            lists[name] = re.sub(r"\d{4}-\d\d-\d\dT[\d:]+Z", "TIME",
                                 out.replace(target, "NETWORK"))
    assert "ünïcødé topic" in lists["pg"], lists["pg"]
    assert "#alpha" in lists["pg"], lists["pg"]
    assert lists["sqlite"] == lists["pg"], lists


def irc_crawl_across_a_restart():
    """PostgreSQL restarts mid-visit (docs/scaling.md, "When PostgreSQL
    restarts"): the crawl's batch transaction is lost with the connection;
    the writer reconnects and replays the batch, so `heed irc crawl`
    completes without visiting the network again (one LIST), says so in
    warnings, and `heed irc list` equals that of a crawl the restart never
    touched."""
    channels = [("#alpha", 5, "first channel"), ("#beta", 2, "b")]
    isupport = ["NETWORK=Lab CHANTYPES=#", "CRAWLER=index:allow"]
    lists = {}
    with Lab() as lab:
        for name in ("calm", "restart"):
            pg.psql(f"CREATE DATABASE heed_{name};")
            store = pg.url.rsplit("/", 1)[0] + f"/heed_{name}"
            srv = ScriptedServer(lab, f"{name}.test", channels=channels,
                                 isupport=isupport)
            target = f"127.0.0.1:{srv.port}"
            argv = [HEED, "irc", "crawl", "--allow-private", "--set",
                    "identity.contact_email=ops@example.org", target,
                    "--store", store]
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True,
                                    cwd=lab.dir)
            if name == "restart":
                # Registered, LUSERS sent: the visit's batch is open.
                deadline = time.monotonic() + 30
                while ("LUSERS" not in srv.commands()
                       and time.monotonic() < deadline):
                    time.sleep(0.05)
                assert "LUSERS" in srv.commands(), srv.commands()
                pg.ctl("restart")
            out, err = proc.communicate(timeout=120)
            sys.stdout.write(err[-2000:])
            assert proc.returncode == 0, (name, proc.returncode, err)
            assert srv.commands().count("LIST") == 1, srv.commands()
            if name == "restart":
                assert "reconnecting, attempt 1" in err, err
                assert "error" not in err, err
            assert pg.psql("SELECT count(*) FROM irc_visits;",
                           database=f"heed_{name}").strip() == "1"
            status, out = heed(lab, "irc", "list", store=store)
            assert status == 0, (name, status, out)
            lists[name] = re.sub(r"\d{4}-\d\d-\d\dT[\d:]+Z", "TIME",
                                 out.replace(target, "NETWORK"))
    assert "#alpha" in lists["restart"], lists["restart"]
    assert lists["calm"] == lists["restart"], lists


try:
    checks = Checks()
    for fn in (crawl_stores_its_page, readers_work,
               serve_searches_postgresql, empty_database_is_no_store,
               unreachable_server, cluster_is_loopback_only,
               irc_same_on_both_backends, irc_crawl_across_a_restart):
        checks.run(fn)
finally:
    site.close()
    folder = pg.folder
    pg.stop()
if os.path.exists(folder):
    print(f"FAIL cluster_removed: {folder} is still there")
    checks.failed += 1
else:
    print("ok   cluster_removed")
    checks.passed += 1
print(f"{checks.passed} passed, {checks.failed} failed")
sys.exit(1 if checks.failed else 0)

"""`heed --store postgresql://...` (issue 14, first increment): the URI
reaches the PostgreSQL backend of a real throwaway cluster
(tests/pgcluster.py); commands that need areas PostgreSQL does not have
yet exit with a store error's status (1) and say which areas are missing,
before they send anything or leave a crawl run behind; no message ever
shows the URI's password; a server that is not there is a clear error.
The IRC commands, whose area PostgreSQL has, work on it: the same crawl of
a scripted IRC server lists the same networks and channels from a SQLite
store and from a PostgreSQL one."""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from pgcluster import PgCluster  # noqa: E402
from heedtest import Checks, ScriptedHttpServer, free_port, run_heed  # noqa: E402
from irclab import Lab, ScriptedServer, heed  # noqa: E402

STORE_ERROR = 1
CONTACT = ["--contact-email", "ops@example.org"]
SECRET = "hunter2"

pg = PgCluster().start()
# trust authentication ignores the password: it is there to be hidden.
url = pg.url.replace("heed@", f"heed:{SECRET}@")
port = free_port("127.0.0.1")
site = ScriptedHttpServer("127.0.0.1", port, {
    "/robots.txt": ("status", 200, b"User-agent: *\n"),
    "/": ("status", 200, b"<title>x</title>")})


def refused(proc):
    assert proc.returncode == STORE_ERROR, (proc.returncode, proc.stderr)
    # One area missing or several: "the search area yet", "the a, b areas
    # yet".
    assert re.search(r"the PostgreSQL store does not have the [a-z, ]+ "
                     r"areas? yet", proc.stderr), proc.stderr
    assert SECRET not in proc.stdout + proc.stderr, proc.stderr


def crawl_refused_before_any_request():
    proc = run_heed("crawl", "--store", url, "--allow-private", *CONTACT,
                    f"http://127.0.0.1:{port}/", timeout=60)
    refused(proc)
    assert site.log() == [], site.log()
    # The store was opened (migrated and marked), and nothing was begun.
    assert pg.psql("SELECT count(*) FROM crawl_runs;").strip() == "0"
    assert pg.psql("SELECT obj_description('heed_schema'::regclass, "
                   "'pg_class');").strip() == "heed store 0x68656564"


def readers_refused():
    for cmd in (["stats"], ["export"],
                ["site", "report", f"http://127.0.0.1:{port}"]):
        refused(run_heed(*cmd, "--store", url, timeout=60))


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


try:
    checks = Checks()
    for fn in (crawl_refused_before_any_request, readers_refused,
               empty_database_is_no_store, unreachable_server,
               cluster_is_loopback_only, irc_same_on_both_backends):
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

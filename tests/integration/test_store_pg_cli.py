"""`heed --store postgresql://...` (issue 14, first increment): the URI
reaches the PostgreSQL backend of a real throwaway cluster
(tests/pgcluster.py); commands that need areas PostgreSQL does not have
yet exit with a store error's status (1) and say which areas are missing,
before they send anything or leave a crawl run behind; no message ever
shows the URI's password; a server that is not there is a clear error."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from pgcluster import PgCluster  # noqa: E402
from heedtest import Checks, ScriptedHttpServer, free_port, run_heed  # noqa: E402

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
    assert "the PostgreSQL store does not have the" in proc.stderr, \
        proc.stderr
    assert "areas yet" in proc.stderr, proc.stderr
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
    for cmd in (["stats"], ["export"], ["irc", "list"],
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


try:
    checks = Checks()
    for fn in (crawl_refused_before_any_request, readers_refused,
               empty_database_is_no_store, unreachable_server):
        checks.run(fn)
finally:
    site.close()
    pg.stop()
print(f"{checks.passed} passed, {checks.failed} failed")
sys.exit(1 if checks.failed else 0)

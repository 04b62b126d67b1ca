"""heed writes only into its own stores, run through the CLI:
read-only commands never create a store ("no store at PATH", exit 1), a
file that is not a heed store is refused untouched by readers and writers
alike, and a store made before heed marked its stores is read as it is and
marked by the next command that writes (docs/storage.md, "Whose file")."""

import atexit
import hashlib
import os
import shutil
import sqlite3
import tempfile

from heedtest import Checks, free_port, run_heed

HEED_APPLICATION_ID = 0x68656564
TMP = tempfile.mkdtemp(prefix="heed-store-guard-")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)


def path(name):
    return os.path.join(TMP, name)


def digest(p):
    with open(p, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def beside(p):
    """The files in TMP that start with p's name (the file, its SQLite side
    files, heed's lock file)."""
    base = os.path.basename(p)
    return sorted(n for n in os.listdir(TMP) if n.startswith(base))


def sql(p, statements):
    db = sqlite3.connect(p)
    db.executescript(statements)
    db.commit()
    db.close()


def application_id(p):
    db = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
    try:
        return db.execute("PRAGMA application_id").fetchone()[0]
    finally:
        db.close()


def tables(p):
    db = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
    try:
        return sorted(r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"))
    finally:
        db.close()


def make_store(name):
    """A real heed store, made by a writer: qualifying a site on a loopback
    port where nothing listens (refused at once, nothing crawled)."""
    p = path(name)
    url = f"http://127.0.0.1:{free_port()}/"
    run_heed("site", "qualify", "--store", p, "--allow-private", url)
    assert os.path.exists(p) and application_id(p) == HEED_APPLICATION_ID
    return p


READERS = [["stats"], ["stats", "--json"], ["site", "report", "a.example"]]
# Switched to the read-only open in cmd_export.c and cmd_irc.c.
OTHER_READERS = [["export"], ["export", "--irc"], ["irc", "list"]]


def refuse(p, args, want):
    """heed ARGS --store P exits 1 saying want."""
    proc = run_heed(*args, "--store", p, check=1)
    assert want in proc.stderr, (args, proc.stderr)
    return proc


def readers_create_nothing():
    p = path("typo.db")
    for args in READERS + [["site", "reset", "a.example"]]:
        refuse(p, args, f"no store at '{p}'")
        assert beside(p) == [], (args, beside(p))


def other_readers_create_nothing():
    p = path("typo2.db")
    for args in OTHER_READERS:
        refuse(p, args, f"no store at '{p}'")
        assert beside(p) == [], (args, beside(p))


def assert_refused_untouched(p, want):
    before = digest(p)
    writer = ["site", "qualify", f"http://127.0.0.1:{free_port()}/"]
    for args in READERS + [["site", "reset", "a.example"], writer]:
        refuse(p, args, want)
        assert digest(p) == before, args
        assert beside(p) == [os.path.basename(p)], (args, beside(p))


def foreign_database_untouched():
    p = path("foreign.db")
    sql(p, "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);"
           "INSERT INTO users(name) VALUES ('ann');")
    assert_refused_untouched(
        p, f"'{p}' is not a heed store: it holds tables heed did not "
           "create (users)")
    assert tables(p) == ["users"]


def foreign_pages_table_untouched():
    """The migration used to fail half-way on a `pages` table, leaving
    heed's other tables behind."""
    p = path("pages.db")
    sql(p, "CREATE TABLE pages (url TEXT, body BLOB);")
    assert_refused_untouched(p, "heed did not create (pages)")
    assert tables(p) == ["pages"]


def other_application_untouched():
    p = path("other-app.db")
    sql(p, "PRAGMA application_id = 1234; CREATE TABLE t (x);")
    assert_refused_untouched(p, "belongs to another application")


def not_sqlite_untouched():
    p = path("notes.txt")
    with open(p, "w") as f:
        f.write("my notes, not a database\n" * 200)
    assert_refused_untouched(p, "is not a heed store: it is not a SQLite "
                                "database")


def readers_never_write():
    p = make_store("real.db")
    before = digest(p)
    for args in READERS:
        run_heed(*args, "--store", p, check=0 if args[0] == "stats" else 1)
    assert digest(p) == before


def unmarked_store_read_then_marked():
    """A store heed made before the mark: exactly heed's tables."""
    p = make_store("old.db")
    sql(p, "PRAGMA application_id = 0;")
    proc = run_heed("stats", "--store", p, check=0)
    assert "total: 0 pages" in proc.stdout, proc.stdout
    assert application_id(p) == 0
    # A writer marks it (site reset writes, even with no site to reset).
    run_heed("site", "reset", "--store", p, "a.example", check=1)
    assert application_id(p) == HEED_APPLICATION_ID


Checks().main([readers_create_nothing, other_readers_create_nothing,
               foreign_database_untouched, foreign_pages_table_untouched,
               other_application_untouched, not_sqlite_untouched,
               readers_never_write, unmarked_store_read_then_marked])

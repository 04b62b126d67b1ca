"""Where a crawl's SQLite writes go: its WAL frames by table and index.

SQLite in WAL mode writes every page a transaction changed, whole (4 KB),
to the WAL at each commit, and copies the pages back into the database at
each checkpoint. A row that lands on a page no other row of the same
commit touched costs a whole page: a crawl that fetches one page a second
from each of thousands of sites writes each row of a site-keyed table or
index alone on its page. The per-page figures below say which table or
index pays for that, so a change to the schema or to the batching can be
judged by what it saves, not guessed.

How: Pin holds a read transaction on the store from soon after the
crawl's start to its end. While a reader holds a snapshot the WAL cannot
start over, so at the end it holds every frame written since the pin
(the crawl's checkpoints copy less; the figures are frames, not the
crawl's CPU). The pin counts the frames and the pages already there when
it took hold, and only what came after counts. Each frame names its
page; the dbstat table of the finished database names the table or
index that owns each page.
"""

import collections
import os
import sqlite3
import struct
import threading
import time

WAL_HEADER = struct.Struct(">8I")
FRAME_HEADER = struct.Struct(">6I")


class Pin:
    """A reader on store that holds the crawl's WAL whole, from the first
    moment the store has a schema until release()."""

    def __init__(self, store, timeout):
        self.store = store
        self.timeout = timeout
        self.con = None
        self.frames_at_pin = self.pages_at_pin = 0
        self.error = "the store never had a WAL"
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        deadline = time.monotonic() + self.timeout
        while not self.stop.is_set() and time.monotonic() < deadline:
            if os.path.exists(self.store + "-wal"):
                con = sqlite3.connect(self.store, timeout=1,
                                      isolation_level=None,
                                      check_same_thread=False)
                try:
                    con.execute("BEGIN")
                    self.pages_at_pin = con.execute(
                        "SELECT count(*) FROM pages").fetchone()[0]
                    self.frames_at_pin = len(frames(self.store + "-wal")[0])
                    self.con = con
                    return
                except sqlite3.Error as e:  # no pages table yet, or busy
                    self.error = str(e)
                    con.close()
            time.sleep(0.005)

    def finish(self):
        """After the crawl: attribute()'s figures ({"error": why} when the
        store was never pinned), then the reader ends. It is the last
        connection, so its close checkpoints the WAL and removes it."""
        self.stop.set()
        self.thread.join()
        if self.con is None:
            return {"error": self.error}
        try:
            return attribute(self.store, self.frames_at_pin,
                             self.pages_at_pin)
        finally:
            self.con.execute("COMMIT")
            self.con.close()


def frames(wal_path, skip=0):
    """The page number of every valid frame of the WAL after the first
    skip, in order, and the number of commits among them."""
    with open(wal_path, "rb") as f:
        data = f.read()
    if len(data) < WAL_HEADER.size:
        return [], 0
    head = WAL_HEADER.unpack_from(data)
    size, salts = head[2], head[4:6]
    pages, commits, off = [], 0, WAL_HEADER.size
    while off + FRAME_HEADER.size + size <= len(data):
        page, db_size, s1, s2, _, _ = FRAME_HEADER.unpack_from(data, off)
        if (s1, s2) != salts:
            break
        if skip:
            skip -= 1
        else:
            pages.append(page)
            commits += db_size != 0
        off += FRAME_HEADER.size + size
    return pages, commits


def attribute(store, skip=0, pages_before=0):
    """Copies store and its WAL aside, reads the frames after the first
    skip, and names the owner of each: {"frames", "commits",
    "pages_before", "owners": [(name, frames)]}, the owners most frames
    first. The store's WAL must still be whole
    (Pin.finish calls it before its reader ends)."""
    pages, commits = frames(store + "-wal", skip)
    copy = store + ".walframes"
    for suffix in ("", "-wal"):
        with open(store + suffix, "rb") as src, \
                open(copy + suffix, "wb") as dst:
            while True:
                chunk = src.read(1 << 20)
                if not chunk:
                    break
                dst.write(chunk)
    con = sqlite3.connect(copy)
    owner = dict((page, name) for name, page in
                 con.execute("SELECT name, pageno FROM dbstat"))
    con.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(copy + suffix):
            os.unlink(copy + suffix)
    count = collections.Counter(owner.get(p, "(freed)") for p in pages)
    return {"frames": len(pages), "commits": commits,
            "pages_before": pages_before, "owners": count.most_common()}

#!/usr/bin/env python3
"""The store's engines kept apart, checked: in src/store, only an engine's
own files include its headers, so an area written once for both engines
(src/store/sql-int.h) cannot slip back into speaking one of them.

    python3 tests/store_engines.py [SOURCE_ROOT]

SQLite's headers (<sqlite3.h>, store/sqlite-int.h, store/sqlite-rows-int.h)
belong to sqlite.c, sqlite_*.c and sqlite-*.h; PostgreSQL's (<libpq-fe.h>,
store/pg-int.h) to pg.c, pg_*.c and pg-*.h. copy.c, which copies a store
from one engine to the other, reads both. store-int.h, the header every
store file includes, names neither. Prints each include out of place and a
closing "N passed, N failed" line, one check per file.
"""

import os
import re
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
ENGINES = {
    "SQLite": ({"sqlite3.h", "store/sqlite-int.h", "store/sqlite-rows-int.h"},
               re.compile(r"sqlite(\.c|_\w+\.c|-[\w-]+\.h)$")),
    "PostgreSQL": ({"libpq-fe.h", "store/pg-int.h"},
                   re.compile(r"pg(\.c|_\w+\.c|-[\w-]+\.h)$")),
}
BOTH = {"copy.c"}


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folder = os.path.join(root, "src", "store")
    names = sorted(n for n in os.listdir(folder)
                   if n.endswith((".c", ".h")))
    failed = set()
    for name in names:
        with open(os.path.join(folder, name)) as f:
            included = set(INCLUDE_RE.findall(f.read()))
        for engine, (headers, own) in ENGINES.items():
            if name in BOTH or own.match(name):
                continue
            for h in sorted(included & headers):
                print(f"FAIL {name} includes {h}, {engine}'s own")
                failed.add(name)
    if "store-int.h" not in names or len(names) < 10:
        print("FAIL src/store could not be read")
        failed.add("src/store")
    print(f"{len(names)} files of src/store")
    print(f"{len(names) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

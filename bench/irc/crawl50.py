"""bench/irc: a crawl of 50 IRC networks on loopback.

Starts 50 scripted servers (tests/integration/irclab.py), each with 1,000
channels, and times one `heed irc crawl` of all of them at once (one
connection each, irc.max_connections=50) into a fresh store. Every visit is
paced at one command per 2 s after registration, so the wall time is bound
by courtesy, not by heed; the figure that matters is that 50 visits take
about as long as one. Prints the figures; asserts only that all 50,000
channels were stored.

    HEED=build/heed python3 bench/irc/crawl50.py
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "tests", "integration"))
from irclab import Lab, ScriptedServer, heed  # noqa: E402

NETWORKS, CHANNELS = 50, 1000


def main():
    with Lab() as lab:
        servers = [ScriptedServer(lab, f"net{i}.bench", channels=[
            (f"#c{j}", j % 50, f"topic {j} of network {i}")
            for j in range(CHANNELS)]) for i in range(NETWORKS)]
        store = lab.path("bench.db")
        t0 = time.monotonic()
        heed(lab, "irc", "crawl", "--allow-private",
             "--set", f"irc.max_connections={NETWORKS}",
             "--set", "log.level=0",
             *[f"127.0.0.1:{s.port}" for s in servers], store=store,
             check=0)
        took = time.monotonic() - t0
        _, out = heed(lab, "export", "--irc", "--format", "csv",
                      store=store, check=0)
        rows = out.count("\n") - 1
        print(f"{NETWORKS} networks x {CHANNELS} channels on loopback: "
              f"{took:.1f} s wall, {rows} channels stored, "
              f"{rows / took:.0f} channels/s "
              f"(pacing: 1 command per 2 s per network)")
        return 0 if rows == NETWORKS * CHANNELS else 1


if __name__ == "__main__":
    sys.exit(main())

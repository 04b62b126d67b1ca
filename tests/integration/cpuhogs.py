"""CPU hogs for stress runs: busy processes on every core, so
that heed runs on a starved machine, the way a busy crawler host or a CI
neighbour starves it.

    with CpuHogs(nice=10, seconds=300):
        subprocess.run(["nice", "-n", "10", heed, ...])

Each hog is a Python process spinning on time.monotonic() at the given
niceness (heed's, so that the scheduler shares the cores between them and
heed as it would between equals), started in its own session. They are
bounded twice: each stops by itself after `seconds`, and leaving the
`with` block kills every one of them by its process id (and waits for it),
whatever happened inside. Nothing else is touched.
"""

import os
import signal
import subprocess
import sys

HOG = """
import os, sys, time
os.nice(int(sys.argv[1]))
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    pass
"""


class CpuHogs:
    def __init__(self, count=None, nice=10, seconds=300):
        """count hogs (None: one per core; 0: none, for callers whose
        stress is optional)."""
        self.count = (os.cpu_count() or 1) if count is None else count
        self.nice = nice
        self.seconds = seconds
        self.procs = []

    def __enter__(self):
        for _ in range(self.count):
            self.procs.append(subprocess.Popen(
                [sys.executable, "-c", HOG, str(self.nice),
                 str(self.seconds)],
                stdin=subprocess.DEVNULL, start_new_session=True))
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            if p.poll() is None:
                os.kill(p.pid, signal.SIGKILL)
        for p in self.procs:
            p.wait()
        self.procs = []
        return False

    def alive(self):
        """How many hogs still spin (all of them, unless time ran out)."""
        return sum(1 for p in self.procs if p.poll() is None)

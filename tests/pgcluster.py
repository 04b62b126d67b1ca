#!/usr/bin/env python3
"""A throwaway PostgreSQL cluster for heed's tests.

    tests/pgcluster.py start          prints the URL, then the cluster's folder
    tests/pgcluster.py stop FOLDER    stops the cluster and deletes the folder
    tests/pgcluster.py run -- CMD...  starts one, runs CMD with HEED_TEST_PG
                                      set to its URL, stops it; CMD's status
    tests/pgcluster.py ctl FOLDER restart|stop|start
                                      restarts, stops or starts the server
                                      of a running cluster, keeping its
                                      folder and port (lost connections)

CMD also gets HEED_TEST_PG_FOLDER (the cluster's folder) and
HEED_TEST_PGCLUSTER (this script), for `ctl`.

or from Python (the integration tests):

    with PgCluster() as pg:
        run_heed("crawl", "--store", pg.url, ...)

The cluster is initdb'd in a fresh temporary folder and listens on
127.0.0.1 only, on a free port, with its Unix socket inside that folder.
pg_hba.conf trusts loopback TCP connections and nothing else, so the URL
needs no password. fsync, synchronous_commit and full_page_writes are off:
the cluster lives as long as one test program and a crash loses nothing
that matters, so paying for durability would only slow the tests.

PostgreSQL refuses to run as root, and CI may run as root: then initdb and
pg_ctl run as the Debian package's `postgres` user (runuser), and the folder
is theirs; they run in that folder, since the caller's working directory
(a clone under /root) may be closed to them. Every wait is bounded (pg_ctl -w -t 30). A cluster that cannot be
started is an error with the reason and the server's log, never a skip: the
README's test command installs PostgreSQL.
"""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile

USER = "heed"      # the cluster's superuser, named in the URL
DATABASE = "heed_test"
WAIT_S = "30"


class PgError(RuntimeError):
    pass


def bindir():
    """Debian's PostgreSQL programs, newest version first."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if
                   p.split("/")[4].isdigit() else 0, reverse=True)
    if not found:
        raise PgError("PostgreSQL is not installed (no /usr/lib/postgresql/"
                      "*/bin/initdb): run scripts/install-deps")
    return os.path.dirname(found[0])


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_owner(argv):
    """argv run as the cluster's owner: `postgres` when we are root."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--"] + argv
    return argv


def run(argv, what, cwd=None):
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120,
                          cwd=cwd)
    if proc.returncode != 0:
        raise PgError(f"{what} failed ({proc.returncode}): "
                      f"{proc.stdout.strip()}")
    return proc.stdout


class PgCluster:
    """A running cluster: .url, .folder, .port; stop() removes it."""

    def __init__(self):
        self.folder = None
        self.port = None
        self.url = None
        self.bin = bindir()

    def data(self):
        return os.path.join(self.folder, "data")

    def log(self):
        return os.path.join(self.folder, "server.log")

    def log_tail(self, lines=20):
        try:
            with open(self.log()) as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return "(no server log)"

    def start(self):
        self.folder = tempfile.mkdtemp(prefix="heed-pg-")
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self):
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.folder, pw.pw_uid, pw.pw_gid)
        os.chmod(self.folder, 0o700)
        run(as_owner([os.path.join(self.bin, "initdb"), "-D", self.data(),
                      "-U", USER, "-A", "trust", "-E", "UTF8",
                      "--locale=C", "--no-sync"]), "initdb",
            cwd=self.folder)
        hba = ("# heed tests: loopback TCP only, no password\n"
               "host all all 127.0.0.1/32 trust\n"
               "host all all ::1/128 trust\n")
        conf = ""
        # The port was free a moment ago; another program may take it
        # before the server binds: try a few.
        for attempt in range(3):
            self.port = free_port()
            conf = (f"listen_addresses = '127.0.0.1'\n"
                    f"port = {self.port}\n"
                    f"unix_socket_directories = '{self.folder}'\n"
                    "fsync = off\nsynchronous_commit = off\n"
                    "full_page_writes = off\nmax_connections = 50\n")
            self._write(os.path.join(self.data(), "pg_hba.conf"), hba)
            self._write(os.path.join(self.data(), "postgresql.auto.conf"),
                        conf)
            proc = subprocess.run(
                as_owner([os.path.join(self.bin, "pg_ctl"), "-D",
                          self.data(), "-l", self.log(), "-w", "-t",
                          WAIT_S, "start"]),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, timeout=120, cwd=self.folder)
            if proc.returncode == 0:
                break
            if attempt == 2 or "could not bind" not in self.log_tail():
                raise PgError("pg_ctl start failed: " + proc.stdout.strip()
                              + "\n" + self.log_tail())
        self.url = f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"
        run([os.path.join(self.bin, "createdb"), "-h", "127.0.0.1", "-p",
             str(self.port), "-U", USER, DATABASE], "createdb")

    def _write(self, path, text):
        # As the owner: the data folder is theirs and mode 0700.
        proc = subprocess.run(as_owner(["sh", "-c", 'cat > "$1"', "sh",
                                        path]), input=text, text=True,
                              timeout=30, cwd=self.folder)
        if proc.returncode != 0:
            raise PgError(f"could not write {path}")

    def psql(self, sql, database=DATABASE):
        """Runs sql in database; returns psql's unaligned output."""
        return run([os.path.join(self.bin, "psql"), "-X", "-q", "-A", "-t",
                    "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                    str(self.port), "-U", USER, "-d", database, "-c", sql],
                   "psql")

    def stop(self):
        if not self.folder:
            return
        if os.path.exists(os.path.join(self.data(), "postmaster.pid")):
            subprocess.run(
                as_owner([os.path.join(self.bin, "pg_ctl"), "-D",
                          self.data(), "-m", "immediate", "-w", "-t",
                          WAIT_S, "stop"]),
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                timeout=120, cwd=self.folder)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def ctl(self, action):
        """The server of a running cluster: "stop" (fast: sessions are
        ended, as an operator's restart ends them), "start", "restart";
        the folder, port and databases stay."""
        argv = [os.path.join(self.bin, "pg_ctl"), "-D", self.data(), "-w",
                "-t", WAIT_S]
        if action in ("stop", "restart"):
            argv += ["-m", "fast"]
        if action in ("start", "restart"):
            argv += ["-l", self.log()]
        run(as_owner(argv + [action]), "pg_ctl " + action, cwd=self.folder)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def stop_folder(folder):
    c = PgCluster()
    c.folder = folder
    c.stop()


def main(argv):
    if len(argv) >= 1 and argv[0] == "start":
        c = PgCluster().start()
        print(c.url)
        print(c.folder)
        return 0
    if len(argv) == 2 and argv[0] == "stop":
        if not os.path.isdir(os.path.join(argv[1], "data")):
            print(f"pgcluster: {argv[1]} is not a test cluster",
                  file=sys.stderr)
            return 2
        stop_folder(argv[1])
        return 0
    if (len(argv) == 3 and argv[0] == "ctl"
            and argv[2] in ("restart", "stop", "start")):
        if not os.path.isdir(os.path.join(argv[1], "data")):
            print(f"pgcluster: {argv[1]} is not a test cluster",
                  file=sys.stderr)
            return 2
        c = PgCluster()
        c.folder = argv[1]
        c.ctl(argv[2])
        return 0
    if len(argv) >= 3 and argv[0] == "run" and argv[1] == "--":
        with PgCluster() as c:
            env = dict(os.environ, HEED_TEST_PG=c.url,
                       HEED_TEST_PG_FOLDER=c.folder,
                       HEED_TEST_PGCLUSTER=os.path.abspath(__file__))
            return subprocess.run(argv[2:], env=env).returncode
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except PgError as e:
        print(f"pgcluster: {e}", file=sys.stderr)
        sys.exit(1)

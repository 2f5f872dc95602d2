"""A throwaway PostgreSQL server for tests and benchmarks: ``initdb`` and ``pg_ctl`` in a temporary
folder, on a free port, stopped afterwards. Where PostgreSQL is not installed (or cannot start),
:func:`start` raises :class:`NoPostgres` with the reason, and the tests skip with it.

Used as::

    with TemporaryPostgres() as url:
        Ledger(url).add_player("Ann")
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.service_process import free_port


class NoPostgres(RuntimeError):
    """PostgreSQL cannot be started here; the message says why."""


def find_bin(name: str) -> str | None:
    """``initdb`` or ``pg_ctl``: on the PATH, else in Debian's ``/usr/lib/postgresql/*/bin``."""
    found = shutil.which(name)
    if found:
        return found
    for path in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return path
    return None


class TemporaryPostgres:
    """A PostgreSQL server of its own in a temporary folder. As root (which ``initdb`` refuses), it
    runs as the ``postgres`` system user. Used as a context manager, it yields the database URL."""

    def __init__(self) -> None:
        self.initdb, self.pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        self.folder: Path | None = None
        self.port = 0
        self.url = ""

    def _as_owner(self, cmd: list[str]) -> list[str]:
        if os.geteuid() != 0:
            return cmd
        runuser = shutil.which("runuser")
        if runuser is None:
            raise NoPostgres("running as root, and no runuser to start PostgreSQL as the postgres user")
        return [runuser, "-u", "postgres", "--", *cmd]

    def start(self) -> str:
        if not (self.initdb and self.pg_ctl):
            raise NoPostgres("PostgreSQL is not installed (apt-get install postgresql)")
        self.folder = Path(tempfile.mkdtemp(prefix="sisepai-pg-"))
        data = self.folder / "data"
        if os.geteuid() == 0:
            import pwd

            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise NoPostgres("running as root, and there is no postgres user to run PostgreSQL") from None
            os.chmod(self.folder, 0o755)
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        proc = subprocess.run(self._as_owner([self.initdb, "-D", str(data), "-U", "postgres", "--auth=trust",
                                              "--no-sync", "-E", "UTF8", "--locale=C"]),
                              capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise NoPostgres(f"initdb failed: {(proc.stderr or proc.stdout).strip().splitlines()[-1:]}")
        for _ in range(3):  # a port taken between choosing and binding: try another
            self.port = free_port()
            opts = (f"-c port={self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={data} "
                    "-c max_connections=100 -c fsync=on")
            proc = subprocess.run(self._as_owner([self.pg_ctl, "-D", str(data), "-o", opts, "-l",
                                                  str(data / "server.log"), "-w", "-t", "60", "start"]),
                                  capture_output=True, text=True, timeout=90)
            if proc.returncode == 0:
                self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
                return self.url
        log = (data / "server.log").read_text(errors="replace")[-300:] if (data / "server.log").exists() else ""
        self.stop()
        raise NoPostgres(f"pg_ctl could not start PostgreSQL: {log.strip()}")

    def fresh_database(self, name: str) -> str:
        """A new, empty database on this server; its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop(self) -> None:
        if self.folder is None:
            return
        data = self.folder / "data"
        if (data / "postmaster.pid").exists() and self.pg_ctl:
            subprocess.run(self._as_owner([self.pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
                           capture_output=True, timeout=60)
        for _ in range(20):
            try:
                shutil.rmtree(self.folder)
                break
            except OSError:
                time.sleep(0.1)
        self.folder = None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

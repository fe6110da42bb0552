"""A throwaway PostgreSQL server for the integration tests: initdb into a temporary folder,
listening only on a Unix socket inside it (no TCP port), stopped and deleted afterwards."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

if sys.platform != "win32":  # POSIX only; on Windows test_postgres.py skips before a server
    import pwd


def find_bin(name: str) -> Optional[str]:
    """``name`` (initdb, pg_ctl) on PATH or in Debian's /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


class PostgresServer:
    """Start with :meth:`start`, connect with :attr:`conninfo`, end with :meth:`stop`."""

    def __init__(self) -> None:
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise FileNotFoundError("PostgreSQL server binaries (initdb, pg_ctl) not found")
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self.root = Path(tempfile.mkdtemp(prefix="uuidx-pg-"))
        self.data = self.root / "data"
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name

    def _run(self, *args: str) -> None:
        command = list(args)
        if os.geteuid() == 0:
            # initdb refuses to run as root: run the server as the postgres user.
            pw = pwd.getpwnam("postgres")
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    @property
    def conninfo(self) -> str:
        return f"host={self.root} dbname=postgres user={self.user}"

    def start(self) -> None:
        self._run(self.initdb, "-D", str(self.data), "-A", "trust", "-U", self.user)
        options = f"-k {self.root} -c listen_addresses='' -c fsync=off"
        self._run(
            self.pg_ctl,
            "-D",
            str(self.data),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "-l",
            str(self.root / "log"),
            "start",
        )

    def stop(self) -> None:
        try:
            if self.data.exists():
                self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

"""Throwaway PostgreSQL servers for the integration tests: initdb into a temporary folder,
listening only on a Unix socket inside it (no TCP port), stopped and deleted afterwards.

:class:`PostgresServer` runs the host's own server binaries (any version);
:class:`ChrootPostgresServer` runs PostgreSQL 18 (or later, ``uuidv7()``) from the Debian sid
root of ``ci/chroot-python``, and :func:`postgres18` starts one for a pytest fixture.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import pytest

if sys.platform != "win32":  # POSIX only; on Windows test_postgres.py skips before a server
    import pwd


def find_bin(name: str) -> Optional[str]:
    """``name`` (initdb, pg_ctl) on PATH or in Debian's /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def server_environment() -> dict[str, str]:
    """The environment the host's initdb and pg_ctl run in: the caller's, without its locale
    settings, in the C locale that every system has. A throwaway cluster must not depend on
    the caller's locale: initdb refuses to run under a ``LANG`` or ``LC_*`` naming a locale
    the machine has not generated ("invalid locale settings")."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name != "LANG" and name != "LANGUAGE" and not name.startswith("LC_")
    }
    env["LANG"] = "C"
    return env


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
        run = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env=server_environment(),
            cwd=self.root,
        )
        if run.returncode != 0:
            log = self.root / "log"
            tail = log.read_text(encoding="utf-8", errors="replace")[-3000:] if log.exists() else ""
            raise RuntimeError(
                f"{' '.join(args)} failed (exit status {run.returncode}):\n"
                f"{run.stdout[-2000:]}{run.stderr[-2000:]}{tail}"
            )

    @property
    def conninfo(self) -> str:
        return f"host={self.root} dbname=postgres user={self.user}"

    def start(self) -> None:
        self._run(
            self.initdb,
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            self.user,
            "--locale=C",
            "-E",
            "UTF8",
            "--no-sync",
        )
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


# --- PostgreSQL 18 from the Debian sid root of ci/chroot-python ---------------------------------


def chroot_root() -> Path:
    """The Debian sid root that ``ci/chroot-python`` provisions (``make postgres18``):
    ``$CHROOT_PYTHON_CACHE/sid``, by default ``${TMPDIR:-/tmp}/uuidx-chroot/sid``."""
    cache = os.environ.get("CHROOT_PYTHON_CACHE") or os.path.join(
        os.environ.get("TMPDIR") or "/tmp", "uuidx-chroot"
    )
    return Path(cache) / "sid"


def chroot_bin_dir(root: Path, minimum: int = 18) -> Optional[str]:
    """The newest ``/usr/lib/postgresql/<N>/bin`` of ``root`` with N >= ``minimum`` (a path
    inside the root), or ``None`` when the root has no such server."""
    versions = []
    for postgres in glob.glob(str(root / "usr/lib/postgresql/*/bin/postgres")):
        name = Path(postgres).parts[-3]
        if name.isdigit() and int(name) >= minimum:
            versions.append(int(name))
    return f"/usr/lib/postgresql/{max(versions)}/bin" if versions else None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ChrootPostgresServer:
    """A throwaway PostgreSQL 18 (or later) cluster run from the Debian sid root of
    ``ci/chroot-python``, for ``tests/integration/test_postgres18.py`` and the docs' examples.

    The root's ``initdb`` and ``pg_ctl`` run under ``chroot`` as the root's ``postgres`` user
    (``runuser`` inside the root), so they need this process to be root. The data folder and
    the Unix socket are in a fresh folder under the root's ``/tmp``; the host's libpq reaches
    the socket through the same folder seen from outside (``host=<root>/tmp/<folder>``), and
    there is no TCP port. The server needs none of the mounts ``ci/chroot-python`` makes for
    its commands, so nothing is mounted: ``/proc`` is not read, dynamic shared memory is
    ``mmap`` files in the data folder (not ``/dev/shm``), huge pages are off, and the root's
    ``/dev`` has the device nodes debootstrap made (``null``, ``urandom``). The root and the
    host share the kernel's clock.

    Start with :meth:`start`, connect with :attr:`conninfo`, end with :meth:`stop`, which
    stops the server and deletes the folder. A folder that a killed test run left behind (its
    ``owner`` process gone) is stopped and deleted by the next :meth:`start`.
    """

    PREFIX = "uuidx-pg18-"

    def __init__(self, root: Optional[Path] = None) -> None:
        self.root = chroot_root() if root is None else root
        bin_dir = chroot_bin_dir(self.root)
        if bin_dir is None:
            raise FileNotFoundError(
                f"no PostgreSQL 18 or later in {self.root}/usr/lib/postgresql "
                "(make postgres18 provisions the root: ci/chroot-python --provision)"
            )
        if os.geteuid() != 0:
            raise PermissionError(
                f"starting the server of {self.root} needs root (chroot); running as uid "
                f"{os.geteuid()}"
            )
        self.bin_dir = bin_dir
        self.user = "postgres"
        self.folder: Optional[Path] = None  # inside the root, as the host sees it

    @property
    def inside(self) -> str:
        """The folder as the server sees it (from inside the root)."""
        assert self.folder is not None, "start() first"
        return "/" + str(self.folder.relative_to(self.root))

    @property
    def socket_dir(self) -> str:
        """The folder of the server's Unix socket, as the host sees it (libpq's ``host``)."""
        assert self.folder is not None, "start() first"
        return str(self.folder)

    @property
    def conninfo(self) -> str:
        return f"host={self.socket_dir} dbname=postgres user={self.user}"

    def _ids(self) -> tuple[int, int]:
        """The uid and gid of the root's ``postgres`` user (its own /etc/passwd, not the
        host's)."""
        for line in (self.root / "etc/passwd").read_text(encoding="utf-8").splitlines():
            fields = line.split(":")
            if fields[0] == "postgres":
                return int(fields[2]), int(fields[3])
        raise FileNotFoundError(f"no postgres user in {self.root}/etc/passwd")

    def _run(self, *args: str, timeout: float = 120) -> None:
        """``args`` (a program of the root and its arguments) inside the root as postgres."""
        command = [
            "chroot",
            str(self.root),
            "/usr/sbin/runuser",
            "-u",
            "postgres",
            "--",
            "/usr/bin/env",
            "-i",
            "LANG=C.UTF-8",
            "PATH=/usr/bin:/bin",
            *args,
        ]
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
        if run.returncode != 0:
            log = ""
            if self.folder is not None and (self.folder / "log").exists():
                log = (self.folder / "log").read_text(encoding="utf-8", errors="replace")[-3000:]
            raise RuntimeError(
                f"{' '.join(args)} failed in {self.root} (exit status {run.returncode}):\n"
                f"{run.stdout[-2000:]}{run.stderr[-2000:]}{log}"
            )

    def _pg_ctl_stop(self, inside: str) -> None:
        self._run(f"{self.bin_dir}/pg_ctl", "-D", f"{inside}/data", "-m", "immediate", "-w", "stop")

    def _sweep(self) -> None:
        """Stops and deletes the folders of test runs that were killed before their stop()."""
        for folder in (self.root / "tmp").glob(self.PREFIX + "*"):
            try:
                owner = int((folder / "owner").read_text(encoding="ascii"))
            except (OSError, ValueError):
                continue  # being made right now, or not ours
            if _pid_alive(owner):
                continue
            if (folder / "data" / "postmaster.pid").exists():
                try:
                    self._pg_ctl_stop("/tmp/" + folder.name)
                except RuntimeError:
                    pass  # not running any more: only the folder is left
            shutil.rmtree(folder, ignore_errors=True)

    def start(self) -> None:
        self._sweep()
        self.folder = Path(tempfile.mkdtemp(prefix=self.PREFIX, dir=self.root / "tmp"))
        uid, gid = self._ids()
        os.chown(self.folder, uid, gid)
        (self.folder / "owner").write_text(str(os.getpid()), encoding="ascii")
        inside = self.inside
        self._run(
            f"{self.bin_dir}/initdb",
            "-D",
            f"{inside}/data",
            "-A",
            "trust",
            "-U",
            self.user,
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        )
        options = (
            f"-k {inside} -c listen_addresses='' -c fsync=off -c huge_pages=off "
            "-c dynamic_shared_memory_type=mmap"
        )
        self._run(
            f"{self.bin_dir}/pg_ctl",
            "-D",
            f"{inside}/data",
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "-l",
            f"{inside}/log",
            "start",
        )

    def stop(self) -> None:
        if self.folder is None:
            return
        try:
            if (self.folder / "data" / "postmaster.pid").exists():
                self._pg_ctl_stop(self.inside)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


#: Set to 1 by make test (make postgres18): a PostgreSQL 18 server that cannot be started fails
#: the tests that need it instead of skipping them.
REQUIRE_POSTGRES18 = "UUIDX_REQUIRE_POSTGRES18"


@contextmanager
def postgres18() -> Iterator[ChrootPostgresServer]:
    """A started :class:`ChrootPostgresServer` for a fixture, stopped and deleted at the end
    whatever happens in between. Where none can be had (not Linux, not root, no provisioned
    root) the fixture skips, saying why, or fails when ``UUIDX_REQUIRE_POSTGRES18=1``."""
    try:
        if not sys.platform.startswith("linux"):
            raise OSError(f"needs Linux (chroot into a Debian root); this is {sys.platform}")
        server = ChrootPostgresServer()
    except OSError as exc:
        if os.environ.get(REQUIRE_POSTGRES18) == "1":
            pytest.fail(f"no PostgreSQL 18 server ({REQUIRE_POSTGRES18}=1): {exc}")
        pytest.skip(f"no PostgreSQL 18 server (make postgres18 provisions one): {exc}")
    try:
        server.start()
        yield server
    finally:
        server.stop()

"""Every row of the tables of ``docs/uuidx-or-stdlib.md`` states something about the standard
library's ``uuid`` module; each has a check here, a snippet that exits with status 0 exactly when
the row's claim holds, run by CPython 3.14 and 3.15 (and, for what the row says of Python 3.13
and earlier, by the interpreter running this test).

3.14 and 3.15 come from the Debian sid root of ``ci/chroot-python``: the test provisions it
first (the script creates what is missing, and waits on its lock while another run uses the
root), then runs each snippet with ``chroot ROOT /usr/bin/python3.X -I -W error -c SNIPPET``.
Where the root cannot be provisioned (not root, no network), the test fails, unless
``UUIDX_ALLOW_SKIP=1`` (never set by CI) lets it skip, saying why.

A row without a check, or a check without a row, fails :func:`test_every_row_has_a_check`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "uuidx-or-stdlib.md"

#: The interpreters that check every row, and the name of the one running this test, which
#: checks what a row says of Python before 3.14.
STDLIB = ("3.14", "3.15")
HOST = "host"

#: One fixed millisecond, for the checks that need several calls to share it (``uuid`` reads
#: the clock as ``time.time_ns()``, through its module global ``time``).
FIXED_CLOCK = """
import uuid

class _Clock:
    @staticmethod
    def time_ns():
        return 1_767_225_600_000_000_000  # 2026-01-01T00:00:00Z

uuid.time = _Clock
"""


@dataclass(frozen=True)
class Claim:
    """A row's check: ``snippet`` runs under each interpreter of ``pythons``."""

    snippet: str
    pythons: tuple[str, ...] = STDLIB


#: Keyed by the first cell of the row, as the page writes it.
CLAIMS: dict[str, Claim] = {
    "`uuid6()`, `uuid7()`, `uuid8()`": Claim(
        FIXED_CLOCK
        + """
made = [uuid.uuid6(), uuid.uuid7(), uuid.uuid8()]
assert [u.version for u in made] == [6, 7, 8]
assert all(type(u) is uuid.UUID for u in made)
assert uuid.uuid8(1, 2, 3) == uuid.UUID("00000000-0001-8002-8000-000000000003")

# uuid7(): RFC 9562's Method 1, a 42-bit counter (12 bits in rand_a, 30 after the variant),
# then 32 random bits; the next call in the same millisecond adds one to the counter.
def counter(u):
    return ((u.int >> 64) & 0xFFF) << 30 | (u.int >> 32) & 0x3FFF_FFFF

a, b = uuid.uuid7(), uuid.uuid7()
assert a.int >> 80 == b.int >> 80 == 1_767_225_600_000
assert counter(b) == counter(a) + 1
"""
    ),
    "`NIL`, `MAX`": Claim("""
        import uuid
        assert uuid.NIL.int == 0 and uuid.MAX.int == 2**128 - 1
    """),
    "Python versions": Claim(
        """
        import sys, uuid
        added = ("uuid6", "uuid7", "uuid8", "NIL", "MAX")
        if sys.version_info >= (3, 14):
            assert all(hasattr(uuid, name) for name in added)
        else:
            assert not any(hasattr(uuid, name) for name in added)
        """,
        (*STDLIB, HOST),
    ),
    "Command line": Claim("""
        import subprocess, sys, uuid
        def run(*args):
            return subprocess.run([sys.executable, "-m", "uuid", *args], capture_output=True, text=True)
        made = run("-u", "uuid7", "-C", "3")
        assert made.returncode == 0, made.stderr
        assert [uuid.UUID(line).version for line in made.stdout.split()] == [7, 7, 7]
        named = run("-u", "uuid5", "-n", "@dns", "-N", "www.example.com")
        assert named.stdout.strip() == "2ed6657d-e927-568b-95e1-2665a8aea6a2"
        for command in ("gen", "inspect", "convert", "bounds"):
            assert run(command).returncode == 2  # argparse: unrecognised argument
        assert run("-u", "7").returncode == 2  # only the function's full name
    """),
    "A v7 for a given time": Claim("""
        import inspect, uuid
        assert list(inspect.signature(uuid.uuid7).parameters) == []
        assert not hasattr(uuid, "uuid7_at")
    """),
    "Range bounds": Claim("""
        import uuid
        assert not any(hasattr(uuid, n) for n in ("min_uuid7", "max_uuid7", "uuid7_bounds"))
        assert [n for n in dir(uuid) if "bound" in n.lower() or n.lower().startswith(("min", "max"))] == ["MAX"]
    """),
    "Reading the time": Claim(
        """
        import sys, uuid
        v7 = uuid.UUID("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")  # RFC 9562 A.6: 2022-02-22 19:22:22 UTC
        v6 = uuid.UUID("1ec9414c-232a-6b00-b3c8-9f6bdeced846")  # A.5, the same time as A.1's v1
        v1 = uuid.UUID("c232ab00-9414-11ec-b3c8-9f6bdeced846")
        if sys.version_info >= (3, 14):
            assert v7.time == 1645557742000  # milliseconds since 1970
            assert v6.time == v1.time == 138648505420000000  # 100-ns intervals since 1582
        else:
            assert v7.time == 919712545760027362  # v7's bits read as a v1's: no time at all
            assert v6.time != v1.time
        assert not any(hasattr(uuid, n) for n in ("timestamp_ns", "to_datetime", "datetime"))
        assert not any(hasattr(uuid.UUID, n) for n in ("timestamp", "datetime", "timestamp_ns"))
        """,
        (*STDLIB, HOST),
    ),
    "Order across threads": Claim(
        FIXED_CLOCK
        + """
import inspect, re, sys, threading

source = inspect.getsource(uuid.uuid7)
assert "global _last_timestamp_v7" in source and "global _last_counter_v7" in source
assert not re.search(r"\\b(?:R?Lock|threading|_thread)\\b", inspect.getsource(uuid))  # no lock at all

# Thread A stops inside uuid7(), after it read the module's state and before it writes it back,
# as a thread switch (or, free-threaded, another core) can stop it; thread B runs meanwhile.
lines, first = inspect.getsourcelines(uuid.uuid7)
stop_at = first + next(i for i, line in enumerate(lines) if "int_uuid_7 = unix_ts_ms << 80" in line)
stopped, go_on, got = threading.Event(), threading.Event(), {}

def trace(frame, event, arg):
    if frame.f_code is not uuid.uuid7.__code__:
        return None
    if event == "line" and frame.f_lineno == stop_at:
        stopped.set()
        go_on.wait(60)
    return trace

def thread_a():
    sys.settrace(trace)
    got["a"] = uuid.uuid7()
    sys.settrace(None)

uuid.uuid7()
a = threading.Thread(target=thread_a)
a.start()
assert stopped.wait(60), "uuid7() never reached the line"
b1, b2 = uuid.uuid7(), uuid.uuid7()
go_on.set()
a.join()
c = uuid.uuid7()  # made after b2 returned

def head(u):  # the millisecond and the counter (and version, variant): all but 32 random bits
    return u.int >> 32

assert head(got["a"]) == head(b1)  # A and B took the same counter value
assert head(c) == head(b2)  # A wrote its older state back: C repeats b2's counter, after b2
"""
    ),
    "After `fork()`": Claim(
        FIXED_CLOCK
        + """
import inspect, os

assert "register_at_fork" not in inspect.getsource(uuid)
uuid.uuid7()
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.write(w, uuid.uuid7().bytes)
    os._exit(0)
assert os.waitpid(pid, 0)[1] == 0
child = uuid.UUID(bytes=os.read(r, 16))
parent = uuid.uuid7()
assert child.int >> 32 == parent.int >> 32  # the same millisecond and counter in both
assert child != parent  # told apart by their 32 bits from os.urandom
"""
    ),
    "Random bits": Claim("""
        import os, random, uuid
        asked = []
        urandom, getrandbits = os.urandom, random.getrandbits
        os.urandom = lambda n: asked.append(("urandom", n)) or urandom(n)
        random.getrandbits = lambda k: asked.append(("getrandbits", k)) or getrandbits(k)
        uuid.uuid4()
        assert asked == [("urandom", 16)], asked
        del asked[:]
        uuid.uuid8()
        assert asked == [("getrandbits", 48), ("getrandbits", 12), ("getrandbits", 62)], asked
        del asked[:]
        uuid.uuid7()
        assert [kind for kind, _ in asked] == ["urandom"], asked
    """),
    "Speed": Claim("""
        import inspect, uuid
        for f in (uuid.uuid4, uuid.uuid7, uuid.UUID.__str__):
            assert inspect.isfunction(f) and f.__code__.co_filename == uuid.__file__, f
    """),
    "Columns (Arrow, Polars, DuckDB)": Claim("""
        import uuid
        words = ("many", "arrow", "array", "column", "batch")
        assert [n for n in dir(uuid) if any(w in n.lower() for w in words)] == []
        assert not hasattr(uuid.UUID, "__arrow_c_array__")
    """),
    "Text forms": Claim("""
        import uuid
        public = {n for n in dir(uuid.UUID) if not n.startswith("_")}
        assert {"hex", "urn", "bytes", "bytes_le", "int"} <= public
        forms = ("base32", "base58", "base62", "base64", "ulid", "typeid", "encode", "decode")
        assert not any(f in n.lower() for n in public | set(dir(uuid)) for f in forms)
    """),
    "Parsing": Claim("""
        import uuid
        text = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
        digits = text.replace("-", "")
        loose = {  # accepted: what uuid.UUID() reads, and the hex digits it reads as the value
            "{" + text: digits,  # a stray brace
            "urn:uuid:{" + text + "}": digits,
            "0x" + digits[2:]: digits[2:],
            " " + digits[1:]: digits[1:],  # whitespace
            "+" + digits[1:]: digits[1:],
            digits[:8] + "_" + digits[9:]: digits[:8] + digits[9:],
        }
        for given, value in loose.items():
            assert uuid.UUID(given).int == int(value, 16), given
        try:
            uuid.UUID("URN:UUID:" + text)
        except ValueError:
            pass
        else:
            raise AssertionError("an upper-case URN prefix was accepted")
        assert not hasattr(uuid, "parse")
    """),
}


def _rows() -> list[str]:
    """The first cells of the body rows of the page's tables."""
    rows = []
    table: list[str] = []
    for line in [*PAGE.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            assert re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", table[1]), table[:2]
            rows += [row.split("|")[1].strip() for row in table[2:]]
            table = []
    return rows


def test_every_row_has_a_check() -> None:
    rows = _rows()
    assert len(rows) == len(set(rows)), "two rows with the same first cell"
    assert sorted(set(rows) - set(CLAIMS)) == [], "rows of the page without a check here"
    assert sorted(set(CLAIMS) - set(rows)) == [], "checks here for rows the page does not have"


def _chroot_root() -> Path:
    """Where ``ci/chroot-python`` keeps its root (its defaults, and the same variables)."""
    cache = (
        os.environ.get("CHROOT_PYTHON_CACHE")
        or f"{os.environ.get('TMPDIR') or '/tmp'}/uuidx-chroot"
    )
    return Path(cache) / (os.environ.get("CHROOT_SUITE") or "sid")


def _cannot(reason: str) -> None:
    if os.environ.get("UUIDX_ALLOW_SKIP") == "1":
        pytest.skip(f"CPython 3.14 and 3.15 not provisioned (UUIDX_ALLOW_SKIP=1): {reason}")
    pytest.fail(
        f"CPython 3.14 and 3.15 cannot be provisioned: {reason}; run as root with network access "
        "(ci/chroot-python --provision), or set UUIDX_ALLOW_SKIP=1 to let this test skip",
        pytrace=False,
    )


@pytest.fixture(scope="module")
def chroot() -> Path:
    """The provisioned root: ``ci/chroot-python --provision`` creates what is missing, or waits
    on its lock while another run uses it."""
    try:
        run = subprocess.run(
            [str(ROOT / "ci" / "chroot-python"), "--provision"],
            capture_output=True,
            text=True,
            timeout=3600,
            check=False,
        )
    except subprocess.TimeoutExpired:
        _cannot("ci/chroot-python --provision ran for over an hour")
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
        _cannot(last)
    root = _chroot_root()
    missing = [v for v in STDLIB if not (root / f"usr/bin/python{v}").exists()]
    if missing:
        _cannot(f"no python{', python'.join(missing)} in {root} (CHROOT_PACKAGES without them?)")
    return root


def _run(python: str, snippet: str, root: Path) -> subprocess.CompletedProcess[str]:
    code = ["-I", "-W", "error", "-c", textwrap.dedent(snippet)]
    if python == HOST:
        command = [sys.executable, *code]
    else:
        env = ["/usr/bin/env", "-i", "LANG=C.UTF-8", "PATH=/usr/bin:/bin", "HOME=/root"]
        command = ["chroot", str(root), *env, f"/usr/bin/python{python}", *code]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(
    ("row", "python"),
    [
        pytest.param(row, python, id=f"{row}-{python}")
        for row, c in CLAIMS.items()
        for python in c.pythons
    ],
)
def test_claim(row: str, python: str, chroot: Path) -> None:
    run = _run(python, CLAIMS[row].snippet, chroot)
    version = sys.version.split()[0] if python == HOST else python
    assert run.returncode == 0, f"{row!r} does not hold on Python {version}:\n{run.stderr[-3000:]}"


@pytest.mark.parametrize("python", [*STDLIB, HOST])
def test_a_false_claim_fails(python: str, chroot: Path) -> None:
    """The runner reports a snippet whose assertion fails, and one that warns (``-W error``)."""
    assert _run(python, "import uuid\nassert uuid.NIL.int == 1", chroot).returncode != 0
    assert (
        _run(python, "import warnings\nwarnings.warn('w', DeprecationWarning)", chroot).returncode
        != 0
    )
    assert _run(python, "import uuid\nassert uuid.UUID(int=0).int == 0", chroot).returncode == 0

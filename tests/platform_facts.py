"""What the platform under the suite can and cannot do: the one place a test asks, so that a
test that cannot hold somewhere skips with a reason that names the platform (Windows, PyPy,
qemu-user, musl), never silently and never by failing.

Each fact is measured where it can be (``rlimit_as_enforced`` sets a limit in a child process
and reads it back) rather than inferred from a platform name.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import re
import subprocess
import sys
from functools import cache
from typing import Optional

#: PyPy (cpyext): no ``sys.getallocatedblocks``, no ``ctypes.pythonapi``, its own GC.
PYPY = sys.implementation.name == "pypy"
#: Windows: no ``fork``, ``resource``, ``pwd``; CRLF line endings on the console.
WINDOWS = os.name == "nt"
#: A POSIX system (Linux, macOS, musl).
POSIX = os.name == "posix"


def _glibc() -> bool:
    try:
        version = os.confstr("CS_GNU_LIBC_VERSION")
    except (AttributeError, ValueError, OSError):  # no confstr, or a libc that does not answer
        return False
    return version is not None and version.startswith("glibc")


#: Linux whose C library is not glibc: musl (Alpine, the musllinux wheels), measured by asking
#: the running libc (only glibc answers ``confstr("CS_GNU_LIBC_VERSION")``). Libraries built for
#: glibc (the host's libfaketime, say) cannot be loaded into such a process.
MUSL = sys.platform.startswith("linux") and not _glibc()
#: The interpreter has its ``ssl`` module. The musl CPython of ``make test-musl`` is built
#: without OpenSSL, and ``pyarrow.dataset`` (which DuckDB imports to scan a pyarrow table)
#: imports ``ssl``.
SSL = importlib.util.find_spec("_ssl") is not None
#: The reason a test that needs ``pyarrow.dataset`` skips where :data:`SSL` is ``False``.
NO_SSL = (
    "no ssl module here (make test-musl's musl CPython is built without OpenSSL):"
    " pyarrow.dataset imports it"
)
#: CPython (the implementation whose C API the fast paths and the leak counts are written for).
CPYTHON = platform.python_implementation() == "CPython"
#: ``os.fork`` exists (POSIX systems; Windows has none).
FORK = hasattr(os, "fork")
#: The reason a test that forks skips where :data:`FORK` is ``False``.
NO_FORK = "needs os.fork, which Windows lacks (POSIX only)"


@cache
def rlimit_as_enforced() -> bool:
    """``True`` when an ``RLIMIT_AS`` cap set in a child is echoed back by ``getrlimit`` and
    stops a larger allocation. qemu-user accepts the call and ignores the cap, so the memory-cap
    tests cannot hold under it. The child lowers only the soft limit: under ``ulimit -v`` (which
    sets the hard limit too, as ``ci/wheel-suite`` does) raising the hard one would fail. The
    allocation is 2 GB, or ``sys.maxsize`` bytes on a 32-bit interpreter (``make test-i686``),
    where a 2 GB ``bytearray`` is an ``OverflowError`` whatever the cap."""
    if not sys.platform.startswith("linux"):
        return False
    probe = (
        "import resource, sys\n"
        "hard = resource.getrlimit(resource.RLIMIT_AS)[1]\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, hard))\n"
        "assert resource.getrlimit(resource.RLIMIT_AS)[0] == 1 << 30\n"
        "try:\n"
        "    bytearray(min(2 << 30, sys.maxsize))\n"
        "except MemoryError:\n"
        "    raise SystemExit(0)\n"
        "raise SystemExit(1)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=False)
    return result.returncode == 0


#: The reason a memory-cap test skips where :func:`rlimit_as_enforced` is ``False``.
NO_RLIMIT_AS = (
    "RLIMIT_AS is not enforced here (not Linux: Windows has no resource module; or qemu-user,"
    " which ignores it)"
)


@cache
def preloadable(library: str) -> bool:
    """``True`` when an interpreter like this one starts with ``library`` in ``LD_PRELOAD``: under
    musl, a library built for glibc (which needs ``ld-linux-x86-64.so.2``) stops the process."""
    env = dict(os.environ, LD_PRELOAD=library)
    probe = [sys.executable, "-c", "pass"]
    result = subprocess.run(probe, env=env, capture_output=True, check=False)
    return result.returncode == 0 and not result.stderr


@cache
def compare_and_swap_128() -> Optional[tuple[bool, str]]:
    """Whether the processor under the suite has a 128-bit compare-and-swap that uuidx's
    generators use, with the instruction or the reason there is none; ``None`` for a processor
    the table of docs/platforms.md does not list. A 32-bit interpreter (armv7l, i686, also on a
    64-bit kernel) has none. On x86-64 Linux the ``cx16`` flag of ``/proc/cpuinfo`` answers;
    64-bit Windows and Intel macOS require ``cmpxchg16b`` to run at all.
    """
    machine = platform.machine().lower()
    if sys.maxsize <= 2**32:
        return False, f"a 32-bit interpreter on {machine}: no 128-bit compare-and-swap"
    if machine in ("x86_64", "amd64"):
        if sys.platform.startswith("linux"):
            try:
                with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
                    flags = next((line for line in cpuinfo if line.startswith("flags")), "")
            except OSError:  # no /proc: the flag cannot be read
                return None
            has = "cx16" in flags.split()
            return has, f"x86-64 {'with' if has else 'without'} cmpxchg16b (cx16 in /proc/cpuinfo)"
        return True, "x86-64 Windows or macOS, which require cmpxchg16b"
    instructions = {
        "aarch64": "ldxp/stxp or casp",
        "arm64": "ldxp/stxp or casp",
        "ppc64le": "lqarx/stqcx.",
        "s390x": "cdsg",
    }
    if machine in instructions:
        return True, f"{machine}: {instructions[machine]}"
    return None


#: Why a test that counts what CPython's memory model counts skips on PyPy: its objects have no
#: reference counts that free them (its GC does, later), and it has no
#: ``sys.getallocatedblocks``, ``sys.getrefcount``, ``sys.getsizeof``, ``gc.is_tracked`` or
#: tracemalloc.
PYPY_NO_REFCOUNTS = (
    "PyPy: no reference counting and no sys.getallocatedblocks, sys.getrefcount, "
    "sys.getsizeof, gc.is_tracked or tracemalloc (its GC frees objects, later)"
)
#: Why a test that calls CPython's C API from Python skips on PyPy: no ``ctypes.pythonapi`` or
#: ``ctypes.PyDLL``, no ``_testcapi``.
PYPY_NO_PYTHONAPI = "PyPy: no ctypes.pythonapi, ctypes.PyDLL or _testcapi (no C API from Python)"


#: What CPython itself answers when one of its own allocations fails (``module.Class: message``),
#: reproduced without uuidx in a fresh CPython 3.11 process under ``_testcapi.set_nomemory``: an
#: exception lost while the interpreter unwinds a Python frame (``math.sqrt("x")`` called from a
#: Python function, at allocation 5; ``sorted([1, 2], key=f)`` with ``f`` raising, at allocation
#: 8), and the import lock of a codec lookup (``"\ud800".encode("utf-32-le", "surrogatepass")``,
#: at allocations 23 and 25). On CPython 3.12 (3.12.1, also without uuidx), two more: a
#: generator's ``throw`` that loses its exception (allocation 5 of a ``throw`` into a
#: suspended generator), and a ``contextlib.contextmanager`` generator that raises a
#: ``TypeError`` before its ``yield`` seen as one that returned ("generator didn't yield", at
#: allocation 12 of such a ``with``). A uuidx function that returns NULL without an exception
#: is named as a *built-in* function by CPython's check, so it is not taken for these.
INTERPRETER_OUT_OF_MEMORY = re.compile(
    r"builtins\.SystemError: (error return without exception set"
    r"|<function \S+ at 0x[0-9a-f]+> returned NULL without setting an exception"
    r"|<method 'throw' of 'generator' objects> returned NULL without setting an exception)"
    r"|builtins\.RuntimeError: (can't allocate lock|generator didn't yield)"
)


def examples(n: int) -> int:
    """A property test's ``max_examples``, ``n`` on a native run, scaled by the hypothesis
    profile that ``HYPOTHESIS_PROFILE`` loads (``tests/conftest.py``): ``emulated`` (set by
    ``ci/platform-linux.sh`` under qemu-user, where every example costs ten to fifty times
    more) and ``quick`` (set by ``ci/matrix.py`` for CI's subsets of the release wheels, whose
    whole suites run in turn) run a tenth of them, at least 10. The tests themselves all run."""
    from hypothesis import settings

    loaded = settings.default
    scaled = n * (DEFAULT_EXAMPLES if loaded is None else loaded.max_examples) // DEFAULT_EXAMPLES
    return min(n, max(10, scaled))


#: hypothesis's own default ``max_examples``, which the ``uuidx`` profile keeps.
DEFAULT_EXAMPLES = 100


def scaled_down() -> bool:
    """Whether the suite runs under qemu-user: the ``emulated`` hypothesis profile, which the
    platform scripts set there, is loaded. Only that profile scales the tests' work down
    (:func:`work`); ``quick`` runs fewer examples on a native machine, where the work keeps the
    sizes a fast machine needs (a signal must still land inside the call)."""
    return os.environ.get("HYPOTHESIS_PROFILE") == "emulated"


def work(n: int, least: int = 1) -> int:
    """A test's amount of work (rows, UUIDs, probes), ``n`` as sized for a native run: under
    qemu-user (:func:`scaled_down`) a tenth of it, as the property tests' examples there, but
    ``least`` at least, the size below which the test could no longer fail (a call a signal
    can still land inside, a growth still above the threshold)."""
    return max(least, n // 10) if scaled_down() else n

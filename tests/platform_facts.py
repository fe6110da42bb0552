"""What the platform under the suite can and cannot do: the one place a test asks, so that a
test that cannot hold somewhere skips with a reason that names the platform (Windows, PyPy,
qemu-user, musl), never silently and never by failing.

Each fact is measured where it can be (``rlimit_as_enforced`` sets a limit in a child process
and reads it back) rather than inferred from a platform name.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from functools import cache

#: PyPy (cpyext): no ``sys.getallocatedblocks``, no ``ctypes.pythonapi``, its own GC.
PYPY = sys.implementation.name == "pypy"
#: Windows: no ``fork``, ``resource``, ``pwd``; CRLF line endings on the console.
WINDOWS = os.name == "nt"
#: A POSIX system (Linux, macOS, musl).
POSIX = os.name == "posix"
#: CPython (the implementation whose C API the fast paths and the leak counts are written for).
CPYTHON = platform.python_implementation() == "CPython"


@cache
def rlimit_as_enforced() -> bool:
    """``True`` when an ``RLIMIT_AS`` cap set in a child is echoed back by ``getrlimit`` and
    stops a larger allocation. qemu-user accepts the call and ignores the cap, so the memory-cap
    tests cannot hold under it."""
    if not sys.platform.startswith("linux"):
        return False
    probe = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.RLIM_INFINITY))\n"
        "assert resource.getrlimit(resource.RLIMIT_AS)[0] == 1 << 30\n"
        "try:\n"
        "    bytearray(2 << 30)\n"
        "except MemoryError:\n"
        "    raise SystemExit(0)\n"
        "raise SystemExit(1)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=False)
    return result.returncode == 0


#: The reason a memory-cap test skips where :func:`rlimit_as_enforced` is ``False``.
NO_RLIMIT_AS = "RLIMIT_AS is not enforced here (not Linux, or qemu-user, which ignores it)"


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

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
    tests cannot hold under it. The child lowers only the soft limit: under ``ulimit -v`` (which
    sets the hard limit too, as ``ci/wheel-suite`` does) raising the hard one would fail."""
    if not sys.platform.startswith("linux"):
        return False
    probe = (
        "import resource\n"
        "hard = resource.getrlimit(resource.RLIMIT_AS)[1]\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, hard))\n"
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

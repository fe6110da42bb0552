"""Every error path of the API catalogue (each call shape that raises) with the process's address
space used up to its ``RLIMIT_AS`` cap (``ulimit -v``), so that Rust's allocations fail as well
as the interpreter's: each call raises what the shape says or ``MemoryError``, and the process
never aborts ("memory allocation of N bytes failed" is Rust's abort, which
``_testcapi.set_nomemory`` in ``test_nomemory_sweep`` cannot reach).

In a subprocess: cap the address space a little above what the interpreter holds, fill it with
``bytearray`` blocks of falling sizes, then take the C heap's free chunks with ``malloc`` until
it returns NULL (the interpreter keeps the free slots of its own small-object pools, so it can
still make an exception while Rust's allocations fail), give back ``headroom`` bytes of those
and call every error shape in turn, for several headrooms, so that the failing allocation falls
at a different point of each path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from platform_facts import NO_RLIMIT_AS, PYPY, rlimit_as_enforced

if PYPY:
    pytest.skip(
        "PyPy's GC ends the process when it cannot map its next arena", allow_module_level=True
    )
if os.environ.get("UUIDX_NOMEMORY_FULL") != "1":
    # Not yet in make test: the core still formats the values of its error messages with
    # Rust's aborting allocation (uuid1(node=2**48) aborts here with "memory allocation of
    # 15 bytes failed"); make test-nomemory runs it, and fails, until they are fallible.
    pytest.skip("make test-nomemory runs it (UUIDX_NOMEMORY_FULL=1)", allow_module_level=True)
if not sys.platform.startswith("linux") or not rlimit_as_enforced():
    pytest.skip(NO_RLIMIT_AS, allow_module_level=True)

TESTS = Path(__file__).resolve().parent.parent

SCRIPT = """
import ctypes, gc, resource, sys
sys.path[:0] = [{tests!r}]
import catalog

cases = [(e, s) for e in catalog.ENTRIES for s in e.shapes if s.raises is not None]
gc.disable()
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
# Made before the cap: where the C blocks are kept, without a Python object each.
pointers = (ctypes.c_void_p * 1_000_000)()
sizes = (ctypes.c_size_t * 1_000_000)()
count = 0
with open("/proc/self/statm") as f:
    pages = int(f.read().split()[0])
held = pages * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (held + (64 << 20), resource.RLIM_INFINITY))
balloon = []
size = 1 << 24
while size >= 1024:
    try:
        balloon.append(bytearray(size))
    except MemoryError:
        size //= 2
# Then the C heap's own free chunks, which Rust's allocations would otherwise take: malloc
# blocks of falling sizes until it returns NULL (freed again as headroom). The interpreter
# keeps the free slots of its small-object pools, so it can still make an exception.
size = 1 << 16
while size >= 8 and count < len(pointers):
    block = libc.malloc(size)
    if block:
        pointers[count] = block
        sizes[count] = size
        count += 1
    else:
        size //= 2
headrooms = {headrooms}
# Findings go to a buffer made before the cap bites: 1 another exception, 2 a result.
found = bytearray(len(headrooms) * len(cases))
for h, headroom in enumerate(headrooms):
    freed = 0
    while count and freed < headroom:
        count -= 1
        libc.free(pointers[count])
        freed += sizes[count]
    for i, (entry, shape) in enumerate(cases):
        try:
            try:
                entry.call(shape)
                found[h * len(cases) + i] = 2
            except MemoryError:
                pass
            except BaseException as exc:
                if not isinstance(exc, shape.raises):
                    found[h * len(cases) + i] = 1
        except MemoryError:
            pass  # the loop's own bookkeeping
balloon.clear()
bad = [
    f"headroom {{headrooms[k // len(cases)]}}: {{catalog.shape_id(cases[k % len(cases)])}}: "
    + ("another exception" if code == 1 else "returned")
    for k, code in enumerate(found)
    if code
]
print("\\n".join(bad) if bad else "ok")
"""


def test_error_paths_under_an_address_space_cap() -> None:
    script = SCRIPT.format(tests=str(TESTS), headrooms=(0, 64, 256, 1024, 4096, 16384, 65536))
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "ok", proc.stdout[-3000:]

"""Every error path of the API catalogue (each call shape that raises) with the process's address
space used up to its ``RLIMIT_AS`` cap (``ulimit -v``), so that Rust's allocations fail as well
as the interpreter's: each call raises what the shape says or ``MemoryError``, and the process
never aborts ("memory allocation of N bytes failed" is Rust's abort, which
``_testcapi.set_nomemory`` in ``test_nomemory_sweep`` cannot reach).

Each probe is a child forked from a lean server that imports this module (``lean_fork``: the
pytest process's size made each fork several times slower). It caps its address space a little
above what it holds, fills it with anonymous mappings and then ``PyObject_Malloc`` blocks, of
falling sizes, none of them written, then takes the C heap's free chunks with ``malloc`` until
it returns NULL (the interpreter keeps the free slots of its small-object pools, so it can
still make an exception while Rust's allocations fail), gives ``headroom`` bytes of those back
and makes the call.
Several headrooms put the failing allocation at different points of each path. What keeps the
aborts away is the extension's allocator (``ffi/reserve.rs``: an emergency reserve for the
small allocations of an error) and the thread-locals registered at import.
"""

from __future__ import annotations

import ctypes
import gc
import mmap
import os
import sys

import catalog
import pytest
from lean_fork import LeanForker
from platform_facts import (
    FORK,
    INTERPRETER_OUT_OF_MEMORY,
    NO_RLIMIT_AS,
    PYPY,
    rlimit_as_enforced,
)

if PYPY:
    pytest.skip(
        "PyPy's GC ends the process when it cannot map its next arena", allow_module_level=True
    )
if not FORK or not sys.platform.startswith("linux") or not rlimit_as_enforced():
    pytest.skip(NO_RLIMIT_AS, allow_module_level=True)

#: Bytes of C heap given back before the call: a few in make test, more in the full sweep.
HEADROOMS = (
    (0, 64, 256, 1024, 4096, 16384, 65536)
    if os.environ.get("UUIDX_NOMEMORY_FULL") == "1"
    else (0, 256, 4096, 65536)
)
CASES = [(e, s) for e in catalog.ENTRIES for s in e.shapes if s.raises is not None]
#: Exit codes of a probe.
OK, ANOTHER, RETURNED = 0, 3, 4


#: What a probe holds while it calls (freed when the child exits).
_HELD: list[object] = []


def _starve(headroom: int) -> None:
    """In the child: use up the address space, then give ``headroom`` bytes of C heap back."""
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    pointers = (ctypes.c_void_p * 1_000_000)()
    sizes = (ctypes.c_size_t * 1_000_000)()
    import resource  # Linux only, as this module is

    with open("/proc/self/statm") as f:
        held = int(f.read().split()[0]) * resource.getpagesize()
    # Under the hard limit, which a caller may have set (ci/wheel-suite does) and which cannot
    # be raised.
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    soft = held + (64 << 20)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    # The address space, in mappings nothing touches, then the interpreter's heap's room in
    # blocks of its own allocator, which nothing writes either: a zero-filled bytearray writes
    # each page, and under PYTHONMALLOC=mimalloc that room is the arena mimalloc reserved before
    # the cap, hundreds of MB a probe.
    py_malloc = ctypes.pythonapi.PyObject_Malloc
    py_malloc.restype = ctypes.c_void_p
    py_malloc.argtypes = [ctypes.c_size_t]
    balloon: list[object] = []
    size = 1 << 24
    while size >= 1 << 16:
        try:
            balloon.append(mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE))
        except OSError:
            size //= 2
    while size >= 1024:
        block = py_malloc(size)
        if block:
            balloon.append(block)
        else:
            size //= 2
    count, size = 0, 1 << 16
    while size >= 8 and count < len(pointers):
        block = libc.malloc(size)
        if block:
            pointers[count] = block
            sizes[count] = size
            count += 1
        else:
            size //= 2
    _HELD.extend((libc, pointers, sizes, balloon))
    freed = 0
    while count and freed < headroom:
        count -= 1
        libc.free(pointers[count])
        freed += sizes[count]


#: The catalogue's raising shapes by name, for the server's children.
BY_NAME = {catalog.shape_id(c): c for c in CASES}
#: A probe that takes longer has hung.
TIMEOUT_S = 60.0


def child_probe(name: str, headroom: int) -> None:
    """In the child: starve, call, and end with the exit code that says what happened."""
    entry, shape = BY_NAME[name]
    code = ANOTHER
    try:
        gc.disable()
        _starve(headroom)
        try:
            entry.call(shape)
            code = RETURNED
        except MemoryError:
            code = OK
        except BaseException as exc:  # noqa: BLE001 - another exception is the finding
            _HELD.clear()  # memory for the check below
            expected = shape.raises is not None and isinstance(exc, shape.raises)
            found = f"{type(exc).__module__}.{type(exc).__qualname__}: {exc}"
            code = OK if expected or INTERPRETER_OUT_OF_MEMORY.fullmatch(found) else ANOTHER
    finally:
        os._exit(code)


def probe(forker: LeanForker, name: str, headroom: int) -> str:
    ended = forker.run("child_probe", name, headroom)
    if ended.exit_code is None:
        return ended.describe()
    return {OK: "ok", ANOTHER: "another exception", RETURNED: "returned"}.get(
        ended.exit_code, f"exit {ended.exit_code}"
    )


def test_error_paths_under_an_address_space_cap() -> None:
    found = {}
    forker = LeanForker(__name__, TIMEOUT_S)
    try:
        for name in BY_NAME:
            for headroom in HEADROOMS:
                outcome = probe(forker, name, headroom)
                if outcome != "ok":
                    found[f"{name} @{headroom}"] = outcome
    finally:
        forker.close()
    assert found == {}

"""Every call whose memory a count sizes, under a real address-space cap (``RLIMIT_AS``, as
``ulimit -v`` sets it): the column functions, both column classes' ``to_pylist``, the Arrow
exports and imports, the bulk functions. Each runs under caps from nothing to more than it
needs, so that every allocation along its way fails once: the result is the value or a
``MemoryError``, never an abort ("memory allocation of ... failed"), a ``PanicException`` or a
crash.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from platform_facts import NO_RLIMIT_AS, PYPY, PYPY_NO_PYTHONAPI, rlimit_as_enforced

SCRIPT = r"""
import ctypes, gc, resource, sys
sys.path.insert(0, sys.argv[2])
import uuidx, uuidx.arrow as ua
from arrow_cdata import Exports, Producer, metadata

N = int(sys.argv[1])
libc = ctypes.CDLL(None)
malloc, free = libc.malloc, libc.free
malloc.restype, malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
free.argtypes = [ctypes.c_void_p]
BALLAST = (ctypes.c_void_p * (1 << 20))()
# Small blocks of every size class up to 2 KiB, 16 of each, taken before the cap.
RESERVE_SIZES = [16 * i for i in range(1, 17)] + [256 + 64 * i for i in range(1, 29)]
RESERVE = (ctypes.c_void_p * (16 * len(RESERVE_SIZES)))()
_, HARD = resource.getrlimit(resource.RLIMIT_AS)


def vm_size():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")


def capped(name, call, need, fine):
    # From no headroom at all, through halvings of what the call needs, to twice that; and
    # for the column calls (quick, and whose last allocations are small ones after large
    # ones) every 32nd of it up to one and a half times.
    steps = [0] + [need >> k for k in range(12, 0, -1)] + [need, 2 * need]
    if fine:
        steps += [need * i // 32 for i in range(16, 49)]
    for headroom in steps:
        gc.collect()
        print(name, headroom, flush=True)
        for i in range(len(RESERVE)):
            RESERVE[i] = malloc(RESERVE_SIZES[i % len(RESERVE_SIZES)])
        # First the free memory the allocator holds is taken (with malloc itself, which
        # touches no page), under a cap of no new address space; then the call gets `headroom`
        # bytes of new address space, and no more.
        base = vm_size()
        resource.setrlimit(resource.RLIMIT_AS, (base, HARD))
        taken, small = 0, []
        for size in (1 << 16, 1 << 12, 1 << 9):
            first = taken
            while taken < len(BALLAST):
                BALLAST[taken] = malloc(size)  # untouched: no page is written
                if not BALLAST[taken]:
                    break
                taken += 1
            if size == 1 << 12:
                small = range(first, taken, 2)[:32]
        # Fixed-size bookkeeping (a capsule, a boxed struct: no count sizes it) must not
        # fail: every other 4 KiB block goes back, holes too small for any count-sized
        # allocation of these calls (32 KiB and more); and half the reserve, a hole in every
        # small size class. glibc's malloc serves a small request from a freed 4 KiB block;
        # musl's (mallocng) only from a slot of its own size class, and a new group of slots
        # needs new address space. Half: a group with no slot in use would be unmapped, its
        # address space free for anything.
        for i in small:
            free(BALLAST[i])
            BALLAST[i] = None
        for i in range(0, len(RESERVE), 2):
            free(RESERVE[i])
        resource.setrlimit(resource.RLIMIT_AS, (base + headroom, HARD))
        try:
            result = call()
        except MemoryError as exc:
            result = exc
            failures[name] += 1  # an existing key and a small int: no allocation
        finally:
            resource.setrlimit(resource.RLIMIT_AS, (HARD, HARD))
        for i in range(taken):
            if BALLAST[i]:
                free(BALLAST[i])
        for i in range(1, len(RESERVE), 2):
            free(RESERVE[i])
        del result


col = ua.uuid7(N)
with_nulls = ua.array([None if i % 3 == 0 else u for i, u in enumerate(col.to_pylist())])
texts = ua.to_str(with_nulls)
ulids = ua.encode(col, "ulid")
times = ua.timestamp_ns(col)
strs = texts.to_pylist()
uuids = with_nulls.to_pylist()
key = bytes(range(16))

# A column whose validity starts at bit 3 of its buffer (a slice, as another library hands it
# over): exporting it realigns the bitmap.
p = Producer()
raw = bytes(memoryview(col))
sliced = ua.array(Exports(p, p.schema(b"w:16"), p.array(N - 3, [b"\xee" * (N // 8 + 1), raw], offset=3, null_count=-1)))
# A table of one column, with nulls in the table and in the column: imports combine them.
# Each import moves its array out: fresh structures over the same buffers each time.
values, outer, inner = p.memory(raw), p.memory(b"\xfe" * (N // 8)), p.memory(b"\x7f" * (N // 8))


def table():
    column = p.array(N, [inner, values], null_count=-1)
    return Exports(
        p, p.schema(b"+s", children=[p.schema(b"w:16", name=b"id")]),
        p.array(N, [outer], null_count=-1, children=[column]),
    )


calls = [
    ("UUIDArray.to_pylist", with_nulls.to_pylist, 140 * N),
    ("ArrowArray.to_pylist (str)", texts.to_pylist, 100 * N),
    ("ArrowArray.to_pylist (int)", times.to_pylist, 40 * N),
    ("arrow.uuid4", lambda: ua.uuid4(N), 17 * N),
    ("arrow.uuid7", lambda: ua.uuid7(N), 17 * N),
    ("arrow.to_str", lambda: ua.to_str(with_nulls), 42 * N),
    ("arrow.encode", lambda: ua.encode(with_nulls, "base62"), 28 * N),
    ("arrow.timestamp_ns", lambda: ua.timestamp_ns(with_nulls), 10 * N),
    ("arrow.mask_v7", lambda: ua.mask_v7(col, key), 17 * N),
    ("arrow.unmask_v7", lambda: ua.unmask_v7(col, key, errors="null"), 17 * N),
    ("arrow.parse (Arrow)", lambda: ua.parse(texts), 17 * N),
    ("arrow.parse (list)", lambda: ua.parse(strs), 70 * N),
    ("arrow.decode", lambda: ua.decode(ulids, "ulid"), 17 * N),
    ("arrow.uuid5 (list)", lambda: ua.uuid5(uuidx.NAMESPACE_DNS, strs), 70 * N),
    ("arrow.uuid3 (Arrow)", lambda: ua.uuid3(uuidx.NAMESPACE_DNS, texts), 17 * N),
    ("arrow.array (list)", lambda: ua.array(uuids), 30 * N),
    ("arrow.array (table)", lambda: ua.array(table()), 17 * N),
    ("UUIDArray.__arrow_c_array__ (sliced)", sliced.__arrow_c_array__, N // 4),
    ("uuid4_bytes", lambda: uuidx.uuid4_bytes(N), 16 * N),
    ("uuid7_bytes", lambda: uuidx.uuid7_bytes(N), 16 * N),
    ("uuid4_many", lambda: uuidx.uuid4_many(N), 140 * N),
    ("uuid7_many", lambda: uuidx.uuid7_many(N), 140 * N),
    ("uuid4_str_many", lambda: uuidx.uuid4_str_many(N), 110 * N),
    ("uuid7_str_many", lambda: uuidx.uuid7_str_many(N), 110 * N),
    ("V7Generator.many", lambda: uuidx.V7Generator().many(N), 140 * N),
]
if len(sys.argv) > 3:  # one call, by name
    calls = [c for c in calls if c[0] == sys.argv[3]]
# The columns and lists above live to the end: the collection before each step passes them by
# (a quarter of a million tracked UUIDs made it most of this test's time).
gc.freeze()
failures = {name: 0 for name, _, _ in calls}
for name, call, need in calls:
    capped(name, call, need, fine=not any(w in name for w in ("to_pylist", "many")))
missing = [name for name, count in failures.items() if not count]
assert not missing, f"never ran out of memory: {missing}"
assert ua.to_str(sliced).to_pylist()[:3] == ua.to_str(ua.array(sliced.to_pylist()[:3])).to_pylist()
print("ok", flush=True)
"""


@pytest.mark.memory_cap
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc as on Linux")
@pytest.mark.skipif(not rlimit_as_enforced(), reason=NO_RLIMIT_AS)
@pytest.mark.skipif(PYPY, reason=PYPY_NO_PYTHONAPI)  # the child's producer (arrow_cdata)
def test_every_count_sized_allocation_fails_as_a_memory_error() -> None:
    # The interpreter's default allocator: mimalloc reserves address space in large arenas.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(1 << 18), str(Path(__file__).resolve().parents[1])],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    last = proc.stdout.strip().splitlines()[-1:] or ["nothing"]
    assert proc.returncode == 0, f"died during {last[0]!r}:\n{proc.stderr[-3000:]}"
    assert last == ["ok"]

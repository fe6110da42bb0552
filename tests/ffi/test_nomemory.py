"""Each allocation that making a UUID, its ``int`` or a string needs can fail, one at a time:
every failure is a ``MemoryError`` (never a panic), and nothing made before it is kept.

Uses ``_testcapi.set_nomemory(start, stop)``, CPython's own fault injection (allocations number
``start`` to ``stop - 1`` of every domain fail), where the interpreter has it (pyenv's builds do;
Debian's ships it in a separate package). The suite's fallback pass
(``UUIDX_FORCE_FALLBACK=1``) runs the same calls through ``uuid.UUID(int=...)``.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Callable

import pytest
from optional import need
from platform_facts import PYPY, PYPY_NO_PYTHONAPI

import uuidx

if PYPY:  # its _testcapi builds CPython's _testcapimodule.c on import (Debian ships no source)
    pytest.skip(PYPY_NO_PYTHONAPI, allow_module_level=True)
_testcapi = need("_testcapi")
if not hasattr(_testcapi, "set_nomemory"):
    pytest.skip("this interpreter's _testcapi has no set_nomemory", allow_module_level=True)

TEXT = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
U = uuid.UUID(TEXT)
#: The calls whose results are built by slot stores, digit writes and compact ASCII strings,
#: with values of every digit count (a small int, 64 bits, 65 to 128 bits).
CALLS: dict[str, Callable[[], object]] = {
    "uuid4": uuidx.uuid4,
    "uuid7": uuidx.uuid7,
    "parse": lambda: uuidx.parse(TEXT),
    "parse (small int)": lambda: uuidx.parse("00000000-0000-0000-0000-000000000007"),
    "parse (64 bits)": lambda: uuidx.parse("00000000-0000-0000-ffff-ffffffffffff"),
    "parse (90 bits)": lambda: uuidx.parse("00000000-03ff-ffff-ffff-ffffffffffff"),
    "to_str": lambda: uuidx.to_str(U),
    "uuid4_str": uuidx.uuid4_str,
    "uuid5": lambda: uuidx.uuid5(U, "name"),
    # the bulk functions' bytes, allocated uninitialised and filled without the GIL
    "uuid4_bytes": lambda: uuidx.uuid4_bytes(3),
    "uuid7_bytes": lambda: uuidx.uuid7_bytes(3),
}
#: The calls whose result differs from call to call.
RANDOM = {"uuid4", "uuid7", "uuid4_str", "uuid4_bytes", "uuid7_bytes"}
#: More than the allocations any of these calls makes, the fallback path's included.
ALLOCATIONS = 40
#: Rounds of every failure in the leak check.
REPEAT = 300


def fail_one(call: Callable[[], object], k: int) -> object:
    """``call()`` with allocation number ``k`` failing; the exception, or the result."""
    _testcapi.set_nomemory(k, k + 1)
    try:
        return call()
    except MemoryError as exc:
        return exc
    finally:
        _testcapi.remove_mem_hooks()


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_allocation_failure_is_a_memory_error(name: str) -> None:
    call = CALLS[name]
    expected = call()
    for k in range(ALLOCATIONS):
        outcome = fail_one(call, k)  # a PanicException (a BaseException) fails the test here
        if isinstance(outcome, MemoryError):
            continue
        assert type(outcome) is type(expected), (k, outcome)
        if name not in RANDOM:
            assert outcome == expected, (k, outcome)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_failed_call_keeps_nothing(name: str) -> None:
    call = CALLS[name]
    for k in range(ALLOCATIONS):  # warm every path once: caches, interned names
        fail_one(call, k)
    before = sys.getallocatedblocks()
    for _ in range(REPEAT):
        for k in range(ALLOCATIONS):
            fail_one(call, k)
    # An object kept by one of the failures is REPEAT blocks.
    assert sys.getallocatedblocks() - before < REPEAT // 2

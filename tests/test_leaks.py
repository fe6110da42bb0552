"""No call of uuidx leaks: every shape of every public callable (``tests/catalog.py``),
success and error, on the fast path and on the full function, and every call of every
generator configuration (``catalog.GENERATOR_CASES``), called many times with no other uuidx
call in between, leaves the interpreter's allocated memory blocks and the reference counts of
its arguments where they were.

Calling each shape alone matters: pyo3 defers a decref made outside its own trampoline (the
fast C entry points run outside it) to a pool that the next ordinary pyo3 call drains, so a
loop that mixes calls would hide such a leak.
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

import catalog
import generator_axis
import platform_facts
import pytest
from leakcheck import CALLS, TOLERANCE, check, growth, leaks, pymalloc_counts, watched
from platform_facts import PYPY, PYPY_NO_REFCOUNTS

import uuidx

if PYPY:
    needs_pymalloc = pytest.mark.skipif(True, reason=PYPY_NO_REFCOUNTS)
else:
    needs_pymalloc = pytest.mark.skipif(
        not pymalloc_counts(),
        reason="sys.getallocatedblocks() counts nothing (PYTHONMALLOC=malloc)",
    )


@needs_pymalloc
def test_the_measure_sees_one_block_and_one_reference_per_call() -> None:
    """A leak of one block, or of one reference to an argument, per call is caught."""
    kept: list[object] = []
    arg = object()
    blocks, refs = growth(lambda: kept.append(object()), None, (arg,))
    assert blocks >= CALLS - TOLERANCE
    kept.clear()
    blocks, refs = growth(lambda: kept.append(arg), None, (arg,))
    assert refs[0] == CALLS
    kept.clear()
    blocks, refs = growth(lambda: kept.append(ValueError("x")), None)
    assert blocks >= CALLS - TOLERANCE


@needs_pymalloc
def test_a_frozen_heap_hides_no_leak() -> None:
    """:func:`leakcheck.growth` measures with the heap frozen (:func:`leakcheck.frozen_heap`):
    a leak of one block, of one reference, or of a reference cycle per call is as visible as
    before, and a cycle that is garbage is still collected, not counted."""
    kept: list[object] = []
    arg = object()
    blocks, _ = growth(lambda: kept.append(object()), None)
    assert blocks >= CALLS - TOLERANCE
    _, refs = growth(lambda: kept.append(arg), None, (arg,))
    assert refs[0] == CALLS

    def cycle() -> None:
        a: list[object] = []
        a.append(a)
        kept.append(a)

    blocks, _ = growth(cycle, None)
    assert blocks >= CALLS - TOLERANCE

    def garbage_cycle() -> None:
        a: list[object] = []
        a.append(a)

    blocks, _ = growth(garbage_cycle, None)
    assert blocks < TOLERANCE
    kept.clear()


@needs_pymalloc
def test_a_leak_fails_the_check_in_every_round() -> None:
    """Measuring again forgives a growth that does not recur, never one that does: a leak of
    one block per call fails :func:`leakcheck.check`, however many rounds it measures."""
    kept: list[object] = []
    with pytest.raises(AssertionError, match="more blocks"):
        check(lambda: kept.append(object()), None, ())
    assert len(kept) >= 2 * CALLS * 3


def _raises_one_block_per_call() -> None:
    raise KeyError(object())


@needs_pymalloc
def test_the_measure_sees_a_leak_through_errors() -> None:
    kept: list[BaseException] = []

    def leak() -> None:
        try:
            _raises_one_block_per_call()
        except KeyError as exc:
            kept.append(exc)
            raise

    blocks, _ = growth(leak, KeyError)
    assert blocks >= CALLS - TOLERANCE


@needs_pymalloc
@pytest.mark.parametrize("pair", catalog.shapes(), ids=catalog.shape_id)
def test_no_leak(pair: tuple[catalog.Entry, catalog.Shape]) -> None:
    entry, shape = pair
    check(lambda: entry.call(shape), shape.raises, watched(shape))


# --- the generator axis ------------------------------------------------------------------------


@needs_pymalloc
@pytest.mark.parametrize("case", catalog.GENERATOR_CASES, ids=generator_axis.case_id)
def test_no_leak_in_generator_calls(case: generator_axis.Case) -> None:
    """Every generator configuration's call, alone: the generator and its injected clock keep
    their reference counts."""
    g = case.config.make()
    watched = (g, generator_axis.python_clock) if case.config.clock == "python" else (g,)
    check(case.caller(g, 3), None, watched)


#: The configurations whose error path a test can force cheaply: policy ``"error"`` with an
#: injected clock, sent back beyond the allowance (``ClockRollbackError`` at every call).
ROLLBACK_ERRORS = [
    case
    for case in catalog.GENERATOR_CASES
    if case.config.policy == "error" and case.config.clock == "python"
]


@needs_pymalloc
@pytest.mark.parametrize("case", ROLLBACK_ERRORS, ids=generator_axis.case_id)
def test_no_leak_in_rollback_errors(case: generator_axis.Case) -> None:
    now = [generator_axis.python_clock()]

    def clock() -> int:
        return now[0]

    g = case.config.make(clock)
    call = case.caller(g, 3)
    call()
    allowance = g.rollback_allowance_ns
    assert allowance is not None
    now[0] -= 2 * allowance
    with pytest.raises(uuidx.ClockRollbackError):
        call()
    check(call, uuidx.ClockRollbackError, (g, clock))


def _tampered(value: object) -> uuid.UUID:
    """An exact ``uuid.UUID`` whose ``int`` slot holds ``value`` (emptied for ``None``)."""
    u = uuid.UUID(int=1)
    if value is None:
        object.__delattr__(u, "int")
    else:
        object.__setattr__(u, "int", value)
    return u


#: The fast bodies that read an exact ``uuid.UUID`` by its slot, each called with one whose slot
#: is empty or out of range: reading it can make them drop an error of their own
#: (``ffi/uuid_object.rs``: the attribute read of debug and free-threaded builds, the conversion
#: where ints are not read by their digits) and decline.
SLOT_READERS: dict[str, Callable[[uuid.UUID], object]] = {
    "to_str": lambda u: uuidx.to_str(u),
    "uuid3": lambda u: uuidx.uuid3(u, "x"),
    "uuid5": lambda u: uuidx.uuid5(u, b"x"),
    "uuid8_name": lambda u: uuidx.uuid8_name(u, "x"),
}


@needs_pymalloc
@pytest.mark.parametrize("value", [None, -1], ids=["empty", "negative"])
@pytest.mark.parametrize("reader", list(SLOT_READERS))
def test_a_fast_body_that_declines_after_an_error_leaks_nothing(reader: str, value: object) -> None:
    """Invariant 2 of ``ffi/fast_call.rs``, enforced: each failing fast body called alone, many
    times, with no other uuidx call in between, leaves no block behind (pyo3 defers a decref made
    outside its trampoline to a pool that only a later pyo3 call drains)."""
    u = _tampered(value)
    call = SLOT_READERS[reader]
    try:
        call(u)
    except Exception as exc:  # noqa: BLE001 - the error the full function gives, whichever
        raises: Optional[type[BaseException]] = type(exc)
    else:
        raises = None
    check(lambda: call(u), raises, (u,))


# --- clock errors, under a real clock before 1970 ----------------------------------------------

#: Where Debian's (and most distributions') libfaketime lives.
FAKETIME_GLOBS = [
    "/usr/lib/*/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
    "/usr/local/lib/faketime/libfaketime.so.1",
    "/usr/lib64/faketime/libfaketime.so.1",
]


def libfaketime() -> Optional[str]:
    """The libfaketime to preload: the one ``UUIDX_LIBFAKETIME`` names (an interpreter of
    another architecture than the host's, such as ``make test-i686``'s 32-bit CPython, cannot
    preload the host's x86_64 library), else the first of :data:`FAKETIME_GLOBS` found."""
    named = os.environ.get("UUIDX_LIBFAKETIME")
    if named:
        if not os.path.isfile(named):
            pytest.fail(f"UUIDX_LIBFAKETIME names {named}, which is not a file")
        return named
    for pattern in FAKETIME_GLOBS:
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    return None


#: Every shape whose clock is the system clock, by name, as ``(entry, shape)`` labels: under a
#: clock before 1970 each raises ClockError.
CLOCK_CALLS = [
    ("uuid1", "no-args"),
    ("uuid6", "no-args"),
    ("uuid7", "no-args"),
    ("uuid7_str", "no-args"),
    ("uuid1", "node="),
    ("uuid6", "keywords"),
    ("uuid7_many", "n"),
    ("uuid7_str_many", "n"),
    ("uuid7_bytes", "n"),
    ("V7Generator.generate", "system"),
    ("V6Generator.generate", "system"),
    ("V1Generator.generate", "system"),
    ("V7Generator.many", "system"),
    ("arrow.uuid7", "n"),
]

CLOCK_SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    sys.path.insert(0, sys.argv[1])
    import catalog, leakcheck, uuidx
    assert time.time() < 0, time.time()
    report = {}
    for name, label in json.loads(sys.argv[2]):
        entry = catalog.BY_NAME[name]
        shape = next(s for s in entry.shapes if s.label == label)
        try:
            entry.call(shape)
        except uuidx.ClockError as exc:
            message = str(exc)
        else:
            message = None
        blocks, refs = leakcheck.measure(
            lambda: entry.call(shape), uuidx.ClockError, leakcheck.watched(shape)
        )
        report[f"{name}[{label}]"] = [message, blocks, refs]
    print(json.dumps(report))
    """
)


@needs_pymalloc
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="libfaketime is for Linux here")
def test_clock_errors_do_not_leak() -> None:
    """Under libfaketime (which intercepts libc's ``clock_gettime``, what the core reads), with
    a clock in 1960: every call that reads the system clock raises ClockError, on the fast path
    and on the full function, and none of them leaks."""
    lib = libfaketime()
    if lib is None:
        if os.environ.get("UUIDX_REQUIRE_FAKETIME") == "1":
            pytest.fail("libfaketime is missing (make test installs it as root)")
        pytest.skip(
            "libfaketime is not installed (apt-get install faketime; make test installs it as root)"
        )
    if platform_facts.MUSL and not platform_facts.preloadable(lib):
        pytest.skip(f"musl: {lib} cannot be preloaded into a musl process (built for glibc)")
    assert set(CLOCK_CALLS) <= {(e.name, s.label) for e, s in catalog.shapes()}
    env = dict(os.environ, LD_PRELOAD=lib, FAKETIME="@1960-01-01 00:00:00")
    proc = subprocess.run(
        [sys.executable, "-c", CLOCK_SCRIPT, str(Path(__file__).parent), json.dumps(CLOCK_CALLS)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    report: dict[str, Any] = json.loads(proc.stdout)
    problems = []
    for shape, (message, blocks, refs) in report.items():
        if message is None or "before 1970" not in message:
            problems.append(f"{shape}: no ClockError ({message!r})")
        if leaks(blocks, refs):
            problems.append(f"{shape}: {blocks} blocks, references {refs} after {CALLS} calls")
    assert not problems, "\n".join(problems)

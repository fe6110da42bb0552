"""Every public callable of the API catalogue (``catalog.ENTRIES``, each of its call shapes) with
one allocation failing: the call returns, raises ``MemoryError``, or raises what the shape says
it raises. Never a ``PanicException`` (a ``BaseException`` that ``except Exception`` misses),
another exception, an abort, a crash or a hang.

Each probe runs in a child forked from this process after the catalogue was built, so "first"
is the first call of that callable in a process (its interned names, type objects and caches
not yet made) and "warm" is a call after one that succeeded or failed. In the child,
``_testcapi.set_nomemory(k, k + 1)`` fails allocation number ``k`` (of every domain: raw, mem,
object) of the call; Rust's own allocations are not hooked (``test_errors``' ``RLIMIT_AS`` tests
cover those). The default pass samples ``k`` (:data:`SAMPLED_FIRST`, :data:`SAMPLED_WARM`);
``UUIDX_NOMEMORY_FULL=1`` (``make test-nomemory``) probes every ``k`` below :data:`FULL_K`, first
and warm. The catalogue decides the list, so a new public function is probed without an edit
here (``test_catalog`` fails until it has an entry).
"""

from __future__ import annotations

import faulthandler
import os
import select
import signal
import time
from typing import Any

import catalog
import pytest
from optional import need
from platform_facts import FORK, INTERPRETER_OUT_OF_MEMORY, NO_FORK, PYPY, PYPY_NO_PYTHONAPI

if PYPY:
    pytest.skip(PYPY_NO_PYTHONAPI, allow_module_level=True)
if not FORK:
    pytest.skip(NO_FORK, allow_module_level=True)
_testcapi = need("_testcapi")
if not hasattr(_testcapi, "set_nomemory"):
    pytest.skip("this interpreter's _testcapi has no set_nomemory", allow_module_level=True)

#: Every allocation below this is failed once in the full sweep (the calls make fewer; the
#: audit that asked for this sweep went to 40).
FULL_K = 41
#: The allocations failed in the default pass: the first few (argument conversion, names,
#: messages), then spread out.
SAMPLED_FIRST = (0, 1, 2, 3, 5, 8, 13, 21, 34)
SAMPLED_WARM = (0, 1, 2, 4, 9)
FULL = os.environ.get("UUIDX_NOMEMORY_FULL") == "1"
#: A probe that takes longer has hung.
TIMEOUT_S = 30.0

CASES = [(e, s) for e in catalog.ENTRIES for s in e.shapes]


def _outcome(entry: catalog.Entry, shape: catalog.Shape, warm: bool, k: int) -> str:
    """In the child: ``"ok"`` or what went wrong (one line)."""
    if warm:
        try:
            entry.call(shape)
        except BaseException:  # noqa: BLE001 - the warm-up may raise what the shape says
            pass
    _testcapi.set_nomemory(k, k + 1)
    try:
        entry.call(shape)
    except MemoryError:
        return "ok"
    except BaseException as exc:  # noqa: BLE001 - any other exception is the finding
        _testcapi.remove_mem_hooks()
        if shape.raises is not None and isinstance(exc, shape.raises):
            return "ok"
        found = f"{type(exc).__module__}.{type(exc).__qualname__}: {exc}"[:500]
        return "ok" if INTERPRETER_OUT_OF_MEMORY.fullmatch(found) else found
    finally:
        _testcapi.remove_mem_hooks()
    return "ok"


def probe(entry: catalog.Entry, shape: catalog.Shape, warm: bool, k: int) -> str:
    """Forks, runs the probe in the child and returns its outcome (or how the child died)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            faulthandler.disable()  # an abort is reported by the parent, in one line
            os.close(r)
            message = _outcome(entry, shape, warm, k)
            os.write(w, message.encode("utf-8", "backslashreplace"))
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    try:
        chunks = []
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([r], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return f"hung for {TIMEOUT_S:.0f} s"
            chunk = os.read(r, 4096)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(r)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    if os.waitstatus_to_exitcode(status) != 0:
        return f"exit {os.waitstatus_to_exitcode(status)}: {b''.join(chunks)!r}"
    return b"".join(chunks).decode()


def _sweep(entry: catalog.Entry, shape: catalog.Shape, warm: bool) -> dict[int, str]:
    ks: Any = range(FULL_K) if FULL else (SAMPLED_WARM if warm else SAMPLED_FIRST)
    found = {}
    for k in ks:
        outcome = probe(entry, shape, warm, k)
        if outcome != "ok":
            found[k] = outcome
    return found


@pytest.mark.parametrize(("entry", "shape"), CASES, ids=[catalog.shape_id(c) for c in CASES])
@pytest.mark.parametrize("warm", [False, True], ids=["first", "warm"])
def test_a_failed_allocation_is_a_memory_error(
    entry: catalog.Entry, shape: catalog.Shape, warm: bool
) -> None:
    assert _sweep(entry, shape, warm) == {}


def test_the_probe_sees_a_panic_and_an_abort() -> None:
    """The probe itself: a ``BaseException`` that is not ``MemoryError`` and a child that
    aborts are findings, a ``MemoryError`` is not."""

    def raise_(exc: BaseException) -> Any:
        raise exc

    def entry(func: Any) -> catalog.Entry:
        return catalog.Entry("probe", func, (catalog.ok("call"),))

    shape = catalog.ok("call")
    never = 10**9  # no call makes that many allocations: nothing fails
    assert probe(entry(lambda: raise_(MemoryError())), shape, False, never) == "ok"
    assert probe(entry(lambda: raise_(KeyboardInterrupt())), shape, False, never).startswith(
        "builtins.KeyboardInterrupt"
    )
    assert probe(entry(os.abort), shape, False, never) == "killed by SIGABRT"
    assert probe(entry(lambda: [object() for _ in range(100)]), shape, False, 5) == "ok"

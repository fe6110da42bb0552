"""Every public callable of the API catalogue (``catalog.ENTRIES``, each of its call shapes) with
one allocation failing: the call returns, raises ``MemoryError``, or raises what the shape says
it raises. Never a ``PanicException`` (a ``BaseException`` that ``except Exception`` misses),
another exception, an abort, a crash or a hang.

Each probe runs in a child forked after the catalogue was built, so "first" is the first call
of that callable in a process (its interned names, type objects and caches not yet made) and
"warm" is a call after one that succeeded or failed. The children are forked from a lean
server that imports this module (``lean_fork``), not from the pytest process, whose size made
each fork several times slower. In the child,
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
from collections.abc import Iterator
from typing import Any

import catalog
import pytest
from lean_fork import LeanForker
from optional import need
from platform_facts import (
    FORK,
    INTERPRETER_OUT_OF_MEMORY,
    NO_FORK,
    PYPY,
    PYPY_NO_PYTHONAPI,
    scaled_down,
)

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
#: messages), then spread out. Under qemu-user, where each probe's fork costs ten times more
#: (``platform_facts.scaled_down``), every other one of them.
SAMPLED_FIRST = (0, 1, 2, 3, 5, 8, 13, 21, 34)[:: 2 if scaled_down() else 1]
SAMPLED_WARM = (0, 1, 2, 4, 9)[:: 2 if scaled_down() else 1]
FULL = os.environ.get("UUIDX_NOMEMORY_FULL") == "1"
#: A probe that takes longer has hung.
TIMEOUT_S = 30.0

CASES = [(e, s) for e in catalog.ENTRIES for s in e.shapes]


def _raise(exc: BaseException) -> Any:
    raise exc


def _probe_entry(func: Any) -> tuple[catalog.Entry, catalog.Shape]:
    shape = catalog.ok("call")
    return catalog.Entry("probe", func, (shape,)), shape


#: What a child can be asked to call, by name: the catalogue's shapes, and the probe's own
#: checks (test_the_probe_sees_a_panic_and_an_abort).
BY_NAME = {
    **{catalog.shape_id(c): c for c in CASES},
    "probe:memory-error": _probe_entry(lambda: _raise(MemoryError())),
    "probe:keyboard-interrupt": _probe_entry(lambda: _raise(KeyboardInterrupt())),
    "probe:abort": _probe_entry(os.abort),
    "probe:allocate": _probe_entry(lambda: [object() for _ in range(100)]),
}


def child_outcome(name: str, warm: bool, k: int) -> str:
    """In the child: ``"ok"`` or what went wrong (one line)."""
    faulthandler.disable()  # an abort is reported by the parent, in one line
    entry, shape = BY_NAME[name]
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


@pytest.fixture(scope="module")
def forker() -> Iterator[LeanForker]:
    server = LeanForker(__name__, TIMEOUT_S)
    yield server
    server.close()


def probe(forker: LeanForker, name: str, warm: bool, k: int) -> str:
    """The outcome of one probe in a child of the server (or how the child ended)."""
    ended = forker.run("child_outcome", name, warm, k)
    return ended.message if ended.exit_code == 0 else ended.describe()


def _sweep(forker: LeanForker, name: str, warm: bool) -> dict[int, str]:
    ks: Any = range(FULL_K) if FULL else (SAMPLED_WARM if warm else SAMPLED_FIRST)
    found = {}
    for k in ks:
        outcome = probe(forker, name, warm, k)
        if outcome != "ok":
            found[k] = outcome
    return found


@pytest.mark.parametrize("name", [catalog.shape_id(c) for c in CASES])
@pytest.mark.parametrize("warm", [False, True], ids=["first", "warm"])
def test_a_failed_allocation_is_a_memory_error(forker: LeanForker, name: str, warm: bool) -> None:
    assert _sweep(forker, name, warm) == {}


def test_the_probe_sees_a_panic_and_an_abort(forker: LeanForker) -> None:
    """The probe itself: a ``BaseException`` that is not ``MemoryError`` and a child that
    aborts are findings, a ``MemoryError`` is not."""
    never = 10**9  # no call makes that many allocations: nothing fails
    assert probe(forker, "probe:memory-error", False, never) == "ok"
    assert probe(forker, "probe:keyboard-interrupt", False, never).startswith(
        "builtins.KeyboardInterrupt"
    )
    assert probe(forker, "probe:abort", False, never) == "killed by SIGABRT"
    assert probe(forker, "probe:allocate", False, 5) == "ok"

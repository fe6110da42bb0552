"""uuidx in the main interpreter only: a subinterpreter, legacy (what mod_wsgi runs each
application group in by default) or isolated, gets an ImportError that says subinterpreters
are not supported, whichever interpreter imports uuidx first, and the main interpreter can
always import it. Each scenario runs in a fresh interpreter process, since the point is the
order of the first imports. In the main interpreter, a thread attached through a thread state
of an embedder's making gets the errors of the fast entry points as any other thread."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from platform_facts import PYPY

pytestmark = pytest.mark.skipif(
    PYPY, reason="PyPy: no subinterpreters, and no ctypes.pythonapi to attach a thread state with"
)

#: Runs code in a new legacy subinterpreter (shared GIL, the main interpreter's settings) with
#: what this interpreter has: ``_testcapi.run_in_subinterp`` (CPython's test module, in most
#: builds), else ``_interpreters`` with the "legacy" configuration (3.13+).
HELPERS = textwrap.dedent(
    """
    import json, sys

    def legacy_runner():
        try:
            import _testcapi
        except ImportError:
            _testcapi = None
        if _testcapi is not None and hasattr(_testcapi, "run_in_subinterp"):
            return _testcapi.run_in_subinterp
        try:
            import _interpreters
            config = _interpreters.new_config("legacy")
        except (ImportError, AttributeError, ValueError):
            return None

        def run(code):
            interp = _interpreters.create(config)
            try:
                _interpreters.run_string(interp, code)
            finally:
                _interpreters.destroy(interp)
            return 0

        return run

    def isolated_runner():
        try:
            import _interpreters
        except ImportError:
            try:
                import _xxsubinterpreters as _interpreters
            except ImportError:
                return None
        if sys.version_info < (3, 12):
            return None  # no isolated (own-GIL) subinterpreters before 3.12

        def run(code):
            interp = _interpreters.create()
            try:
                _interpreters.run_string(interp, code)
            finally:
                _interpreters.destroy(interp)
            return 0

        return run

    # What a subinterpreter reports: its import of uuidx, on stdout, as one JSON line.
    SUB = '''
    import json
    try:
        import uuidx
        result = ["ok", str(uuidx.uuid7())]
    except ImportError as exc:
        result = ["ImportError", str(exc)]
    except BaseException as exc:
        result = [type(exc).__name__, str(exc)]
    print("SUB " + json.dumps(result), flush=True)
    '''

    def main_import():
        try:
            import uuidx
            u = uuidx.uuid7()
            assert uuidx.parse(str(u)) == u and uuidx.to_str(u) == str(u)
            return ["ok", str(u)]
        except BaseException as exc:
            return [type(exc).__name__, str(exc)]
    """
)


def run_scenario(*parts: str) -> list[Any]:
    """Runs ``HELPERS`` and ``parts`` in a fresh interpreter; returns the JSON lines that the
    subinterpreters (``SUB ...``) and the main interpreter (``MAIN ...``) printed, in order."""
    code = HELPERS + "".join(textwrap.dedent(part) for part in parts)
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if proc.returncode == 77:
        pytest.skip(proc.stdout.strip().splitlines()[-1])
    assert proc.returncode == 0, (proc.stdout, proc.stderr[-3000:])
    return [
        [line.split(" ", 1)[0], *json.loads(line.split(" ", 1)[1])]
        for line in proc.stdout.splitlines()
        if line.startswith(("SUB ", "MAIN "))
    ]


NEED_LEGACY = """
run = legacy_runner()
if run is None:
    print("this interpreter can run no legacy subinterpreter (no _testcapi.run_in_subinterp, "
          "no _interpreters)")
    sys.exit(77)
"""


def assert_refused(result: list[Any]) -> None:
    who, kind, message = result
    assert who == "SUB"
    assert kind == "ImportError", result
    assert "subinterpreters" in message, message
    assert "already initialised" not in message


def test_a_subinterpreter_first_then_the_main_interpreter() -> None:
    results = run_scenario(
        NEED_LEGACY,
        """
        run(SUB)
        run(SUB)
        print("MAIN " + json.dumps(main_import()), flush=True)
        run(SUB)
        print("MAIN " + json.dumps(main_import()), flush=True)
        """,
    )
    assert len(results) == 5, results
    assert_refused(results[0])
    assert_refused(results[1])
    assert results[2][:2] == ["MAIN", "ok"], results[2]
    assert_refused(results[3])
    assert results[4][:2] == ["MAIN", "ok"], results[4]


def test_the_main_interpreter_first_then_a_subinterpreter() -> None:
    results = run_scenario(
        NEED_LEGACY,
        """
        print("MAIN " + json.dumps(main_import()), flush=True)
        run(SUB)
        print("MAIN " + json.dumps(main_import()), flush=True)
        """,
    )
    assert len(results) == 3, results
    assert results[0][:2] == ["MAIN", "ok"]
    assert_refused(results[1])
    assert results[2][:2] == ["MAIN", "ok"]


def test_an_isolated_subinterpreter_is_refused() -> None:
    results = run_scenario(
        """
        run = isolated_runner()
        if run is None:
            print("this interpreter has no isolated subinterpreters (CPython 3.12+)")
            sys.exit(77)
        run(SUB)
        print("MAIN " + json.dumps(main_import()), flush=True)
        """
    )
    assert len(results) == 2, results
    who, kind, message = results[0]
    assert (who, kind) == ("SUB", "ImportError"), results[0]
    assert "subinterpreter" in message or "interpreter" in message, message
    assert results[1][:2] == ["MAIN", "ok"]


def test_the_main_interpreter_can_import_the_extension_again() -> None:
    """After ``del sys.modules[...]``, a new import of ``uuidx._core`` in the same (main)
    interpreter works, fast path included, with the functions registered by the first one."""
    results = run_scenario(
        """
        import importlib
        first = main_import()
        import uuidx._core
        old = uuidx._core
        for name in [n for n in sys.modules if n == "uuidx" or n.startswith("uuidx.")]:
            del sys.modules[name]
        again = main_import()
        import uuidx._core
        assert uuidx._core is not old
        assert uuidx._core.parse.__doc__ == old.parse.__doc__
        try:
            uuidx._core.parse("bad")
        except ValueError as exc:
            assert "bad" in str(exc)
        print("MAIN " + json.dumps(first), flush=True)
        print("MAIN " + json.dumps(again), flush=True)
        """
    )
    assert [r[:2] for r in results] == [["MAIN", "ok"], ["MAIN", "ok"]], results


#: Runs code on a thread state made with ``PyThreadState_New`` for this thread, as an embedder
#: does: ``PyGILState`` keeps knowing this thread by its first thread state, so attaching with
#: ``PyGILState_Ensure`` there waits for the GIL that the thread itself holds.
OTHER_THREAD_STATE = textwrap.dedent(
    """
    import ctypes, sys
    import uuidx
    api = ctypes.pythonapi
    for name, restype, argtypes in [
        ("PyInterpreterState_Get", ctypes.c_void_p, []),
        ("PyThreadState_New", ctypes.c_void_p, [ctypes.c_void_p]),
        ("PyThreadState_Swap", ctypes.c_void_p, [ctypes.c_void_p]),
        ("PyThreadState_Clear", None, [ctypes.c_void_p]),
        ("PyThreadState_Delete", None, [ctypes.c_void_p]),
        ("PyRun_SimpleString", ctypes.c_int, [ctypes.c_char_p]),
    ]:
        function = getattr(api, name)
        function.restype, function.argtypes = restype, argtypes
    code = sys.argv[1].encode()
    state = api.PyThreadState_New(api.PyInterpreterState_Get())
    # Nothing but these three calls runs while the frames of this thread state are not current.
    old = api.PyThreadState_Swap(state); rc = api.PyRun_SimpleString(code); api.PyThreadState_Swap(old)
    api.PyThreadState_Clear(state)
    api.PyThreadState_Delete(state)
    print(rc, sys.modules["__main__"].outcome)
    """
)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ('uuidx.parse("bad")', "ValueError"),  # a fast body's error, raised
        ('uuidx.uuid5(uuidx.NAMESPACE_DNS, "\\ud800")', "UnicodeEncodeError"),  # dropped, declined
    ],
)
def test_fast_errors_on_a_thread_state_of_an_embedders_making(call: str, expected: str) -> None:
    """Invariant 3 of ``ffi/fast_call.rs``: an error of a fast body is raised (or dropped) with
    the thread's current thread state; attaching through ``PyGILState_Ensure`` deadlocked. In a
    subprocess with a timeout, so that a deadlock fails instead of hanging the suite."""
    code = f"try:\n    {call}\nexcept Exception as exc:\n    outcome = type(exc).__name__\n"
    try:
        proc = subprocess.run(
            [sys.executable, "-c", OTHER_THREAD_STATE, code],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"{call} on another thread state: no result in 30 s (a deadlock?)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0", expected], (proc.stdout, proc.stderr)

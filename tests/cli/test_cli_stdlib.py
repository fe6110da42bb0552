"""``python -m uuidx`` with the standard library's options, and ``uuidx.main()``, against
Python 3.14's ``python -m uuid``: the same output, errors and exit status.

The reference is the running interpreter's own ``uuid.main()`` on 3.14 and later, and CPython
3.14's ``Lib/uuid.py`` (``tests/data/cpython/uuid-3.14.py.txt``) run by this interpreter before
(its one 3.14-only argument, ``ArgumentParser(color=True)``, dropped: argparse before 3.14 has
no colour; without the C helper ``_uuid``, whose older versions lack what 3.14's module asks of
it; and on 3.9 and 3.10 with a plain ``Enum`` for ``enum._simple_enum`` and ``'big'`` written
into its ``int.to_bytes``/``int.from_bytes`` calls, whose byte order they do not default). Both
sides run in a subprocess with the same ``sys.argv[0]``, so that argparse
prints the same program name, and the same terminal width. Outputs of random UUIDs are
compared by shape (count, version, variant); everything else byte for byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Optional

import pytest
from cli_process import text_of
from lean_fork import run_python

import uuidx

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "cpython" / "uuid-3.14.py.txt"
PY = os.path.basename(sys.executable)

#: Runs the reference ``main()`` with ``sys.argv = [argv0, *args]``.
DRIVER = r"""
import argparse, re, sys, types
argv0, path = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
if sys.version_info >= (3, 14):
    import uuid as reference
else:
    def parser(*a, color=None, **k):
        return argparse.ArgumentParser(*a, **k)
    # main() imports argparse itself: give it a copy whose ArgumentParser drops color=.
    shim = types.ModuleType("argparse")
    shim.__dict__.update(argparse.__dict__)
    shim.ArgumentParser = parser
    sys.modules["argparse"] = shim
    # This interpreter's C helper _uuid predates 3.14's: use the module's pure Python path,
    # as it does where _uuid is missing.
    sys.modules["_uuid"] = None
    import enum
    if not hasattr(enum, "_simple_enum"):  # 3.9 and 3.10: the plain Enum it stands for
        def _simple_enum(etype=enum.Enum, **_):
            def convert(cls):
                members = {k: v for k, v in vars(cls).items() if not k.startswith("_")}
                return etype(cls.__name__, members)
            return convert
        enum._simple_enum = _simple_enum
    reference = types.ModuleType("uuid_3_14")
    reference.__file__ = path
    with open(path, encoding="utf-8") as f:
        source = f.read()
    if sys.version_info < (3, 11):  # byteorder= has no default before 3.11
        calls = r"((?:\bint_?|self\.int)\.(?:from|to)_bytes)\(((?:[^()]|\([^()]*\))*)\)"
        source, n = re.subn(calls, r"\1(\2, 'big')", source)
        assert n == 9, n
    exec(compile(source, path, "exec"), reference.__dict__)
    assert reference.main.__code__.co_filename == path
sys.argv = [argv0, *args]
reference.main()
"""

#: Runs ``uuidx.main()`` the same way.
UUIDX_MAIN = r"""
import sys, uuidx
sys.argv = [sys.argv[1], *sys.argv[2:]]
uuidx.main()
"""


def env() -> dict[str, str]:
    return dict(os.environ, COLUMNS="80", LINES="50", PYTHONIOENCODING="utf-8")


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``argv`` (``sys.executable`` and ``-m`` or ``-c``) forked from a warm interpreter
    (``lean_fork.run_python``), its output as text (``PYTHONIOENCODING=utf-8``, ``env()``)."""
    assert argv[0] == sys.executable, argv
    proc = run_python(argv[1:], env=env(), timeout=60)
    return subprocess.CompletedProcess(
        argv, proc.returncode, text_of(proc.stdout), text_of(proc.stderr)
    )


def reference(argv0: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-c", DRIVER, argv0, str(REFERENCE), *args])


def uuidx_module(*args: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "uuidx", *args])


def uuidx_main(argv0: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-c", UUIDX_MAIN, argv0, *args])


#: ``(args, expected status, version of the UUIDs printed or None for exact comparison,
#: how many lines)``.
CASES: list[tuple[list[str], int, Optional[int], int]] = [
    ([], 0, 4, 1),
    (["-u", "uuid4", "-C", "3"], 0, 4, 3),
    (["-u", "uuid1", "-C", "2"], 0, 1, 2),
    (["-u", "uuid6", "-C", "2"], 0, 6, 2),
    (["-u", "uuid7", "-C", "5"], 0, 7, 5),
    (["--uuid=uuid8", "--count=2"], 0, 8, 2),
    (["-u", "uuid4", "-n", "@dns", "-N", "ignored"], 0, 4, 1),
    (["-u", "uuid5", "-n", "@dns", "-N", "www.example.com"], 0, None, 1),
    (["-u", "uuid3", "-n", "@dns", "-N", "www.example.com", "-C", "2"], 0, None, 2),
    (["-u", "uuid5", "-n", "@url", "-N", "https://example.com/h\u00e9"], 0, None, 1),
    (["-u", "uuid3", "-n", "@oid", "-N", "1.3.6.1"], 0, None, 1),
    (["-u", "uuid5", "-n", "@x500", "-N", "cn=x"], 0, None, 1),
    (["-u", "uuid5", "--namespace", str(uuid.NAMESPACE_URL), "--name", "x"], 0, None, 1),
    (["-u", "uuid5", "-n", "{6ba7b811-9dad-11d1-80b4-00c04fd430c8}", "-N", "x"], 0, None, 1),
    (["-C", "0"], 0, None, 0),
    (["-C", "-1"], 0, None, 0),
    (["-u", "uuid3", "-n", "@dns"], 2, None, 0),
    (["-u", "uuid5", "-N", "x"], 2, None, 0),
    (["-u", "uuid5", "-n", "", "-N", "x"], 2, None, 0),
    (["-u", "uuid5", "-n", "@dns", "-N", ""], 2, None, 0),
    (["-u", "uuid5", "-n", "not-a-uuid", "-N", "x"], 2, None, 0),
    (["-u", "uuid3", "-n", "@nope", "-N", "x"], 2, None, 0),
    (["-u", "uuid2"], 2, None, 0),
    (["-u"], 2, None, 0),
    (["-C", "many"], 2, None, 0),
    (["-C", "1.5"], 2, None, 0),
    (["extra"], 2, None, 0),
    (["-x"], 2, None, 0),
    (["--verbose"], 2, None, 0),
]
IDS = [" ".join(args) or "(none)" for args, _, _, _ in CASES]


def same_behaviour(
    ours: subprocess.CompletedProcess[str],
    theirs: subprocess.CompletedProcess[str],
    status: int,
    version: Optional[int],
    count: int,
) -> None:
    # Not vacuous: the reference itself did what the case says.
    assert theirs.returncode == status, theirs.stderr
    assert len(theirs.stdout.splitlines()) == count, theirs.stdout
    assert (theirs.stderr != "") == (status != 0), theirs.stderr
    assert ours.returncode == theirs.returncode, ours.stderr
    assert ours.stderr == theirs.stderr
    if version is None:
        assert ours.stdout == theirs.stdout
        return
    for side in (ours, theirs):
        made = [uuid.UUID(line) for line in side.stdout.splitlines()]
        assert len(made) == count and len(set(made)) == count
        assert all(u.version == version and u.variant == uuid.RFC_4122 for u in made)
        assert all(line == str(u) for line, u in zip(side.stdout.splitlines(), made))


@pytest.mark.parametrize(("args", "status", "version", "count"), CASES, ids=IDS)
def test_python_m_uuidx_behaves_as_python_m_uuid(
    args: list[str], status: int, version: Optional[int], count: int
) -> None:
    """``python -m uuidx ARGS`` against 3.14's ``main()`` under the name ``python -m uuidx``:
    identical but for the module the one hint of the namespace error names, and the suggestion
    for a mistyped choice (which argparse itself makes from 3.15)."""
    ours = uuidx_module(*args)
    theirs = reference(f"{PY} -m uuidx", *args)
    theirs.stderr = theirs.stderr.replace("Run 'python -m uuid -h'", "Run 'python -m uuidx -h'")
    if "maybe you meant" not in theirs.stderr:  # argparse suggests by itself from 3.15
        theirs.stderr = theirs.stderr.replace(
            "invalid choice: 'uuid2' (", "invalid choice: 'uuid2', maybe you meant 'uuid8'? ("
        )
    same_behaviour(ours, theirs, status, version, count)


@pytest.mark.parametrize(("args", "status", "version", "count"), CASES, ids=IDS)
def test_uuidx_main_is_uuid_main(
    args: list[str], status: int, version: Optional[int], count: int
) -> None:
    """``uuidx.main()`` is the stdlib's ``uuid.main()``, without any difference."""
    ours = uuidx_main(f"{PY} -m uuid", *args)
    theirs = reference(f"{PY} -m uuid", *args)
    same_behaviour(ours, theirs, status, version, count)


def test_the_reference_is_what_it_claims() -> None:
    """Known answers from the reference, and its help naming 3.14's functions: a broken
    driver cannot make the comparisons pass by failing the same way on both sides."""
    theirs = reference(f"{PY} -m uuid", "-u", "uuid5", "-n", "@dns", "-N", "www.example.com")
    assert theirs.returncode == 0 and theirs.stdout == "2ed6657d-e927-568b-95e1-2665a8aea6a2\n"
    bad = reference(f"{PY} -m uuid", "-u", "uuid5", "-n", "not-a-uuid", "-N", "x")
    assert bad.stderr.splitlines()[-1] == (
        f"{PY} -m uuid: error: badly formed hexadecimal UUID string: 'not-a-uuid'"
    )
    helped = reference(f"{PY} -m uuid", "-h")
    assert helped.returncode == 0
    assert "{uuid1,uuid3,uuid4,uuid5,uuid6,uuid7,uuid8}" in helped.stdout
    if sys.version_info < (3, 14):
        assert REFERENCE.read_text(encoding="utf-8").count("def main():") == 1


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_is_the_stdlibs_then_the_commands(flag: str) -> None:
    """``python -m uuidx -h`` prints ``python -m uuid -h``'s help unchanged, then uuidx's
    commands; ``uuidx.main()``'s help has no such addition."""
    theirs = reference(f"{PY} -m uuidx", flag)
    ours = uuidx_module(flag)
    assert theirs.returncode == ours.returncode == 0
    assert theirs.stdout.startswith(f"usage: {PY} -m uuidx [-h]")
    assert ours.stdout.startswith(theirs.stdout)
    extra = ours.stdout[len(theirs.stdout) :]
    assert extra.startswith("\ncommands:\n")
    for command in ("gen", "inspect", "convert", "bounds"):
        assert f"\n  {command} " in extra
    assert uuidx_main(f"{PY} -m uuid", flag).stdout == reference(f"{PY} -m uuid", flag).stdout


def test_uuidx_main_takes_only_what_the_stdlib_takes() -> None:
    """``uuidx.main()`` is the stdlib's: ``-u 7`` and a mistyped choice are its usage errors,
    word for word (the suggestion comes with 3.15's argparse, for both)."""
    for args in (["-u", "7"], ["-u", "uuid77"]):
        ours = uuidx_main(f"{PY} -m uuid", *args)
        theirs = reference(f"{PY} -m uuid", *args)
        assert ours.returncode == theirs.returncode == 2
        assert ours.stderr == theirs.stderr and "invalid choice" in ours.stderr


def test_version_prints_uuidxs_version() -> None:
    theirs = reference(f"{PY} -m uuidx", "--version")
    assert theirs.returncode == 2 and "unrecognized arguments: --version" in theirs.stderr
    ours = uuidx_module("--version")
    assert ours.returncode == 0 and ours.stderr == ""
    assert ours.stdout == f"uuidx {uuidx.__version__}\n"


@pytest.mark.skipif(sys.version_info < (3, 14), reason="python -m uuid has main() from 3.14")
def test_the_real_python_m_uuid() -> None:
    """On 3.14+, the interpreter's ``python -m uuid`` itself, for the deterministic cases."""
    args = ["-u", "uuid5", "-n", "@dns", "-N", "www.example.com", "-C", "2"]
    real = run([sys.executable, "-m", "uuid", *args])
    assert real.returncode == 0 and real.stdout.count("2ed6657d-e927-568b-95e1-2665a8aea6a2") == 2
    assert uuidx_module(*args).stdout == real.stdout
    bad = ["-u", "uuid3", "-n", "nope", "-N", "x"]
    real = run([sys.executable, "-m", "uuid", *bad])
    ours = uuidx_module(*bad)
    assert real.returncode == ours.returncode == 2
    # The usage above it wraps one column later: compare the error line.
    assert ours.stderr.splitlines()[-1] == real.stderr.splitlines()[-1].replace(
        " -m uuid:", " -m uuidx:"
    )

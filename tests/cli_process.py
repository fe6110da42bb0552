"""``python -m uuidx`` run in a process of its own, for the command line's tests (``tests/cli``):
its output as text, and the checks of a one-line error. The process is a child forked from a
warm interpreter (``lean_fork.run_python``), where ``fork()`` exists and unless
``UUIDX_FRESH_PYTHON=1``: the tests' ~220 runs of the command line took half of the whole
suite's time under qemu-user when each started Python."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Optional, Union

from lean_fork import run_python

#: The program name the CLI gives itself when run with ``-m`` (``python -m uuidx``; on Windows
#: ``python.exe -m uuidx``, as argparse names it there).
PROG = f"{os.path.basename(sys.executable)} -m uuidx"


def text_of(data: bytes) -> str:
    """A console stream as text, its line endings ``\n`` (Windows writes ``os.linesep``, CRLF)."""
    return data.decode().replace(os.linesep, "\n")


def run(*args: str, stdin: Optional[Union[str, bytes]] = None) -> subprocess.CompletedProcess[str]:
    """``python -m uuidx ARGS`` with ``stdin`` (nothing by default) on its standard input."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = run_python(["-m", "uuidx", *args], input=data if data is not None else b"", timeout=120)
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, text_of(proc.stdout), text_of(proc.stderr)
    )


def one_line_error(proc: subprocess.CompletedProcess[str], status: int) -> str:
    """The error of a failed run: one line on stderr, starting with the program's name, the
    given status, no traceback."""
    assert proc.returncode == status, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith(f"{PROG} "), proc.stderr
    return proc.stderr

"""The command line's tests run ``python`` forked from a warm interpreter
(``lean_fork.run_python``): each kind of run it is given ends as a fresh interpreter's does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

import lean_fork
import pytest
from lean_fork import run_python

pytestmark = pytest.mark.skipif(
    lean_fork.FRESH, reason="every run starts a fresh interpreter here: nothing to compare"
)

SHOW = (
    "import json, os, sys; print(json.dumps([sys.argv, sys.path[0], __name__, os.getcwd(),"
    " os.environ.get('UUIDX_PROCESS_PROBE'), sys.stdin.encoding, sys.stdout.line_buffering]))"
)


def fresh(
    args: list[str], stdin: bytes = b"", env: Optional[dict[str, str]] = None, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, *args],
        input=stdin,
        capture_output=True,
        env=dict(os.environ if env is None else env),
        timeout=timeout,
        check=False,
    )


def both(
    args: list[str], stdin: bytes = b"", env: Optional[dict[str, str]] = None
) -> tuple[subprocess.CompletedProcess[bytes], subprocess.CompletedProcess[bytes]]:
    forked = run_python(args, input=stdin, env=env, timeout=60)
    return forked, fresh(args, stdin, env)


@pytest.mark.parametrize(
    "args",
    [
        ["-m", "uuidx", "--version"],
        ["-m", "uuidx", "gen", "-u", "5", "-n", "@dns", "-N", "www.example.com"],
        ["-m", "uuidx", "gen", "--no-such-option"],
        ["-m", "uuidx", "inspect", "not-a-uuid"],
        ["-m", "uuid", "-u", "uuid3", "-n", "@url", "-N", "https://example.com"],
        ["-c", "import sys; sys.exit('bye')"],
        ["-c", "import sys; sys.exit(7)"],
        ["-c", "import sys; print('partial', end=''); sys.exit(None)"],
        ["-c", "import sys; sys.stdout.write('left in the buffer at the end')"],
    ],
    ids=lambda a: " ".join(a),
)
def test_a_run_ends_as_a_fresh_interpreters(args: list[str]) -> None:
    # Block-buffered standard output, whatever this process was given: what the end flushes.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    forked, new = both(args, env=env)
    assert (forked.returncode, forked.stdout, forked.stderr) == (
        new.returncode,
        new.stdout,
        new.stderr,
    )


def test_argv_path_name_cwd_environment_and_streams_are_a_fresh_interpreters(
    tmp_path: os.PathLike[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    env = dict(os.environ, UUIDX_PROCESS_PROBE="given")
    (Path(tmp_path) / "uuidx_process_probe.py").write_text(SHOW)
    for args in (["-c", SHOW, "a", "-b"], ["-m", "uuidx_process_probe", "c"]):
        forked, new = both(args, env=env)
        assert forked.returncode == new.returncode == 0, (forked.stderr, new.stderr)
        assert forked.stdout == new.stdout
    forked, new = both(["-c", SHOW, "x"])
    assert json.loads(forked.stdout)[4] is None
    assert forked.stdout == new.stdout


def test_input_and_output_beyond_a_pipes_buffer_both_arrive_whole() -> None:
    data = os.urandom(3 << 20)
    code = "import sys; d = sys.stdin.buffer.read(); sys.stdout.buffer.write(d[::-1] * 2)"
    forked = run_python(["-c", code], input=data, timeout=60)
    assert forked.returncode == 0, forked.stderr
    assert forked.stdout == data[::-1] * 2


def test_an_uncaught_exception_prints_its_traceback_and_exits_1() -> None:
    forked, new = both(["-c", "raise ValueError('the message')"])
    assert forked.returncode == new.returncode == 1
    assert (
        forked.stderr.splitlines()[0]
        == new.stderr.splitlines()[0]
        == b"Traceback (most recent call last):"
    )
    assert (
        forked.stderr.splitlines()[-1] == new.stderr.splitlines()[-1] == b"ValueError: the message"
    )


def test_a_signal_and_a_timeout_end_it_as_they_end_a_process() -> None:
    killed = "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"
    forked, new = both(["-c", killed])
    assert forked.returncode == new.returncode == -15
    with pytest.raises(subprocess.TimeoutExpired):
        run_python(["-c", "import time; time.sleep(60)"], timeout=1)


def test_what_it_cannot_fork_runs_in_a_fresh_interpreter() -> None:
    proc = run_python(["-I", "-c", "import sys; print(sys.flags.isolated)"], timeout=60)
    assert (proc.returncode, proc.stdout) == (0, b"1\n")

"""Children forked from a lean process, for the tests that fork one per probe.

``tests/ffi/test_nomemory_sweep.py`` and ``test_nomemory_rlimit.py`` fork thousands of children a
pass. Forking copies the parent's page tables and runs its at-fork handlers, and by the time
those modules run, the pytest process holds every test module and the dataframe libraries
(pyarrow, polars, duckdb, pandas) with their thread pools: each fork and exit costs several
times what it costs in a process that holds only the interpreter, uuidx and the catalogue (the
two modules took 269 s of a 582 s pass of the whole suite, and 49 s run alone).

So the probes are forked from a server: a fresh interpreter (``sys.executable``, with this
process's ``sys.path``) that imports the test module that asked for it, and with it the API
catalogue, then forks one child per request. A child is still "forked after the catalogue was
built, before any call": what the probes' "first" means. The child runs a function of that
module by name, with JSON arguments; what it returns (a ``str``) comes back as the probe's
message, or the function ends the process itself with ``os._exit``. The server reports how the
child ended; a child still running after the timeout is killed and reported as hung.

The server is this file run as a script; :class:`LeanForker` starts and talks to it (one JSON
line each way per probe) and stops it when closed.
"""

from __future__ import annotations

import importlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any, Optional


@dataclass(frozen=True)
class Ended:
    """How a probe's child ended: its exit code, or the signal that killed it, or hung."""

    exit_code: Optional[int]
    signal: Optional[int]
    hung: bool
    message: str

    def describe(self) -> str:
        """How the child ended, in one line, for a finding."""
        if self.hung:
            return "hung"
        if self.signal is not None:
            return f"killed by {signal.Signals(self.signal).name}"
        return f"exit {self.exit_code}: {self.message!r}"


class LeanForker:
    """A server process that imports ``module`` and forks a child per :meth:`run`."""

    def __init__(self, module: str, timeout_s: float) -> None:
        env = dict(os.environ, UUIDX_LEAN_FORK_PATH=json.dumps(sys.path))
        self._server = subprocess.Popen(
            [sys.executable, __file__, module, str(timeout_s)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        ready = self._read()
        if ready != {"ready": module}:
            self.close()
            raise RuntimeError(f"the lean fork server for {module} did not start: {ready}")

    def _read(self) -> Any:
        assert self._server.stdout is not None
        line = self._server.stdout.readline()
        if not line:
            raise RuntimeError(f"the lean fork server exited ({self._server.wait()})")
        return json.loads(line)

    def run(self, function: str, *args: Any) -> Ended:
        """Forks a child of the server that calls ``module.function(*args)``."""
        assert self._server.stdin is not None
        self._server.stdin.write(json.dumps([function, args]) + "\n")
        self._server.stdin.flush()
        reply = self._read()
        return Ended(reply["exit"], reply["signal"], reply["hung"], reply["message"])

    def close(self) -> None:
        if self._server.stdin is not None:
            self._server.stdin.close()
        try:
            self._server.wait(timeout=30)
        finally:
            if self._server.poll() is None:
                self._server.kill()
                self._server.wait()
            if self._server.stdout is not None:
                self._server.stdout.close()


def _child(module: Any, function: str, args: list[Any], w: int) -> None:
    """In the forked child: run the function, write what it returns, exit 0."""
    code = 1
    try:
        # Away from the server's requests and replies.
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        os.dup2(devnull, 1)
        message = getattr(module, function)(*args)
        os.write(w, str(message).encode("utf-8", "backslashreplace"))
        code = 0
    finally:
        os._exit(code)


def _fork(module: Any, function: str, args: list[Any], timeout_s: float) -> dict[str, Any]:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        _child(module, function, args, w)
    os.close(w)
    hung = False
    chunks = []
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([r], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                hung = True
                break
            chunk = os.read(r, 4096)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(r)
    _, status = os.waitpid(pid, 0)
    signalled = os.WIFSIGNALED(status) and not hung
    return {
        "exit": None if os.WIFSIGNALED(status) else os.waitstatus_to_exitcode(status),
        "signal": os.WTERMSIG(status) if signalled else None,
        "hung": hung,
        "message": b"".join(chunks).decode("utf-8", "backslashreplace"),
    }


def _serve(name: str, timeout_s: float) -> None:
    sys.path[:] = json.loads(os.environ["UUIDX_LEAN_FORK_PATH"])
    # Replies go to a copy of stdout; what the module prints on import goes to stderr.
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    module = importlib.import_module(name)
    print(json.dumps({"ready": name}), file=replies, flush=True)
    for line in sys.stdin:
        function, args = json.loads(line)
        print(json.dumps(_fork(module, function, args, timeout_s)), file=replies, flush=True)


if __name__ == "__main__":
    _serve(sys.argv[1], float(sys.argv[2]))

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

The command line's tests (``tests/cli``) start ``python -m uuidx`` about 220 times a pass: 0.1 s
each natively, seconds under qemu-user, where they were half of the s390x whole suite (506 s of
1,048). :func:`run_python` forks those runs from a second kind of server (``--python``), started
with the run's environment and with the command line imported (:data:`PRELOAD`): the child puts
its own pipes on descriptors 0, 1 and 2 and runs ``-m``/``-c`` as those options do
(``runpy``), then ends through the interpreter's own exit. ``tests/cli/test_cli_process.py``
compares its runs with fresh interpreters'.
"""

from __future__ import annotations

import atexit
import base64
import builtins
import importlib
import json
import os
import runpy
import select
import signal
import subprocess
import sys
import time
import types
from collections.abc import Mapping, Sequence
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
            _stop(self._server)
        finally:
            if self._server.stdout is not None:
                self._server.stdout.close()


def _stop(server: subprocess.Popen[Any]) -> None:
    """Waits for a server whose requests have ended to exit; kills it after 30 s."""
    try:
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


#: What the ``python`` server imports before its first fork: the command line and what the
#: tests' ``-c`` drivers import (never ``uuidx.__main__``, which ``-m uuidx`` runs itself).
PRELOAD = ("argparse", "json", "uuid", "uuidx", "uuidx.cli")

#: ``UUIDX_FRESH_PYTHON=1``: every :func:`run_python` starts a fresh interpreter.
FRESH = os.environ.get("UUIDX_FRESH_PYTHON") == "1" or not hasattr(os, "fork")

#: Set by pytest for each test; no interpreter reads it at its start.
_PER_TEST = ("PYTEST_CURRENT_TEST",)


class ForkedPython:
    """A server started as ``python`` with ``env`` that forks a child per :meth:`run`."""

    def __init__(self, env: Mapping[str, str]) -> None:
        req_r, self._requests = os.pipe()
        self._replies, rep_w = os.pipe()
        self._pending = b""
        # Its standard streams are pipes, as subprocess.run(capture_output=True, input=...)
        # gives a fresh interpreter: the children's sys.stdin, sys.stdout and sys.stderr are
        # the server's objects over their own pipes, set up as for pipes.
        self._server = subprocess.Popen(
            [sys.executable, __file__, "--python", str(req_r), str(rep_w)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=dict(env),
            pass_fds=(req_r, rep_w),
        )
        os.close(req_r)
        os.close(rep_w)
        if self._read() != {"ready": True}:
            raise RuntimeError("the python fork server did not start")

    def _read(self) -> Any:
        while b"\n" not in self._pending:
            chunk = os.read(self._replies, 65536)
            if not chunk:
                assert self._server.stderr is not None
                why = self._server.stderr.read().decode(errors="replace")
                raise RuntimeError(f"the python fork server exited: {why}")
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return json.loads(line)

    def run(
        self, argv: Sequence[str], stdin: bytes, env: Mapping[str, str], timeout: float
    ) -> dict[str, Any]:
        request = {
            "argv": list(argv),
            "stdin": base64.b64encode(stdin).decode(),
            "env": dict(env),
            "cwd": os.getcwd(),
            "timeout": timeout,
        }
        _write_all(self._requests, json.dumps(request).encode() + b"\n")
        reply: dict[str, Any] = self._read()
        return reply

    def close(self) -> None:
        os.close(self._requests)
        try:
            _stop(self._server)
        finally:
            os.close(self._replies)
            for stream in (self._server.stderr, self._server.stdin):
                if stream is not None:
                    stream.close()


_SERVERS: dict[tuple[tuple[str, str], ...], ForkedPython] = {}


def _close_servers() -> None:
    while _SERVERS:
        _SERVERS.popitem()[1].close()


atexit.register(_close_servers)


def run_python(
    args: Sequence[str],
    *,
    input: bytes = b"",  # noqa: A002  # subprocess.run's name
    env: Optional[Mapping[str, str]] = None,
    timeout: float,
) -> subprocess.CompletedProcess[bytes]:
    """``subprocess.run([sys.executable, *args], input=input, capture_output=True, env=env,
    timeout=timeout)``, for ``args`` of ``-m MODULE ...`` or ``-c CODE ...``: a child forked
    from a server started with the same environment (one per environment, kept until exit),
    which skips the interpreter's start and the imports of :data:`PRELOAD`. Anything else, a
    platform without ``fork()``, or ``UUIDX_FRESH_PYTHON=1``: a fresh interpreter.

    What a fresh interpreter does at its start (reading the environment, finding the ``-m``
    module, setting up the standard streams) is done once by the server, with the same
    environment: an argument of the environment that only the start reads is the same for
    every child. A traceback printed at the end names the server's frames above the code's."""
    env = dict(os.environ if env is None else env)
    cmd = [sys.executable, *args]
    if FRESH or len(args) < 2 or args[0] not in ("-m", "-c"):
        return subprocess.run(
            cmd, input=input, capture_output=True, env=env, timeout=timeout, check=False
        )
    key = tuple(sorted((k, v) for k, v in env.items() if k not in _PER_TEST))
    server = _SERVERS.get(key)
    if server is None:
        server = _SERVERS[key] = ForkedPython(env)
    ended = server.run(args, input, env, timeout)
    stdout = base64.b64decode(ended["stdout"])
    stderr = base64.b64decode(ended["stderr"])
    if ended["hung"]:
        raise subprocess.TimeoutExpired(cmd, timeout, stdout, stderr)
    code = -ended["signal"] if ended["signal"] is not None else ended["exit"]
    return subprocess.CompletedProcess(cmd, code, stdout, stderr)


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


def _reap(
    pid: int, timeout_s: float, reads: list[int], feed: Optional[tuple[int, bytes]] = None
) -> dict[str, Any]:
    """Reads each of ``reads`` to its end (and writes ``feed``'s bytes to its pipe, then closes
    it) until the child has closed them all or ``timeout_s`` has passed, when it is killed and
    reported as hung; closes every descriptor and reaps the child. Returns how it ended, and
    what each of ``reads`` gave under ``"read"``."""
    chunks: dict[int, list[bytes]] = {fd: [] for fd in reads}
    open_reads = list(reads)
    writing, data = feed if feed is not None else (None, b"")
    if writing is not None:
        os.set_blocking(writing, False)
    hung = False
    deadline = time.monotonic() + timeout_s
    try:
        while open_reads or writing is not None:
            if writing is not None and not data:
                os.close(writing)
                writing = None
                continue
            left = deadline - time.monotonic()
            wants = [writing] if writing is not None else []
            readable, writable, _ = select.select(open_reads, wants, [], max(left, 0))
            if left <= 0 or not (readable or writable):
                os.kill(pid, signal.SIGKILL)
                hung = True
                break
            for fd in readable:
                chunk = os.read(fd, 65536)
                if chunk:
                    chunks[fd].append(chunk)
                else:
                    open_reads.remove(fd)
            if writable and writing is not None:
                try:
                    data = data[os.write(writing, data[:65536]) :]
                except BlockingIOError:
                    pass
                except BrokenPipeError:  # the child closed its input: what it read is all
                    data = b""
    finally:
        for fd in reads:
            os.close(fd)
        if writing is not None:
            os.close(writing)
    # A child that closed its pipes without exiting gets the time that is left.
    while True:
        done, status = os.waitpid(pid, 0 if hung else os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            hung = True
        else:
            time.sleep(0.001)
    signalled = os.WIFSIGNALED(status) and not hung
    return {
        "exit": None if os.WIFSIGNALED(status) else os.waitstatus_to_exitcode(status),
        "signal": os.WTERMSIG(status) if signalled else None,
        "hung": hung,
        "read": [b"".join(chunks[fd]) for fd in reads],
    }


def _fork(module: Any, function: str, args: list[Any], timeout_s: float) -> dict[str, Any]:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        _child(module, function, args, w)
    os.close(w)
    ended = _reap(pid, timeout_s, [r])
    ended["message"] = ended.pop("read")[0].decode("utf-8", "backslashreplace")
    return ended


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


def _python_child(argv: list[str], env: dict[str, str], cwd: str, stdio: list[int]) -> None:
    """In the forked child: ``stdio`` on descriptors 0, 1 and 2, then ``argv`` (``-m MODULE
    ARGS`` or ``-c CODE ARGS``) run as ``__main__`` the way those options run it. Never
    returns: what it raises, ``SystemExit`` included, ends the process as it ends a fresh
    interpreter's (the exit status, stdout's flush, the traceback of what escapes)."""
    for target, fd in enumerate(stdio):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = main
    option, what, *args = argv
    if option == "-m":
        sys.argv = ["-m", *args]
        sys.path[0] = os.getcwd()
        runpy._run_module_as_main(what)  # type: ignore[attr-defined]  # what -m calls
    else:
        sys.argv = ["-c", *args]
        sys.path[0] = ""
        exec(compile(what, "<string>", "exec"), main.__dict__)
    raise SystemExit


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def _serve_python(requests: int, replies: int) -> None:
    """Forks a child per request (a JSON line on ``requests``: argv, stdin, env, cwd, timeout)
    and writes how it ended and what it wrote (a JSON line on ``replies``)."""
    for name in PRELOAD:
        importlib.import_module(name)
    _write_all(replies, b'{"ready": true}\n')
    pending = b""
    while True:
        while b"\n" not in pending:
            chunk = os.read(requests, 65536)
            if not chunk:
                return
            pending += chunk
        line, pending = pending.split(b"\n", 1)
        request = json.loads(line)
        pipes = [os.pipe() for _ in range(3)]
        pid = os.fork()
        if pid == 0:
            os.close(requests)
            os.close(replies)
            os.close(pipes[0][1])
            os.close(pipes[1][0])
            os.close(pipes[2][0])
            _python_child(
                request["argv"],
                request["env"],
                request["cwd"],
                [pipes[0][0], pipes[1][1], pipes[2][1]],
            )
        for fd in (pipes[0][0], pipes[1][1], pipes[2][1]):
            os.close(fd)
        stdin = base64.b64decode(request["stdin"])
        ended = _reap(pid, request["timeout"], [pipes[1][0], pipes[2][0]], (pipes[0][1], stdin))
        stdout, stderr = ended.pop("read")
        ended["stdout"] = base64.b64encode(stdout).decode()
        ended["stderr"] = base64.b64encode(stderr).decode()
        _write_all(replies, json.dumps(ended).encode() + b"\n")


if __name__ == "__main__":
    if sys.argv[1] == "--python":
        _serve_python(int(sys.argv[2]), int(sys.argv[3]))
    else:
        _serve(sys.argv[1], float(sys.argv[2]))

"""Signals in bulk and column calls: how soon a handler runs, and what the checks cost.

``latency``: each bulk and column call runs on a large input with ``SIGALRM`` due 20 ms in
(``setitimer``: the kernel delivers it whatever holds the GIL); the handler notes the time and
raises. The latency is the time from the signal to the handler, median and worst of the rounds;
the whole call's time (uninterrupted) is given for scale::

    .venv/cpython3.11/bin/python benches/interrupts.py latency [--rounds 5]

``cost``: the same calls, made to run to their end, in this interpreter's uuidx and in another
interpreter's (a build without the checks, say), as instructions per call counted by
``valgrind --tool=callgrind`` (each workload run once and twice, the difference is one call:
start-up and imports cancel out) and as paired ratios of wall-clock times (two worker
processes, one per build, visited in turn in a random order each round; the ratio of each
round's pair, median and 10th-90th percentiles)::

    .venv/cpython3.11/bin/python benches/interrupts.py cost --other /tmp/base/venv/bin/python

Timings on a shared machine are noisy; instruction counts are not. Run on a quiet machine for
figures to publish.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

SETUP = """
import threading  # as in most programs: its first import would be counted against a call
import uuidx, uuidx.arrow as ua
N = {n}
rows = {rows}
col = ua.uuid7(rows)
texts = ua.to_str(col)
hexes = ua.encode(col, "hex")
values = col.to_pylist()
small_texts = ua.to_str(ua.uuid7(10))
"""

# name: (statement, N for the latency run, N for the cost run); N counts UUIDs to make, or the
# rows of the input column (col, texts, hexes, values) when the statement reads one.
WORKLOADS: dict[str, tuple[str, int, int]] = {
    "uuid4_bytes": ("uuidx.uuid4_bytes(N)", 50_000_000, 1_000_000),
    "uuid7_bytes": ("uuidx.uuid7_bytes(N)", 50_000_000, 1_000_000),
    "uuid4_many": ("uuidx.uuid4_many(N)", 5_000_000, 100_000),
    "uuid7_many": ("uuidx.uuid7_many(N)", 5_000_000, 100_000),
    "uuid4_str_many": ("uuidx.uuid4_str_many(N)", 5_000_000, 100_000),
    "uuid7_str_many": ("uuidx.uuid7_str_many(N)", 5_000_000, 100_000),
    "V7Generator.many": ("uuidx.V7Generator().many(N)", 5_000_000, 100_000),
    "arrow.uuid4": ("ua.uuid4(N)", 50_000_000, 1_000_000),
    "arrow.uuid7": ("ua.uuid7(N)", 50_000_000, 1_000_000),
    "arrow.uuid5": ("ua.uuid5(uuidx.NAMESPACE_DNS, texts)", 10_000_000, 200_000),
    "arrow.uuid8_name": ("ua.uuid8_name(uuidx.NAMESPACE_DNS, texts)", 10_000_000, 200_000),
    "arrow.parse": ("ua.parse(texts)", 10_000_000, 500_000),
    "arrow.decode": ("ua.decode(hexes, 'hex')", 10_000_000, 500_000),
    "arrow.to_str": ("ua.to_str(col)", 10_000_000, 500_000),
    "arrow.encode": ("ua.encode(col, 'base58')", 10_000_000, 200_000),
    "arrow.timestamp_ns": ("ua.timestamp_ns(col)", 10_000_000, 1_000_000),
    "arrow.mask_v7": ("ua.mask_v7(col, bytes(16))", 10_000_000, 1_000_000),
    "arrow.unmask_v7": ("ua.unmask_v7(col, bytes(16), errors='null')", 10_000_000, 1_000_000),
    "arrow.array (list)": ("ua.array(values)", 5_000_000, 200_000),
    "UUIDArray.to_pylist": ("col.to_pylist()", 5_000_000, 200_000),
    "ArrowArray.to_pylist": ("texts.to_pylist()", 5_000_000, 200_000),
    # Calls that fit in one chunk: the checks must cost them nothing.
    "uuid4_many(10)": ("uuidx.uuid4_many(10)", 0, 0),
    "uuid7_bytes(10)": ("uuidx.uuid7_bytes(10)", 0, 0),
    "arrow.uuid4(10)": ("ua.uuid4(10)", 0, 0),
    "arrow.parse(10 rows)": ("ua.parse(small_texts)", 0, 0),
}

INPUTS = ("col", "texts", "hexes", "values")


def namespace(stmt: str, n: int) -> dict[str, Any]:
    """The inputs of ``stmt``: ``N = n``, and columns of ``n`` rows if it reads one."""
    reads = any(re.search(rf"\b{name}\b", stmt) for name in INPUTS)
    env: dict[str, Any] = {}
    exec(SETUP.format(n=n, rows=n if reads else 10), env)
    return env


# --------------------------------------------------------------------------------------------
# Latency


class Stop(Exception):
    pass


def latency(rounds: int) -> None:
    print(f"{'call':24} {'N':>12} {'whole call':>11} {'latency median':>15} {'worst':>8}")
    for name, (stmt, n, _) in WORKLOADS.items():
        if not n:
            continue
        env = namespace(stmt, n)
        code = compile(stmt, name, "eval")
        start = time.perf_counter()
        eval(code, env)
        whole = time.perf_counter() - start
        seen: list[float] = []
        handled = [0.0]

        def handler(signum: int, frame: Any, handled: list[float] = handled) -> None:
            handled[0] = time.perf_counter()
            raise Stop

        previous = signal.signal(signal.SIGALRM, handler)
        try:
            for _ in range(rounds):
                due = time.perf_counter() + 0.02
                signal.setitimer(signal.ITIMER_REAL, 0.02)
                try:
                    eval(code, env)
                except Stop:
                    seen.append(handled[0] - due)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        if len(seen) < rounds:
            print(f"{name:24} {n:>12,} {whole:>10.2f}s   the call ended before the signal")
            continue
        print(
            f"{name:24} {n:>12,} {whole:>10.2f}s {1e3 * statistics.median(seen):>13.2f} ms"
            f" {1e3 * max(seen):>5.1f} ms",
            flush=True,
        )
        del env


# --------------------------------------------------------------------------------------------
# Cost


def child_callgrind(name: str, loops: int) -> None:
    stmt, _, n = WORKLOADS[name]
    env = namespace(stmt, n)
    code = compile(f"for _ in range({loops}):\n    {stmt}\n", name, "exec")
    exec(code, env)


def instructions(python: str, name: str, loops: int) -> int:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           python, __file__, "child-callgrind", name, str(loops)]  # fmt: skip
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        raise RuntimeError(f"callgrind failed for {name}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def child_timer() -> None:
    """Reads workload names on stdin; answers each with the best time of a few runs."""
    envs: dict[str, dict[str, Any]] = {}
    for line in sys.stdin:
        name = line.strip()
        stmt, _, n = WORKLOADS[name]
        env = envs.setdefault(name, namespace(stmt, n))
        code = compile(stmt, name, "eval")
        loops = 2000 if not n else 3
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(loops):
                eval(code, env)
            best = min(best, (time.perf_counter() - start) / loops)
        print(json.dumps(best), flush=True)


def cost(other: str, rounds: int, callgrind: bool) -> None:
    ours = sys.executable
    names = list(WORKLOADS)
    if callgrind:
        print(f"{'call':24} {'instructions, this build':>26} {'other build':>14} {'ratio':>7}")
        for name in names:
            loops = 20 if not WORKLOADS[name][2] else 1
            counts = []
            for python in (ours, other):
                one = instructions(python, name, loops)
                two = instructions(python, name, 2 * loops)
                counts.append((two - one) / loops)
            print(f"{name:24} {counts[0]:>26,.0f} {counts[1]:>14,.0f} {counts[0] / counts[1]:>7.4f}",
                  flush=True)  # fmt: skip
    workers = {
        python: subprocess.Popen(
            [python, __file__, "child-timer"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for python in (ours, other)
    }

    def ask(python: str, name: str) -> float:
        worker = workers[python]
        assert worker.stdin and worker.stdout
        worker.stdin.write(name + "\n")
        worker.stdin.flush()
        return float(json.loads(worker.stdout.readline()))

    ratios: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(rounds):
        for name in random.sample(names, len(names)):
            pair = [ours, other]
            random.shuffle(pair)
            times = {python: ask(python, name) for python in pair}
            ratios[name].append(times[ours] / times[other])
    print(f"\n{'call':24} {'time ratio this / other':>24} {'10th-90th':>16}")
    for name in names:
        r = sorted(ratios[name])
        deciles = statistics.quantiles(r, n=10) if len(r) > 1 else [r[0]] * 9
        print(f"{name:24} {statistics.median(r):>24.3f} {deciles[0]:>7.3f}-{deciles[-1]:.3f}")
    for worker in workers.values():
        assert worker.stdin
        worker.stdin.close()
        worker.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    lat = sub.add_parser("latency")
    lat.add_argument("--rounds", type=int, default=5)
    cst = sub.add_parser("cost")
    cst.add_argument("--other", required=True, help="a python whose uuidx is the other build")
    cst.add_argument("--rounds", type=int, default=15)
    cst.add_argument("--no-callgrind", action="store_true")
    cg = sub.add_parser("child-callgrind")
    cg.add_argument("name")
    cg.add_argument("loops", type=int)
    sub.add_parser("child-timer")
    args = parser.parse_args(argv)
    if args.command == "latency":
        latency(args.rounds)
    elif args.command == "cost":
        cost(args.other, args.rounds, not args.no_callgrind)
    elif args.command == "child-callgrind":
        child_callgrind(args.name, args.loops)
    else:
        child_timer()
    return 0


if __name__ == "__main__":
    sys.exit(main())

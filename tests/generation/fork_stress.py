"""``make stress-fork``: the scenario of ``test_deterministic_fork`` (threads inside GIL-released
bulk calls while the main thread forks) for many more children, with and without
``uuidx.testing.deterministic()``, reporting for every child that fails how it ended and what it
wrote to stderr (its traceback, or faulthandler's stacks of all threads when it hangs)::

    python tests/generation/fork_stress.py [--forks 10000] [--limit 20]

Besides the test's four bulk threads, four threads make single UUIDs (``uuid7``, ``uuid4``) in
a loop, as a web backend's request threads do. Prints one line per failure and a summary; the
exit status is 1 if any child failed.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

from test_deterministic_fork import (  # noqa: E402
    BULK_CALLS,
    _fork_within,
    _run_child,
    busy_threads,
)

import uuidx  # noqa: E402
import uuidx.arrow  # noqa: E402
from uuidx.testing import deterministic  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--forks", type=int, default=10_000)
    parser.add_argument("--limit", type=float, default=20.0, help="seconds a child may take")
    args = parser.parse_args()
    failures = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "child.err"
        for mode in ("process-wide", "deterministic"):
            scope = deterministic(seed="fork-stress") if mode == "deterministic" else None
            calls: tuple[Callable[[], object], ...] = (
                *BULK_CALLS,
                uuidx.uuid7,
                uuidx.uuid4,
                uuidx.uuid7,
                uuidx.uuid4,
            )
            with scope or contextlib.nullcontext(), busy_threads(calls) as errors:
                for i in range(args.forks // 2):
                    time.sleep(0.001)
                    child = functools.partial(_run_child, uuidx.uuid7())
                    failure = _fork_within(args.limit, child, stderr=log)
                    if failure is not None:
                        detail = log.read_text(errors="replace")[-3000:]
                        failures.append(f"{mode} child {i}: {failure}\n{detail}")
                        print(failures[-1], flush=True)
            if errors:
                failures.append(f"{mode}: a busy thread raised {errors[0]!r}")
    took = time.monotonic() - start
    print(f"{args.forks} children in {took:.0f} s, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

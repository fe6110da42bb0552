"""``make bench-instructions``: instructions per call of each single-call operation of
``benches/bench.py``, for uuidx and each peer, counted by ``valgrind --tool=callgrind``.

Timings on a shared machine vary by a quarter from run to run; instruction counts do not (the
same binary, inputs and environment give the same count whatever else the machine does). They
are not times (a cache miss or a branch mispredicted costs more than an instruction), so this
complements ``make bench``, it does not replace it: it says where the work is, and whether a
change removed some.

Each (operation, candidate) runs in its own process under callgrind twice, with ``--loops``
and ``2 * --loops`` executions of the same statement as ``bench.py`` builds (equal work, the
same namespaces and inputs); the difference of the two totals divided by ``--loops`` is the
cost of one call, the interpreter's loop included (about 30 instructions, the same for every
candidate), start-up and imports cancelled out. ``PYTHONHASHSEED`` is fixed so that both runs
do the same work. Run in the benchmark environment::

    benches/.venv/bin/python benches/instructions.py [--loops 20000] [--only uuid4]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(label: str, candidate: str, loops: int) -> None:
    """Runs one statement of one operation ``loops`` times (in the process callgrind counts)."""
    sys.path.insert(0, str(HERE))
    import bench

    op = next(op for op in bench.build() if op.label == label)
    code = compile(f"for _ in range({loops}):\n    {op.stmts[candidate]}\n", "<bench>", "exec")
    exec(code, dict(op.env))


def count(label: str, candidate: str, loops: int) -> int:
    """The instructions callgrind counted for a child process running ``loops`` calls."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           sys.executable, __file__, "--child", label, candidate, str(loops)]  # fmt: skip
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        raise RuntimeError(f"callgrind failed for {label} / {candidate}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", type=int, default=20_000)
    parser.add_argument("--only", help="operations whose label contains this text")
    parser.add_argument("--child", nargs=3, metavar=("LABEL", "CANDIDATE", "LOOPS"),
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return 0
    if shutil.which("valgrind") is None:
        print("bench-instructions: valgrind is not installed", file=sys.stderr)
        return 1
    sys.path.insert(0, str(HERE))
    import bench

    ops = [op for op in bench.build() if op.label in bench.SINGLE]
    ops = [op for op in ops if not args.only or args.only in op.label]
    peers = [p for p in bench.PEERS if any(p in op.stmts for op in ops)]
    head = ["operation", "uuidx", *peers, *(f"÷ {p}" for p in peers if p != "stdlib")]
    print("| " + " | ".join(head) + " |")
    print("|:---" + "|---:" * (len(head) - 1) + "|")
    for op in ops:
        per_call = {}
        for candidate in ["uuidx", *peers]:
            if candidate in op.stmts:
                one = count(op.label, candidate, args.loops)
                two = count(op.label, candidate, 2 * args.loops)
                per_call[candidate] = (two - one) / args.loops
        cells = [op.label] + [f"{per_call[c]:,.0f}" if c in per_call else "—"
                              for c in ["uuidx", *peers]]  # fmt: skip
        cells += [f"{per_call['uuidx'] / per_call[p]:.2f}×" if p in per_call else "—"
                  for p in peers if p != "stdlib"]  # fmt: skip
        print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

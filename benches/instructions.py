"""``make bench-instructions``: instructions per call of each single-call operation of
``benches/bench.py``, for uuidx and each peer, counted by ``valgrind --tool=callgrind``.

Timings on a shared machine vary by a quarter from run to run; instruction counts do not (the
same binary, inputs and environment give the same count whatever else the machine does). They
are not times (a cache miss or a branch mispredicted costs more than an instruction), so this
complements ``make bench``, it does not replace it: it says where the work is, and whether a
change removed some.

Each (operation, candidate) runs in its own process under callgrind twice, with ``--loops``
and ``2 * --loops`` executions of the same statement as ``bench.py`` builds (equal work, the
same namespaces and inputs), inside a function, so that the loop variable is a fast local and
the module names are specialised global loads, as in ``timeit``; the difference of the two
totals divided by ``--loops`` is the cost of one call, the loop included (a few dozen
instructions, the same for every candidate), start-up and imports cancelled out.
``PYTHONHASHSEED`` is fixed so that both runs do the same work.

``--profile`` prints, for each candidate measured, where one call's instructions go: the
functions whose cost differs between the two runs, per call, exclusive ("self") and inclusive
(with their callees), from ``callgrind_annotate``. Function names come from the symbol tables
(an interpreter without symbols for its static functions charges them to the nearest exported
one). Run in the benchmark environment (``make bench-instructions INSTRUCTIONS_ARGS=...`` on an
interpreter the host lacks runs in the chroot)::

    python benches/instructions.py [--loops 20000] [--only uuid4] [--candidates uuidx,uuid_utils]
    python benches/instructions.py --only 'uuid4()' --candidates uuidx --profile
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
#: Frames of the interpreter's own loop and of the harness, which are neither a candidate's
#: work nor comparable across runs in a profile (recursive frames are counted once per level).
NOT_WORK = re.compile(r"EvalFrame|_PyEval_Vector|PyEval_EvalCode|builtin_exec|run_mod|"
                      r"_PyRun_|Py_RunMain|Py_BytesMain|main$|below main|_start|'\d+$|"
                      r"_PyFunction_Vectorcall|_PyObject_VectorcallTstate|"
                      r"PyObject_Vectorcall$|exec_code_in_module|run_eval_code_obj")  # fmt: skip


def child(label: str, candidate: str, loops: int) -> None:
    """Runs one statement of one operation ``loops`` times (in the process callgrind counts)."""
    sys.path.insert(0, str(HERE))
    import bench

    op = next(op for op in bench.build() if op.label == label)
    source = f"def run():\n    for _ in range({loops}):\n        {op.stmts[candidate]}\n"
    env = dict(op.env)
    exec(compile(source, "<bench>", "exec"), env)  # noqa: S102 - bench.py's own statements
    env["run"]()


def callgrind(label: str, candidate: str, loops: int, out: Optional[Path] = None) -> int:
    """The instructions callgrind counted for a child process running ``loops`` calls (its
    profile written to ``out`` when given)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out or os.devnull}",
           sys.executable, __file__, "--child", label, candidate, str(loops)]  # fmt: skip
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        raise RuntimeError(f"callgrind failed for {label} / {candidate}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def functions(path: Path, inclusive: bool) -> dict[str, int]:
    """Instructions by function in a callgrind profile (exclusive, or inclusive of callees)."""
    cmd = ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}",
           "--threshold=100", str(path)]  # fmt: skip
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    costs: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)$", line)
        if not m or "PROGRAM TOTALS" in line:
            continue
        name = re.sub(r" \[[^]]*\]$", "", m.group(2))  # the object file
        name = name[4:] if name.startswith("???:") else name.rsplit(":", 1)[-1]
        if "::" in name:  # a Rust path: its last two segments, without generic arguments
            while re.search(r"<[^<>]*>", name):
                name = re.sub(r"<[^<>]*>", "", name)
            name = "::".join(name.rstrip(":").split("::")[-2:])
        costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs


def profile(label: str, candidate: str, loops: int, top: int) -> list[str]:
    """Lines of the per-call cost of each function of one candidate's call."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp) / "one.out", Path(tmp) / "two.out"]
        one = callgrind(label, candidate, loops, paths[0])
        two = callgrind(label, candidate, 2 * loops, paths[1])
        per = {}
        for inclusive in (False, True):
            a, b = functions(paths[0], inclusive), functions(paths[1], inclusive)
            per[inclusive] = {k: (b.get(k, 0) - a.get(k, 0)) / loops for k in set(a) | set(b)}
    rows = sorted(((inc, per[False].get(name, 0.0), name) for name, inc in per[True].items()
                   if not NOT_WORK.search(name) and inc >= 1.5), reverse=True)  # fmt: skip
    lines = [f"{label} / {candidate}: {(two - one) / loops:,.0f} instructions per call",
             "| function | inclusive | self |", "|:---|---:|---:|"]  # fmt: skip
    lines += [f"| `{name}` | {inc:,.1f} | {own:,.1f} |" for inc, own, name in rows[:top]]
    return lines


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", type=int, default=20_000)
    parser.add_argument("--only", help="operations whose label contains this text")
    parser.add_argument("--candidates", help="comma-separated candidates (default: all)")
    parser.add_argument("--profile", action="store_true",
                        help="per-function instructions of one call, for each candidate")  # fmt: skip
    parser.add_argument("--top", type=int, default=30, help="functions shown by --profile")
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

    wanted = args.candidates.split(",") if args.candidates else None
    ops = [op for op in bench.build() if op.label in bench.SINGLE]
    ops = [op for op in ops if not args.only or args.only in op.label]
    peers = [p for p in bench.PEERS if any(p in op.stmts for op in ops)]
    peers = [p for p in peers if wanted is None or p in wanted]
    print(f"CPython {platform.python_version()}, {args.loops:,} and {2 * args.loops:,} calls "
          "under callgrind; instructions per call")  # fmt: skip
    if args.profile:
        for op in ops:
            for candidate in ["uuidx", *peers]:
                if candidate in op.stmts and (wanted is None or candidate in wanted):
                    print("", *profile(op.label, candidate, args.loops, args.top), sep="\n")
        return 0
    head = ["operation", "uuidx", *peers, *(f"÷ {p}" for p in peers if p != "stdlib")]
    print("| " + " | ".join(head) + " |")
    print("|:---" + "|---:" * (len(head) - 1) + "|")
    for op in ops:
        per_call = {}
        for candidate in ["uuidx", *peers]:
            if candidate in op.stmts:
                one = callgrind(op.label, candidate, args.loops)
                two = callgrind(op.label, candidate, 2 * args.loops)
                per_call[candidate] = (two - one) / args.loops
        cells = [op.label] + [f"{per_call[c]:,.0f}" if c in per_call else "—"
                              for c in ["uuidx", *peers]]  # fmt: skip
        cells += [f"{per_call['uuidx'] / per_call[p]:.2f}×" if p in per_call else "—"
                  for p in peers if p != "stdlib"]  # fmt: skip
        print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

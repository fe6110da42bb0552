"""``make bench-rust-instructions``: instructions per call of the core's generators and parser,
beside the ``uuid`` crate's, counted by ``valgrind --tool=callgrind`` (stable under load), and
paired timings of the same calls.

Each operation of ``rust/uuidx-core/examples/per_call.rs`` runs in its own process under
callgrind twice, with ``--calls`` and ``2 * --calls`` calls; the difference of the two totals over
``--calls`` is the cost of one call, start-up cancelled out. Under callgrind the clock is read by a
system call (valgrind does not run the vDSO) and time passes about fifty times slower, so nearly
every v7 call starts a new 1/4096-ms tick: the counts include one compare-and-swap install per
call, the worst case of the word's path. Then ``--rounds`` rounds time each operation natively,
in rotating order, and print the median ns per call and each uuidx operation's ratio to its
``uuid`` crate peer, paired within a round::

    python benches/rust_instructions.py [--calls 100000] [--rounds 9]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "target" / "release" / "examples" / "per_call"
#: uuidx's operation and its peer in the ``uuid`` crate.
PAIRS = [
    ("GLOBAL_V7.generate", "Uuid::now_v7"),
    # The layouts on the 128-bit engine; the crate's v7 (a 42-bit counter) is the nearest peer.
    ("V7 counter/42.generate", "Uuid::now_v7"),
    ("V7 submillisecond/14.generate", "Uuid::now_v7"),
    ("V7 monotonic_random/32.generate", "Uuid::now_v7"),
    ("GLOBAL_V6.generate", "Uuid::now_v6"),
    ("GLOBAL_V1.generate", "Uuid::now_v1"),
    ("parse 32 hex", "Uuid::parse_str 32 hex"),
]


def instructions(op: str, calls: int) -> float:
    def total(n: int) -> int:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
             str(EXAMPLE), op, str(n)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        found = re.search(r"Collected : (\d+)", done.stderr)
        if not found:
            raise RuntimeError(done.stderr[-2000:])
        return int(found.group(1))

    return (total(2 * calls) - total(calls)) / calls


def timed(op: str, calls: int) -> float:
    done = subprocess.run([str(EXAMPLE), op, str(calls), "time"], capture_output=True,
                          text=True, check=True)  # fmt: skip
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "uuidx-core", "--example",
                    "per_call"], cwd=ROOT, check=True)  # fmt: skip
    ops = list(dict.fromkeys(op for pair in PAIRS for op in pair))
    counts = {op: instructions(op, args.calls) for op in ops}
    times: dict[str, list[float]] = {op: [] for op in ops}
    ratios: dict[str, list[float]] = {ours: [] for ours, _ in PAIRS}
    for r in range(args.rounds):
        this = {}
        for op in ops[r % len(ops) :] + ops[: r % len(ops)]:
            this[op] = timed(op, 20 * args.calls)
            times[op].append(this[op])
        for ours, peer in PAIRS:
            ratios[ours].append(this[ours] / this[peer])
    print("| operation | instructions per call | ns per call (median) | ÷ its `uuid` crate peer |")
    print("|---|---:|---:|---:|")
    shown = set()
    for ours, peer in PAIRS:
        print(f"| `{ours}` | {counts[ours]:.0f} | {statistics.median(times[ours]):.1f} | "
              f"{statistics.median(ratios[ours]):.2f}× `{peer}` |")  # fmt: skip
        if peer not in shown:
            shown.add(peer)
            print(f"| `{peer}` | {counts[peer]:.0f} | {statistics.median(times[peer]):.1f} | |")


if __name__ == "__main__":
    main()

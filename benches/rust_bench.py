"""Run the Rust core's criterion benchmarks and write their medians into the README.

``make bench-rust`` runs ``cargo bench -p uuidx-core --bench core`` and then this script,
which reads criterion's ``target/criterion/**/new/estimates.json`` and replaces the README
section between the ``rust-bench`` markers with a table, so that the figures there always come
from a run anyone can repeat. ``--no-run`` only rewrites the table from the last results.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
from pathlib import Path
from typing import Optional

from machine import describe

ROOT = Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target" / "criterion"
START = "<!-- rust-bench:start (written by benches/rust_bench.py) -->"
END = "<!-- rust-bench:end -->"

#: (criterion id, label) in the order of the table.
SINGLE = [
    ("parse/hyphenated", "parse, hyphenated"),
    ("parse/simple", "parse, 32 hex digits"),
    ("parse/urn", "parse, URN"),
    ("format/hyphenated", "format, hyphenated"),
    ("v4_new", "v4"),
    ("v7_global_generate", "v7, process-wide generator"),
    ("v7_fixed_clock_generate", "v7, same generator on a fixed clock"),
    ("clock_system_now", "one real-time clock read (floor)"),
    ("atomic_u128_load_cas", "one 128-bit load + compare-and-swap (floor)"),
    ("name/v3_md5", "name-based v3 (MD5)"),
    ("name/v5_sha1", "name-based v5 (SHA-1)"),
    ("name/v8_sha256", "name-based v8, SHA-256"),
    ("name/v8_sha512", "name-based v8, SHA-512"),
    ("name/v8_sha3_256", "name-based v8, SHA3-256"),
    ("name/v8_sha3_512", "name-based v8, SHA3-512"),
    ("name/v8_shake_128", "name-based v8, SHAKE128"),
    ("name/v8_shake_256", "name-based v8, SHAKE256"),
]
THREADS = [1, 2, 4]
PER_THREAD = 1000  # UUIDs per thread per iteration in the contention bench


def median_ns(bench_id: str) -> Optional[float]:
    path = CRITERION / bench_id / "new" / "estimates.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return float(data["median"]["point_estimate"])


def fmt(ns: Optional[float]) -> str:
    if ns is None:
        return "—"
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def table() -> list[str]:
    # The time of the measurement, not of this rewrite: the newest result file read.
    stamps = [p.stat().st_mtime for p in CRITERION.glob("**/new/estimates.json")]
    measured = dt.datetime.fromtimestamp(max(stamps, default=0), dt.timezone.utc)
    when = measured.strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"Measured by `make bench-rust` on {when}: {describe()}; criterion medians.",
        "",
        "| operation | ns/op |",
        "|:---|---:|",
    ]
    lines += [f"| {label} | {fmt(median_ns(bench_id))} |" for bench_id, label in SINGLE]
    lines += [
        "",
        f"Contention: N threads each make {PER_THREAD} v7 UUIDs from one shared generator "
        "(Method 1, 42-bit counter), lock-free CAS generator versus a `Mutex` reference in "
        "the bench; ns per UUID, wall time of the whole batch.",
        "",
        "| threads | lock-free | Mutex | lock-free ÷ Mutex |",
        "|---:|---:|---:|---:|",
    ]
    for n in THREADS:
        free = median_ns(f"v7_contention/lock_free/{n}")
        mutex = median_ns(f"v7_contention/mutex/{n}")
        per = [None if x is None else x / (n * PER_THREAD) for x in (free, mutex)]
        ratio = "—" if None in per else f"{per[0] / per[1]:.2f}×"  # type: ignore[operator]
        lines.append(f"| {n} | {fmt(per[0])} | {fmt(per[1])} | {ratio} |")
    return lines


def update_readme(lines: list[str]) -> None:
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{readme} has no rust-bench markers")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(head + START + "\n" + "\n".join(lines) + "\n" + END + tail, encoding="utf-8")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--no-run", action="store_true", help="only rewrite the README table")
    args = parser.parse_args(argv)
    if not args.no_run:
        subprocess.run(
            ["cargo", "bench", "-p", "uuidx-core", "--bench", "core", "--",
             "--warm-up-time", "1", "--measurement-time", "3"],
            cwd=ROOT, check=True,
        )
    lines = table()
    print("\n".join(lines))
    update_readme(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())

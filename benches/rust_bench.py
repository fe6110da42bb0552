"""Run the Rust core's benchmarks and write their figures into the docs.

``make bench-rust`` runs ``cargo bench -p uuidx-core --bench core`` (criterion) and the
contention benchmark (``--bench contention``, also ``make bench-contention``), then this script
reads criterion's ``target/criterion/**/new/estimates.json`` and the contention results
(``target/contention.json``) and replaces the section of ``docs/performance.md`` between the
``rust-bench`` markers with tables, so that the figures there always come from a run anyone can
repeat. ``--no-run`` only rewrites the tables from the last results.

The comparison with the ``uuid`` crate (the ``vs/*`` groups: uuidx and the crate, one after
the other, per operation) runs ``--vs-runs`` times, 3 by default; each row reports the median
over runs of the ratio measured within a run, so one noisy stretch of the machine does not
decide it. The contention benchmark pairs the default generator's 64-bit word, the 128-bit
compare-and-swap engine and a ``Mutex`` doing the same step, round by round itself (see
``rust/uuidx-core/benches/contention.rs``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Optional

from harness import PAGE, write_section
from machine import describe

ROOT = Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target" / "criterion"
CONTENTION = ROOT / "target" / "contention.json"
START = "<!-- rust-bench:start (written by benches/rust_bench.py) -->"
END = "<!-- rust-bench:end -->"
MANY_START = "<!-- contention-many-cores:start (written by benches/rust_bench.py --many-cores) -->"
MANY_END = "<!-- contention-many-cores:end -->"
#: Saved runs of the contention benchmark on a machine with many cores (``--many-cores``).
MANY_CORES = ROOT / "benches" / "results" / "contention-16cpu"

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
    ("atomic_u16_fetch_add", "one 16-bit fetch-and-add (the `uuid` crate's v1/v6 floor)"),
    ("name/v3_md5", "name-based v3 (MD5)"),
    ("name/v5_sha1", "name-based v5 (SHA-1)"),
    ("name/v8_sha256", "name-based v8, SHA-256"),
    ("name/v8_sha512", "name-based v8, SHA-512"),
    ("name/v8_sha3_256", "name-based v8, SHA3-256"),
    ("name/v8_sha3_512", "name-based v8, SHA3-512"),
    ("name/v8_shake_128", "name-based v8, SHAKE128"),
    ("name/v8_shake_256", "name-based v8, SHAKE256"),
]
#: (criterion group, label, target ratio) of the comparison with the `uuid` crate.
VERSUS = [
    ("vs_v4", "v4", 1.0),
    ("vs_parse_hyphenated", "parse, hyphenated", 1.0),
    ("vs_parse_simple", "parse, 32 hex digits", 1.0),
    ("vs_parse_braced", "parse, braced", 1.0),
    ("vs_parse_urn", "parse, URN", 1.0),
    ("vs_format_hyphenated", "format, hyphenated", 1.0),
    ("vs_v1", "v1", 1.0),
    ("vs_v6", "v6", 1.0),
    ("vs_v7", "v7", 0.55),
]
#: The version of the `uuid` crate the benches compare with (from Cargo.lock).
UUID_CRATE = next(
    (block.split('version = "')[1].split('"')[0]
     for block in (ROOT / "Cargo.lock").read_text().split("[[package]]")
     if 'name = "uuid"' in block),
    "?",
)  # fmt: skip


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
    lines += contention()
    return lines


def contention() -> list[str]:
    """The contention table: the v7 engines beside a ``Mutex`` doing the same step."""
    if not CONTENTION.exists():
        return []
    data = json.loads(CONTENTION.read_text())
    lines = [
        "",
        f"Contention ({data['cpus']} CPUs): N threads share one v7 generator, Method 3 with a "
        "10-bit counter: `word` (the default, one 64-bit `fetch_add`), `cas128` (the 128-bit "
        "compare-and-swap engine, 11-bit counter) and `mutex` (a `Mutex` around the same state "
        "as `word`), with the same clock and randomness (`benches/contention.rs`). Bursts: "
        "threads started together by a spinning flag, kept only when all ran at once; ns per "
        "UUID and its ratio to the mutex (medians over rounds), latency percentiles of the "
        "calls of kept bursts. Loops: plain loops, time-sliced when threads outnumber CPUs. "
        "Goals: `word` ≤ 0.95× the mutex at one thread, ≤ 1.1× with two threads running at "
        "once, and a p99.9 no higher than the mutex's at every N.",
        "",
        "| threads | design | bursts ns/UUID | ÷ mutex | p50 / p99 / p99.9 ns | bursts kept "
        "| loops ns/UUID | ÷ mutex |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in data["rows"]:
        ratio = "—" if r["burst_vs_mutex"] is None else f"{r['burst_vs_mutex']:.2f}×"
        burst = "—" if r["burst_ns"] is None else fmt(r["burst_ns"])
        lat = " / ".join(str(x) for x in r["latency_ns"]) if r["kept"] else "—"
        more = " (more threads than CPUs)" if r["threads"] > data["cpus"] else ""
        lines.append(f"| {r['threads']}{more} | {r['design']} | {burst} | {ratio} | {lat} | "
                     f"{r['kept']} of {r['tried']} | {fmt(r['loop_ns'])} | "
                     f"{r['loop_vs_mutex']:.2f}× |")  # fmt: skip
    return lines


def many_cores(folder: Path) -> list[str]:
    """The contention table of saved runs on a many-core machine (``run*.json`` of the
    benchmark's ``UUIDX_CONTENTION_JSON``, ``machine.txt`` from ``lscpu``): per thread count and
    design, the median over runs of each figure. ``machine.txt`` is one line describing the
    machine."""
    runs = [json.loads(p.read_text()) for p in sorted(folder.glob("run*.json"))]
    if not runs:
        raise SystemExit(f"no run*.json in {folder}")
    machine = " ".join((folder / "machine.txt").read_text().split())
    rows: dict[tuple[int, str], list[dict[str, object]]] = {}
    for run in runs:
        for r in run["rows"]:
            rows.setdefault((r["threads"], r["design"]), []).append(r)

    def med(key: tuple[int, str], field: str) -> float:
        return statistics.median(float(r[field]) for r in rows[key])  # type: ignore[arg-type]

    lines = [
        f"Saved runs of `make bench-contention` (`UUIDX_CONTENTION_THREADS=1,2,4,8,12,16`) on a "
        f"machine with {runs[0]['cpus']} CPUs ({machine}), a static musl build of the benchmark; "
        f"each figure the median of {len(runs)} runs (`benches/results/contention-16cpu/`).",
        "",
        "| threads | design | bursts ns/UUID | ÷ mutex | p50 / p99 / p99.9 ns | loops ns/UUID "
        "| ÷ mutex |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for key in sorted(rows, key=lambda k: (k[0], ["word", "cas128", "mutex"].index(k[1]))):
        latency = " / ".join(
            str(int(statistics.median(int(r["latency_ns"][i]) for r in rows[key])))  # type: ignore[index]
            for i in range(3)
        )
        lines.append(
            f"| {key[0]} | {key[1]} | {fmt(med(key, 'burst_ns'))} | "
            f"{med(key, 'burst_vs_mutex'):.2f}× | {latency} | {fmt(med(key, 'loop_ns'))} | "
            f"{med(key, 'loop_vs_mutex'):.2f}× |"
        )
    return lines


def cargo_contention() -> None:
    subprocess.run(
        ["cargo", "bench", "-p", "uuidx-core", "--bench", "contention"],
        cwd=ROOT, check=True, env={**os.environ, "UUIDX_CONTENTION_JSON": str(CONTENTION)},
    )  # fmt: skip


def cargo_bench(*filters: str) -> None:
    subprocess.run(
        ["cargo", "bench", "-p", "uuidx-core", "--bench", "core", "--",
         "--warm-up-time", "1", "--measurement-time", "3", *filters],
        cwd=ROOT, check=True,
    )  # fmt: skip


def versus(runs: int) -> list[str]:
    """The table beside the `uuid` crate: medians over `runs` runs of the per-run ratio."""
    ratios: dict[str, list[float]] = {group: [] for group, _, _ in VERSUS}
    times: dict[str, list[tuple[float, float]]] = {group: [] for group, _, _ in VERSUS}
    for run in range(runs):
        if run:  # run 0 reads the full bench that main() ran
            cargo_bench("^vs/")
        for group, _, _ in VERSUS:
            ours, theirs = median_ns(f"{group}/uuidx"), median_ns(f"{group}/uuid")
            if ours is not None and theirs is not None:
                ratios[group].append(ours / theirs)
                times[group].append((ours, theirs))
    lines = [
        "",
        f"Beside the `uuid` crate {UUID_CRATE} (a dev-dependency of the benches only; "
        f"`vs/*` groups, median of {runs} runs of the ratio within a run):",
        "",
        "| operation | uuidx ns | `uuid` ns | uuidx ÷ `uuid` | target |",
        "|:---|---:|---:|---:|---:|",
    ]
    for group, label, target in VERSUS:
        if not ratios[group]:
            continue
        ours = statistics.median(t[0] for t in times[group])
        theirs = statistics.median(t[1] for t in times[group])
        lines.append(f"| {label} | {fmt(ours)} | {fmt(theirs)} | "
                     f"{statistics.median(ratios[group]):.2f}× | ≤ {target}× |")  # fmt: skip
    return lines


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--no-run", action="store_true", help="only rewrite the table of docs/performance.md"
    )
    parser.add_argument("--vs-runs", type=int, default=3)
    parser.add_argument(
        "--many-cores",
        type=Path,
        nargs="?",
        const=MANY_CORES,
        metavar="FOLDER",
        help="only rewrite the many-core contention table from saved runs "
        "(default benches/results/contention-16cpu)",
    )
    args = parser.parse_args(argv)
    if args.many_cores is not None:
        lines = many_cores(args.many_cores)
        print("\n".join(lines))
        if not write_section(MANY_START, MANY_END, lines):
            raise SystemExit(f"{PAGE} has no contention-many-cores markers")
        return 0
    if not args.no_run:
        cargo_bench()
        cargo_contention()
    lines = table() + versus(1 if args.no_run else args.vs_runs)
    print("\n".join(lines))
    if not write_section(START, END, lines):
        raise SystemExit(f"{PAGE} has no rust-bench markers")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Column benchmarks: ``uuidx.arrow`` against the per-row ways people write today, a Python
UDF in DuckDB and Polars' ``map_elements`` calling the stdlib (``uuid6.uuid7`` for v7 where
the stdlib has none), measured in the same run.

Run with ``make bench-columns`` (it builds uuidx in release mode into ``.venv/bench-<interpreter>`` next to
pyarrow, Polars, DuckDB and uuid6 from ``benches/requirements.txt``), or directly::

    .venv/bench-cpython3.11/bin/python benches/columns.py [--rounds 7] [--no-readme]

uuidx makes or converts ``--rows`` rows per call (default 1,000,000); a per-row way costs the
same per row at any size, so it runs on ``--rows / 50`` rows to keep the run short. Each round
visits every (operation, candidate) pair once, in a fresh random order, for about a tenth of a
second each; the garbage collector stays on. A candidate's figure is the median of its rounds,
and a ratio is the median of the ratios taken within each round, so a noisy neighbour slows
both sides of a ratio alike. The script prints a table and rewrites the section of
``docs/performance.md`` between the ``columns`` markers with it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import platform
import random
import statistics
import time
import uuid
import warnings
from typing import Any, Callable

import uuidx
import uuidx.arrow as ua
from harness import PAGE, write_section
from machine import describe

START = "<!-- columns:start (written by benches/columns.py) -->"
END = "<!-- columns:end -->"
NS = uuid.NAMESPACE_URL
PEERS = ["DuckDB Python UDF", "Polars map_elements"]

Run = Callable[[], object]


def operations(rows: int, peer_rows: int) -> dict[str, dict[str, tuple[Run, int]]]:
    """For each operation, each candidate's call and the rows one call handles."""
    pa: Any = importlib.import_module("pyarrow")
    pl: Any = importlib.import_module("polars")
    duckdb: Any = importlib.import_module("duckdb")
    uuid7: Any = getattr(uuid, "uuid7", None) or importlib.import_module("uuid6").uuid7
    try:
        types: Any = importlib.import_module("duckdb.sqltypes")
    except ImportError:  # DuckDB before 1.4
        types = importlib.import_module("duckdb.typing")

    names = pa.array([f"user{i}@example.com" for i in range(rows)])
    keys = ua.uuid4(rows)
    texts = ua.to_str(keys)
    few = slice(0, peer_rows)
    con = duckdb.connect()
    for name, fn, params, out in [
        ("py_uuid4", uuid.uuid4, [], types.UUID),
        ("py_uuid7", uuid7, [], types.UUID),
        ("py_uuid5", lambda s: uuid.uuid5(NS, s), [types.VARCHAR], types.UUID),
        ("py_parse", lambda s: uuid.UUID(s), [types.VARCHAR], types.UUID),
        ("py_str", lambda u: str(u), [types.UUID], types.VARCHAR),
    ]:
        con.create_function(name, fn, params, out, side_effects=not params)
    tables = {
        "names": pa.table({"v": names.slice(0, peer_rows)}),
        "texts": pa.table({"v": pa.array(texts).slice(0, peer_rows)}),
        "keys": pa.table({"v": pa.array(keys).slice(0, peer_rows)}),
    }
    for table_name, table in tables.items():
        con.register(table_name, table)

    def sql(query: str) -> Run:
        return lambda: con.sql(query).to_arrow_table()

    index = pl.Series(range(peer_rows))
    pl_names = pl.Series(names.to_pylist()[few])
    pl_texts = pl.Series(texts.to_pylist()[few])
    pl_keys = pl.Series(ua.uuid4(peer_rows, extension=False))

    def per_row(series: Any, fn: Callable[[Any], object], dtype: Any) -> Run:
        return lambda: series.map_elements(fn, return_dtype=dtype)

    return {
        "uuid7": {
            "uuidx": (lambda: ua.uuid7(rows), rows),
            PEERS[0]: (sql(f"SELECT py_uuid7() FROM range({peer_rows})"), peer_rows),
            PEERS[1]: (per_row(index, lambda _: uuid7().bytes, pl.Binary), peer_rows),
        },
        "uuid4": {
            "uuidx": (lambda: ua.uuid4(rows), rows),
            PEERS[0]: (sql(f"SELECT py_uuid4() FROM range({peer_rows})"), peer_rows),
            PEERS[1]: (per_row(index, lambda _: uuid.uuid4().bytes, pl.Binary), peer_rows),
        },
        "uuid5": {
            "uuidx": (lambda: ua.uuid5(NS, names), rows),
            PEERS[0]: (sql("SELECT py_uuid5(v) FROM names"), peer_rows),
            PEERS[1]: (per_row(pl_names, lambda s: uuid.uuid5(NS, s).bytes, pl.Binary), peer_rows),
        },
        "parse": {
            "uuidx": (lambda: ua.parse(texts), rows),
            PEERS[0]: (sql("SELECT py_parse(v) FROM texts"), peer_rows),
            PEERS[1]: (per_row(pl_texts, lambda s: uuid.UUID(s).bytes, pl.Binary), peer_rows),
        },
        "to_str": {
            "uuidx": (lambda: ua.to_str(keys), rows),
            PEERS[0]: (sql("SELECT py_str(v) FROM keys"), peer_rows),
            PEERS[1]: (per_row(pl_keys, lambda b: str(uuid.UUID(bytes=b)), pl.String), peer_rows),
        },
    }


def visit(run: Run, rows: int, budget: float) -> float:
    """Nanoseconds per row: calls of ``run`` for about ``budget`` seconds (at least one)."""
    calls, start = 0, time.perf_counter()
    while True:
        run()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            return elapsed / (calls * rows) * 1e9


def measure(
    ops: dict[str, dict[str, tuple[Run, int]]], rounds: int, budget: float
) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], float]]:
    """Median ns/row per (operation, candidate) and median per-round speed-up per
    (operation, peer)."""
    pairs = [(op, cand) for op, cands in ops.items() for cand in cands]
    times: dict[tuple[str, str], list[float]] = {p: [] for p in pairs}
    speedups: dict[tuple[str, str], list[float]] = {(op, peer): [] for op in ops for peer in PEERS}
    for r in range(rounds):
        random.shuffle(pairs)
        this_round = {}
        for op, cand in pairs:
            run, rows = ops[op][cand]
            this_round[op, cand] = visit(run, rows, budget)
            times[op, cand].append(this_round[op, cand])
        for op, peer in speedups:
            speedups[op, peer].append(this_round[op, peer] / this_round[op, "uuidx"])
        print(f"round {r + 1}/{rounds} done", flush=True)
    median = statistics.median
    return {k: median(v) for k, v in times.items()}, {k: median(v) for k, v in speedups.items()}


def report(
    ns: dict[tuple[str, str], float], speedups: dict[tuple[str, str], float], args: Any
) -> list[str]:
    """The performance page's section: header and table."""

    def rate(op: str, cand: str) -> float:
        """Millions of rows per second."""
        return 1e3 / ns[op, cand]

    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"Measured by `make bench-columns` on {now}: {describe()}, CPython "
        f"{platform.python_version()}; uuidx on {args.rows:,} rows per call, the per-row ways "
        f"on {args.rows // 50:,}; medians of {args.rounds} interleaved rounds.",
        "",
        "| operation | uuidx, M rows/s | "
        + " | ".join(f"{p}, M rows/s" for p in PEERS)
        + " | "
        + " | ".join(f"uuidx ÷ {p} (speed-up)" for p in PEERS)
        + " |",
        "|:---|---:|" + "---:|" * (2 * len(PEERS)),
    ]
    labels = {
        "uuid7": "`uuid7(n)`: v7 keys",
        "uuid4": "`uuid4(n)`: v4 keys",
        "uuid5": "`uuid5(ns, names)`: short names",
        "parse": "`parse(strings)`",
        "to_str": "`to_str(uuids)`",
    }
    for op, label in labels.items():
        cells = [f"{rate(op, c):,.3g}" for c in ["uuidx", *PEERS]]
        cells += [f"{speedups[op, p]:,.0f}×" for p in PEERS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per visit")
    parser.add_argument("--no-readme", action="store_true", help="print only")
    args = parser.parse_args()
    print(f"uuidx {uuidx.__file__}; setting up {args.rows:,} rows ...", flush=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Polars: "map_elements is slow" (that is the point)
        ops = operations(args.rows, args.rows // 50)
        ns, speedups = measure(ops, args.rounds, args.budget)
    lines = report(ns, speedups, args)
    print("\n".join(lines))
    if not args.no_readme:
        if not write_section(START, END, lines):
            raise SystemExit(f"{PAGE} has no {START} ... {END} section")
        print(f"wrote {PAGE}")


if __name__ == "__main__":
    main()

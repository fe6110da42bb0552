"""``make bench``: uuidx against the standard library and its peers, operation by operation.

Every candidate does the same work: the same kind of result (each peer its own UUID type,
uuidx and the stdlib an exact ``uuid.UUID``), namespaces built once beforehand (each library's
own), ``str`` names (fastuuid takes only bytes, so its statement includes the ``.encode()`` a
caller with a ``str`` pays), and ``to_str`` formats an existing UUID on every side. Bulk rows
make ``N`` UUIDs per call: uuidx's ``*_many``/``*_bytes`` against a loop of the peer's calls,
the garbage collector on, the result dropped as a real program would.

Measured with ``benches/harness.py`` (short visits in a fresh random order each round, ratios
paired per round, medians). Prints the table, with the goals given as ``--goal`` beside the
ratios, and draws ``docs/assets/benchmarks.png``; ``--save FILE`` keeps the measurement (JSON).
``--report FILE...`` rewrites the section between the markers of ``docs/performance.md`` from
saved measurements,
one table per interpreter (``make bench`` saves into ``target/bench/`` and reports every
interpreter found there; ``make bench-all`` measures CPython 3.11, 3.13, 3.14 and 3.15 first).
Peers are installed in the benchmark virtualenv only (``benches/requirements.txt``); one that
is missing (no wheel for an interpreter) is left out and named. The v7-only packages
(:data:`V7_PEERS`) take part in the ``uuid7()`` and ``uuid7_str()`` rows only, each through the
calls it offers (its own type, an exact ``uuid.UUID`` or a subclass, ``str``).

Goals (``--goal``) are printed after the tables with the figure measured, met or MISSED; the
page carries no goals (``CONTRIBUTING.md`` lists them). A goal bounds uuidx ÷ a peer over some
rows (``single:uuid_utils=0.9``) or one call against another in the same rounds
(``call:uuidx.uuid7/uuid_utils.uuid7=0.6``, ``call:uuidx.uuid7-uuidx.uuid4=20ns``).
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import importlib
import importlib.metadata
import json
import platform
import random
import re
import statistics
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any, Callable, NamedTuple, Optional, Union

from harness import CHART_DIR, PAGE, Op, Results, measure, write_section
from machine import describe

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- bench:start (written by benches/bench.py) -->"
END = "<!-- bench:end -->"
N = 100_000
NAME = "www.example.com"
#: The peers measured in every row they have a function for (module names).
PEERS = ["stdlib", "uuid_utils", "uuid_utils.compat", "fastuuid", "uuid6"]
#: The v7-only packages, measured in the ``uuid7()`` and ``uuid7_str()`` rows only: each
#: candidate's module, its ``uuid7()``-row statement and its ``uuid7_str()``-row statement
#: (``None``: not in that row). ``docs/performance.md`` says what each call guarantees.
V7_PEERS: dict[str, tuple[str, str, Optional[str]]] = {
    "c_uuid_v7": ("c_uuid_v7", "c_uuid_v7.uuid7()", "str(c_uuid_v7.uuid7())"),
    "c_uuid_v7 secure": ("c_uuid_v7", 'c_uuid_v7.uuid7(mode="secure")', None),
    "c_uuid_v7.compat": ("c_uuid_v7.compat", "c_uuid_v7_compat.uuid7()", None),
    "fastuuidv7": ("fastuuidv7", "fastuuidv7.uuid7()", "fastuuidv7.uuid7_str()"),
    "fastuuid7": ("fastuuid7", "fastuuid7.uuid7()", "fastuuid7.uuid7_str()"),
    "fastuuid7 obj": ("fastuuid7", "fastuuid7.uuid7_obj()", None),
}
#: Every candidate but uuidx, in the order the tables list them.
CANDIDATES = [*PEERS, *V7_PEERS]
DISTRIBUTIONS = {"uuid_utils": "uuid-utils", "uuid_utils.compat": "uuid-utils",
                 "fastuuid": "fastuuid", "uuid6": "uuid6", "c_uuid_v7": "c-uuid-v7",
                 "fastuuidv7": "fastuuidv7", "fastuuid7": "fastuuid7"}  # fmt: skip


def load(name: str) -> Any:
    """A peer module, or ``None`` when it is not installed (or is the stdlib)."""
    if name == "stdlib":
        return uuid
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def version_of(u: Any) -> int:
    """The version of a UUID of any library's type."""
    return int(u.version)


def checker(version: Optional[int] = None, text: Optional[str] = None,
            count: Optional[int] = None, kind: Optional[type] = None) -> Callable[[str, Any], None]:  # fmt: skip
    """A check of a statement's result: a UUID (or list of them, or bytes of records, or
    strings) of ``version`` or equal to ``text``; exact ``uuid.UUID`` for uuidx."""

    def check(candidate: str, result: Any) -> None:
        items: list[Any] = [result] if count is None else list(result)
        if isinstance(result, bytes):
            items = [uuid.UUID(bytes=result[i : i + 16]) for i in range(0, len(result), 16)]
        if count is not None:
            assert len(items) == count, (candidate, len(items))
        for item in items[:: max(1, len(items) // 5)]:
            if kind is not None:
                assert isinstance(item, kind), (candidate, type(item))
            value = item if isinstance(item, str) else str(item)
            if text is not None:
                assert value == text, (candidate, value)
            if version is not None:
                assert uuid.UUID(value).version == version, (candidate, value)
            if candidate == "uuidx" and not isinstance(item, (str, bytes)):
                assert type(item) is uuid.UUID, type(item)

    return check


def build() -> list[Op]:
    import uuidx

    mods = {name: load(name) for name in [*PEERS, *{m for m, _, _ in V7_PEERS.values()}]}
    mods["uuidx"] = uuidx
    text = str(uuidx.uuid7())
    ns_of = {"uuidx": uuid.NAMESPACE_DNS, "stdlib": uuid.NAMESPACE_DNS,
             "uuid_utils.compat": uuid.NAMESPACE_DNS}  # fmt: skip
    if mods["uuid_utils"] is not None:
        ns_of["uuid_utils"] = mods["uuid_utils"].UUID(str(uuid.NAMESPACE_DNS))
    if mods["fastuuid"] is not None:
        ns_of["fastuuid"] = mods["fastuuid"].UUID(str(uuid.NAMESPACE_DNS))
    env: dict[str, Any] = {
        "N": N,
        "name": NAME,
        "s": text,
        **{key.replace(".", "_"): mod for key, mod in mods.items() if mod is not None},
    }
    for key, value in ns_of.items():
        env[f"ns_{key.replace('.', '_')}"] = value
    for key in ("uuidx", "stdlib"):
        env[f"u_{key}"] = uuid.UUID(text)
    if mods["uuid_utils"] is not None:
        env["u_uuid_utils"] = mods["uuid_utils"].UUID(text)
    if mods["fastuuid"] is not None:
        env["u_fastuuid"] = mods["fastuuid"].UUID(text)

    def has(candidate: str, function: str) -> bool:
        return mods.get(candidate) is not None and hasattr(mods[candidate], function)

    def row(label: str, stmts: dict[str, str], check: Callable[[str, Any], None]) -> Op:
        return Op(label, {c: st for c, st in stmts.items() if st}, env, check)

    def m(candidate: str) -> str:
        return candidate.replace(".", "_")

    def v7_only(column: int) -> dict[str, str]:
        """The v7-only packages' statements of a row (1: ``uuid7()``, 2: ``uuid7_str()``)."""
        stmts = {}
        for candidate, spec in V7_PEERS.items():
            stmt = spec[column]
            if mods.get(spec[0]) is None or stmt is None:
                continue
            try:  # a call that this version of the package lacks (c_uuid_v7's mode=) is left out
                eval(stmt, env)  # noqa: S307 - our own statements
            except (AttributeError, TypeError, ValueError):
                continue
            stmts[candidate] = stmt
        return stmts

    ops = []
    for version in (1, 4, 6, 7, 8):
        f = f"uuid{version}"
        stmts = {c: f"{m(c)}.{f}()" for c in ["uuidx", *PEERS] if has(c, f)}
        ops.append(row(f"{f}()", {**stmts, **(v7_only(1) if version == 7 else {})},
                       checker(version)))  # fmt: skip
    for f in ("uuid3", "uuid5"):
        expected = str(getattr(uuid, f)(uuid.NAMESPACE_DNS, NAME))
        stmts = {c: f"{m(c)}.{f}(ns_{m(c)}, name)" for c in ["uuidx", *PEERS]
                 if has(c, f) and c in ns_of}  # fmt: skip
        if "fastuuid" in stmts:
            stmts["fastuuid"] = f"fastuuid.{f}(ns_fastuuid, name.encode())"
        ops.append(row(f"{f}(namespace, name)", stmts, checker(text=expected)))
    parse = {"uuidx": "uuidx.parse(s)", "stdlib": "stdlib.UUID(s)",
             "uuid_utils": "uuid_utils.UUID(s)", "fastuuid": "fastuuid.UUID(s)"}  # fmt: skip
    ops.append(
        row("parse(s)", {c: st for c, st in parse.items() if mods.get(c)}, checker(text=text))
    )
    to_str = {"uuidx": "uuidx.to_str(u_uuidx)", "stdlib": "str(u_stdlib)",
              "uuid_utils": "str(u_uuid_utils)", "fastuuid": "str(u_fastuuid)"}  # fmt: skip
    ops.append(
        row(
            "to_str(u) / str(u)",
            {c: st for c, st in to_str.items() if mods.get(c)},
            checker(text=text),
        )
    )
    for version in (4, 7):
        f = f"uuid{version}"
        stmts = {c: f"str({m(c)}.{f}())" for c in PEERS if has(c, f)}
        ops.append(
            row(
                f"new {f} as str",
                {"uuidx": f"uuidx.{f}_str()", **stmts, **(v7_only(2) if version == 7 else {})},
                checker(version, kind=str),
            )
        )
        loop = {c: f"[{m(c)}.{f}() for _ in range(N)]" for c in PEERS if has(c, f)}
        ops.append(
            row(
                f"{f} ×{N:,} → list[UUID]",
                {"uuidx": f"uuidx.{f}_many(N)", **loop},
                checker(version, count=N),
            )
        )
        loop = {c: f"[str({m(c)}.{f}()) for _ in range(N)]" for c in PEERS if has(c, f)}
        ops.append(
            row(
                f"{f} ×{N:,} → list[str]",
                {"uuidx": f"uuidx.{f}_str_many(N)", **loop},
                checker(version, count=N, kind=str),
            )
        )
        loop = {c: f"b''.join([{m(c)}.{f}().bytes for _ in range(N)])" for c in PEERS
                if has(c, f)}  # fmt: skip
        ops.append(
            row(
                f"{f} ×{N:,} → bytes",
                {"uuidx": f"uuidx.{f}_bytes(N)", **loop},
                checker(version, count=N),
            )
        )
    return [op for op in ops if len(op.stmts) > 1]


def per_uuid(op: Op, ns: float) -> float:
    return ns / N if "×" in op.label else ns


class Goal(NamedTuple):
    """A bound on uuidx ÷ a peer over some rows: ``ROWS:PEER=BOUND`` on the command line, rows
    ``single`` (each single-call operation), ``list`` (each ``×N → list[UUID]`` row) or
    ``import`` (``import uuidx`` ÷ ``import uuid``, peer ``uuid``)."""

    rows: str
    peer: str
    bound: float

    def applies(self, label: str) -> bool:
        if self.rows == "single":
            return label in SINGLE
        return self.rows == "list" and label.endswith("→ list[UUID]")

    def __str__(self) -> str:
        return f"÷ {self.peer} ≤ {self.bound:g}×"


class CallGoal(NamedTuple):
    """A bound on one call against another, from their visits in the same rounds:
    ``call:A/B=BOUND`` (A's time ÷ B's, the median of the per-round ratios, at most BOUND) or
    ``call:A-B=Nns`` (A's time minus B's, the median of the per-round differences, at most N
    ns). A and B are statements of the tables, ``()`` implied: ``uuidx.uuid7`` is the
    statement ``uuidx.uuid7()`` of the ``uuid7()`` row, ``fastuuidv7.uuid7_str`` the one of
    the ``uuid7_str()`` row."""

    a: str
    b: str
    op: str
    bound: float

    def __str__(self) -> str:
        if self.op == "-":
            return f"{self.a} ≤ {self.b} + {self.bound:g} ns"
        return f"{self.a} ≤ {self.bound:g}× {self.b}"


def parse_goal(text: str) -> Union[Goal, CallGoal]:
    """``ROWS:PEER=BOUND`` or ``call:A/B=BOUND`` or ``call:A-B=Nns`` (see the two classes)."""
    try:
        rows, rest = text.split(":", 1)
        lhs, bound = rest.rsplit("=", 1)
        if rows != "call":
            goal: Union[Goal, CallGoal] = Goal(rows, lhs, float(bound))
        elif "/" in lhs:
            a, b = lhs.split("/", 1)
            goal = CallGoal(call(a), call(b), "/", float(bound))
        else:
            a, b = lhs.split("-", 1)
            goal = CallGoal(call(a), call(b), "-", float(bound.removesuffix("ns")))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected ROWS:PEER=BOUND, call:A/B=BOUND or call:A-B=Nns"
        ) from None
    if rows not in ("single", "list", "import", "call"):
        raise argparse.ArgumentTypeError(f"{text!r}: ROWS is single, list, import or call")
    return goal


def call(name: str) -> str:
    """A statement as a goal names it: ``uuidx.uuid7`` is ``uuidx.uuid7()``."""
    name = name.strip()
    return name if name.endswith(")") else name + "()"


#: The single-call operations (``make bench-instructions`` counts these).
SINGLE = ["uuid1()", "uuid3(namespace, name)", "uuid4()", "uuid5(namespace, name)", "uuid6()",
          "uuid7()", "uuid8()", "parse(s)", "to_str(u) / str(u)"]  # fmt: skip


def git_commit() -> str:
    """The checkout's commit (``git describe --always --dirty``), or "unknown"."""
    try:
        done = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                              capture_output=True, text=True, check=False)  # fmt: skip
    except OSError:
        return "unknown"
    return done.stdout.strip() or "unknown"


def summary(ops: list[Op], results: Results, rounds: int, commit: str) -> dict[str, Any]:
    """One interpreter's measurement, as saved by ``--save`` (JSON): ns per call (per UUID in
    bulk rows) of each candidate, uuidx ÷ each peer with the 10th-90th percentiles, each
    candidate's statement, and every visit's ns per call in round order (for the goals that
    pair two calls of different rows)."""
    versions = {d: importlib.metadata.version(d) for d in sorted(set(DISTRIBUTIONS.values()))
                if load(d.replace("-", "_")) is not None}  # fmt: skip
    rows = []
    for op in ops:
        ns = {c: per_uuid(op, results.median(op.label, c)) for c in op.stmts}
        ratios = {p: [results.ratio(op.label, "uuidx", p),
                      *results.ratio_spread(op.label, "uuidx", p)]
                  for p in op.stmts if p != "uuidx"}  # fmt: skip
        visits = {c: [round(x, 1) for x in results.ns[op.label][c]] for c in op.stmts}
        rows.append({"label": op.label, "ns": ns, "ratios": ratios, "calls": op.stmts,
                     "visits": visits})  # fmt: skip
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "when": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": describe(),
        "commit": commit,
        "peers": versions,
        "missing": sorted({d for d in DISTRIBUTIONS.values() if d not in versions}),
        "rounds": rounds,
        "rows": rows,
    }


def table(run: dict[str, Any]) -> list[str]:
    """The performance page's table of one run, one line per operation and peer (five columns,
    so that it fits the page whatever the number of peers): ns per call (per UUID in bulk
    rows) of uuidx and of the peer, and uuidx ÷ the peer with its 10th-90th percentiles."""
    lines = ["| operation | uuidx, ns | peer | peer, ns | uuidx ÷ peer (p10–p90) |",
             "|:---|---:|:---|---:|---:|"]  # fmt: skip
    for row in run["rows"]:
        ratios = row["ratios"]
        peers = [p for p in CANDIDATES if p in ratios] + [p for p in ratios if p not in CANDIDATES]
        for i, peer in enumerate(peers):
            r, lo, hi = ratios[peer]
            head = [row["label"], fmt(row["ns"]["uuidx"])] if i == 0 else ["", ""]
            cells = [*head, peer, fmt(row["ns"][peer]), f"{r:.2f}× ({lo:.2f}–{hi:.2f})"]
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def fmt(ns: float) -> str:
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def find_visits(run: dict[str, Any], stmt: str) -> Optional[list[float]]:
    """The visits (ns per call, in round order) of the candidate whose statement is ``stmt``."""
    for row in run["rows"]:
        for candidate, text in row.get("calls", {}).items():
            if text == stmt and candidate in row.get("visits", {}):
                return list(row["visits"][candidate])
    return None


def call_figure(run: dict[str, Any], goal: CallGoal) -> Optional[tuple[float, float, float]]:
    """A call goal's figure (the median and the 10th and 90th percentiles of the per-round
    ratios or differences), or ``None`` when the run lacks one of the two calls."""
    a, b = find_visits(run, goal.a), find_visits(run, goal.b)
    if a is None or b is None:
        return None
    values = sorted(x / y if goal.op == "/" else x - y for x, y in zip(a, b))
    return statistics.median(values), values[len(values) // 10], values[len(values) * 9 // 10]


def verdicts(run: dict[str, Any], goals: list[Union[Goal, CallGoal]]) -> list[str]:
    """One line per goal and row it applies to: met or MISSED, the figure and its spread."""
    out = []
    for goal in goals:
        if isinstance(goal, CallGoal):
            figure = call_figure(run, goal)
            if figure is None:
                out.append(f"{'—':6s} {goal}: not measured in this run")
                continue
            r, lo, hi = figure
            unit = " ns" if goal.op == "-" else "×"
            measured = f"{r:.1f}{unit}" if goal.op == "-" else f"{r:.2f}×"
            spread = f"{lo:.1f}-{hi:.1f}{unit}" if goal.op == "-" else f"{lo:.2f}-{hi:.2f}×"
            what = "difference" if goal.op == "-" else "ratio"
            out.append(f"{'met' if r <= goal.bound else 'MISSED':6s} {goal}: {measured} "
                       f"(median of per-round {what}s, p10-p90 {spread})")  # fmt: skip
        elif goal.rows == "import":
            if run.get("import") is not None:
                r = run["import"]["ratio"]
                out.append(f"{'met' if r <= goal.bound else 'MISSED':6s} import uuidx "
                           f"{goal}: {r:.2f}×")  # fmt: skip
        else:
            for row in run["rows"]:
                if goal.applies(row["label"]) and goal.peer in row["ratios"]:
                    r, lo, hi = row["ratios"][goal.peer]
                    out.append(f"{'met' if r <= goal.bound else 'MISSED':6s} {row['label']} "
                               f"{goal}: {r:.2f}× (p10-p90 {lo:.2f}-{hi:.2f})")  # fmt: skip
    if out:
        met, missed = (sum(line.startswith(w + " ") for line in out) for w in ("met", "MISSED"))
        out = [f"Goals on {run['python']} ({met} met, {missed} missed; CONTRIBUTING.md, "
               "Performance goals):", *out]  # fmt: skip
    return out


def spread_note(run: dict[str, Any]) -> str:
    """How noisy the run was, from its own figures: the median, over the table's ratios, of the
    90th percentile of the per-round ratios ÷ their 10th."""
    spreads = [hi / lo for row in run["rows"] for _, lo, hi in row["ratios"].values() if lo > 0]
    if not spreads:
        return ""
    spread = statistics.median(spreads)
    busy = (" The machine was busy (other work on its cores): read the medians of the paired "
            "ratios, not the times.") if spread > 1.5 else ""  # fmt: skip
    return (f"The ratios' 90th percentile is {spread:.1f}× their 10th, as a median over this "
            f"table.{busy}")  # fmt: skip


def interpreter_section(run: dict[str, Any]) -> list[str]:
    """The performance page's lines of one interpreter's run: a heading, what, where and when,
    the table, the import time."""
    peers = ", ".join(f"{d} {v}" for d, v in run["peers"].items()) or "none"
    missing = run["missing"]
    lines = [f"### {run['python']}", "",
             f"Measured on {run['when']} on {run['machine']}, uuidx at commit `{run['commit']}` "
             f"({run['rounds']} rounds); peers: {peers}"
             + (f"; not installable on it: {', '.join(missing)}" if missing else "") + ". "
             + spread_note(run), "", *table(run)]  # fmt: skip
    if run.get("import") is not None:
        imp = run["import"]
        lines += ["", f"`import uuidx` ÷ `import uuid`: {imp['ratio']:.2f}× ({imp['uuidx_ms']:.1f} "
                  f"ms and {imp['uuid_ms']:.1f} ms, each in a fresh interpreter, medians of paired "
                  "rounds; `import uuidx` imports `uuid` too)."]  # fmt: skip
    return lines


def version_key(run: dict[str, Any]) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", run["python"].split()[-1])[:3])


def report(paths: list[Path], goals: list[Union[Goal, CallGoal]], allow_dirty: bool) -> int:
    """Prints every saved run, then the goals, and rewrites the performance page's section, one
    table per interpreter. A run of a tree with uncommitted changes (``-dirty``) is printed but
    not published, unless ``allow_dirty``: the page names the commit each table measured."""
    runs = sorted((json.loads(path.read_text(encoding="utf-8")) for path in paths),
                  key=version_key)  # fmt: skip
    if not runs:
        print("bench.py --report: no saved measurements", file=sys.stderr)
        return 1
    lines = [
        "Measured by `make bench` (`make bench-all` for every interpreter), one interpreter after "
        "another. Each ratio is the median of the ratios of the two candidates' visits in the same round "
        "(short visits in a fresh random order, garbage collector on; below 1: uuidx is "
        f"faster), with the 10th and 90th percentiles of those ratios. Times are medians in ns per "
        f"call, per UUID in the ×{N:,} rows."
    ]  # fmt: skip
    for run in runs:
        section = interpreter_section(run)
        lines += ["", *section]
        print("", *section, sep="\n")
    for run in runs:
        print("", *verdicts(run, goals), sep="\n")
    dirty = [f"{run['python']} ({run['commit']})" for run in runs
             if run["commit"].endswith("-dirty") or run["commit"] == "unknown"]  # fmt: skip
    if dirty and not allow_dirty:
        print(f"\nnot written to {PAGE}: measured on a tree with uncommitted changes: "
              f"{', '.join(dirty)}; commit, then measure again", file=sys.stderr)  # fmt: skip
        return 1
    if not write_section(START, END, lines):
        print(f"{PAGE} has no {START} ... {END} section", file=sys.stderr)
        return 1
    return 0


def import_ratio(rounds: int) -> tuple[float, float, float]:
    """``import uuidx`` ÷ ``import uuid``: each timed inside a fresh interpreter (the module's
    import alone, not the interpreter's start), the two alternating in random order each round;
    the median of the per-round ratios, and the two medians in ms. uuidx's modules are
    byte-compiled first, as ``pip install`` does and as the stdlib ships: without that (a source
    tree under ``PYTHONDONTWRITEBYTECODE``) every round would time the compiler."""
    import uuidx

    compileall.compile_dir(str(Path(uuidx.__file__).parent), quiet=1)
    code = "import time; t = time.perf_counter(); import {}; print(time.perf_counter() - t)"
    times: dict[str, list[float]] = {"uuid": [], "uuidx": []}
    ratios = []
    for _ in range(rounds):
        order = random.sample(["uuid", "uuidx"], 2)
        for module in order:
            out = subprocess.run([sys.executable, "-c", code.format(module)], check=True,
                                 capture_output=True, text=True).stdout  # fmt: skip
            times[module].append(float(out))
        ratios.append(times["uuidx"][-1] / times["uuid"][-1])
    ms = {m: statistics.median(t) * 1e3 for m, t in times.items()}
    return statistics.median(ratios), ms["uuidx"], ms["uuid"]


def plot(ops: list[Op], results: Results, path: Path) -> None:
    """A chart of uuidx ÷ peer per operation (log scale; left of 1 is uuidx faster): every
    candidate the tables show, the v7-only packages included, so that the peers faster than
    uuidx on a row are on the chart too."""
    try:
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        print("note: matplotlib is not installed; no chart")
        return
    peers = [p for p in CANDIDATES if any(p in op.stmts for op in ops)]
    fig, ax = plt.subplots(figsize=(9, 0.42 * len(ops) + 1.2))
    height = 0.8 / len(peers)
    for i, peer in enumerate(peers):
        ys = [k + i * height for k, op in enumerate(ops) if peer in op.stmts]
        xs = [results.ratio(op.label, "uuidx", peer) for op in ops if peer in op.stmts]
        ax.barh(ys, xs, height=height, label=f"uuidx ÷ {peer}")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yticks([k + 0.4 - height / 2 for k in range(len(ops))], [op.label for op in ops])
    ax.invert_yaxis()
    ax.set_xlabel("time ratio, uuidx ÷ peer (log scale; below 1: uuidx is faster)")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--quick", action="store_true", help="10 rounds, no chart")
    parser.add_argument("--only", action="append", metavar="TEXT",
                        help="operations whose label contains this text (repeat for several)")  # fmt: skip
    parser.add_argument("--single", action="store_true", help="the single-call operations only")
    parser.add_argument("--goal", type=parse_goal, action="append", default=[],
                        metavar="ROWS:PEER=BOUND",
                        help="a goal printed after the tables, met or not (ROWS: single, list, "
                             "import; or call:A/B=BOUND, call:A-B=Nns)")  # fmt: skip
    parser.add_argument("--save", type=Path, metavar="FILE", help="keep the measurement (JSON)")
    parser.add_argument("--commit", default=None,
                        help="uuidx's commit, where this is no git checkout (default: git describe)")  # fmt: skip
    parser.add_argument("--report", nargs="*", type=Path, metavar="FILE",
                        help="measure nothing: rewrite docs/performance.md's section from saved runs")  # fmt: skip
    parser.add_argument("--allow-dirty", action="store_true",
                        help="--report: write runs of uncommitted trees to the page too")  # fmt: skip
    args = parser.parse_args(argv)
    if args.report is not None:
        return report(args.report, args.goal, args.allow_dirty)
    ops = [op for op in build() if not args.only or any(t in op.label for t in args.only)]
    ops = [op for op in ops if not args.single or op.label in SINGLE]
    partial = args.quick or args.only or args.single
    rounds = 10 if args.quick else args.rounds
    results = measure(ops, rounds=rounds, visit_s=0.002)
    run = summary(ops, results, rounds, args.commit or git_commit())
    if not (args.only or args.single):
        ratio, ours, theirs = import_ratio(10 if args.quick else 40)
        run["import"] = {"ratio": ratio, "uuidx_ms": ours, "uuid_ms": theirs}
    print("\n".join(interpreter_section(run)), "", *verdicts(run, args.goal), sep="\n")
    if args.save and partial:
        print(f"a partial run (--quick, --only, --single): not saved in {args.save}")
    elif args.save:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        args.save.write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")  # fmt: skip
        print(f"saved in {args.save}")
    if not partial:
        plot(ops, results, CHART_DIR / "benchmarks.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())

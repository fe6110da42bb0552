"""``make bench``: uuidx against the standard library and its peers, operation by operation.

Every candidate does the same work: the same kind of result (each peer its own UUID type,
uuidx and the stdlib an exact ``uuid.UUID``), namespaces built once beforehand (each library's
own), ``str`` names (fastuuid takes only bytes, so its statement includes the ``.encode()`` a
caller with a ``str`` pays), and ``to_str`` formats an existing UUID on every side. Bulk rows
make ``N`` UUIDs per call: uuidx's ``*_many``/``*_bytes`` against a loop of the peer's calls,
the garbage collector on, the result dropped as a real program would.

Measured with ``benches/harness.py`` (short visits in a fresh random order each round, ratios
paired per round, medians). Prints the table and the issue's targets, and rewrites the README
section between the markers and ``benches/results.png``. Peers are installed in
``benches/.venv`` only (``benches/requirements.txt``); one that is missing is left out.
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import importlib
import importlib.metadata
import platform
import random
import statistics
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any, Callable, Optional

import uuidx
from harness import Op, Results, measure, replace_section
from machine import describe

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- bench:start (written by benches/bench.py) -->"
END = "<!-- bench:end -->"
N = 100_000
NAME = "www.example.com"
PEERS = ["stdlib", "uuid_utils", "uuid_utils.compat", "fastuuid", "uuid6"]
DISTRIBUTIONS = {"uuid_utils": "uuid-utils", "uuid_utils.compat": "uuid-utils",
                 "fastuuid": "fastuuid", "uuid6": "uuid6"}  # fmt: skip


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
    mods = {name: load(name) for name in PEERS}
    mods["uuidx"] = uuidx
    text = str(uuidx.uuid7())
    ns_of = {"uuidx": uuid.NAMESPACE_DNS, "stdlib": uuid.NAMESPACE_DNS,
             "uuid_utils.compat": uuid.NAMESPACE_DNS}  # fmt: skip
    if mods["uuid_utils"] is not None:
        ns_of["uuid_utils"] = mods["uuid_utils"].UUID(str(uuid.NAMESPACE_DNS))
    if mods["fastuuid"] is not None:
        ns_of["fastuuid"] = mods["fastuuid"].UUID(str(uuid.NAMESPACE_DNS))
    env: dict[str, Any] = {"N": N, "name": NAME, "s": text, **{
        key.replace(".", "_"): mod for key, mod in mods.items() if mod is not None}}
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

    ops = []
    for version in (1, 4, 6, 7, 8):
        f = f"uuid{version}"
        ops.append(row(f"{f}()", {c: f"{m(c)}.{f}()" for c in ["uuidx", *PEERS] if has(c, f)},
                       checker(version)))
    for version, f in ((3, "uuid3"), (5, "uuid5")):
        expected = str(getattr(uuid, f)(uuid.NAMESPACE_DNS, NAME))
        stmts = {c: f"{m(c)}.{f}(ns_{m(c)}, name)" for c in ["uuidx", *PEERS]
                 if has(c, f) and c in ns_of}  # fmt: skip
        if "fastuuid" in stmts:
            stmts["fastuuid"] = f"fastuuid.{f}(ns_fastuuid, name.encode())"
        ops.append(row(f"{f}(namespace, name)", stmts, checker(text=expected)))
    parse = {"uuidx": "uuidx.parse(s)", "stdlib": "stdlib.UUID(s)",
             "uuid_utils": "uuid_utils.UUID(s)", "fastuuid": "fastuuid.UUID(s)"}  # fmt: skip
    ops.append(row("parse(s)", {c: st for c, st in parse.items() if mods.get(c)},
                   checker(text=text)))
    to_str = {"uuidx": "uuidx.to_str(u_uuidx)", "stdlib": "str(u_stdlib)",
              "uuid_utils": "str(u_uuid_utils)", "fastuuid": "str(u_fastuuid)"}  # fmt: skip
    ops.append(row("to_str(u) / str(u)", {c: st for c, st in to_str.items() if mods.get(c)},
                   checker(text=text)))
    for version in (4, 7):
        f = f"uuid{version}"
        stmts = {c: f"str({m(c)}.{f}())" for c in PEERS if has(c, f)}
        ops.append(row(f"new {f} as str", {"uuidx": f"uuidx.{f}_str()", **stmts},
                       checker(version, kind=str)))
        loop = {c: f"[{m(c)}.{f}() for _ in range(N)]" for c in PEERS if has(c, f)}
        ops.append(row(f"{f} ×{N:,} → list[UUID]", {"uuidx": f"uuidx.{f}_many(N)", **loop},
                       checker(version, count=N)))
        loop = {c: f"[str({m(c)}.{f}()) for _ in range(N)]" for c in PEERS if has(c, f)}
        ops.append(row(f"{f} ×{N:,} → list[str]", {"uuidx": f"uuidx.{f}_str_many(N)", **loop},
                       checker(version, count=N, kind=str)))
        loop = {c: f"b''.join([{m(c)}.{f}().bytes for _ in range(N)])" for c in PEERS
                if has(c, f)}  # fmt: skip
        ops.append(row(f"{f} ×{N:,} → bytes", {"uuidx": f"uuidx.{f}_bytes(N)", **loop},
                       checker(version, count=N)))
    return [op for op in ops if len(op.stmts) > 1]


def per_uuid(op: Op, ns: float) -> float:
    return ns / N if "×" in op.label else ns


def table(ops: list[Op], results: Results) -> list[str]:
    """The README table: ns per call (per UUID in bulk rows), and uuidx ÷ each peer."""
    cols = [p for p in PEERS if any(p in op.stmts for op in ops)]
    head = (["operation", "uuidx"] + cols + [f"÷ {p}" for p in cols])
    lines = ["| " + " | ".join(head) + " |", "|:---" + "|---:" * (len(head) - 1) + "|"]
    for op in ops:
        cells = [op.label, fmt(per_uuid(op, results.median(op.label, "uuidx")))]
        cells += [fmt(per_uuid(op, results.median(op.label, p))) if p in op.stmts else "—"
                  for p in cols]  # fmt: skip
        cells += [f"{results.ratio(op.label, 'uuidx', p):.2f}×" if p in op.stmts else "—"
                  for p in cols]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def fmt(ns: float) -> str:
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


#: The targets of the performance issue: (rows, peer, bound on uuidx ÷ peer).
SINGLE = ["uuid1()", "uuid3(namespace, name)", "uuid4()", "uuid5(namespace, name)", "uuid6()",
          "uuid7()", "uuid8()", "parse(s)", "to_str(u) / str(u)"]  # fmt: skip
TARGETS = ([(label, "uuid_utils", 1.0) for label in SINGLE]
           + [(label, "fastuuid", 1.0) for label in SINGLE]
           + [(f"uuid{v} ×{N:,} → list[UUID]", "uuid_utils", 0.5) for v in (4, 7)])  # fmt: skip


def targets(ops: list[Op], results: Results) -> list[str]:
    labels = {op.label: op for op in ops}
    out = []
    for label, peer, bound in TARGETS:
        if label in labels and peer in labels[label].stmts:
            r = results.ratio(label, "uuidx", peer)
            lo, hi = results.ratio_spread(label, "uuidx", peer)
            ok = "met" if r <= bound else "MISSED"
            out.append(f"{ok:6s} {label} ÷ {peer}: {r:.2f}× (p10-p90 {lo:.2f}-{hi:.2f}), "
                       f"target ≤ {bound}×")  # fmt: skip
    return out


def import_ratio(rounds: int) -> tuple[float, float, float]:
    """``import uuidx`` ÷ ``import uuid``: each timed inside a fresh interpreter (the module's
    import alone, not the interpreter's start), the two alternating in random order each round;
    the median of the per-round ratios, and the two medians in ms. uuidx's modules are
    byte-compiled first, as ``pip install`` does and as the stdlib ships: without that (a source
    tree under ``PYTHONDONTWRITEBYTECODE``) every round would time the compiler."""
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
    """A chart of uuidx ÷ peer per operation (log scale; left of 1 is uuidx faster)."""
    try:
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        print("note: matplotlib is not installed; no chart")
        return
    peers = [p for p in PEERS if any(p in op.stmts for op in ops)]
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
    parser.add_argument("--quick", action="store_true", help="10 rounds, no README update")
    parser.add_argument("--only", help="operations whose label contains this text")
    args = parser.parse_args(argv)
    ops = [op for op in build() if not args.only or args.only in op.label]
    rounds = 10 if args.quick else args.rounds
    results = measure(ops, rounds=rounds, visit_s=0.002)
    lines = table(ops, results)
    if not args.only:
        ratio, ours, theirs = import_ratio(10 if args.quick else 40)
        lines += ["", f"`import uuidx` ÷ `import uuid`: {ratio:.2f}× ({ours:.1f} ms and "
                  f"{theirs:.1f} ms, each in a fresh interpreter, medians of paired rounds; "
                  "`import uuidx` imports `uuid` too)."]  # fmt: skip
        goals = targets(ops, results) + [
            f"{'met' if ratio <= 1.3 else 'MISSED':6s} import uuidx ÷ import uuid: {ratio:.2f}×, "
            "target ≤ 1.3×"]  # fmt: skip
    else:
        goals = targets(ops, results)
    print("\n".join(lines), "", *goals, sep="\n")
    if args.quick or args.only:
        return 0
    versions = ", ".join(
        f"{d} {importlib.metadata.version(d)}" for d in sorted(set(DISTRIBUTIONS.values()))
        if load(d.replace("-", "_")) is not None)  # fmt: skip
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    header = [
        f"Measured by `make bench` on {when}: {describe()}, CPython "
        f"{platform.python_version()}; peers: {versions}. {rounds} rounds of short visits in a "
        "fresh random order, garbage collector on; each ratio is the median of the ratios of "
        "the two candidates' visits in the same round (below 1: uuidx is faster). Times are "
        f"medians in ns per call, per UUID in the ×{N:,} rows.",
        "",
    ]
    if not replace_section(ROOT / "README.md", START, END, header + lines):
        print(f"README.md has no {START} ... {END} section", file=sys.stderr)
        return 1
    plot(ops, results, Path(__file__).with_name("results.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

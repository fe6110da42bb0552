"""Side-by-side benchmarks: uuidx against the standard library and its peers.

Run with ``make bench`` (it builds uuidx in release mode into ``benches/.venv``, next to the
peers listed in ``benches/requirements.txt``), or directly::

    benches/.venv/bin/python benches/bench.py [--quick] [--out DIR]

Every candidate is measured in the same run, interleaved: each repetition goes round all
operations and candidates once (the order rotated from one repetition to the next), so a
noisy neighbour or a frequency change hits every candidate alike. Each cell is the median of
the repetitions of a ``timeit`` loop whose iteration count is scaled so that one repetition
takes about ``--target`` seconds. The script prints a table of ns per operation (per UUID for
the bulk rows) with ``uuidx ÷ peer`` ratios (lower is better), checks the issue's targets, and
writes ``results.md`` and ``results.png`` into ``--out`` (default: this folder).

This is a script that reports, never a test that asserts: a missed target prints FAIL and the
script still exits 0. Peers lack type stubs, so they are imported as ``Any``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import importlib
import importlib.metadata
import os
import platform
import statistics
import subprocess
import sys
import time
import timeit
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import uuidx
from machine import cpu_model, describe

HERE = Path(__file__).resolve().parent
N_BULK = 100_000
NAME = "www.example.com"

# Column order of every table and of the chart's legend.
CANDIDATES: list[str] = ["uuidx", "stdlib", "uuid_utils", "uuid_utils.compat", "fastuuid", "uuid6"]
PEERS: list[str] = CANDIDATES[1:]
SHORT: dict[str, str] = {
    "uuidx": "uuidx",
    "stdlib": "stdlib",
    "uuid_utils": "uuid_utils",
    "uuid_utils.compat": "uu.compat",
    "fastuuid": "fastuuid",
    "uuid6": "uuid6",
}
# Distribution names for importlib.metadata.
DISTRIBUTIONS: dict[str, str] = {
    "uuidx": "uuidx",
    "uuid_utils": "uuid-utils",
    "uuid_utils.compat": "uuid-utils",
    "fastuuid": "fastuuid",
    "uuid6": "uuid6",
}

# Extension modules shown under the name users import them by.
PUBLIC_MODULE: dict[str, str] = {
    "uuidx._core": "uuidx",
    "uuid_utils._uuid_utils": "uuid_utils",
    "fastuuid.fastuuid": "fastuuid",
}

NOTES: list[str] = []


def note(message: str) -> None:
    """Print a note now and keep it for results.md."""
    print(f"note: {message}")
    NOTES.append(message)


def import_optional(module: str) -> Any:
    """Import a peer (untyped, so ``Any``); ``None`` with a note when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        note(f"{module} is not importable ({exc}); its column is skipped")
        return None


def attr(module: Any, module_name: str, name: str, *, quiet: bool = False) -> Any:
    """``module.name`` if this version of the peer has it, else ``None`` with a note."""
    if module is None:
        return None
    value = getattr(module, name, None)
    if value is None and not quiet:
        note(f"{module_name}.{name} does not exist in this version; skipped")
    return value


# --------------------------------------------------------------------------------------------
# Correctness checks, run once on a result before anything is timed.

Check = Callable[[Any], None]


def _version_of(u: Any) -> int:
    """The version of any UUID-like object, read back through the stdlib from its string."""
    v = uuid.UUID(str(u)).version
    assert v is not None, f"{u!r} is not an RFC variant UUID"
    return v


def is_exact(version: int) -> Check:
    def check(r: Any) -> None:
        assert type(r) is uuid.UUID, f"expected exact uuid.UUID, got {type(r).__name__}"
        assert r.version == version, f"expected version {version}, got {r.version}"

    return check


def is_like(version: int) -> Check:
    def check(r: Any) -> None:
        got = _version_of(r)
        assert got == version, f"expected version {version}, got {got}"

    return check


def equals(expected: str, *, exact: bool = False) -> Check:
    def check(r: Any) -> None:
        if exact:
            assert type(r) is uuid.UUID, f"expected exact uuid.UUID, got {type(r).__name__}"
        assert str(r) == expected, f"expected {expected}, got {r}"

    return check


def is_str(version: int, *, hex_only: bool = False) -> Check:
    def check(r: Any) -> None:
        assert isinstance(r, str), f"expected str, got {type(r).__name__}"
        assert len(r) == (32 if hex_only else 36), f"unexpected string form {r!r}"
        got = uuid.UUID(r).version
        assert got == version, f"expected version {version}, got {got}"

    return check


def is_list(n: int, item: Check) -> Check:
    def check(r: Any) -> None:
        assert isinstance(r, list), f"expected list, got {type(r).__name__}"
        assert len(r) == n, f"expected {n} items, got {len(r)}"
        item(r[0])
        item(r[-1])

    return check


def is_buffer(n: int, version: int) -> Check:
    def check(r: Any) -> None:
        assert isinstance(r, bytes), f"expected bytes, got {type(r).__name__}"
        assert len(r) == 16 * n, f"expected {16 * n} bytes, got {len(r)}"
        for off in (0, 16 * (n - 1)):
            u = uuid.UUID(bytes=bytes(r[off : off + 16]))
            assert u.version == version, f"expected version {version}, got {u.version}"

    return check


# --------------------------------------------------------------------------------------------
# What is timed.


@dataclass
class Bench:
    """One cell of the table: an expression timed with ``timeit`` in its own namespace."""

    op: str
    candidate: str
    stmt: str
    env: dict[str, Any]
    check: Check
    per_call: int = 1
    number: int = 0
    times: list[float] = field(default_factory=list)  # seconds per UUID, one per repetition

    def timer(self) -> timeit.Timer:
        return timeit.Timer(self.stmt, globals=self.env)

    def median_ns(self) -> float:
        return statistics.median(self.times) * 1e9

    def min_ns(self) -> float:
        return min(self.times) * 1e9


@dataclass
class Op:
    """One row: an operation and the candidates that support it."""

    key: str
    label: str
    bulk: bool = False
    benches: dict[str, Bench] = field(default_factory=dict)


class Suite:
    def __init__(self) -> None:
        self.ops: dict[str, Op] = {}

    def op(self, key: str, label: str, *, bulk: bool = False) -> Op:
        self.ops[key] = Op(key, label, bulk)
        return self.ops[key]

    def add(
        self,
        key: str,
        candidate: str,
        stmt: str,
        check: Check,
        needs: Any = True,
        **env: Any,
    ) -> None:
        """Add a cell unless something it needs is missing (``needs`` is falsy)."""
        if needs is None or needs is False:
            return
        op = self.ops[key]
        per_call = N_BULK if op.bulk else 1
        env.setdefault("N", N_BULK)
        op.benches[candidate] = Bench(op.key, candidate, stmt, env, check, per_call)

    def benches(self) -> list[Bench]:
        return [b for op in self.ops.values() for b in op.benches.values()]


def build_suite() -> Suite:
    std: Any = uuid
    uu = import_optional("uuid_utils")
    compat = import_optional("uuid_utils.compat")
    fast = import_optional("fastuuid")
    u6 = import_optional("uuid6")

    s = Suite()
    dns = uuid.NAMESPACE_DNS
    expected3 = str(uuid.uuid3(dns, NAME))
    expected5 = str(uuid.uuid5(dns, NAME))
    # Namespaces of the peers' own types (uuid_utils wants its UUID, fastuuid its own).
    uu_dns = attr(uu, "uuid_utils", "NAMESPACE_DNS")
    fast_uuid_cls = attr(fast, "fastuuid", "UUID")
    fast_dns = fast_uuid_cls(str(dns)) if fast_uuid_cls is not None else None

    # ---- generation, one UUID per call -----------------------------------------------------
    gen_versions = {"uuid1": 1, "uuid4": 4, "uuid6": 6, "uuid7": 7, "uuid8": 8}
    for fname in ("uuid1", "uuid3", "uuid4", "uuid5", "uuid6", "uuid7", "uuid8"):
        named = fname in ("uuid3", "uuid5")
        s.op(fname, f"{fname}(NAMESPACE_DNS, name)" if named else f"{fname}()")
        if named:
            expected = expected3 if fname == "uuid3" else expected5
            s.add(fname, "uuidx", "f(ns, name)", equals(expected, exact=True),
                  f=getattr(uuidx, fname), ns=dns, name=NAME)
            s.add(fname, "stdlib", "f(ns, name)", equals(expected, exact=True),
                  f=getattr(std, fname), ns=dns, name=NAME)
            f = attr(uu, "uuid_utils", fname)
            s.add(fname, "uuid_utils", "f(ns, name)", equals(expected),
                  needs=f and uu_dns, f=f, ns=uu_dns, name=NAME)
            f = attr(compat, "uuid_utils.compat", fname)
            s.add(fname, "uuid_utils.compat", "f(ns, name)", equals(expected, exact=True),
                  needs=f, f=f, ns=dns, name=NAME)
            # fastuuid takes the name as bytes only.
            f = attr(fast, "fastuuid", fname)
            s.add(fname, "fastuuid", "f(ns, name)", equals(expected),
                  needs=f and fast_dns, f=f, ns=fast_dns, name=NAME.encode())
            continue
        v = gen_versions[fname]
        s.add(fname, "uuidx", "f()", is_exact(v), f=getattr(uuidx, fname))
        # The stdlib has uuid6/7/8 from Python 3.14 on.
        s.add(fname, "stdlib", "f()", is_exact(v), needs=getattr(std, fname, None),
              f=getattr(std, fname, None))
        f = attr(uu, "uuid_utils", fname)
        s.add(fname, "uuid_utils", "f()", is_like(v), needs=f, f=f)
        f = attr(compat, "uuid_utils.compat", fname)
        s.add(fname, "uuid_utils.compat", "f()", is_exact(v), needs=f, f=f)
        # fastuuid has no uuid6/uuid8; the uuid6 package only uuid6/7/8.
        f = attr(fast, "fastuuid", fname, quiet=fname in ("uuid6", "uuid8"))
        s.add(fname, "fastuuid", "f()", is_like(v), needs=f, f=f)
        f = attr(u6, "uuid6", fname, quiet=fname in ("uuid1", "uuid4"))
        s.add(fname, "uuid6", "f()", is_like(v), needs=f, f=f)

    # ---- parse and format --------------------------------------------------------------------
    text = str(uuidx.uuid7())
    s.op("parse", "parse(s)")
    s.add("parse", "uuidx", "f(s)", equals(text, exact=True), f=uuidx.parse, s=text)
    s.add("parse", "stdlib", "f(s)", equals(text, exact=True), f=uuid.UUID, s=text)
    f = attr(uu, "uuid_utils", "UUID")
    s.add("parse", "uuid_utils", "f(s)", equals(text), needs=f, f=f, s=text)
    s.add("parse", "fastuuid", "f(s)", equals(text), needs=fast_uuid_cls, f=fast_uuid_cls, s=text)

    std_u = uuid.UUID(text)
    s.op("to_str", "to_str(u) / str(u)")
    s.add("to_str", "uuidx", "f(u)", equals(text), f=uuidx.to_str, u=std_u)
    s.add("to_str", "stdlib", "str(u)", equals(text), u=std_u)
    uu_cls = attr(uu, "uuid_utils", "UUID", quiet=True)
    s.add("to_str", "uuid_utils", "str(u)", equals(text), needs=uu_cls,
          u=uu_cls(text) if uu_cls is not None else None)
    s.add("to_str", "fastuuid", "str(u)", equals(text), needs=fast_uuid_cls,
          u=fast_uuid_cls(text) if fast_uuid_cls is not None else None)

    # ---- string ids: a new UUID straight to its canonical string -----------------------------
    for v in (7, 4):
        key = f"uuid{v}_str"
        gen = f"uuid{v}"
        s.op(key, f"new uuid{v} as str")
        s.add(key, "uuidx", "f()", is_str(v), f=getattr(uuidx, f"uuid{v}_str"))
        s.add(key, "stdlib", "str(f())", is_str(v), needs=getattr(std, gen, None),
              f=getattr(std, gen, None))
        for cand, mod in (("uuid_utils", uu), ("uuid_utils.compat", compat),
                          ("fastuuid", fast), ("uuid6", u6)):
            f = attr(mod, cand, gen, quiet=True)
            s.add(key, cand, "str(f())", is_str(v), needs=f, f=f)

    # ---- bulk: N UUIDs per call, reported per UUID -------------------------------------------
    for v in (4, 7):
        gen = f"uuid{v}"
        # list[UUID]
        key = f"uuid{v}_many"
        s.op(key, f"uuid{v} ×{N_BULK // 1000}k → list[UUID]", bulk=True)
        s.add(key, "uuidx", "f(N)", is_list(N_BULK, is_exact(v)), f=getattr(uuidx, f"{gen}_many"))
        s.add(key, "stdlib", "[f() for _ in range(N)]", is_list(N_BULK, is_exact(v)),
              needs=getattr(std, gen, None), f=getattr(std, gen, None))
        for cand, mod, item in ((("uuid_utils", uu, is_like(v)),
                                 ("uuid_utils.compat", compat, is_exact(v)),
                                 ("uuid6", u6, is_like(v)))):
            f = attr(mod, cand, gen, quiet=True)
            s.add(key, cand, "[f() for _ in range(N)]", is_list(N_BULK, item), needs=f, f=f)
        f = attr(fast, "fastuuid", f"{gen}_bulk")
        s.add(key, "fastuuid", "f(N)", is_list(N_BULK, is_like(v)), needs=f, f=f)

        # list[str]
        key = f"uuid{v}_str_many"
        s.op(key, f"uuid{v} ×{N_BULK // 1000}k → list[str]", bulk=True)
        s.add(key, "uuidx", "f(N)", is_list(N_BULK, is_str(v)),
              f=getattr(uuidx, f"{gen}_str_many"))
        s.add(key, "stdlib", "[str(f()) for _ in range(N)]", is_list(N_BULK, is_str(v)),
              needs=getattr(std, gen, None), f=getattr(std, gen, None))
        for cand, mod in (("uuid_utils", uu), ("uuid_utils.compat", compat), ("uuid6", u6)):
            f = attr(mod, cand, gen, quiet=True)
            s.add(key, cand, "[str(f()) for _ in range(N)]", is_list(N_BULK, is_str(v)),
                  needs=f, f=f)
        f = attr(fast, "fastuuid", f"{gen}_as_strings_bulk")
        if f is not None and v == 4:
            note("fastuuid.uuid*_as_strings_bulk return 32-digit hex strings without hyphens, "
                 "not the canonical 36-character form the others return")
        s.add(key, "fastuuid", "f(N)", is_list(N_BULK, is_str(v, hex_only=True)), needs=f, f=f)

        # one bytes buffer of 16·N octets; peers have no such call, so the closest equivalent
        key = f"uuid{v}_bytes"
        s.op(key, f"uuid{v} ×{N_BULK // 1000}k → bytes", bulk=True)
        s.add(key, "uuidx", "f(N)", is_buffer(N_BULK, v), f=getattr(uuidx, f"{gen}_bytes"))
        s.add(key, "stdlib", "b''.join([f().bytes for _ in range(N)])", is_buffer(N_BULK, v),
              needs=getattr(std, gen, None), f=getattr(std, gen, None))
        f = attr(uu, "uuid_utils", gen, quiet=True)
        s.add(key, "uuid_utils", "b''.join([f().bytes for _ in range(N)])",
              is_buffer(N_BULK, v), needs=f, f=f)
        f = attr(fast, "fastuuid", f"{gen}_bulk", quiet=True)
        s.add(key, "fastuuid", "b''.join([u.bytes for u in f(N)])", is_buffer(N_BULK, v),
              needs=f, f=f)
    return s


# --------------------------------------------------------------------------------------------
# Measuring.


def verify(suite: Suite) -> None:
    """Run each cell's expression once and check the result; drop cells that fail."""
    for op in suite.ops.values():
        for cand in list(op.benches):
            b = op.benches[cand]
            try:
                b.check(eval(b.stmt, b.env))  # noqa: S307 - our own fixed expressions
            except Exception as exc:  # a broken peer must not stop the run
                note(f"{op.label} / {cand}: `{b.stmt}` failed its check ({exc!r}); skipped")
                del op.benches[cand]


def calibrate(b: Bench, target: float) -> None:
    """Pick ``b.number`` so that one repetition lasts about ``target`` seconds."""
    timer = b.timer()
    number = 1
    while True:
        t = timer.timeit(number)
        if t >= target / 5 or number >= 1 << 30:
            break
        number *= 10 if t < target / 100 else 2
    b.number = max(1, round(number * target / t))


def run(suite: Suite, repeats: int, target: float) -> None:
    benches = suite.benches()
    print(f"calibrating {len(benches)} cells (≈{target * 1e3:.0f} ms per repetition) ...",
          flush=True)
    for b in benches:
        calibrate(b, target)
    timers = [b.timer() for b in benches]
    for rep in range(repeats):
        start = time.perf_counter()
        # Rotate the starting point so no candidate always runs first or last.
        shift = (rep * len(benches)) // repeats
        order = list(range(shift, len(benches))) + list(range(shift))
        for i in order:
            b = benches[i]
            b.times.append(timers[i].timeit(b.number) / (b.number * b.per_call))
        gc.collect()
        print(f"  repetition {rep + 1}/{repeats}: {time.perf_counter() - start:.1f} s", flush=True)


# --------------------------------------------------------------------------------------------
# Reporting.


def fmt_ns(ns: Optional[float]) -> str:
    if ns is None:
        return "—"
    if ns < 10:
        return f"{ns:.2f}"
    if ns < 100:
        return f"{ns:.1f}"
    return f"{ns:,.0f}"


def fmt_ratio(r: Optional[float]) -> str:
    if r is None:
        return "—"
    return f"{r:.2f}×" if r >= 0.1 else f"{r:.2g}×"


def cell_ns(op: Op, cand: str, *, best: bool = False) -> Optional[float]:
    """The median (or with ``best``, the fastest) repetition of a cell, in ns per UUID."""
    b = op.benches.get(cand)
    if b is None or not b.times:
        return None
    return b.min_ns() if best else b.median_ns()


def ratio(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return None if a is None or b is None or b == 0 else a / b


def table_rows(suite: Suite, names: dict[str, str], sep: str) -> tuple[list[str], list[list[str]]]:
    header = ["operation"] + [names[c] for c in CANDIDATES]
    header += [f"uuidx{sep}{names[p]}" for p in PEERS]
    rows: list[list[str]] = []
    for op in suite.ops.values():
        mine = cell_ns(op, "uuidx")
        label = op.label + (" (ns/UUID)" if op.bulk else "")
        row = [label] + [fmt_ns(cell_ns(op, c)) for c in CANDIDATES]
        row += [fmt_ratio(ratio(mine, cell_ns(op, p))) for p in PEERS]
        rows.append(row)
    return header, rows


def text_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for r in [header, *rows]:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells))
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def throughput_rows(suite: Suite) -> list[list[str]]:
    rows = []
    for op in suite.ops.values():
        if op.bulk:
            cells = []
            for c in CANDIDATES:
                ns = cell_ns(op, c)
                cells.append("—" if ns is None else f"{1e3 / ns:.1f}")
            rows.append([op.label] + cells)
    return rows


# (median-based, best-of-based): the second shows how much the noise moves the first
Measured = tuple[Optional[float], Optional[float]]


@dataclass
class Target:
    text: str
    measured: Measured
    limit: float
    at_least: bool = False  # a throughput floor rather than a ratio ceiling
    unit: str = "×"

    def status(self) -> str:
        value = self.measured[0]
        if value is None:
            return "SKIP"
        ok = value >= self.limit if self.at_least else value <= self.limit
        return "PASS" if ok else "FAIL"

    def line(self) -> str:
        value, best = self.measured
        if value is None or best is None:
            got = "n/a (a candidate is missing)"
            limit = f"{self.limit:g}"
        elif self.at_least:
            got = f"{value:.1f} {self.unit} (best-of: {best:.1f})"
            limit = f"≥ {self.limit:g} {self.unit}"
        else:
            got = f"{value:.3f}{self.unit} (best-of: {best:.3f}{self.unit})"
            limit = f"≤ {self.limit:g}{self.unit}"
        return f"{self.status()}  {self.text}: measured {got}, target {limit}"


def targets(suite: Suite) -> list[Target]:
    """The issue's acceptance targets, from the medians (best-of shown alongside)."""
    ops = suite.ops

    def r(key: str, peer: str, peer_key: Optional[str] = None) -> Measured:
        mine, theirs = ops[key], ops[peer_key or key]
        return (ratio(cell_ns(mine, "uuidx"), cell_ns(theirs, peer)),
                ratio(cell_ns(mine, "uuidx", best=True), cell_ns(theirs, peer, best=True)))

    def mups(key: str) -> Measured:
        med, best = cell_ns(ops[key], "uuidx"), cell_ns(ops[key], "uuidx", best=True)
        return (None if med is None else 1e3 / med, None if best is None else 1e3 / best)

    tp = "M UUIDs/s"
    return [
        Target("uuidx.uuid4() vs uuid_utils.compat.uuid4()", r("uuid4", "uuid_utils.compat"), 0.25),
        Target("uuidx.uuid4() vs uuid_utils.uuid4()", r("uuid4", "uuid_utils"), 2.0),
        Target("uuidx.uuid7() vs uuid_utils.compat.uuid7()", r("uuid7", "uuid_utils.compat"), 0.25),
        Target("uuidx.uuid7() vs uuid_utils.uuid7()", r("uuid7", "uuid_utils"), 1.4),
        Target("uuidx.uuid5() vs uuid_utils.compat.uuid5()", r("uuid5", "uuid_utils.compat"), 0.35),
        Target("uuidx.parse(s) vs uuid.UUID(s)", r("parse", "stdlib"), 0.25),
        Target("uuidx.uuid7_str() vs str(uuid_utils.uuid7())", r("uuid7_str", "uuid_utils"), 0.6),
        Target("uuidx.to_str(u) vs str(uuid_utils.uuid7())",
               r("to_str", "uuid_utils", "uuid7_str"), 0.6),
        Target(f"uuidx.uuid4_bytes({N_BULK:_}) throughput", mups("uuid4_bytes"), 50, True, tp),
        Target(f"uuidx.uuid7_bytes({N_BULK:_}) throughput", mups("uuid7_bytes"), 50, True, tp),
    ]


def load_average() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def versions() -> dict[str, str]:
    out: dict[str, str] = {}
    for cand, dist in DISTRIBUTIONS.items():
        try:
            out[cand] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[cand] = "not installed"
    out["stdlib"] = f"Python {platform.python_version()}"
    return out


def git_revision() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, text=True,
                             capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "rust", "python"],
                               cwd=HERE.parent, text=True, capture_output=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + (" + uncommitted changes" if dirty else "")


def exprs(suite: Suite) -> list[str]:
    """What each cell timed, for results.md."""
    lines = []
    for op in suite.ops.values():
        parts = []
        for c in CANDIDATES:
            b = op.benches.get(c)
            if b is not None:
                f = b.env.get("f")
                fname = getattr(f, "__qualname__", None) or getattr(f, "__name__", "")
                mod = getattr(f, "__module__", "") or ""
                mod = PUBLIC_MODULE.get(mod, mod)
                shown = b.stmt.replace("f(", f"{mod}.{fname}(" if mod else f"{fname}(")
                parts.append(f"{c}: `{shown}`")
        lines.append(f"- **{op.label}** — " + "; ".join(parts))
    return lines


def plot(suite: Suite, path: Path, title: str) -> None:
    matplotlib: Any = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    plt: Any = importlib.import_module("matplotlib.pyplot")

    ops = list(suite.ops.values())
    present = [c for c in CANDIDATES if any(c in op.benches for op in ops)]
    height = 0.8 / len(present)
    fig, ax = plt.subplots(figsize=(12, 1.0 + 0.62 * len(ops)), dpi=110)
    colors = plt.get_cmap("tab10")
    for j, cand in enumerate(present):
        ys, xs = [], []
        for i, op in enumerate(ops):
            ns = cell_ns(op, cand)
            if ns is not None:
                ys.append(i - 0.4 + height * (j + 0.5))
                xs.append(ns)
        bars = ax.barh(ys, xs, height=height * 0.92, label=cand, color=colors(j),
                       edgecolor="black" if cand == "uuidx" else "none", linewidth=0.6)
        ax.bar_label(bars, labels=[fmt_ns(x) for x in xs], padding=2, fontsize=6)
    ax.set_yticks(range(len(ops)))
    ax.set_yticklabels([op.label + (" per UUID" if op.bulk else "") for op in ops])
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("ns per operation (per UUID for the bulk rows), log scale — lower is better")
    ax.set_ylabel("operation")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.set_axisbelow(True)
    for i in range(1, len(ops)):
        ax.axhline(i - 0.5, color="grey", linewidth=0.4, alpha=0.5)
    xmin, xmax = ax.get_xlim()
    ax.set_xlim(xmin, xmax * 3)  # room for the value labels
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.045), ncol=len(present), fontsize=8,
              frameon=False)
    fig.tight_layout()
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)


README_START = "<!-- bench:start (written by benches/bench.py) -->"
README_END = "<!-- bench:end -->"


def update_readme(lines: list[str]) -> None:
    """Replace the README's benchmark section (between the markers) with ``lines``."""
    readme = HERE.parent / "README.md"
    text = readme.read_text(encoding="utf-8")
    if README_START not in text or README_END not in text:
        print(f"note: {readme} has no benchmark markers; left unchanged")
        return
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    readme.write_text(head + README_START + "\n" + "\n".join(lines) + "\n" + README_END + tail,
                      encoding="utf-8")
    print(f"updated the benchmark section of {readme}")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true",
                        help="few, short repetitions: a smoke test, not a measurement")
    parser.add_argument("--out", type=Path, default=HERE,
                        help="folder for results.md and results.png (default: benches/)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="repetitions per cell (default 9, or 3 with --quick)")
    parser.add_argument("--target", type=float, default=None,
                        help="seconds per repetition per cell (default 0.08, or 0.01 with --quick)")
    args = parser.parse_args(argv)
    repeats: int = args.repeats or (3 if args.quick else 9)
    target: float = args.target or (0.01 if args.quick else 0.08)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    machine = describe()
    pyver = f"{platform.python_implementation()} {platform.python_version()}"
    vers = versions()
    print(f"uuidx benchmarks — {when}\nmachine: {machine}\npython: {pyver} ({sys.executable})")
    print("versions: " + ", ".join(f"{c} {vers[c]}" for c in CANDIDATES))
    print(f"uuidx source: {git_revision()}")
    load_before = load_average()

    suite = build_suite()
    verify(suite)
    run(suite, repeats, target)

    header, rows = table_rows(suite, SHORT, "÷")
    legend = ("ns per call, median of the repetitions (bulk rows: ns per UUID, N = "
              f"{N_BULK:_}); uuidx÷peer < 1 means uuidx is faster.")
    print()
    print(legend)
    print(text_table(header, rows))

    tp_header = ["bulk throughput (M UUIDs/s)"] + [SHORT[c] for c in CANDIDATES]
    tp_rows = throughput_rows(suite)
    print()
    print(text_table(tp_header, tp_rows))

    checks = targets(suite)
    print("\ntargets (uuidx ÷ peer, lower is better; throughput, higher is better):")
    for t in checks:
        print("  " + t.line())
    elapsed = time.perf_counter() - started
    load = f"load average {load_before} before the run, {load_average()} after"
    print(load)
    passed = sum(t.status() == "PASS" for t in checks)
    print(f"\n{passed}/{len(checks)} targets met; {elapsed:.0f} s in all")

    md_header, md_rows = table_rows(suite, {c: c for c in CANDIDATES}, " ÷ ")
    how = " `--quick` (a smoke test, not a measurement)" if args.quick else ""
    md = [
        "# uuidx benchmarks",
        "",
        f"Generated by `benches/bench.py`{how} (`make bench`); rerun to regenerate this file "
        "and `results.png`.",
        "",
        f"- date: {when}",
        f"- machine: `{platform.platform()}`",
        f"- CPU: {cpu_model()}, {os.cpu_count()} cores",
        f"- Python: {pyver}",
        f"- {load} (other work on this machine shows up as noise)",
        f"- uuidx: {vers['uuidx']} (source {git_revision()}), release build with fat LTO",
        "- peers: " + ", ".join(f"{c} {vers[c]}" for c in PEERS if c != "stdlib"),
        f"- method: every cell measured in the same run, interleaved (each of {repeats} "
        "repetitions goes round all cells, starting point rotated); each repetition is one "
        f"`timeit` loop scaled to about {target * 1e3:.0f} ms (GC off, as timeit does); "
        "the table shows the median. Timings include the `timeit` loop overhead "
        "(a few ns), which makes the fastest calls look slightly slower, never faster.",
        "",
        "## ns per operation",
        "",
        legend,
        "",
        md_table(md_header, md_rows),
        "",
        "## Bulk throughput (M UUIDs/s)",
        "",
        md_table(["operation"] + CANDIDATES, tp_rows),
        "",
        "## Targets",
        "",
        *[f"- {t.line()}" for t in checks],
        "",
        f"{passed}/{len(checks)} targets met.",
        "",
        "## What each cell timed",
        "",
        "`N` is the bulk count; `ns` is `uuid.NAMESPACE_DNS` (the peer's own namespace object "
        f"where it wants one), `name` is `{NAME!r}` (bytes for fastuuid, which takes bytes only), "
        "`s` is a canonical UUID string and `u` a UUID of the candidate's own type. Each result "
        "was checked once before timing (type, version, value).",
        "",
        *exprs(suite),
        "",
    ]
    if NOTES:
        md += ["## Notes", "", *[f"- {n}" for n in NOTES], ""]
    (out / "results.md").write_text("\n".join(md), encoding="utf-8")

    if out.resolve() == HERE.resolve():
        update_readme(
            [
                f"Measured by `make bench` on {when}: {machine}, {pyver}; "
                f"{'`--quick` smoke run; ' if args.quick else ''}"
                "full details in [`benches/results.md`](benches/results.md).",
                "",
                legend,
                "",
                md_table(md_header, md_rows),
                "",
                *[f"- {t.line()}" for t in checks],
            ]
        )

    title = f"uuidx vs stdlib and peers — ns/op, lower is better\n{machine}; {pyver}"
    plot(suite, out / "results.png", title)
    print(f"wrote {out / 'results.md'} and {out / 'results.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

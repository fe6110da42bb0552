"""A small measurement harness for side-by-side Python benchmarks, and the writer of the
documentation's performance page.

How it measures, so that a noisy 2-core machine still gives ratios to trust:

- every *cell* (one candidate of one operation) is a ``timeit.Timer`` over a statement, with
  the garbage collector left **on** (``timeit`` turns it off by default; real programs run
  with it), calibrated once so that one *visit* lasts about ``visit_s`` seconds;
- each *round* visits every cell once, in a fresh random order, so that no candidate always
  runs first, last, or after the same neighbour, and slow drifts of the machine (frequency,
  other tenants) hit all candidates alike;
- a ratio between two candidates of an operation is computed **per round** from the two
  visits of that round (paired), and reported as the median over rounds, next to the
  median time per call of each cell.

Use: ``measure(ops, rounds=..., visit_s=...)`` with ``ops`` a list of :class:`Op`, then
``Results.ratio(op, a, b)``; ``write_section`` rewrites a section of the performance page
(:data:`PAGE`) between markers, and the charts go to :data:`CHART_DIR`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import timeit
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parent.parent
#: The page of the documentation site that every benchmark script writes its tables into.
PAGE = ROOT / "docs" / "performance.md"
#: Where the charts of that page go.
CHART_DIR = ROOT / "docs" / "assets"


@dataclass
class Op:
    """One operation, done by several candidates: ``stmts`` maps a candidate's name to a
    statement run in ``env`` (``check`` verifies each statement's value first)."""

    label: str
    stmts: dict[str, str]
    env: dict[str, Any]
    check: Optional[Callable[[str, Any], None]] = None


@dataclass
class Cell:
    op: Op
    candidate: str
    timer: timeit.Timer
    number: int = 1
    ns: list[float] = field(default_factory=list)


@dataclass
class Results:
    """Nanoseconds per call of every visit, by operation label and candidate."""

    ns: dict[str, dict[str, list[float]]]

    def median(self, label: str, candidate: str) -> float:
        return statistics.median(self.ns[label][candidate])

    def ratio(self, label: str, a: str, b: str) -> float:
        """The median over rounds of ``a``'s time ÷ ``b``'s time in the same round."""
        pairs = zip(self.ns[label][a], self.ns[label][b])
        return statistics.median(x / y for x, y in pairs)

    def ratio_spread(self, label: str, a: str, b: str) -> tuple[float, float]:
        """The 10th and 90th percentiles of the per-round ratios."""
        ratios = sorted(x / y for x, y in zip(self.ns[label][a], self.ns[label][b]))
        return ratios[len(ratios) // 10], ratios[(len(ratios) * 9) // 10]


def _timer(op: Op, candidate: str) -> timeit.Timer:
    return timeit.Timer(op.stmts[candidate], setup="import gc; gc.enable()", globals=op.env)


def _calibrate(timer: timeit.Timer, visit_s: float) -> int:
    """Calls per visit so that one visit lasts about ``visit_s`` seconds."""
    number = 1
    while True:
        t = timer.timeit(number)
        if t >= visit_s / 4 or number >= 1 << 24:
            return max(1, round(number * visit_s / max(t, 1e-9)))
        number *= 10 if t < visit_s / 100 else 2


def measure(
    ops: list[Op],
    *,
    rounds: int = 100,
    visit_s: float = 0.002,
    seed: Optional[int] = None,
    progress: bool = True,
) -> Results:
    """Checks every statement once, then runs ``rounds`` rounds of visits (see the module
    documentation). Returns every visit's nanoseconds per call."""
    cells: list[Cell] = []
    for op in ops:
        for candidate, stmt in op.stmts.items():
            if op.check is not None:
                op.check(candidate, eval(stmt, op.env))  # noqa: S307 - our own statements
            timer = _timer(op, candidate)
            cells.append(Cell(op, candidate, timer, _calibrate(timer, visit_s)))
    rng = random.Random(seed)
    start = time.perf_counter()
    for r in range(rounds):
        order = list(range(len(cells)))
        rng.shuffle(order)
        for i in order:
            cell = cells[i]
            cell.ns.append(cell.timer.timeit(cell.number) * 1e9 / cell.number)
        if progress and (r + 1) % max(1, rounds // 10) == 0:
            print(
                f"  round {r + 1}/{rounds} ({time.perf_counter() - start:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    ns: dict[str, dict[str, list[float]]] = {}
    for cell in cells:
        ns.setdefault(cell.op.label, {})[cell.candidate] = cell.ns
    return Results(ns)


def replace_section(path: Path, start: str, end: str, lines: list[str]) -> bool:
    """Replaces the text between the lines ``start`` and ``end`` of ``path`` with ``lines``;
    ``False`` (file unchanged) when a marker is missing."""
    text = path.read_text(encoding="utf-8")
    if start not in text or end not in text:
        return False
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    path.write_text(head + start + "\n" + "\n".join(lines) + "\n" + end + tail, encoding="utf-8")
    return True


def write_section(start: str, end: str, lines: list[str]) -> bool:
    """Replaces the section between ``start`` and ``end`` of the performance page (:data:`PAGE`)
    with ``lines``; ``False`` (page unchanged) when a marker is missing."""
    return replace_section(PAGE, start, end, lines)

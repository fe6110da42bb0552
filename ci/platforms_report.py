"""Rewrite the results table of ``docs/platforms.md`` from the last run of each platform target.

``make test-windows``, ``test-pypy``, ``test-aarch64``, ``test-musl``, ``test-musl-aarch64`` and
``test-<arch>`` (``ci/platform-<p>``) each leave one or more summary lines in
``target/platforms/<p>/summary.txt``:
``<name>: <N> passed, <N> failed, <N> skipped, <N> errors in <S> s (<what ran>; <interpreter>)``.
This script puts them in the table between the page's ``platforms-results`` markers, with the
commit the tree was at (``make platforms-report`` refuses a tree with uncommitted changes:
figures on the page come from a committed tree) and the date of each summary.

Usage: ``python ci/platforms_report.py [--check]``; ``--check`` only parses the summaries.
"""

from __future__ import annotations

import argparse
import datetime
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "platforms.md"
RESULTS = ROOT / "target" / "platforms"
BEGIN = "<!-- platforms-results: begin (make platforms-report writes this table) -->"
END = "<!-- platforms-results: end -->"
LINE = re.compile(
    r"^(?P<name>[\w ./+-]+): (?P<body>.*?) in (?P<seconds>[\d.]+) s(?: \((?P<what>.*)\))?$"
)
COUNT = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected)")


def rows() -> list[str]:
    """One table row per summary line of every platform, platforms in name order."""
    out = []
    for summary in sorted(RESULTS.glob("*/summary.txt")):
        when = datetime.datetime.fromtimestamp(summary.stat().st_mtime, datetime.timezone.utc)
        for line in summary.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            match = LINE.match(line.strip())
            if match is None:
                raise SystemExit(f"{summary}: cannot read {line!r}")
            counts = {kind.rstrip("s"): int(n) for n, kind in COUNT.findall(match["body"])}
            cells = [
                match["name"],
                str(counts.get("passed", 0)),
                str(counts.get("failed", 0) + counts.get("error", 0)),
                str(counts.get("skipped", 0)),
                f"{float(match['seconds']):.0f} s",
                (match["what"] or "").replace("|", "\\|"),
                when.strftime("%Y-%m-%d"),
            ]
            out.append("| " + " | ".join(cells) + " |")
    return out


def commit() -> str:
    """The tree's commit; an error when it has uncommitted changes."""
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if dirty:
        raise SystemExit(
            "platforms_report: the tree has uncommitted changes: commit, rerun, report"
        )
    return subprocess.run(
        ["git", "rev-parse", "--short=12", "HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def main() -> int:
    """Parse the summaries; unless ``--check``, rewrite the page's table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only parse the summaries")
    args = parser.parse_args()
    table = rows()
    if not table:
        print(f"platforms_report: no {RESULTS}/*/summary.txt: run make test-<platform> first")
        return 1
    if args.check:
        print("\n".join(table))
        return 0
    head = [
        BEGIN,
        "",
        f"Written at commit `{commit()}` from the last runs (their dates below), on this"
        " project's 2-core x86_64 Debian 12 machine.",
        "",
        "| platform | passed | failed | skipped | time | what ran | date |",
        "| --- | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    text = PAGE.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END)
    PAGE.write_text(text[:start] + "\n".join([*head, *table, ""]) + "\n" + text[end:], "utf-8")
    print(f"platforms_report: {len(table)} rows written to {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The one-line summary of a platform's pytest run, from its JUnit XML file.

Every ``ci/platform-<p>`` script writes ``target/platforms/<p>/summary.txt`` with it, and
``ci/platforms_report.py`` and ``.ci/run`` read it back::

    <label>: <N> passed, <N> failed, <N> skipped, <N> errors in <S> s (<what ran>)

Usage: ``python ci/junit_summary.py LABEL JUNIT WHAT [SECONDS]``. SECONDS is the run's wall
time; without it, the time pytest recorded in the file. A file that is missing or unreadable (the
run never started, or died) gives ``<label>: no junit.xml (<why>) ...`` with exit status 0: the
platform script's own exit status says it failed. Standard library only, Python 3.9+ (it runs
on the host's python3, on ci/tools' and in PyPy's venv).
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET


def summary(label: str, path: str, what: str, seconds: str | None) -> str:
    """The summary line of the JUnit file at ``path``."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        return f"{label}: no junit.xml ({exc}) in {seconds or 0} s ({what})"
    suites = [root] if root.tag == "testsuite" else list(root)
    n = {
        k: sum(int(s.get(k, 0)) for s in suites) for k in ("tests", "failures", "errors", "skipped")
    }
    passed = n["tests"] - n["failures"] - n["errors"] - n["skipped"]
    if seconds is None:
        seconds = f"{sum(float(s.get('time', 0)) for s in suites):.0f}"
    return (
        f"{label}: {passed} passed, {n['failures']} failed, {n['skipped']} skipped, "
        f"{n['errors']} errors in {seconds} s ({what})"
    )


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(next(p for p in __doc__.split("\n\n") if p.startswith("Usage")))
    label, path, what = sys.argv[1:4]
    print(summary(label, path, what, sys.argv[4] if len(sys.argv) == 5 else None))

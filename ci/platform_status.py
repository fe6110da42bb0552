"""Write how each wheel of the release is tested into docs/platforms.md and the README.

The facts are ci/release.py's ``TESTING`` (one row per group of wheels: tested here natively,
emulated, compile-checked only, or on the hosted runners only); this script renders them as the
table between the ``platform-status`` markers of both files, so that neither says more than the
list does. ``--check``: exit 1 when a file's table differs from the list (make lint).

Usage: ``python ci/platform_status.py [--check]``
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import release  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FILES = (ROOT / "docs/platforms.md", ROOT / "README.md")
BEGIN = "<!-- platform-status: begin (python ci/platform_status.py writes this table) -->"
END = "<!-- platform-status: end -->"
LABELS = {
    "manylinux-x86_64": "Linux x86_64, glibc 2.17+",
    "manylinux-aarch64": "Linux aarch64, glibc 2.17+",
    "musllinux-x86_64": "Linux x86_64, musl 1.2+",
    "manylinux-armv7l": "Linux armv7l (hard float), glibc 2.17+",
    "manylinux-i686": "Linux i686, glibc 2.17+",
    "manylinux-ppc64le": "Linux ppc64le, glibc 2.24+",
    "manylinux-s390x": "Linux s390x, glibc 2.17+",
    "musllinux-aarch64": "Linux aarch64, musl 1.2+",
    "pypy-manylinux-x86_64": "Linux x86_64, glibc 2.17+",
    "macos-x86_64": "macOS x86_64, 10.12+",
    "macos-arm64": "macOS arm64, 11+",
    "windows-x64": "Windows x64",
    "windows-arm64": "Windows arm64",
}


def interpreters(names: tuple[str, ...]) -> str:
    """ "CPython 3.9-3.15", "CPython 3.9, 3.10, 3.12-3.15, 3.14t, 3.15t", "PyPy 7.3"."""
    pypy = [
        f"PyPy {'.'.join(release.PYPY[n][0].split('.')[:2])}" for n in names if n in release.PYPY
    ]
    if pypy:
        return ", ".join(pypy)
    gil = [n for n in release.CPYTHON if n in names]
    parts, run = [], []
    for n in release.CPYTHON:
        if n in gil:
            run.append(n)
            continue
        if run:
            parts.append(run[0] if len(run) < 3 else f"{run[0]}-{run[-1]}")
            parts.extend(run[1:] if len(run) == 2 else [])
            run = []
    if run:
        parts.append(run[0] if len(run) < 3 else f"{run[0]}-{run[-1]}")
        parts.extend(run[1:] if len(run) == 2 else [])
    parts += [n for n in release.FREE_THREADED if n in names]
    return "CPython " + ", ".join(parts)


def table() -> str:
    lines = ["| platform | wheels | status | how |", "| --- | --- | --- | --- |"]
    for t in release.TESTING:
        lines.append(
            f"| {LABELS[t.platform]} | {interpreters(t.interpreters)} | {t.status} | {t.how} |"
        )
    return "\n".join(lines)


def rewrite(text: str) -> str:
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"no {BEGIN} ... {END} markers")
    return pattern.sub(lambda _: f"{BEGIN}\n\n{table()}\n\n{END}", text)


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    stale = []
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        new = rewrite(text)
        if new != text:
            stale.append(path.relative_to(ROOT))
            if not check:
                path.write_text(new, encoding="utf-8")
    if check and stale:
        print(
            f"platform_status: {', '.join(map(str, stale))}: the table differs from ci/release.py's TESTING (python ci/platform_status.py)"
        )
        return 1
    print(
        "platform_status: "
        + ("up to date" if not stale else f"rewrote {', '.join(map(str, stale))}")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""``make test-matrix`` and ``make test-wheels``: every CPython from 3.9 to 3.15 this machine can
provision, one pass each, and a table of pytest's counts at the end.

Interpreters: the host's (``ci/find-python``: on PATH, or pyenv's builds under
``$(pyenv root)/versions``) where present; 3.14 and 3.15 otherwise from Debian sid's packages in
a chroot (``ci/chroot-python``). An interpreter that cannot be provisioned is reported as skipped,
with the reason, and fails the run unless ``UUIDX_ALLOW_SKIP=1`` (never set by CI) allows it; a
failure on any provisioned one fails the run.

``test-matrix`` (for development; CI runs ``test-wheels`` instead): ``ci/suite`` per interpreter
(build with the ``fast`` cargo profile into ``.venv/<tag>``, mypy --strict, stubtest, pytest).

``test-wheels`` (CI): release.yml's test jobs of what ``make wheels`` put into ``dist/`` (the
manylinux x86_64 wheels and the sdist), run from the workflow file by ``ci/hosted.py`` as a hosted
runner runs them: a plain interpreter of each version, then the job's own steps
(``ci/test-artifact``: a clean virtualenv, the file installed; mypy --strict, stubtest of the
shipped stub and module, the whole suite; the sdist built from source and checked with the
tests it ships, all collected, those about its contents run). ``--whole-suite VERSIONS`` (CI's
turns, ``.ci/run``) leaves the others' whole suites for another run: they run ``TURN_SUBSET``.

In both, the 3.13 pass runs with ``PYTHONMALLOC=mimalloc``, the allocator of free-threaded builds
(for ``test-wheels``, release.yml's matrix says so).

Two jobs run side by side: one worker takes the chroot's interpreters first, then helps with the
host's (``MATRIX_JOBS=1``: one after the other). Results and logs go under
``target/ci/`` (git-ignored); each interpreter's virtualenv is ``.venv/<tag>`` of its checkout
(the chroot keeps its own copy of the checkout), each wheel's a fresh one under ``target/ci/``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

REPO = Path(__file__).resolve().parents[1]
VERSIONS = ("3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15")
# Debian sid packages these two (python3.14, python3.15); ci/chroot-python installs both.
CHROOT_VERSIONS = ("3.14", "3.15")
# The matrix pass that runs under mimalloc (PYTHONMALLOC=mimalloc, CPython 3.13+): pyenv's 3.13
# is on every machine of the project, so this pass never depends on the chroot.
MIMALLOC_VERSION = "3.13"
CANNOT_PROVISION = 75  # ci/chroot-python's exit status when the root cannot be made


@dataclass
class Row:
    """One line of the final table."""

    label: str
    where: str
    result: str = "skipped"
    note: str = ""
    passed: Optional[int] = None
    failed: Optional[int] = None
    skipped: Optional[int] = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Passed; or skipped (not provisioned) where ``UUIDX_ALLOW_SKIP=1`` allows it, which CI
        never sets: an interpreter that cannot be had fails the run rather than leaving it
        untested and green."""
        return self.result == "passed" or (self.result == "skipped" and allow_skip())


def allow_skip() -> bool:
    return os.environ.get("UUIDX_ALLOW_SKIP") == "1"


def find_host_python(version: str) -> Optional[str]:
    """The host's interpreter for ``version`` (X.Y), or None."""
    proc = subprocess.run(
        [str(REPO / "ci/find-python"), f"python{version}"],
        capture_output=True,
        text=True,
        check=False,
    )
    exe = proc.stdout.strip()
    if proc.returncode != 0 or not exe:
        return None
    check = subprocess.run(
        [exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=False,
    )
    return exe if check.stdout.strip() == version else None


def junit_counts(path: Path) -> tuple[int, int, int]:
    """(passed, failed, skipped) from pytest's JUnit XML; errors count as failed."""
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    tests = failures = skipped = 0
    for suite in suites:
        tests += int(suite.get("tests", "0"))
        failures += int(suite.get("failures", "0")) + int(suite.get("errors", "0"))
        skipped += int(suite.get("skipped", "0"))
    return tests - failures - skipped, failures, skipped


def finish_row(row: Row, out: Path, rc: int, started: float) -> Row:
    """Fill ``row`` from a suite's exit status and its ``out`` folder (steps, junit.xml)."""
    row.seconds = time.monotonic() - started
    interpreter = out / "interpreter.log"
    if not interpreter.exists():
        row.note = f"no results in {out} (the suite wrote none there)"
    else:  # "Python 3.14.10 (main, Oct 26 2026, ...)"
        words = interpreter.read_text().split()
        if len(words) > 1 and words[0] == "Python":
            row.label = words[1] + (" (sdist)" if row.label == "sdist" else "")
    junit = out / "junit.xml"
    if junit.exists():
        try:
            row.passed, row.failed, row.skipped = junit_counts(junit)
        except (ET.ParseError, ValueError) as exc:
            row.note = f"unreadable {junit}: {exc}"
    steps = (out / "steps").read_text().split("\n") if (out / "steps").exists() else []
    failed_steps = [s.split()[0] for s in steps if len(s.split()) == 3 and s.split()[1] != "0"]
    if rc == 0 and not failed_steps and row.failed == 0 and row.passed:
        row.result = "passed"
    else:
        row.result = "FAILED"
        what = ", ".join(failed_steps) or f"exit status {rc}"
        logs = out.relative_to(REPO) if REPO in out.parents else out
        row.note = "; ".join(x for x in (row.note, f"{what} failed, logs in {logs}") if x)
    return row


_print_lock = threading.Lock()


def say(line: str) -> None:
    with _print_lock:
        print(line, flush=True)


def run_logged(
    cmd: list[str], prefix: str, env: Optional[dict[str, str]] = None
) -> tuple[int, str]:
    """Run ``cmd``, echoing its output with ``prefix``; returns (exit status, last line)."""
    say(f"{prefix} + {' '.join(cmd)}")
    proc = subprocess.Popen(
        cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert proc.stdout is not None
    last = ""
    for line in proc.stdout:
        say(f"{prefix} {line.rstrip()}")
        if line.strip():
            last = line.strip()
    return proc.wait(), last


def with_uv(inner: list[str], binds: list[str]) -> list[str]:
    """``inner`` with the host's uv (UV, from ci/tools) where it has one: bound read-only at
    /opt/ci-tools in the root (added to ``binds``) and named by UV there."""
    if "UV" not in os.environ:
        return inner
    binds.append(f"{Path(os.environ['UV']).parent}:/opt/ci-tools")
    return ["env", "UV=/opt/ci-tools/uv", *inner]


def chroot_row(
    row: Row, inner: list[str], out: Path, started: float, dist: Optional[Path] = None
) -> Row:
    """``inner`` run in the chroot, with ``out`` at /out (and ``dist`` at /dist); a root that
    cannot be provisioned makes a skipped row, with ci/chroot-python's reason."""
    env = dict(os.environ, CHROOT_BIND_RW=f"{out}:/out")
    binds = [f"{dist}:/dist"] if dist is not None else []
    inner = with_uv(inner, binds)
    env["CHROOT_BIND_RO"] = " ".join(binds)
    rc, last = run_logged([str(REPO / "ci/chroot-python"), "--", *inner], f"[{row.label}]", env=env)
    if rc == CANNOT_PROVISION:
        row.result, row.note = "skipped", last.replace("chroot-python: ", "")
        row.seconds = time.monotonic() - started
        return row
    return finish_row(row, out, rc, started)


def not_found_reason(version: str) -> str:
    return f"no python{version}: not on PATH, not among pyenv's builds" + (
        "" if version in CHROOT_VERSIONS else f", and Debian sid has no python{version}"
    )


Job = Callable[[], Row]


def run_lanes(host: list[Job], chroot: list[Job]) -> list[Row]:
    """Two workers side by side (2 cores: one builds while the other waits on the network or
    runs a mostly single-threaded pytest): the first runs the chroot jobs (which must not run
    two at a time: the root is locked per run), then helps with the host jobs; the second runs
    host jobs. ``MATRIX_JOBS=1``: everything one after the other."""
    if os.environ.get("MATRIX_JOBS", "2") == "1":
        return [job() for job in chroot + host]
    queue = deque(host)
    lock = threading.Lock()

    def take() -> Optional[Job]:
        with lock:
            return queue.popleft() if queue else None

    def worker(first: list[Job]) -> list[Row]:
        rows = [job() for job in first]
        while (job := take()) is not None:
            rows.append(job())
        return rows

    with ThreadPoolExecutor(max_workers=2) as pool:
        chroot_worker = pool.submit(worker, chroot)
        host_worker = pool.submit(worker, [])
        return host_worker.result() + chroot_worker.result()


def fresh(out: Path) -> Path:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    return out


def mimalloc_env(version: str) -> tuple[dict[str, str], str]:
    """The environment of ``version``'s pass, and its note: PYTHONMALLOC=mimalloc for 3.13."""
    env = dict(os.environ)
    if version != MIMALLOC_VERSION:
        return env, ""
    env["PYTHONMALLOC"] = "mimalloc"
    return env, "PYTHONMALLOC=mimalloc"


def matrix_job(version: str, out: Path) -> tuple[str, Job]:
    """("host" or "chroot", the job) for one interpreter of the test matrix."""
    env, note = mimalloc_env(version)
    exe = find_host_python(version)

    def host() -> Row:
        started = time.monotonic()
        assert exe is not None
        rc, _ = run_logged([str(REPO / "ci/suite"), exe, str(out)], f"[{version}]", env=env)
        return finish_row(Row(version, exe, note=note), out, rc, started)

    def chroot() -> Row:
        inner = ["ci/suite", f"python{version}", "/out"]
        if note:
            inner = ["env", "PYTHONMALLOC=mimalloc", *inner]
        row = Row(version, f"chroot (Debian sid): /usr/bin/python{version}", note=note)
        return chroot_row(row, inner, out, time.monotonic())

    if exe is not None:
        return "host", host
    if version in CHROOT_VERSIONS:
        return "chroot", chroot
    return "host", lambda: Row(version, "-", "skipped", not_found_reason(version))


def test_matrix(args: argparse.Namespace) -> list[Row]:
    out_root = REPO / "target/ci/matrix"
    lanes: dict[str, list[Job]] = {"host": [], "chroot": []}
    for version in args.versions:
        where, job = matrix_job(version, fresh(out_root / version))
        lanes[where].append(job)
    return sort_rows(run_lanes(lanes["host"], lanes["chroot"]), args.versions)


def sort_rows(rows: list[Row], versions: list[str]) -> list[Row]:
    def key(row: Row) -> tuple[int, str]:
        base = ".".join(row.label.split()[0].split(".")[:2])
        return (versions.index(base) if base in versions else len(versions), row.label)

    return sorted(rows, key=key)


WHEEL_TAG = re.compile(r"-cp3(\d+)(t?)-cp3\d+t?-")


# release.yml's test jobs of what make wheels builds: their matrix entries (ci/release.py).
WHEELS_PLATFORM = "manylinux-x86_64"


def hosted(
    args: list[str], prefix: str, chroot: bool, state: Path, extra: Optional[dict[str, str]] = None
) -> tuple[int, str]:
    """``ci/hosted ARGS`` (ci/hosted.py with the CI tools), on the host or in the chroot (there
    with ``state`` bound at /state and the checkout's copy at /src/project as the workspace),
    with ``extra`` in its environment."""
    extra = extra or {}
    if not chroot:
        cmd = [str(REPO / "ci/hosted"), *args, "--state", str(state), "--source", str(REPO)]
        return run_logged(cmd, prefix, env=dict(os.environ, **extra))
    env = dict(os.environ, CHROOT_BIND_RW=f"{state}:/state")
    inner = ["ci/hosted", *args, "--state", "/state", "--source", "/src/project"]
    if extra:
        inner = ["env", *(f"{k}={v}" for k, v in extra.items()), *inner]
    binds: list[str] = []
    inner = with_uv(inner, binds)
    env["CHROOT_BIND_RO"] = " ".join(binds)
    return run_logged([str(REPO / "ci/chroot-python"), "--", *inner], prefix, env=env)


#: What a wheel whose whole suite waits its turn runs (``--whole-suite``): ci/wheel-suite's
#: subset (every module collected; the packaging, the spec data, the RFC vectors, stdlib parity
#: and the catalogue of the API run) and the tests that depend most on the interpreter's own
#: objects: the exact-type fast path (the layout of its uuid.UUID), the errors and the leaks.
#: Its property tests run a tenth of their examples (tests/conftest.py's ``quick`` profile):
#: every example runs in the wheel's whole-suite turn.
TURN_SUBSET = (
    "tests/packaging tests/conformance tests/test_catalog.py tests/ffi/test_exact.py "
    "tests/test_errors.py tests/test_leaks.py"
)


def entry_row(
    row: Row, state: Path, entry: str, chroot: bool, started: float, subset: bool = False
) -> Row:
    """One test entry of release.yml run by ci/hosted.py; its results are ci/test-artifact's,
    in the entry's RUNNER_TEMP (``state/runs/test_<entry>_/temp/test``). ``subset``: the job
    runs TURN_SUBSET instead of the whole suite."""
    extra = (
        {"WHEEL_SUITE_SUBSET": "1", "SUBSET_TESTS": TURN_SUBSET, "HYPOTHESIS_PROFILE": "quick"}
        if subset
        else {}
    )
    rc, last = hosted(
        ["run", "release.yml", "test", "--entry", f"name={entry}"],
        f"[{row.label}]",
        chroot,
        state,
        extra,
    )
    if chroot and rc == CANNOT_PROVISION:
        row.result, row.note = "skipped", last.replace("chroot-python: ", "")
        row.seconds = time.monotonic() - started
        return row
    slug = re.sub(r"[^\w.-]+", "_", f"test ({entry})").strip("_")
    return finish_row(row, state / "runs" / slug / "temp" / "test", rc, started)


def test_wheels(args: argparse.Namespace) -> list[Row]:
    """release.yml's test jobs for the files make wheels built (dist/: the manylinux x86_64
    wheels and the sdist), run from the workflow file by ci/hosted.py as the hosted runner runs
    them: a plain interpreter of each version (pyenv's; 3.14 and 3.15 Debian's in the chroot),
    then the job's own steps (ci/test-artifact). The artifacts are what the build jobs would
    have uploaded, the matrix is the plan job's."""
    dist = REPO / "dist"
    state = fresh(REPO / "target/ci/hosted")
    artifacts = state / "artifacts"
    wheels_dir, sdist_dir = artifacts / "dist-manylinux-x86_64-cpython", artifacts / "dist-sdist"
    wheels_dir.mkdir(parents=True)
    sdist_dir.mkdir(parents=True)
    for path in dist.glob("uuidx-*.whl"):
        if "manylinux" in path.name and "x86_64" in path.name and "-cp3" in path.name:
            shutil.copy2(path, wheels_dir)
    for path in dist.glob("uuidx-*.tar.gz"):
        shutil.copy2(path, sdist_dir)
    rc, _ = hosted(["run", "release.yml", "plan"], "[plan]", False, state)
    if rc != 0:
        return [Row("plan", "release.yml", "FAILED", f"the plan job failed (logs in {state})")]
    lanes: dict[str, list[Job]] = {"host": [], "chroot": []}
    # The whole suites first in their lane, in order: the longest jobs, which would otherwise
    # start behind the subsets and end the stage late.
    wholes = {"host": 0, "chroot": 0}

    def subset(label: str) -> bool:
        """Whether ``label``'s whole suite waits its turn (--whole-suite names the others)."""
        return args.whole_suite is not None and label not in args.whole_suite.split()

    def add(lane: str, label: str, run: Job) -> None:
        if not subset(label):
            lanes[lane].insert(wholes[lane], run)
            wholes[lane] += 1
        else:
            lanes[lane].append(run)

    def fixed(row: Row) -> Job:
        return lambda: row

    def job(label: str, where: str, entry: str, chroot: bool) -> Job:
        row = Row(label, where, note=TURN_NOTE if subset(label) else "")
        return lambda: entry_row(row, state, entry, chroot, time.monotonic(), subset(label))

    for version in args.versions:
        entry = f"{WHEELS_PLATFORM} {version}"
        cp = f"-cp3{version[2:]}-"
        if not any(cp in p.name for p in wheels_dir.iterdir()):
            reason = f"no cp3{version[2:]} wheel in dist/ (make wheels)"
            lanes["host"].append(fixed(Row(version, "-", "FAILED", reason)))
        elif find_host_python(version) is not None:
            add("host", version, job(version, entry, entry, False))
        elif version in CHROOT_VERSIONS:
            add("chroot", version, job(version, f"{entry} (chroot)", entry, True))
        else:
            lanes["host"].append(fixed(Row(version, "-", "skipped", not_found_reason(version))))

    def sdist() -> Row:
        return entry_row(Row("sdist", "sdist"), state, "sdist", False, time.monotonic())

    lanes["host"].append(sdist)
    rows = run_lanes(lanes["host"], lanes["chroot"])
    return sort_rows([r for r in rows if "sdist" not in r.label], args.versions) + [
        r for r in rows if "sdist" in r.label
    ]


# The row of the sdist, which runs ci/wheel-suite's subset (WHEEL_SUITE_SUBSET=1).
SUBSET_NOTE = "all collected, SUBSET_TESTS run"
# The row of a wheel whose whole suite waits its turn (--whole-suite).
TURN_NOTE = "all collected, the turn subset run: its whole suite in turn"


def print_table(title: str, rows: list[Row]) -> None:
    def num(n: Optional[int]) -> str:
        return "-" if n is None else str(n)

    header = ("interpreter", "tested", "result", "passed", "failed", "skipped", "time")
    lines = [
        (
            r.label,
            r.where,
            r.result + (f" ({r.note})" if r.note else ""),
            num(r.passed),
            num(r.failed),
            num(r.skipped),
            f"{r.seconds:.0f} s",
        )
        for r in rows
    ]
    widths = [max(len(str(x)) for x in col) for col in zip(header, *lines)]
    print(f"\n{title}")
    for i, line in enumerate([header, *lines]):
        print("| " + " | ".join(str(x).ljust(w) for x, w in zip(line, widths)) + " |")
        if i == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    passed = sum(r.passed or 0 for r in rows)
    failed = sum(r.failed or 0 for r in rows)
    skipped = sum(r.skipped or 0 for r in rows)
    not_run = [r.label for r in rows if r.result == "skipped"]
    bad = [r.label for r in rows if not r.ok and r.label not in not_run]
    print(
        f"interpreters: {len(rows) - len(bad) - len(not_run)} passed, {len(bad)} failed, "
        f"{len(not_run)} skipped (not provisioned"
        + ("; allowed by UUIDX_ALLOW_SKIP=1)" if allow_skip() else ": a failure)")
    )
    print(f"{title.split()[0]} {passed} passed, {failed} failed, {skipped} skipped")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["test-matrix", "test-wheels"])
    parser.add_argument(
        "versions", nargs="*", default=list(VERSIONS), help="X.Y versions (default: 3.9 to 3.15)"
    )
    parser.add_argument(
        "--whole-suite",
        metavar="VERSIONS",
        help="test-wheels: the X.Y versions (space-separated) that run the whole suite; the "
        "others run TURN_SUBSET (default: all run the whole suite)",
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    # uv (ci/tools) for the virtualenvs: ci/suite and ci/wheel-suite use it when UV is set.
    tools = subprocess.run(
        [str(REPO / "ci/tools"), os.environ.get("PYTHON", "python3")],
        capture_output=True,
        text=True,
        check=False,
    )
    if tools.returncode == 0 and (Path(tools.stdout.strip()) / "uv").exists():
        os.environ["UV"] = str(Path(tools.stdout.strip()) / "uv")
    else:
        say(f"note: no uv from ci/tools, virtualenvs made with pip: {tools.stderr[-500:]}")
    if args.command == "test-matrix":
        rows = test_matrix(args)
    else:
        rows = test_wheels(args)
    print_table(
        f"{args.command}: CPython {args.versions[0]} to {args.versions[-1]} "
        f"({time.monotonic() - started:.0f} s)",
        rows,
    )
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

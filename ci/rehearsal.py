"""``make release-rehearsal``: the release, made and tested here as release.yml would make it.

1. **Builds**, by the workflow's own jobs (``ci/hosted.py`` runs them from release.yml as a
   hosted Ubuntu x86_64 runner would): the plan and version jobs, then each build job that runs
   on that runner: the manylinux and musllinux x86_64 wheels of CPython 3.9-3.15, the manylinux
   armv7l, i686, ppc64le and s390x ones (zig), the sdist, and each PyPy wheel in the Debian root
   that packages its PyPy (the job's setup-python gives that PyPy there). The manylinux and
   musllinux aarch64 jobs run on an arm64 runner: their command (``ci/release-build``) runs
   here, cross-compiling with zig. What cannot be built here is
   named: the free-threaded wheels (no free-threaded interpreter), macOS and Windows (no Apple
   or MSVC linker; ``make lint-targets`` compile-checks both, ``make test-windows`` builds the
   same code with mingw-w64 and tests it under Wine).
2. **The set checked**: ``ci/release-check --not-here``, the expected job's command, over every
   file built (the exact names, twine check --strict, tags, auditwheel policy, licences, SBOM,
   stub, RECORD), the files not built here named.
3. **Each file tested on an interpreter of its own ABI**: release.yml's test jobs that run here
   (the manylinux x86_64 wheels on pyenv's CPython 3.9-3.13 and Debian sid's 3.14 and 3.15, the
   PyPy wheels on their PyPy, the sdist); the sdist built again with no network (cargo
   offline, no index); the aarch64 wheel of CPython 3.11 under qemu-user (``make test-aarch64``),
   the musllinux one on a musl CPython 3.11 (``make test-musl``), the armv7l, i686, ppc64le and
   s390x ones of CPython 3.11 by release.yml's test-emulated command (``ci/test-emulated``, which
   runs ``ci/platform-linux ARCH test``): the whole suite where it fits, a named subset under
   emulation.
4. **ci.yml's Linux x86_64 jobs**, run from the workflow file: lint, cargo test, and pytest on
   every interpreter here (REHEARSAL_CI=0 leaves them out).

Writes ``target/release-rehearsal/report.md`` (each file: built where, checked, tested on what,
with pytest's counts and the time) and prints it. Exit status 0 when every step passed. A step
that cannot run fails the rehearsal (a root that cannot be provisioned, an interpreter missing),
unless ``UUIDX_ALLOW_SKIP=1``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import release  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "target/release-rehearsal"
STATE = OUT / "hosted"
CANNOT_PROVISION = 75


@dataclass
class Step:
    name: str
    result: str = "not run"
    seconds: float = 0.0
    note: str = ""
    counts: Optional[tuple[int, int, int]] = None  # passed, failed, skipped


@dataclass
class Rehearsal:
    steps: list[Step] = field(default_factory=list)

    def run(
        self,
        name: str,
        cmd: list[str],
        env: Optional[dict[str, str]] = None,
        junit: Optional[Path] = None,
    ) -> Step:
        step = Step(name)
        started = time.monotonic()
        print(f"\n::: rehearsal: {name}\n+ {' '.join(cmd)}", flush=True)
        rc = subprocess.call(cmd, cwd=REPO, env=env)
        step.seconds = time.monotonic() - started
        if rc == CANNOT_PROVISION:
            step.result = "skipped" if os.environ.get("UUIDX_ALLOW_SKIP") == "1" else "FAILED"
            step.note = "could not be provisioned"
        else:
            step.result = "passed" if rc == 0 else "FAILED"
        if junit is not None:
            step.counts = junit_counts(junit)
            if step.counts is None and step.result == "passed":
                step.result, step.note = "FAILED", f"no test results in {junit}"
            elif step.counts is not None and step.counts[0] == 0:
                step.result, step.note = "FAILED", "no test ran"
        print(f"::: rehearsal: {name}: {step.result} in {step.seconds:.0f} s", flush=True)
        self.steps.append(step)
        return step

    def note(self, name: str, why: str) -> None:
        self.steps.append(Step(name, "not here", note=why))

    @property
    def ok(self) -> bool:
        return all(
            s.result in ("passed", "not here") or (s.result == "skipped") for s in self.steps
        )


def junit_counts(path: Path) -> Optional[tuple[int, int, int]]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    tests = sum(int(s.get("tests", 0)) for s in suites)
    failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
    skipped = sum(int(s.get("skipped", 0)) for s in suites)
    return tests - failed - skipped, failed, skipped


def slug(text: str) -> str:
    return re.sub(r"[^\w.-]+", "_", text).strip("_")


def hosted(workflow: str, job: str, entry: Optional[str], root: Optional[str] = None) -> list[str]:
    """The command that runs one job (one matrix entry) of a workflow through ci/hosted.py, on
    the host or inside the Debian root of suite ``root``."""
    args = ["run", workflow, job, *(["--entry", f"name={entry}"] if entry else [])]
    # One cargo target folder per machine (the host, each root), which the jobs share as a
    # cache of their builds would be shared.
    if root is None:
        cache = f"HOSTED_CARGO_TARGET_DIR={STATE / 'cargo' / 'host'}"
        return [
            "env",
            cache,
            str(REPO / "ci/hosted"),
            *args,
            "--state",
            str(STATE),
            "--source",
            str(source()),
        ]
    return [
        "env",
        f"CHROOT_SUITE={root}",
        f"CHROOT_BIND_RW={STATE}:/state",
        *root_packages(root),
        str(REPO / "ci/chroot-python"),
        "--",
        "env",
        f"HOSTED_CARGO_TARGET_DIR=/state/cargo/{root}",
        "ci/hosted",
        *args,
        "--state",
        "/state",
        "--source",
        "/src/project",
    ]


def root_packages(suite: str) -> list[str]:
    """The packages of a Debian root: sid's defaults (CPython 3.14, 3.15; make test-wheels') and
    PyPy, another suite's PyPy (and PostgreSQL) only; ci/chroot-python adds python3 to both,
    for ci/hosted.py."""
    extra = "CHROOT_EXTRA_PACKAGES=pypy3 pypy3-dev pypy3-venv"
    if suite == "sid":
        return [extra]
    return [extra, "CHROOT_PACKAGES=make postgresql"]


_SOURCE: Optional[Path] = None


def source() -> Path:
    """The tree the jobs check out: the committed tree (git archive of HEAD) when the working
    tree is clean; the working tree under REHEARSAL_DIRTY=1 (the report says so)."""
    global _SOURCE
    if _SOURCE is None:
        _SOURCE = OUT / "source"
        shutil.rmtree(_SOURCE, ignore_errors=True)
        _SOURCE.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", "HEAD"], cwd=REPO, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(_SOURCE)], input=archive.stdout, check=True)
        if os.environ.get("REHEARSAL_DIRTY") == "1":
            shutil.rmtree(_SOURCE)
            _SOURCE = REPO
    return _SOURCE


def run_dir(job: str, entry: str) -> Path:
    return STATE / "runs" / slug(f"{job} ({entry})")


def main() -> int:
    started = time.monotonic()
    dirty = subprocess.run(
        ["git", "status", "--porcelain"], cwd=REPO, capture_output=True, text=True
    ).stdout
    if dirty.strip() and os.environ.get("REHEARSAL_DIRTY") != "1":
        print(
            "rehearsal: the working tree has changes; the jobs check out the commit (REHEARSAL_DIRTY=1: rehearse the working tree)",
            file=sys.stderr,
        )
        return 2
    shutil.rmtree(OUT, ignore_errors=True)
    STATE.mkdir(parents=True)
    version = release.crate_version()
    r = Rehearsal()
    r.run("release.yml plan", hosted("release.yml", "plan", None))
    r.run("release.yml version", hosted("release.yml", "version", None))

    # 1. builds
    builds = {j["name"]: j for j in release.build_jobs()}
    for name, job in builds.items():
        platform = release.BY_NAME.get(job["platform"])
        if platform is not None and platform.not_here:
            r.note(f"build {name}", platform.not_here)
        elif "free-threaded" in name:
            r.note(f"build {name}", release.FT_HERE)
        elif job["platform"] == "pypy-manylinux-x86_64":
            abi = job["interpreters"]
            r.run(f"build {name}", hosted("release.yml", "build", name, root=release.PYPY[abi][1]))
        elif job["runner"] != "ubuntu-24.04":
            # The arm64 runner's job: its command, cross-compiled here by zig.
            dest = STATE / "artifacts" / job["artifact"]
            cmd = [str(REPO / "ci/release-build"), job["platform"], str(dest), job["interpreters"]]
            r.run(f"build {name} (its command, cross-compiled here)", cmd)
        else:
            r.run(f"build {name}", hosted("release.yml", "build", name))
    dist = OUT / "dist"
    dist.mkdir()
    for art in (STATE / "artifacts").glob("dist-*"):
        for f in art.iterdir():
            shutil.copy2(f, dist)

    # 2. the set
    r.run(
        "the set checked (ci/release-check --not-here)",
        [str(REPO / "ci/release-check"), str(dist), "--not-here"],
    )

    # 3. tests
    for job in release.test_jobs():
        name = job["name"]
        if job["container"] or "arch" in job:
            continue  # the musllinux and emulated jobs: below
        if job["runner"] != "ubuntu-24.04":
            continue  # named with their platform below
        if job["python"].endswith("t"):
            r.note(f"test {name}", release.FT_HERE)
            continue
        root = None
        m = re.fullmatch(r"pypy3\.11-v([\d.]+)", job["python"])
        if m:
            root = next(suite for rel, suite in release.PYPY.values() if rel == m.group(1))
        elif job["python"] in ("3.14", "3.15"):
            root = "sid"
        junit = run_dir("test", name) / "temp/test/junit.xml"
        r.run(f"test {name}", hosted("release.yml", "test", name, root=root), junit=junit)
    offline = OUT / "sdist-offline"
    r.run(
        "test sdist built offline (no index, cargo --offline)",
        [str(REPO / "ci/test-artifact"), "sdist", "python3.11", str(dist), str(offline)],
        env=dict(os.environ, SDIST_OFFLINE="1"),
        junit=offline / "junit.xml",
    )
    aarch64 = dist / release.wheel_name(release.BY_NAME["manylinux-aarch64"], "3.11", version)
    r.run(
        f"test {aarch64.name}: qemu-user, Debian bookworm's arm64 CPython 3.11 (make test-aarch64's subset)",
        [str(REPO / "ci/platform-aarch64"), "test"],
        env=dict(os.environ, PLATFORM_WHEEL=str(aarch64)),
        junit=REPO / "target/platforms/aarch64/junit.xml",
    )
    musl = dist / release.wheel_name(release.BY_NAME["musllinux-x86_64"], "3.11", version)
    r.run(
        f"test {musl.name}: a musl CPython 3.11 (make test-musl, the whole suite)",
        [str(REPO / "ci/platform-musl"), "test"],
        env=dict(os.environ, PLATFORM_WHEEL=str(musl)),
        junit=REPO / "target/platforms/musl/junit.xml",
    )
    # The wheels of CPUs no runner has: release.yml's test-emulated command for CPython 3.11
    # (ci/platform-linux ARCH test, Debian bookworm's CPython of that CPU in a sysroot).
    for job in release.test_matrix("tests-emulated", release.test_jobs()):
        if job["interpreter"] != "3.11" or job["platform"].startswith("musllinux"):
            continue  # named below
        arch = job["arch"]
        r.run(
            f"test {job['name']}: Debian bookworm's {arch} CPython 3.11 (make test-{arch})",
            [
                str(REPO / "ci/test-emulated"),
                job["platform"],
                arch,
                "3.11",
                str(dist),
                str(OUT / f"emulated-{arch}"),
            ],
            junit=REPO / f"target/platforms/{arch}/junit.xml",
        )
    for name in (
        "manylinux-aarch64",
        "musllinux-x86_64",
        "musllinux-aarch64",
        *release.EMULATED_ARCH,
    ):
        for interpreter in release.BY_NAME[name].interpreters:
            if interpreter != "3.11" or name == "musllinux-aarch64":
                file = release.wheel_name(release.BY_NAME[name], interpreter, version)
                where = (
                    "in CPython's Debian image of its CPU, under qemu-user"
                    if name in release.EMULATED_ARCH
                    else "on the arm64 runner"
                    if name == "manylinux-aarch64"
                    else "in CPython's Alpine image"
                )
                r.note(f"test {file}", f"no such interpreter here: release.yml tests it ({where})")

    # 4. ci.yml's Linux x86_64 jobs
    if os.environ.get("REHEARSAL_CI", "1") == "1":
        r.run("ci.yml lint", hosted("ci.yml", "lint", None))
        r.run(
            "ci.yml rust (ubuntu-24.04)",
            hosted("ci.yml", "rust", None) + ["--entry", "os=ubuntu-24.04"],
        )
        for python in (
            "3.9",
            "3.10",
            "3.11",
            "3.12",
            "3.13",
            "3.14",
            "3.15",
            *(f"pypy3.11-v{v[0]}" for v in release.PYPY.values()),
        ):
            root = "sid" if python in ("3.14", "3.15") else None
            m = re.fullmatch(r"pypy3\.11-v([\d.]+)", python)
            if m:
                root = next(suite for rel, suite in release.PYPY.values() if rel == m.group(1))
            cmd = hosted("ci.yml", "pytest", None, root=root) + [
                "--entry",
                "os=ubuntu-24.04",
                "--entry",
                f"python={python}",
            ]
            junit = (
                STATE
                / "runs"
                / slug(f"pytest (os=ubuntu-24.04, python={python})")
                / "temp/suite/junit.xml"
            )
            r.run(f"ci.yml pytest {python} (ubuntu-24.04)", cmd, junit=junit)

    report(r, version, dist, time.monotonic() - started)
    return 0 if r.ok else 1


def report(r: Rehearsal, version: str, dist: Path, seconds: float) -> None:
    built = sorted(p.name for p in dist.iterdir())
    want = release.expected(release.ALL_NAMES, version)
    lines = [
        f"# Release rehearsal of uuidx {version}",
        "",
        f"At commit `{subprocess.run(['git', 'rev-parse', '--short=12', 'HEAD'], cwd=REPO, capture_output=True, text=True).stdout.strip()}`"
        + (" (the working tree, REHEARSAL_DIRTY=1)" if source() == REPO else "")
        + f", {time.strftime('%Y-%m-%d')}, in {seconds / 60:.0f} min.",
        "",
        f"Files: {len(want)} in the release; {len(built)} built here, {len(want) - len(built)} named (not buildable here).",
        "",
        "| step | result | passed | failed | skipped | time | note |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for s in r.steps:
        p, f, k = s.counts if s.counts else ("", "", "")
        lines.append(f"| {s.name} | {s.result} | {p} | {f} | {k} | {s.seconds:.0f} s | {s.note} |")
    lines += ["", "## The release's files", ""]
    for name in want:
        lines.append(f"- `{name}`: {'built here' if name in built else 'not built here'}")
    text = "\n".join(lines) + "\n"
    (OUT / "report.md").write_text(text, encoding="utf-8")
    (OUT / "steps.json").write_text(json.dumps([s.__dict__ for s in r.steps], indent=1))
    print("\n" + text)


if __name__ == "__main__":
    sys.exit(main())

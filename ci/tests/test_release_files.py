"""What the release publishes (ci/release.py): the file names, the set check, the version gate,
the build and test matrices release.yml takes from it, and how each wheel's testing is said."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

CI = Path(__file__).resolve().parents[1]
REPO = CI.parent
sys.path.insert(0, str(CI))

import platform_status  # noqa: E402
import release  # noqa: E402

VERSION = release.crate_version()


def test_every_wheel_of_the_release_has_a_build_job_and_a_test_job() -> None:
    """A file the release publishes without a job that tests it on its own platform and
    interpreter is a file nobody ran (the aarch64, musllinux, macOS and Windows wheels had
    none)."""
    wheels = {n for n in release.expected(release.ALL_NAMES, VERSION) if n.endswith(".whl")}
    built, tested = set(), set()
    for job in release.build_jobs():
        if job["platform"] == "sdist":
            continue
        platform = release.BY_NAME[job["platform"]]
        built |= {release.wheel_name(platform, i, VERSION) for i in job["interpreters"].split()}
    for job in release.test_jobs():
        if job["platform"] == "sdist":
            continue
        platform = release.BY_NAME[job["platform"]]
        interpreter = job["interpreter"]
        if "arch" in job:  # under qemu-user: the runner's python runs the harness only
            assert job["python"] == release.HARNESS_PYTHON, job
        else:  # the runner's python is the interpreter under test
            m = re.fullmatch(r"pypy3\.11-v([\d.]+)", job["python"])
            abi = next(a for a, (r, _) in release.PYPY.items() if r == m.group(1)) if m else None
            assert (abi or job["python"]) == interpreter, job
        tested.add(release.wheel_name(platform, interpreter, VERSION))
        assert job["runner"] == platform.runner, job
    assert built == wheels
    assert tested == wheels
    assert {"sdist"} <= {j["platform"] for j in release.test_jobs()}


def test_each_test_job_is_in_exactly_one_of_release_yml_test_matrices() -> None:
    """release.yml runs three test jobs (on the runner's interpreter, in an Alpine container,
    under qemu-user): a test job in none of their matrices, or in two, is run never or twice;
    and each matrix is one that release.yml reads from the plan."""
    jobs = release.test_jobs()
    kinds = ("tests", "tests-musl", "tests-emulated")
    placed = [j["name"] for kind in kinds for j in release.test_matrix(kind, jobs)]
    assert sorted(placed) == sorted(j["name"] for j in jobs)
    emulated = {j["platform"] for j in release.test_matrix("tests-emulated", jobs)}
    assert emulated == set(release.EMULATED_ARCH)
    workflow = (REPO / ".github/workflows/release.yml").read_text()
    for kind in kinds:
        assert f"fromJSON(needs.plan.outputs.{kind})" in workflow, kind


def test_free_threaded_builds_never_share_a_setup_python_call() -> None:
    """The python.org installers share a layout between 3.14 and 3.14t (python/cpython#127294):
    each job installs one kind only."""
    for job in release.build_jobs():
        versions = job["setup-python"].split()
        kinds = {v.endswith("t") for v in versions if not v.startswith("pypy")}
        assert len(kinds) <= 1, job


def test_each_pypy_abi_is_built_and_tested_with_its_own_pinned_pypy() -> None:
    """A PyPy 8.0 refuses a pp73 wheel (and 7.3 a pp80 one): every PyPy job names the exact
    release of its ABI's line, and no workflow asks for a PyPy by its Python version alone
    (setup-python's "pypy3.11" follows the newest PyPy)."""
    specs = {j["setup-python"] for j in release.build_jobs() if j["platform"].startswith("pypy")}
    specs |= {j["python"] for j in release.test_jobs() if j["platform"].startswith("pypy")}
    assert specs == {f"pypy3.11-v{r}" for r, _ in release.PYPY.values()}
    for workflow in (REPO / ".github/workflows").glob("*.yml"):
        for line in workflow.read_text().splitlines():
            assert not re.search(r"pypy3\.\d+(?!-v)\b['\"]?\s*$", line), (workflow.name, line)


def fake_wheel(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("uuidx/__init__.py", "")


def test_the_set_check_names_what_is_missing_and_what_is_stray(tmp_path: Path) -> None:
    """The published set is exactly the expected names: a missing wheel and a stray file both
    fail the check, each named."""
    platform = release.BY_NAME["manylinux-x86_64"]
    stray = tmp_path / f"uuidx-{VERSION}-cp311-cp311-linux_x86_64.whl"
    fake_wheel(stray)
    proc = subprocess.run(
        [
            sys.executable,
            str(CI / "release.py"),
            "check",
            str(tmp_path),
            "--platform",
            platform.name,
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert f"{stray.name}: not expected" in proc.stderr
    for interpreter in platform.interpreters:
        assert (
            f"{release.wheel_name(platform, interpreter, VERSION)}: expected, missing"
            in proc.stderr
        )


def test_the_set_check_reads_a_wheels_tags_and_contents(tmp_path: Path) -> None:
    """A wheel with the right name and the wrong inside (no metadata, no extension, no SBOM)
    fails the check."""
    platform = release.BY_NAME["manylinux-x86_64"]
    wheel = tmp_path / release.wheel_name(platform, "3.11", VERSION)
    dist_info = f"uuidx-{VERSION}.dist-info"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr(
            f"{dist_info}/METADATA", f"Metadata-Version: 2.4\nName: uuidx\nVersion: {VERSION}\n"
        )
        zf.writestr(f"{dist_info}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\n")
        zf.writestr(f"{dist_info}/RECORD", "")
    problems = release.Problems()
    release.check_wheel(wheel, platform, "3.11", VERSION, problems)
    text = "\n".join(problems.items)
    for needle in (
        "License-Expression",
        "Root-Is-Purelib",
        "no uuidx/_core.pyi",
        "extension modules",
        "no SBOM",
        "not in RECORD",
    ):
        assert needle in text


CHANGELOG = """# Changelog

## {first}

{body}

## 0.0.9 - 2026-01-01

- old
"""


@pytest.mark.parametrize(
    ("first", "body", "tag", "error"),
    [
        ("Unreleased", "- new", None, "the Unreleased section has entries"),
        ("0.1.0 - unreleased", "- new", "v0.1.0", "has no date"),
        ("0.1.0 - 2026-12-01", "- new", "v0.2.0", "the tag is v0.2.0"),
        ("0.2.0 - 2026-12-01", "- new", None, "CHANGELOG.md's newest release is 0.2.0"),
        ("0.1.0 - 2026-12-01", "- new", "v0.1.0", None),
        ("0.1.0 - unreleased", "- new", None, None),
    ],
)
def test_the_version_gate(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, first: str, body: str, tag: str, error: str
) -> None:
    """A tag is published only when it, Cargo.toml and CHANGELOG.md's newest release agree and
    that release has its date; an Unreleased section with entries is a release not written yet."""
    (tmp_path / "CHANGELOG.md").write_text(CHANGELOG.format(first=first, body=body))
    (tmp_path / "Cargo.toml").write_text('[workspace.package]\nversion = "0.1.0"\n')
    monkeypatch.setattr(release, "REPO", tmp_path)
    if error is None:
        assert release.version_check(tag) == 0
        return
    try:
        rc = release.version_check(tag)
    except SystemExit as exc:
        assert error in str(exc)
        return
    assert rc == 1


def test_the_repository_itself_passes_the_version_gate() -> None:
    assert release.version_check(None) == 0


def test_every_wheel_says_how_it_is_tested_once() -> None:
    """docs/platforms.md and the README say how each wheel is tested from one list: every wheel
    of the release is in exactly one row of it, and both tables are that list's."""
    rows = [(t.platform, i) for t in release.TESTING for i in t.interpreters]
    assert len(rows) == len(set(rows))
    wheels = {(p.name, i) for p in release.PLATFORMS for i in p.interpreters}
    assert set(rows) == wheels
    statuses = {t.status for t in release.TESTING}
    assert statuses <= {release.NATIVE, release.EMULATED, release.COMPILED, release.HOSTED}
    assert platform_status.main(["--check"]) == 0


def test_no_text_calls_a_hosted_only_platform_tested_or_the_package_unpublished() -> None:
    """The README is PyPI's description: it must not say that the package is not published; and
    neither it nor the platforms page may say that the hosted runners tested anything."""
    for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = page.read_text()
        assert "has not been published" not in text, page
        assert "does not work today" not in text, page
    for path in (REPO / "README.md", REPO / "docs/platforms.md"):
        text = path.read_text()
        assert "tested only on the hosted CI" not in text
        assert "are tested on hosted" not in text


def test_the_hosted_runners_of_the_release_all_run_ci() -> None:
    """Every runner a wheel is built on also runs ci.yml's pytest jobs (macOS x86_64 was in no
    workflow)."""
    ci = (REPO / ".github/workflows/ci.yml").read_text()
    for platform in release.PLATFORMS:
        assert platform.runner in ci, platform


@pytest.mark.parametrize(
    "report",
    [
        "uuidx-0.1.0-cp311-cp311-manylinux_2_19_ppc64le.whl is consistent with\nthe following "
        'platform tag: "manylinux_2_24_ppc64le".\n',
        "uuidx-0.1.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl is\nconsistent "
        'with the following platform tag:\n"manylinux_2_24_ppc64le".\n',
    ],
)
def test_auditwheels_tag_is_read_wherever_it_wraps_its_sentence(report: str) -> None:
    """auditwheel wraps its sentence where the wheel's name ends: the ppc64le wheel's report
    broke between "with" and "the", and the check called auditwheel failed."""
    assert release.auditwheel_tag(report) == "manylinux_2_24_ppc64le"


@pytest.mark.parametrize(
    ("platform", "interpreter", "name"),
    [
        ("musllinux-x86_64", "3.9", "_core.cpython-39-x86_64-linux-gnu.so"),
        ("musllinux-x86_64", "3.10", "_core.cpython-310-x86_64-linux-gnu.so"),
        ("musllinux-x86_64", "3.11", "_core.cpython-311-x86_64-linux-musl.so"),
        ("manylinux-aarch64", "3.14t", "_core.cpython-314t-aarch64-linux-gnu.so"),
        ("pypy-manylinux-x86_64", "pp80", "_core.pypy311-pp80-x86_64-linux-gnu.so"),
        ("windows-x64", "3.15t", "_core.cp315t-win_amd64.pyd"),
        ("windows-arm64", "3.14t", "_core.cp314t-win_arm64.pyd"),
        ("manylinux-armv7l", "3.11", "_core.cpython-311-arm-linux-gnueabihf.so"),
        ("manylinux-i686", "3.12", "_core.cpython-312-i386-linux-gnu.so"),
        ("manylinux-ppc64le", "3.13", "_core.cpython-313-powerpc64le-linux-gnu.so"),
        ("manylinux-s390x", "3.9", "_core.cpython-39-s390x-linux-gnu.so"),
        ("musllinux-aarch64", "3.11", "_core.cpython-311-aarch64-linux-musl.so"),
        ("macos-arm64", "3.12", "_core.cpython-312-darwin.so"),
    ],
)
def test_the_extension_is_named_as_its_interpreter_loads_it(
    platform: str, interpreter: str, name: str
) -> None:
    """A musl CPython names its C library in the extension suffix from 3.11 on only (bpo-43112):
    the musllinux wheels of 3.9 and 3.10 carry `-linux-gnu.so`, which is what they load (the
    rehearsal's set check expected `-linux-musl` there)."""
    assert release.extension_name(release.BY_NAME[platform], interpreter) == name

"""Gates that cannot pass without testing: a skipped interpreter, a failed step, a filter that
matches nothing, a missing system package, an unbuilt module under stubtest, and the test
dependencies of a free-threaded interpreter."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

CI = Path(__file__).resolve().parents[1]
REPO = CI.parent
sys.path.insert(0, str(CI))

import matrix  # noqa: E402
import release  # noqa: E402
import requirements  # noqa: E402


def test_free_threaded_interpreters_install_only_what_has_their_wheels() -> None:
    """orjson, fastuuid, typeid-python, Polars and DuckDB publish no cp314t/cp315t wheel
    (Polars and DuckDB only abi3 ones, which a free-threaded interpreter refuses):
    requirements-dev.txt marks them gil-only, and ci/requirements.py leaves them out there.
    (`ci/requirements.py check-wheels`, in make lint, resolves the rest against PyPI.)"""
    path = REPO / "requirements-dev.txt"
    names = {
        re.split(r"[<>=;\s]", line)[0].lower() for line in requirements.install_lines(path, True)
    }
    gil_only = {"orjson", "fastuuid", "typeid-python", "polars", "duckdb"}
    assert gil_only.isdisjoint(names)
    assert {"pytest", "hypothesis", "pyarrow", "pandas", "numpy", "uuid-utils"} <= names
    everything = {
        re.split(r"[<>=;\s]", line)[0].lower() for line in requirements.install_lines(path, False)
    }
    assert everything - names == gil_only


def test_a_skipped_interpreter_fails_the_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    """make test-wheels and make test-matrix counted "skipped" (not provisioned) as passed."""
    row = matrix.Row("3.15", "-", "skipped", "no python3.15")
    monkeypatch.delenv("UUIDX_ALLOW_SKIP", raising=False)
    assert not row.ok
    monkeypatch.setenv("UUIDX_ALLOW_SKIP", "1")
    assert row.ok
    assert matrix.Row("3.11", "x", "passed").ok


STEPS = """
set -euo pipefail
. {steps}
step() {{ false; echo "step went on" >&2; touch "$1/stamp"; }}
{call}
echo "script went on" >&2
"""


@pytest.mark.parametrize(
    ("call", "stops", "script_rc"),
    [('timed failing step "$1"', True, 1), ('timed_keep failing step "$1"', True, 0)],
)
def test_a_failed_step_stops_and_writes_no_stamp(
    tmp_path: Path, call: str, stops: bool, script_rc: int
) -> None:
    """A step of the platform scripts stops at its first failing command, so that it never
    writes its cache stamp; `timed` stops the script, `timed_keep` records the failure and goes
    on. (Their `timed` ran each step left of `||`, where bash ignores set -e.)"""
    script = tmp_path / "script"
    script.write_text(STEPS.format(steps=CI / "steps.sh", call=call))
    proc = subprocess.run(["bash", str(script), str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == script_rc, proc.stderr
    assert "step went on" not in proc.stderr
    assert not (tmp_path / "stamp").exists()
    assert ("script went on" in proc.stderr) == (script_rc == 0)


PLATFORM_SCRIPTS = [
    "platform-aarch64",
    "platform-linux",
    "platform-musl",
    "platform-pypy",
    "platform-windows",
]


#: The steps the platform scripts share, sourced after ci/steps.sh by those that use them.
PLATFORM_LIBRARIES = {"platform-linux.sh": ["platform-aarch64", "platform-linux"]}


@pytest.mark.parametrize("name", PLATFORM_SCRIPTS + list(PLATFORM_LIBRARIES))
def test_platform_scripts_run_their_steps_where_set_e_holds(name: str) -> None:
    """Each platform script uses ci/steps.sh, and never calls a step as a condition or beside
    `&&`/`||`/`!`, where bash ignores set -e inside the step."""
    text = (CI / name).read_text()
    for script in PLATFORM_LIBRARIES.get(name, [name]):
        source = (CI / script).read_text()
        assert ". ci/steps.sh" in source, script
        if script != name:  # the library's steps call ci/steps.sh's `timed`: sourced first
            assert source.index(". ci/steps.sh") < source.index(f". ci/{name}"), script
    assert not re.search(r"^\s*timed\(\)", text, re.M)
    for line in text.splitlines():
        code = line.split(" #", 1)[0]
        if re.search(r"\btimed(_keep)?\b", code) and not code.strip().startswith("#"):
            assert not re.search(r"(\|\||&&|^\s*(if|while|until|!)\s)", code), (name, line)


def run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, **kwargs)  # type: ignore[call-overload, no-any-return]


def test_a_cargo_filter_that_runs_no_test_fails() -> None:
    """make test-loom and make test-miri filter cargo test by name: a filter that matches no
    test any more ran "0 passed" and passed."""
    zero = run(
        [
            str(CI / "cargo-ran"),
            "sh",
            "-c",
            "echo 'test result: ok. 0 passed; 0 failed; 3 filtered out'",
        ]
    )
    assert zero.returncode == 1
    assert "no test ran" in zero.stderr
    some = run(
        [
            str(CI / "cargo-ran"),
            "sh",
            "-c",
            "echo 'test result: ok. 2 passed; 0 failed'; echo 'test result: ok. 1 passed; 0 failed'",
        ]
    )
    assert some.returncode == 0
    assert "3 tests passed" in some.stdout
    failed = run([str(CI / "cargo-ran"), "sh", "-c", "exit 101"])
    assert failed.returncode == 101


def test_a_test_list_line_that_matches_no_file_fails(tmp_path: Path) -> None:
    """make test-asan's list dropped a glob that matched nothing."""
    listing = tmp_path / "tests.txt"
    listing.write_text(
        "tests/ffi/test_exact*.py\ntests/no_such_test_*.py  # gone\n--deselect=tests/gone.py::t\n-x\n"
    )
    proc = run([str(CI / "expand-tests"), str(listing)])
    assert proc.returncode == 1
    assert "tests/no_such_test_*.py" in proc.stderr
    assert "--deselect=tests/gone.py::t" in proc.stderr
    assert proc.stdout.split() == ["tests/ffi/test_exact.py", "-x"]
    assert run([str(CI / "expand-tests"), str(CI / "asan-tests.txt")]).returncode == 0


@pytest.mark.parametrize("group", ["java", "chromium"])
def test_a_missing_system_package_fails_make_test(tmp_path: Path, group: str) -> None:
    """Without root, make test skipped its PostgreSQL, libfaketime, Spark and Chromium tests and
    passed: now the target fails, unless UUIDX_ALLOW_SKIP=1 lets those tests skip."""
    (tmp_path / "ci").mkdir()
    shutil.copy(CI / "require-system", tmp_path / "ci/require-system")
    (tmp_path / "ci/system-packages").write_text("#!/bin/sh\necho 'not root' >&2\nexit 1\n")
    (tmp_path / "ci/system-packages").chmod(0o755)
    env = {"PATH": "/nonexistent"}
    bash = shutil.which("bash")
    assert bash is not None
    cmd = [bash, str(tmp_path / "ci/require-system"), group]
    failed = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert failed.returncode == 1
    assert "UUIDX_ALLOW_SKIP=1" in failed.stderr
    allowed = subprocess.run(
        cmd, capture_output=True, text=True, env={**env, "UUIDX_ALLOW_SKIP": "1"}
    )
    assert (allowed.returncode, allowed.stdout) == (0, "0\n")


def test_stubtest_refuses_a_module_that_does_not_import(tmp_path: Path) -> None:
    """stubtest reports "Success" for a private module it cannot import: the hosted lint job,
    which built nothing, checked nothing."""
    venv.create(tmp_path / "venv", with_pip=False)
    proc = run([str(CI / "stubtest"), str(tmp_path / "venv/bin/python")])
    assert proc.returncode == 1
    assert "does not import" in proc.stderr


def test_make_lint_builds_uuidx_before_stubtest() -> None:
    dry = run(["make", "-n", "lint"], env={**os.environ, "MAKEFLAGS": ""})
    assert dry.returncode == 0, dry.stderr
    text = dry.stdout
    assert "maturin develop" in text
    assert text.index("maturin develop") < text.index("ci/stubtest")


@pytest.mark.parametrize(
    ("group", "pattern"),
    [
        ("faketime", "/usr/lib/*/faketime/libfaketime.so.1"),
        ("postgres", "/usr/lib/postgresql/*/bin/initdb"),
    ],
)
def test_a_present_system_package_is_found(group: str, pattern: str) -> None:
    """The check of a package that is there says so (a file list where one path was missing
    once made `ls` fail, and a present libfaketime read as absent)."""
    import glob

    if not glob.glob(pattern):
        pytest.skip(f"no {pattern} on this machine")
    proc = run([str(CI / "require-system"), group], env={"PATH": "/usr/bin:/bin"})
    assert (proc.returncode, proc.stdout) == (0, "1\n"), proc.stderr


def test_every_ci_turn_is_a_make_target_or_a_pypy_wheel() -> None:
    """.ci/run runs its turn as ``make test-<turn>``, or ``make test-pypy PYPY_ABIS=<turn>``: a
    turn with neither would fail CI only in the run whose turn it is."""
    makefile = (REPO / "Makefile").read_text()
    targets = set(re.findall(r"^(test-[\w-]+):", makefile, re.MULTILINE))
    assert len(set(release.CI_TURNS)) == len(release.CI_TURNS)
    for turn in release.CI_TURNS:
        assert f"test-{turn}" in targets or turn in release.PYPY, turn
    assert set(release.PYPY) <= set(release.CI_TURNS)

"""The workflow files: every step a call to the repository's scripts, pinned actions, no
credentials kept, the gates of publish, the workflow lint, and ci/hosted.py's reading of them."""

from __future__ import annotations

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CI = Path(__file__).resolve().parents[1]
REPO = CI.parent
WORKFLOWS = REPO / ".github/workflows"
sys.path.insert(0, str(CI))

import hosted  # noqa: E402


def load(name: str) -> dict[str, Any]:
    return hosted.load(name)


def steps() -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for path in sorted(WORKFLOWS.glob("*.yml")):
        for job_id, job in load(path.name)["jobs"].items():
            for step in job.get("steps", []):
                found.append((path.name, job_id, step))
    return found


# A step's command: a script of ci/, a make target, or the core's cargo test.
SCRIPT = re.compile(
    r"(ci/[\w.-]+|python3 ci/[\w.-]+\.py|sh ci/[\w.-]+|make [\w.-]+|cargo test -p uuidx-core)"
    r"( [^;&|]*)?( >>\"\$GITHUB_OUTPUT\")?"
)


def test_every_run_step_is_one_call_to_the_repositorys_scripts() -> None:
    """No logic lives only in YAML: each run: step is one command of the repository, which runs
    here as it runs on the runner."""
    for workflow, job, step in steps():
        if "run" not in step:
            continue
        script = step["run"].strip()
        assert "\n" not in script, (workflow, job, script)
        assert SCRIPT.fullmatch(script), (workflow, job, script)


def test_tests_run_through_scripts_that_make_their_own_virtualenv() -> None:
    """setup-python's interpreter is not a virtualenv, and ci/pytest_installed.py refuses one
    that is not: the test jobs run pytest only through ci/test-artifact or ci/suite, which make
    a virtualenv of it (the release's test jobs ran `python -m pytest -p pytest_installed` on
    the runner's interpreter, which stopped with "not in a virtualenv")."""
    testing = [(w, j, s["run"]) for w, j, s in steps() if "pytest" in s.get("run", "")]
    assert testing == []
    runners = {s["run"].split()[0] for _, _, s in steps() if "run" in s}
    assert {"ci/test-artifact", "ci/suite"} <= runners


def test_actions_are_pinned_and_checkouts_keep_no_credentials() -> None:
    for workflow, job, step in steps():
        uses = step.get("uses")
        if not uses:
            continue
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", uses), (workflow, job, uses)
        if uses.startswith("actions/checkout@"):
            assert step.get("with", {}).get("persist-credentials") is False, (workflow, job)


def test_publish_waits_for_every_gate() -> None:
    """publish needs every build and test, the version check, the set check and the whole of
    ci.yml, which release.yml calls as a job; and it publishes with attestations."""
    release = load("release.yml")
    publish = release["jobs"]["publish"]
    assert set(publish["needs"]) == {
        "version",
        "build",
        "test",
        "test-musl",
        "test-emulated",
        "expected",
        "ci",
    }
    assert release["jobs"]["ci"]["uses"] == "$/.github/workflows/ci.yml"
    assert "workflow_call" in load("ci.yml")["on"]
    assert (
        release["jobs"]["version"]["steps"][-1]["run"]
        == "python3 ci/release.py version --github-ref"
    )
    assert release["jobs"]["expected"]["steps"][-1]["run"] == "ci/release-check dist"
    publishing = publish["steps"][-1]
    assert publishing["uses"].startswith("pypa/gh-action-pypi-publish@")
    assert publishing["with"]["attestations"] is True
    assert publish["permissions"]["id-token"] == "write"


def lint_tools() -> str:
    return str(Path(sys.executable).parent)


def lint(tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tmp / "ci/lint-workflows"), lint_tools()], cwd=tmp, capture_output=True, text=True
    )


def copy_for_lint(tmp: Path) -> Path:
    (tmp / ".github").mkdir()
    shutil.copytree(WORKFLOWS, tmp / ".github/workflows")
    shutil.copy(REPO / ".github/zizmor.yml", tmp / ".github/zizmor.yml")
    (tmp / "ci").mkdir()
    shutil.copy(CI / "lint-workflows", tmp / "ci/lint-workflows")
    return tmp


needs_lint_tools = pytest.mark.skipif(
    shutil.which("actionlint", path=lint_tools()) is None,
    reason="ci/requirements-lint.txt is not installed beside this interpreter (make lint installs it)",
)


@needs_lint_tools
def test_the_workflows_pass_their_lint(tmp_path: Path) -> None:
    proc = lint(copy_for_lint(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr


@needs_lint_tools
def test_the_lint_refuses_an_action_on_a_node_version_the_runners_dropped(tmp_path: Path) -> None:
    """actions/deploy-pages v4 runs on Node 20, which the runners dropped in 2026: pinned by its
    commit, actionlint alone cannot see it; ci/lint-workflows also lints the pins' tags."""
    root = copy_for_lint(tmp_path)
    docs = root / ".github/workflows/docs.yml"
    docs.write_text(
        re.sub(
            r"actions/deploy-pages@[0-9a-f]{40} # v[\d.]+",
            "actions/deploy-pages@d6db90164ac5ed86f2b6aed7e0febac5b3c0c03e # v4.0.5",
            docs.read_text(),
        )
    )
    proc = lint(root)
    assert proc.returncode != 0
    assert "node20" in proc.stdout + proc.stderr


@needs_lint_tools
@pytest.mark.parametrize(
    ("old", "new", "finding"),
    [
        ("        with:\n          persist-credentials: false\n", "", "artipacked"),
        (
            "actions/setup-python@ece7cb06caefa5fff74198d8649806c4678c61a1 # v6.3.0",
            "actions/setup-python@v6",
            "not pinned",
        ),
    ],
)
def test_the_lint_refuses_credentials_kept_and_tags(
    tmp_path: Path, old: str, new: str, finding: str
) -> None:
    root = copy_for_lint(tmp_path)
    ci = root / ".github/workflows/ci.yml"
    ci.write_text(ci.read_text().replace(old, new, 1))
    proc = lint(root)
    assert proc.returncode != 0
    assert finding in proc.stdout + proc.stderr


def test_the_runner_expands_a_matrix_as_github_does() -> None:
    matrix = {
        "os": ["a", "b"],
        "python": ["3.9", "3.10"],
        "exclude": [{"os": "b", "python": "3.9"}],
        "include": [{"os": "a", "python": "pypy3.11"}, {"python": "3.10", "extra": "x"}],
    }
    assert hosted.expand_matrix(matrix) == [
        {"os": "a", "python": "3.9"},
        {"os": "a", "python": "3.10", "extra": "x"},
        {"os": "b", "python": "3.10", "extra": "x"},
        {"os": "a", "python": "pypy3.11"},
    ]


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("matrix.setup-python != ''", True),
        ("startsWith(github.ref, 'refs/tags/v') && 'yes' || 'no'", "no"),
        ("fromJSON('{\"include\": [1]}')", {"include": [1]}),
        ("!contains(matrix.name, 'pypy')", True),
    ],
)
def test_the_runner_evaluates_expressions(expression: str, value: Any) -> None:
    contexts = {
        "matrix": {"setup-python": "3.11", "name": "x"},
        "github": {"ref": "refs/heads/main"},
    }
    assert hosted.evaluate(expression, contexts) == value


def test_the_runner_refuses_what_it_cannot_evaluate() -> None:
    with pytest.raises(hosted.ExpressionError):
        hosted.evaluate("hashFiles('**/Cargo.lock')", {})
    with pytest.raises(hosted.ExpressionError):
        hosted.evaluate("secrets.TOKEN", {"matrix": {}})


def test_setup_python_gives_a_plain_interpreter_to_jobs_at_once(tmp_path: Path) -> None:
    """What the runner's tool cache has, and what the release's test jobs ran pytest on: not a
    virtualenv. A wheel's test job and the sdist's both ask for 3.13 and run in parallel: each
    gets a whole interpreter (the copy used to race, and one job ran a half-copied one)."""
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    if hosted.available_python(version) is None:
        pytest.skip(f"no python{version} outside a virtualenv here")
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        bindirs = list(pool.map(lambda _: hosted.plain_interpreter(version, tmp_path), range(3)))
    assert len(set(bindirs)) == 1
    out = subprocess.run(
        [str(bindirs[0] / "python"), "-c", "import sys, pip; print(sys.prefix == sys.base_prefix)"],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"},
    )
    assert out.stdout.strip() == "True", out.stderr
    assert not (tmp_path / version / "prefix.partial").exists()

"""Run jobs of this repository's GitHub workflows here, as a hosted Ubuntu x86_64 runner would.

``make release-rehearsal`` runs the Linux x86_64 jobs of ``release.yml`` and ``ci.yml`` with it,
from the workflow files themselves, so that what those files say is what runs::

    python ci/hosted.py list WORKFLOW
        Every job and matrix entry of WORKFLOW, and whether it can run here (and why not).
    python ci/hosted.py run WORKFLOW JOB [--entry KEY=VALUE ...] --state DIR [--source DIR]
        Run the matrix entries of JOB (those whose KEY=VALUE match, all by default) that can run
        here, step by step, in a fresh workspace. DIR keeps what jobs hand on: artifacts
        (upload-artifact / download-artifact), job outputs (for ``needs``), logs. The workspace
        is a copy of the commit under test (``--source``: a folder to copy instead, without its
        build products, inside a Debian root where there is no .git). HOSTED_CARGO_TARGET_DIR:
        a cargo target folder the jobs share, as a cache would (make release-rehearsal).

What the runner does is what GitHub documents for its hosted runners:

- ``run:`` steps run with ``bash -e {0}``, or ``bash --noprofile --norc -eo pipefail {0}`` under
  ``shell: bash``; GITHUB_WORKSPACE, RUNNER_TEMP, RUNNER_OS, CI, GITHUB_REF... are set, and
  GITHUB_OUTPUT, GITHUB_ENV and GITHUB_PATH are read back after each step;
- ``${{ }}`` expressions: contexts ``matrix``, ``env``, ``steps``, ``needs``, ``github``,
  ``runner``; literals; ``==``, ``!=``, ``&&``, ``||``, ``!``; ``fromJSON``, ``startsWith``,
  ``contains``; an expression it cannot read is an error, never a guess;
- the actions it knows: ``actions/checkout`` (the copy above), ``actions/setup-python`` (a
  *plain* interpreter, not a virtualenv, as the runner's tool cache has: a copy of pyenv's build
  of that version, first on PATH as ``python``, ``python3`` and ``pythonX.Y``; inside a Debian
  root, Debian's), ``actions/upload-artifact`` and ``actions/download-artifact`` (DIR). A job
  that uses any other action, runs on another runner, or in a container, or needs an
  interpreter this machine lacks, is not run: ``list`` says why.
"""

from __future__ import annotations

import argparse
import fcntl
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import yaml

REPO = Path(__file__).resolve().parents[1]
RUNNER = "ubuntu-24.04"
# The environment of this machine that a job keeps: the runner image has its own equivalents.
MACHINE_ENV = (
    "TMPDIR",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "PIP_CACHE_DIR",
    "UV_CACHE_DIR",
    "SSL_CERT_FILE",
    "PIP_CERT",
    "REQUESTS_CA_BUNDLE",
    "CARGO_HTTP_CAINFO",
    "PIP_DISABLE_PIP_VERSION_CHECK",
)
# What make test-wheels asks of a test job's ci/wheel-suite: a subset where that interpreter's
# whole suite waits its turn (ci/matrix.py --whole-suite), with a tenth of the property tests'
# examples (HYPOTHESIS_PROFILE=quick), and uv (ci/tools) to make the virtualenv and install
# into it, where pip took 60 to 95 s a job for the test dependencies alone. A hosted runner
# sets none of them: its jobs use pip.
CALLER_ENV = ("WHEEL_SUITE_SUBSET", "SUBSET_TESTS", "HYPOTHESIS_PROFILE", "UV")
KNOWN_ACTIONS = (
    "actions/checkout",
    "actions/setup-python",
    "actions/upload-artifact",
    "actions/download-artifact",
)


# --- expressions ----------------------------------------------------------------------------


class ExpressionError(Exception):
    """An expression this runner cannot evaluate."""


TOKEN = re.compile(
    r"\s*(?:(?P<num>-?\d+(?:\.\d+)?)|(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||[!(),.\[\]])"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))"
)


def tokenize(text: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = TOKEN.match(text, pos)
        if not m:
            raise ExpressionError(f"cannot read {text[pos:]!r} in {text!r}")
        kind = m.lastgroup
        assert kind is not None
        tokens.append((kind, m.group(kind)))
        pos = m.end()
    return tokens


class Parser:
    """Recursive descent over GitHub's expression grammar (the part the workflows use)."""

    def __init__(self, text: str, contexts: dict[str, Any]) -> None:
        self.text, self.tokens, self.i, self.contexts = text, tokenize(text), 0, contexts

    def peek(self) -> Optional[tuple[str, str]]:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, value: Optional[str] = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value):
            raise ExpressionError(f"expected {value or 'more'} in {self.text!r}")
        self.i += 1
        return tok

    def parse(self) -> Any:
        value = self.or_()
        if self.peek() is not None:
            raise ExpressionError(f"unexpected {self.peek()} in {self.text!r}")
        return value

    def or_(self) -> Any:
        left = self.and_()
        while self.peek() == ("op", "||"):
            self.take()
            right = self.and_()
            left = left if truthy(left) else right
        return left

    def and_(self) -> Any:
        left = self.cmp()
        while self.peek() == ("op", "&&"):
            self.take()
            right = self.cmp()
            left = right if truthy(left) else left
        return left

    def cmp(self) -> Any:
        left = self.unary()
        while self.peek() in (("op", "=="), ("op", "!=")):
            op = self.take()[1]
            right = self.unary()
            same = loose(left) == loose(right)
            left = same if op == "==" else not same
        return left

    def unary(self) -> Any:
        if self.peek() == ("op", "!"):
            self.take()
            return not truthy(self.unary())
        return self.primary()

    def primary(self) -> Any:
        kind, value = self.take()
        if kind == "num":
            return float(value) if "." in value else int(value)
        if kind == "str":
            return value[1:-1].replace("''", "'")
        if kind == "op" and value == "(":
            inner = self.or_()
            self.take(")")
            return inner
        if kind != "name":
            raise ExpressionError(f"unexpected {value!r} in {self.text!r}")
        if value in ("true", "false"):
            return value == "true"
        if value == "null":
            return None
        if self.peek() == ("op", "("):
            return self.call(value)
        if value not in self.contexts:
            raise ExpressionError(f"unknown context {value!r} in {self.text!r}")
        current: Any = self.contexts[value]
        while self.peek() in (("op", "."), ("op", "[")):
            if self.take()[1] == ".":
                key = self.take()[1]
            else:
                key = self.or_()
                self.take("]")
            current = current.get(key, "") if isinstance(current, dict) else ""
        return current

    def call(self, name: str) -> Any:
        self.take("(")
        args = []
        while self.peek() != ("op", ")"):
            args.append(self.or_())
            if self.peek() == ("op", ","):
                self.take()
        self.take(")")
        if name == "fromJSON":
            return json.loads(args[0])
        if name == "toJSON":
            return json.dumps(args[0])
        if name == "startsWith":
            return str(args[0]).lower().startswith(str(args[1]).lower())
        if name == "contains":
            hay = args[0]
            return (
                args[1] in hay
                if isinstance(hay, list)
                else str(args[1]).lower() in str(hay).lower()
            )
        if name in ("success", "always"):
            return True
        if name in ("failure", "cancelled"):
            return False
        raise ExpressionError(f"function {name}() is not known to this runner")


def truthy(value: Any) -> bool:
    return value not in (None, False, 0, "")


def loose(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def evaluate(text: str, contexts: dict[str, Any]) -> Any:
    return Parser(text, contexts).parse()


EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def substitute(value: Any, contexts: dict[str, Any]) -> Any:
    """A YAML value with its ``${{ }}`` expressions evaluated: a string that is one whole
    expression keeps the expression's type (a matrix from fromJSON), others become strings."""
    if isinstance(value, dict):
        return {k: substitute(v, contexts) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, contexts) for v in value]
    if not isinstance(value, str):
        return value
    whole = EXPR.fullmatch(value.strip())
    if whole:
        return evaluate(whole.group(1), contexts)

    def text(m: re.Match[str]) -> str:
        result = evaluate(m.group(1), contexts)
        if isinstance(result, bool):
            return "true" if result else "false"
        return "" if result is None else str(result)

    return EXPR.sub(text, value)


def condition(value: Any, contexts: dict[str, Any]) -> bool:
    if value is None:
        return True
    if isinstance(value, bool):
        return value
    text = str(value).strip()
    m = EXPR.fullmatch(text)
    return truthy(evaluate(m.group(1) if m else text, contexts))


# --- workflows --------------------------------------------------------------------------------


@dataclass
class Entry:
    """One matrix entry of a job, and whether this machine can run it."""

    job: str
    matrix: dict[str, Any]
    runs_on: str = ""
    why_not: str = ""
    pythons: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        if not self.matrix:
            return self.job
        if "name" in self.matrix:
            return f"{self.job} ({self.matrix['name']})"
        return f"{self.job} (" + ", ".join(f"{k}={v}" for k, v in self.matrix.items()) + ")"


def load(workflow: str) -> dict[str, Any]:
    path = REPO / ".github/workflows" / workflow
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise SystemExit(f"{path}: not a workflow")
    # YAML 1.1 reads the key `on` as True.
    if True in data:
        data["on"] = data.pop(True)
    return data


def expand_matrix(matrix: Any) -> list[dict[str, Any]]:
    """GitHub's expansion: the product of the axes less ``exclude``; then each ``include`` is
    merged into every combination whose original axis values it does not contradict (it may
    overwrite what an earlier include added), or added as a combination of its own."""
    if not matrix:
        return [{}]
    if not isinstance(matrix, dict):
        raise ExpressionError(f"a matrix that is not a mapping: {matrix!r}")
    axes = {k: v for k, v in matrix.items() if k not in ("include", "exclude")}
    originals: list[dict[str, Any]] = [{}] if axes else []
    for key, values in axes.items():
        originals = [{**c, key: v} for c in originals for v in values]
    originals = [
        c
        for c in originals
        if not any(all(c.get(k) == v for k, v in ex.items()) for ex in matrix.get("exclude") or [])
    ]
    result = [dict(c) for c in originals]
    for inc in matrix.get("include") or []:
        matched = False
        for original, combo in zip(originals, result):
            if all(original[k] == v for k, v in inc.items() if k in original):
                combo.update(inc)
                matched = True
        if not matched:
            result.append(dict(inc))
    return result


def available_python(version: str) -> Optional[str]:
    """This machine's interpreter for setup-python's ``version``: pyenv's build (on the host),
    or the Debian root's (/usr/bin/pythonX.Y, /usr/bin/pypy3 of the right release)."""
    m = re.fullmatch(r"pypy(3\.\d+)-v([\d.]+)", version)
    if m:
        exe = shutil.which("pypy3")
        if exe is None:
            return None
        got = subprocess.run(
            [exe, "-c", "import sys; print('%d.%d.%d' % sys.pypy_version_info[:3])"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        return exe if got == m.group(2) else None
    if not re.fullmatch(r"3\.\d+t?", version):
        return None
    found = subprocess.run(
        [str(REPO / "ci/find-python"), f"python{version}"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return found or None


def entries(
    workflow: dict[str, Any], job_id: str, outputs: dict[str, dict[str, Any]]
) -> list[Entry]:
    """The matrix entries of a job (its ``needs`` outputs known), each marked runnable or not."""
    job = workflow["jobs"][job_id]
    contexts = base_contexts(workflow, {}, outputs, job)
    if "uses" in job:
        return [
            Entry(
                job_id,
                {},
                why_not=f"calls the reusable workflow {job['uses']}: its jobs are rehearsed from that file",
            )
        ]
    strategy = job.get("strategy", {}) or {}
    missing = [n for n in as_list(job.get("needs")) if n not in outputs]
    try:
        matrix = substitute(strategy.get("matrix"), contexts)
    except (ExpressionError, json.JSONDecodeError) as exc:
        if not missing:
            raise
        why = f"its matrix comes from the outputs of {', '.join(missing)}: run those first ({exc})"
        return [Entry(job_id, {}, why_not=why)]
    found = []
    for combo in expand_matrix(matrix):
        ctx = dict(contexts, matrix=combo)
        entry = Entry(job_id, combo)
        entry.runs_on = str(substitute(job.get("runs-on", ""), ctx))
        container = substitute(job.get("container", ""), ctx)
        if entry.runs_on != RUNNER:
            entry.why_not = f"runs on {entry.runs_on}"
        elif container:
            entry.why_not = f"runs in the container {container}"
        else:
            for step in job.get("steps", []):
                uses = step.get("uses")
                if uses and uses.split("@")[0] not in KNOWN_ACTIONS:
                    entry.why_not = f"uses {uses.split('@')[0]}, which only GitHub runs"
                    break
                if (
                    uses
                    and uses.startswith("actions/setup-python")
                    and condition(step.get("if"), ctx)
                ):
                    wanted = str(substitute(step.get("with", {}).get("python-version", ""), ctx))
                    for version in wanted.split():
                        if available_python(version) is None:
                            entry.why_not = f"needs Python {version}, which this machine lacks"
                        entry.pythons.append(version)
        found.append(entry)
    return found


def base_contexts(
    workflow: dict[str, Any],
    env: dict[str, str],
    outputs: dict[str, dict[str, Any]],
    job: dict[str, Any],
) -> dict[str, Any]:
    ref = os.environ.get("GITHUB_REF", "refs/heads/main")
    return {
        "github": {
            "ref": ref,
            "ref_name": ref.rsplit("/", 1)[-1],
            "workflow": workflow.get("name", ""),
            "event_name": "push",
            "workspace": env.get("GITHUB_WORKSPACE", ""),
        },
        "runner": {"os": "Linux", "arch": "X64", "temp": env.get("RUNNER_TEMP", "")},
        "env": {**(workflow.get("env") or {}), **(job.get("env") or {})},
        "needs": {n: {"outputs": outputs.get(n, {})} for n in as_list(job.get("needs"))},
        "steps": {},
        "matrix": {},
    }


def as_list(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


# --- running ----------------------------------------------------------------------------------


def plain_interpreter(version: str, toolcache: Path) -> Path:
    """A folder with ``python``, ``python3``, ``pythonX.Y`` and ``pip`` of a plain interpreter of
    ``version``: on the host a copy of pyenv's build (what setup-python's tool cache holds: no
    virtualenv, writable by pip), made once; in a Debian root, Debian's own.

    Jobs run in parallel and several use one version (a wheel's test job and the sdist's), so the
    folder is made under an exclusive lock of its own, and the copy is renamed into place whole."""
    exe = available_python(version)
    if exe is None:
        raise SystemExit(f"no Python {version} here")
    (toolcache / version).mkdir(parents=True, exist_ok=True)
    with open(toolcache / version / ".lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        bindir = make_plain_interpreter(version, Path(exe).resolve(), toolcache / version)
        check = subprocess.run(
            [str(bindir / "python"), "-c", "import sys; print(sys.prefix == sys.base_prefix)"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    if check != "True":
        raise SystemExit(f"{bindir / 'python'} is a virtualenv's interpreter, not a plain one")
    return bindir


def make_plain_interpreter(version: str, real: Path, folder: Path) -> Path:
    """``plain_interpreter``'s folder, made in ``folder`` by its caller, which holds the lock."""
    prefix = real.parents[1]
    if str(prefix).startswith(str(Path.home() / ".pyenv")) or "pyenv" in str(prefix):
        copy = folder / "prefix"
        if not copy.is_dir():
            partial = folder / "prefix.partial"
            shutil.rmtree(partial, ignore_errors=True)
            shutil.copytree(prefix, partial, symlinks=True)
            partial.rename(copy)
        real = copy / "bin" / real.name
    bindir = folder / "bin"
    bindir.mkdir(exist_ok=True)
    short = version.split("-")[0].replace("pypy", "")
    names = ["python", "python3", f"python{short}"] + (
        ["pypy3"] if version.startswith("pypy") else []
    )
    for name in names:
        link = bindir / name
        if link.is_symlink() and link.readlink() == real:
            continue
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(real)
    return bindir


def read_pairs(path: Path) -> dict[str, str]:
    """GITHUB_OUTPUT / GITHUB_ENV: ``name=value`` lines and ``name<<EOF`` blocks."""
    pairs: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body = []
            i += 1
            while i < len(lines) and lines[i] != delimiter:
                body.append(lines[i])
                i += 1
            pairs[name] = "\n".join(body)
        elif "=" in line:
            name, value = line.split("=", 1)
            pairs[name] = value
        i += 1
    return pairs


def copy_source(source: Optional[Path], workspace: Path) -> None:
    """actions/checkout: the commit under test (git archive of HEAD), or a copy of ``source``."""
    workspace.mkdir(parents=True)
    if source is not None:
        # A tree of the commit: no build products, virtualenvs or caches of the source folder.
        skip = shutil.ignore_patterns(
            ".venv", "target", "dist", "site", ".git", "__pycache__", ".mypy_cache",
            ".pytest_cache", ".hypothesis", "*.so", "*.pyd",
        )  # fmt: skip
        shutil.copytree(source, workspace, dirs_exist_ok=True, ignore=skip)
        return
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "HEAD"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(workspace)], input=archive.stdout, check=True)


def run_entry(
    workflow_name: str,
    workflow: dict[str, Any],
    entry: Entry,
    state: Path,
    outputs: dict[str, dict[str, Any]],
    source: Optional[Path],
) -> tuple[bool, dict[str, Any]]:
    """Run one matrix entry; (passed, the job's outputs)."""
    job = workflow["jobs"][entry.job]
    # The workspace goes when the job ends; RUNNER_TEMP stays (a test's junit.xml, its logs),
    # under DIR/runs/<entry>/, emptied when the same entry runs again.
    slug = re.sub(r"[^\w.-]+", "_", entry.label).strip("_")
    work = state / "runs" / slug
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    workspace, temp = work / "workspace", work / "temp"
    temp.mkdir()
    files = {k: work / k.lower() for k in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH")}
    env = {
        "HOME": os.environ.get("HOME", "/root"),
        "PATH": ":".join(p for p in os.environ["PATH"].split(":") if "/.venv/" not in p),
        "LANG": "C.UTF-8",
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_REF": os.environ.get("GITHUB_REF", "refs/heads/main"),
        "GITHUB_REF_NAME": os.environ.get("GITHUB_REF", "refs/heads/main").rsplit("/", 1)[-1],
        "GITHUB_WORKFLOW": workflow.get("name", workflow_name),
        "GITHUB_JOB": entry.job,
        "RUNNER_OS": "Linux",
        "RUNNER_ARCH": "X64",
        "RUNNER_TEMP": str(temp),
    }
    # What belongs to the machine, not to the job: where its toolchains, caches and CA bundle are.
    for key in MACHINE_ENV + CALLER_ENV:
        if key in os.environ:
            env[key] = os.environ[key]
    # A cache of cargo's builds shared by the jobs of one rehearsal (what actions/cache would
    # keep between runs): the same sources and profiles, built once.
    if os.environ.get("HOSTED_CARGO_TARGET_DIR"):
        env["CARGO_TARGET_DIR"] = os.environ["HOSTED_CARGO_TARGET_DIR"]
    contexts = base_contexts(workflow, env, outputs, job)
    contexts["matrix"] = entry.matrix
    env.update({k: str(v) for k, v in substitute(contexts["env"], contexts).items()})
    defaults = (job.get("defaults") or {}).get("run") or {}
    log = work / "job.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    ok = True
    with log.open("w", encoding="utf-8") as out:

        def say(line: str) -> None:
            print(f"[{entry.label}] {line}", flush=True)
            out.write(line + "\n")
            out.flush()

        for number, step in enumerate(job.get("steps", []), 1):
            contexts["env"] = {**contexts["env"], **env}
            name = step.get("name") or step.get("uses") or step.get("run", "").splitlines()[0]
            if not condition(step.get("if"), contexts):
                say(f"step {number}: {name}: skipped by its if:")
                continue
            started = time.monotonic()
            step_env = {
                **env,
                **{k: str(v) for k, v in substitute(step.get("env") or {}, contexts).items()},
            }
            for f in files.values():
                f.write_text("")
                step_env[next(k for k, v in files.items() if v == f)] = str(f)
            uses = step.get("uses")
            with_ = substitute(step.get("with") or {}, contexts)
            if uses:
                action = uses.split("@")[0]
                say(f"step {number}: {action} {json.dumps(with_)}")
                if action == "actions/checkout":
                    copy_source(source, workspace)
                elif action == "actions/setup-python":
                    versions = str(with_.get("python-version", "")).split()
                    for version in versions:  # the last one is `python`
                        env["PATH"] = (
                            f"{plain_interpreter(version, state / 'toolcache')}:{env['PATH']}"
                        )
                elif action == "actions/upload-artifact":
                    dest = state / "artifacts" / str(with_["name"])
                    shutil.rmtree(dest, ignore_errors=True)
                    src = workspace / str(with_["path"])
                    if not any(src.iterdir()) and with_.get("if-no-files-found") == "error":
                        say("upload-artifact: no files")
                        ok = False
                        break
                    shutil.copytree(src, dest)
                elif action == "actions/download-artifact":
                    dest = workspace / str(with_.get("path", "."))
                    dest.mkdir(parents=True, exist_ok=True)
                    # One artifact by name: its files straight into path; by pattern: each in
                    # a folder of its name, unless merge-multiple (as download-artifact does).
                    name = with_.get("name")
                    pattern = str(name or with_.get("pattern") or "*")
                    found = [
                        a
                        for a in sorted((state / "artifacts").glob("*"))
                        if fnmatch.fnmatch(a.name, pattern)
                    ]
                    if name and not found:
                        say(f"download-artifact: no artifact {name}")
                        ok = False
                        break
                    for art in found:
                        target = dest if name or with_.get("merge-multiple") else dest / art.name
                        shutil.copytree(art, target, dirs_exist_ok=True)
            else:
                script = str(substitute(step["run"], contexts))
                shell = step.get("shell") or defaults.get("shell")
                cmd = (
                    ["bash", "--noprofile", "--norc", "-eo", "pipefail"]
                    if shell == "bash"
                    else ["bash", "-e"]
                )
                if shell not in (None, "bash"):
                    if shell != "sh":
                        raise SystemExit(
                            f"{entry.label}: shell {shell} is not known to this runner"
                        )
                    cmd = ["sh", "-e"]
                path = temp / f"step-{number}.sh"
                path.write_text(script + "\n", encoding="utf-8")
                cwd = workspace / str(
                    step.get("working-directory") or defaults.get("working-directory") or "."
                )
                say(f"step {number}: {name}")
                proc = subprocess.Popen(
                    [*cmd, str(path)],
                    cwd=cwd,
                    env=step_env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
                assert proc.stdout is not None
                for line in proc.stdout:
                    out.write(line)
                rc = proc.wait()
                if rc != 0:
                    say(
                        f"step {number}: {name}: FAILED (exit {rc}) after {time.monotonic() - started:.0f} s; log {log}"
                    )
                    ok = False
                    break
            step_outputs = read_pairs(files["GITHUB_OUTPUT"])
            if step.get("id"):
                contexts["steps"][step["id"]] = {"outputs": step_outputs}
            env.update(read_pairs(files["GITHUB_ENV"]))
            for extra in reversed(files["GITHUB_PATH"].read_text().split("\n")):
                if extra.strip():
                    env["PATH"] = f"{extra.strip()}:{env['PATH']}"
            say(f"step {number}: {name}: {time.monotonic() - started:.0f} s")
        job_outputs = {k: substitute(v, contexts) for k, v in (job.get("outputs") or {}).items()}
    shutil.rmtree(workspace, ignore_errors=True)
    return ok, job_outputs


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("list")
    ls.add_argument("workflow")
    ls.add_argument("--state", type=Path)
    run = sub.add_parser("run")
    run.add_argument("workflow")
    run.add_argument("job")
    run.add_argument("--entry", action="append", default=[], metavar="KEY=VALUE")
    run.add_argument("--state", type=Path, required=True)
    run.add_argument("--source", type=Path)
    args = parser.parse_args(argv)
    workflow = load(args.workflow)
    state = (args.state or Path(tempfile.mkdtemp())).resolve()
    outputs_file = state / "outputs.json"
    outputs = json.loads(outputs_file.read_text()) if outputs_file.exists() else {}
    if args.command == "list":
        for job_id in workflow["jobs"]:
            for entry in entries(workflow, job_id, outputs):
                print(
                    f"{entry.label}: {'runs here' if not entry.why_not else 'not here: ' + entry.why_not}"
                )
        return 0
    state.mkdir(parents=True, exist_ok=True)
    wanted = dict(e.split("=", 1) for e in args.entry)
    chosen = [
        e
        for e in entries(workflow, args.job, outputs)
        if all(str(e.matrix.get(k)) == v for k, v in wanted.items())
    ]
    if not chosen:
        print(
            f"hosted: {args.workflow} {args.job}: no matrix entry matches {wanted}", file=sys.stderr
        )
        return 1
    failed = []
    results: list[dict[str, Any]] = []
    for entry in chosen:
        if entry.why_not:
            print(f"hosted: {entry.label}: not run here: {entry.why_not}")
            results.append({"entry": entry.label, "result": "not here", "why": entry.why_not})
            continue
        started = time.monotonic()
        ok, job_outputs = run_entry(args.workflow, workflow, entry, state, outputs, args.source)
        seconds = time.monotonic() - started
        outputs.setdefault(args.job, {}).update(job_outputs)
        outputs_file.write_text(json.dumps(outputs))
        results.append(
            {
                "entry": entry.label,
                "result": "passed" if ok else "FAILED",
                "seconds": round(seconds),
            }
        )
        print(f"hosted: {entry.label}: {'passed' if ok else 'FAILED'} in {seconds:.0f} s")
        if not ok:
            failed.append(entry.label)
    with (state / "results.jsonl").open("a", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps({"workflow": args.workflow, **r}) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Every code block of the documentation site (``docs/**/*.md``), ``README.md`` and
``CONTRIBUTING.md``, run, with the outputs it shows checked.

Each fenced block is one test, named after its file and line, and is handled by its language:

- ``py``: run by pytest-examples; the ``#>`` comments after each ``print`` are the output it
  must print (``--update-examples`` rewrites them). Every block runs in a fresh module under
  ``uuidx.testing.deterministic(seed=0)``, so its UUIDs are the same in every run. A block can
  ask for more in its fence (attr_list's syntax, which the site's Markdown accepts):
  ``{.py needs="postgres"}`` (a throwaway server from ``tests/pg_server.py``, reached through
  libpq's ``PG*`` variables), ``{.py needs="postgres18"}`` (the same for PostgreSQL 18, which
  has ``uuidv7()``: the server of the Debian sid root of ``ci/chroot-python``, started under
  ``chroot``; ``UUIDX_REQUIRE_POSTGRES18=1`` makes its absence a failure),
  ``{.py needs="django"}`` (Django settings not yet configured: the block configures them
  itself, as a script does); ``{.py clock="real"}`` runs the block on the
  real clock and generators, for examples about the present (today's UUIDs, the rows of the
  last hour), whose outputs must then not depend on the time (print a comparison, not a UUID);
  ``{.py test="pytest"}`` runs the block's tests under pytest instead. A block that reads the
  real time (``datetime.now()``, ``time.time()``...) must be ``clock="real"``: under the fixed
  clock it would compare the present with UUIDs of 2025-01-01. Blocks that need a service or
  the real clock also run as a file of their own in a fresh interpreter, as a reader copies
  them. Every third-party module a page's blocks import must be named, before the block, by a
  ``pip install uuidx ...`` line of the page's text (its distribution, by the name pip takes),
  and every name there must be one the test environment installs from
  ``docs/requirements-examples.txt`` or the requirement files that file builds on.
- ``console``: a shell session. Each ``$ `` line runs in bash with the test interpreter first on
  ``PATH`` and the same deterministic generators (a ``sitecustomize`` module), and its output,
  standard output and error together, must be the lines shown after it (``--update-examples``
  rewrites them); ``...`` in a shown line matches any text (the random part of a UUID). Only
  ``python -m uuidx`` and ``uuidx`` commands may appear there.
- ``sh``: commands shown but not run here. ``make TARGET`` lines are checked with ``make -n``
  (the target exists and its recipe expands); any other command must be listed in
  :data:`NOT_RUN` with the reason and the place that tests it.
- ``text``: a tree of the repository; every path it names must exist.
- the code blocks (Markdown fences, ```` ```python ````) of the docstrings the API reference
  shows run too; a reST literal block (a paragraph ending in ``::``), which the site would show
  as text, fails.
- a block that includes a file (``--8<-- "path"``) must be listed in :data:`INCLUDED` with the
  test that runs that file.

Any other block fails: nothing on the site goes untested without saying so here.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pytest_examples import CodeExample, EvalExample, find_examples

import uuidx
from uuidx.testing import deterministic

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "tests" not in p.relative_to(DOCS).parts)
PAGES += [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]

#: The same fences pytest-examples finds, in any language.
FENCE = re.compile(r"(^ *```)( *)(.*?)\n(.+?)\1", re.MULTILINE | re.DOTALL)
SEED = 0
INCLUDE = re.compile(r'--8<-- "([^"]+)"\n')

#: Commands of ``sh`` blocks that are not run here (they install or build into the reader's own
#: environment), with the reason and where the same thing is tested.
NOT_RUN = {
    "pip install uuidx": "installs from PyPI, where release.yml publishes each release; its test "
    "jobs (make test-wheels runs them here) install each wheel the same way, from the release's "
    "files, into a clean virtualenv, and run the suite",
    "pip install .": "builds uuidx from source into the current environment; make test-wheels "
    "installs the sdist the same way into a clean virtualenv and runs the suite",
}

#: Files that blocks include whole (pymdownx.snippets), and the test that runs each.
INCLUDED = {
    "examples/spark_uuid5.py": "tests/columns/test_spark.py",
}


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    language: str
    prefix: str
    source: str

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks() -> list[Block]:
    found = []
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            prefix = m.group(3).strip()
            line = text[: m.start()].count("\n") + 1
            source = textwrap.dedent(m.group(4))
            # "py", "py title=...", or attr_list's "{.py needs="postgres"}"
            m_language = re.match(r"\{?\s*\.?([\w-]+)", prefix)
            language = m_language.group(1).lower() if m_language else ""
            if INCLUDE.fullmatch(source):
                language = "include"
            found.append(Block(path, line, language, prefix, source))
    return found


BLOCKS = blocks()
PYTHON = {(e.path, e.start_line): e for e in find_examples(*PAGES)}


def test_pytest_examples_sees_every_python_block() -> None:
    """The fence pattern above finds the blocks pytest-examples runs, and no other Python."""
    ours = {(b.path, b.line) for b in BLOCKS if b.language in ("py", "python")}
    included = {(b.path, b.line) for b in BLOCKS if b.language == "include"}
    assert ours == set(PYTHON) - included


def test_pages_have_blocks() -> None:
    assert len(BLOCKS) > 50, [b.id for b in BLOCKS]


# --- Python -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres() -> Iterator[dict[str, str]]:
    """A throwaway PostgreSQL server; its libpq environment variables."""
    sys.path.insert(0, str(ROOT / "tests"))
    from pg_server import PostgresServer, find_bin

    if find_bin("initdb") is None:
        if os.environ.get("UUIDX_REQUIRE_POSTGRES") == "1":
            pytest.fail("PostgreSQL server binaries not found (UUIDX_REQUIRE_POSTGRES=1)")
        pytest.skip("no PostgreSQL server binaries (make postgres installs them as root)")
    server = PostgresServer()
    server.start()
    try:
        yield {"PGHOST": str(server.root), "PGUSER": server.user, "PGDATABASE": "postgres"}
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres18() -> Iterator[dict[str, str]]:
    """A throwaway PostgreSQL 18 server (``tests/pg_server.py``); its libpq environment
    variables. Skips without one, or fails when ``UUIDX_REQUIRE_POSTGRES18=1``."""
    sys.path.insert(0, str(ROOT / "tests"))
    from pg_server import postgres18 as start

    with start() as server:
        yield {"PGHOST": server.socket_dir, "PGUSER": server.user, "PGDATABASE": "postgres"}


#: The services a block can ask for (``needs="..."``), each a session fixture of libpq's
#: environment variables.
SERVERS = ("postgres", "postgres18")


def _fresh_django_settings(request: pytest.FixtureRequest) -> None:
    """Django's settings as a new process has them, not configured, so that a block configures
    them itself (``settings.configure()``, ``django.setup()``) as a reader's script does; the
    settings of the process come back after the test."""
    from django.conf import settings
    from django.utils.functional import empty

    saved = dict(vars(settings))  # the wrapped settings and the values read through them
    settings._wrapped = empty  # what LazySettings holds before configure()

    def restore() -> None:
        vars(settings).clear()
        vars(settings).update(saved)

    request.addfinalizer(restore)


#: The fence settings a ``py`` block may have, and their values.
SETTINGS = {"needs": {*SERVERS, "django"}, "clock": {"real"}, "test": {"pytest"}}


def _settings(block: Block) -> dict[str, list[str]]:
    settings = PYTHON[(block.path, block.line)].prefix_settings()
    found = {key: [v for v in value.split(",") if v] for key, value in settings.items()}
    for key, values in found.items():
        if key == "title":  # the file name a block shows, any text
            continue
        unknown = set(values) - SETTINGS.get(key, set())
        assert not unknown, f'{block.id}: unknown {key}="{",".join(sorted(unknown))}"'
    return found


def _python_blocks() -> list[Any]:
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.language in ("py", "python")]


@pytest.mark.parametrize("block", _python_blocks())
def test_python(
    block: Block,
    eval_example: EvalExample,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    example: CodeExample = PYTHON[(block.path, block.line)]
    settings = _settings(block)
    for need in settings.get("needs", []):
        if need in SERVERS:
            for name, value in request.getfixturevalue(need).items():
                monkeypatch.setenv(name, value)
        else:
            _fresh_django_settings(request)
    eval_example.set_config(line_length=200, target_version="py39", ruff_ignore=["E501"])
    if settings.get("test") == ["pytest"]:
        eval_example.lint_ruff(example)
        _run_with_pytest(block, request.path.parent)
        return
    try:
        if eval_example.update_examples:
            eval_example.format_ruff(example)
            with _clock(settings):
                eval_example.run_print_update(example)
        else:
            eval_example.lint_ruff(example)
            with _clock(settings):
                eval_example.run_print_check(example)
    except Exception as exc:  # noqa: BLE001 - reported with the example's line
        # pytest-examples points the traceback into the Markdown file; CPython 3.11's traceback
        # module cannot format such a traceback, so report the example's own line instead.
        lines = [
            tb.tb_lineno
            for tb in _walk(exc.__traceback__)
            if tb.tb_frame.f_globals.get("__name__") == "__main__"
        ]
        where = f"{block.path.relative_to(ROOT)}:{lines[-1]}" if lines else block.id
        pytest.fail(f"{where}: the example raised {type(exc).__name__}: {exc}", pytrace=False)


def _clock(settings: dict[str, list[str]]) -> contextlib.AbstractContextManager[object]:
    """The fixed clock and seeded generators, or, for ``clock="real"``, nothing in the way."""
    if settings.get("clock") == ["real"]:
        return contextlib.nullcontext()
    return deterministic(seed=SEED)


#: Calls that read the real time: a block that makes them compares the present with its UUIDs,
#: which the fixed clock of ``deterministic()`` would put on 2025-01-01.
REAL_TIME = re.compile(r"\b(?:datetime|date)\.(?:now|today|utcnow)\(|\btime\.(?:time|time_ns)\(")


def test_real_time_blocks_run_on_the_real_clock() -> None:
    wrong = [
        b.id
        for b in BLOCKS
        if b.language in ("py", "python")
        and REAL_TIME.search(b.source)
        and _settings(b).get("clock") != ["real"]
    ]
    assert wrong == [], 'blocks that read the real time need {.py clock="real"}'
    assert REAL_TIME.search("now = datetime.now(timezone.utc)")
    assert not REAL_TIME.search("uuidx.to_datetime(u)")


def _standalone_blocks() -> list[Any]:
    return [
        pytest.param(b, id=b.id)
        for b in BLOCKS
        if b.language in ("py", "python")
        and ({"needs", "clock"} & set(_settings(b)))
        and "test" not in _settings(b)
    ]


@pytest.mark.parametrize("block", _standalone_blocks())
def test_python_standalone(block: Block, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """A block that needs a service or the real clock, copied into a file of its own and run by
    a fresh interpreter (nothing configured for it but the service's libpq variables): it runs,
    and one on the real clock prints what it shows."""
    env = dict(os.environ)
    for need in set(SERVERS) & set(_settings(block).get("needs", [])):
        env.update(request.getfixturevalue(need))
    env.pop("DJANGO_SETTINGS_MODULE", None)
    script = tmp_path / "example.py"
    script.write_text(block.source, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, (
        f"{block.id}: as a file of its own, it failed:\n{run.stderr[-3000:]}"
    )
    if _settings(block).get("clock") == ["real"]:
        shown = [m.group(1) for m in re.finditer(r"^\s*#> ?(.*)$", block.source, re.MULTILINE)]
        assert run.stdout.splitlines() == shown, f"{block.id}: as a file of its own"


# --- what a page says to install ----------------------------------------------------------------


#: ``pip install uuidx NAME...`` in the text of a page (an inline code span, outside the blocks).
NEEDS = re.compile(r"`pip install uuidx((?:\s+[A-Za-z0-9][\w.,\[\]-]*)*)`")

#: Modules whose import needs a distribution that is not theirs: Starlette's test client (which
#: FastAPI's is) imports ``httpx2``, or, deprecated, ``httpx``, only when it is imported.
IMPORT_NEEDS = {"fastapi.testclient": {"httpx2"}}

#: The requirement files whose libraries the documentation's tests install: the examples' own,
#: and those it builds on (its header says which).
REQUIREMENTS = (
    DOCS / "requirements-examples.txt",
    ROOT / "requirements-dev.txt",
    ROOT / "ci" / "requirements-spark.txt",
)
#: What ``requirements-examples.txt`` lists for the tests themselves, not for a page.
TOOLS = {"pytest-examples"}


def _canonical(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503), without extras: ``psycopg``
    for ``psycopg[binary]``."""
    return re.sub(r"[-_.]+", "-", name.split("[", 1)[0]).lower()


def _named(path: Path) -> list[tuple[int, set[str]]]:
    """``[(line, names)]`` of the ``pip install uuidx ...`` spans in a page's text."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), path.read_text(encoding="utf-8"))
    return [
        (text[: m.start()].count("\n") + 1, {_canonical(n) for n in m.group(1).split()})
        for m in NEEDS.finditer(text)
    ]


def _third_party(source: str) -> set[str]:
    """The distributions that the modules a block imports come from, uuidx and the standard
    library aside."""
    import ast
    import importlib.metadata

    owners = importlib.metadata.packages_distributions()
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            continue
        for module in modules:
            top = module.split(".")[0]
            if top == "uuidx" or top in sys.stdlib_module_names:
                continue
            assert top in owners, f"no installed distribution provides {top!r}"
            found |= {_canonical(d) for d in owners[top]}
            found |= IMPORT_NEEDS.get(module, set())
    return found


def _imported(block: Block) -> set[str]:
    if block.language == "include":
        m = INCLUDE.fullmatch(block.source)
        assert m
        return _third_party((ROOT / m.group(1)).read_text(encoding="utf-8"))
    return _third_party(block.source)


def _requirements(path: Path) -> set[str]:
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line.split("#", 1)[0])
        if m:
            names.add(_canonical(m.group(1)))
    return names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_names_what_its_blocks_import(page: Path) -> None:
    """A reader who copies a block knows what to install: the page names, in a ``pip install
    uuidx ...`` line above the block, the distribution of every third-party module it imports."""
    named = _named(page)
    missing = {}
    for block in BLOCKS:
        if block.path == page and block.language in ("py", "python", "include"):
            above = set().union(*(names for line, names in named if line < block.line))
            if lack := _imported(block) - above:
                missing[block.id] = sorted(lack)
    assert missing == {}, "blocks that import what no `pip install uuidx ...` line above names"


def test_named_libraries_are_the_ones_installed() -> None:
    """The names on the pages are the requirement files' (so the tests install what a reader is
    told to), and ``requirements-examples.txt`` lists nothing that no page names."""
    named = {n for page in PAGES for _, names in _named(page) for n in names}
    installable = set().union(*(_requirements(path) for path in REQUIREMENTS))
    assert named - installable == set(), "named on a page, in no requirement file"
    examples = _requirements(DOCS / "requirements-examples.txt") - TOOLS
    assert examples - named == set(), "in requirements-examples.txt, named on no page"
    assert _third_party("import fastapi.testclient\nimport os\nimport uuidx") >= {
        "fastapi",
        "httpx2",
    }
    assert _canonical("psycopg[binary]") == "psycopg"
    assert [
        m.group(1).split()
        for m in NEEDS.finditer("`pip install uuidx a[b] c` `pip install uuidx ...`")
    ] == [["a[b]", "c"]]


def _run_with_pytest(block: Block, tmp: Path) -> None:
    """A block that is a test module (``py test="pytest"``): its tests run in a pytest of their
    own, and must all pass."""
    folder = Path(tempfile.mkdtemp(prefix="uuidx-docs-"))
    try:
        module = folder / "test_example.py"
        module.write_text(block.source, encoding="utf-8")
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(module)],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    summary = run.stdout.strip().splitlines()[-1:] or [""]
    assert run.returncode == 0 and " passed" in summary[0] and "failed" not in summary[0], (
        f"{block.id}: the example's tests did not pass:\n{run.stdout[-3000:]}{run.stderr[-2000:]}"
    )


def _walk(tb: Any) -> Iterator[Any]:
    while tb is not None:
        yield tb
        tb = tb.tb_next


# --- the docstrings' examples --------------------------------------------------------------------


def _docstrings() -> Iterator[tuple[str, str]]:
    """``(name, docstring)`` of the modules the API reference shows and of their public objects
    (the classes' own attributes included)."""
    import uuidx.arrow
    import uuidx.layout
    import uuidx.testing
    import uuidx.typing

    for module in (uuidx, uuidx.layout, uuidx.arrow, uuidx.testing, uuidx.typing):
        yield module.__name__, module.__doc__ or ""
        for name in module.__all__:
            obj = getattr(module, name)
            if getattr(obj, "__module__", "").startswith("uuidx"):
                yield f"{module.__name__}.{name}", obj.__doc__ or ""
                for attribute, value in vars(obj).items() if isinstance(obj, type) else ():
                    if not attribute.startswith("_"):
                        yield f"{module.__name__}.{name}.{attribute}", value.__doc__ or ""


DOCSTRING_FENCE = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _code_blocks(doc: str) -> list[str]:
    """The code of each fenced ``python`` block of a docstring."""
    return DOCSTRING_FENCE.findall(inspect.cleandoc(doc))


def _rest_literal_blocks(doc: str) -> list[str]:
    """The lines outside code blocks that open a reST literal block or directive (``::`` at the
    end, ``.. note::``): the site renders docstrings as Markdown, where they are text."""
    prose = DOCSTRING_FENCE.sub("", inspect.cleandoc(doc))
    return [
        line
        for line in prose.splitlines()
        if line.rstrip().endswith("::") or line.lstrip().startswith(".. ")
    ]


DOCSTRING_BLOCKS = [
    pytest.param(code, id=f"{name}:{n}")
    for name, doc in _docstrings()
    for n, code in enumerate(_code_blocks(doc), 1)
]


def test_docstrings_have_examples() -> None:
    assert len(DOCSTRING_BLOCKS) >= 4, DOCSTRING_BLOCKS


def test_docstrings_are_markdown() -> None:
    found = {name: lines for name, doc in _docstrings() if (lines := _rest_literal_blocks(doc))}
    assert found == {}
    assert _rest_literal_blocks("Run::\n\n    f()\n") == ["Run::"]
    assert _code_blocks("Run:\n\n```python\nf()\n```\n") == ["f()\n"]


@pytest.mark.parametrize("code", DOCSTRING_BLOCKS)
def test_docstring_example(code: str) -> None:
    """The code blocks of the docstrings the API reference shows run as they are written."""
    with deterministic(seed=SEED):
        exec(compile(code, "<docstring example>", "exec"), {"__name__": "__example__"})


# --- shell sessions -----------------------------------------------------------------------------


SITECUSTOMIZE = """\
# Written by docs/tests/test_examples.py: the documentation's shell sessions run with the
# process-wide generators made reproducible, as its Python examples do.
from uuidx.testing import deterministic

# Kept in a global: the context manager, collected, would restore the real generators.
_block = deterministic(seed={seed})
_block.__enter__()
"""


def _session(source: str) -> list[tuple[str, list[str]]]:
    """``[(command, output lines)]`` of a ``console`` block."""
    steps: list[tuple[str, list[str]]] = []
    for line in source.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"output before the first command: {line!r}")
    return steps


def _uuidx_command(command: str) -> bool:
    """A pipeline of ``python -m uuidx`` (or ``uuidx``) commands, fed by ``printf``/``echo``."""
    stages = re.split(r"\s*\|\s*", command)
    uuidx_stage = ("python -m uuidx ", "uuidx ")
    return all(s.startswith((*uuidx_stage, "printf ", "echo ")) for s in stages) and any(
        s.startswith(uuidx_stage) for s in stages
    )


def _console_blocks() -> list[Any]:
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.language == "console"]


@pytest.mark.parametrize("block", _console_blocks())
def test_console(block: Block, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE.format(seed=SEED), encoding="utf-8")
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    env.pop("PYTHONWARNINGS", None)
    env["COLUMNS"] = "100"
    steps = _session(block.source)
    assert steps, f"{block.id}: a console block without a $ command"
    got: list[tuple[str, list[str]]] = []
    for command, _ in steps:
        assert _uuidx_command(command), (
            f"{block.id}: only python -m uuidx commands run in console blocks: {command!r}"
        )
        run = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        got.append((command, (run.stdout + run.stderr).splitlines()))
    # A shown line with "..." stands for any line that matches it with "..." read as any text
    # (the random part of a UUID, say): keep it where it matches.
    got = [
        (command, [_kept(shown, line) for shown, line in _pairs(out_shown, out)])
        for (command, out), (_, out_shown) in zip(got, steps)
    ]
    if got != steps:
        expected = "\n".join(f"$ {c}\n" + "\n".join(out) for c, out in steps)
        actual = "\n".join(f"$ {c}\n" + "\n".join(out) for c, out in got)
        if request.config.getoption("update_examples"):
            _rewrite(block, actual + "\n")
            return
        assert actual == expected, f"{block.id}: the session's output differs"


def _pairs(shown: list[str], out: list[str]) -> list[tuple[str, str]]:
    return [(shown[i] if i < len(shown) else "", line) for i, line in enumerate(out)]


def _kept(shown: str, line: str) -> str:
    if "..." in shown:
        pattern = ".*".join(re.escape(part) for part in shown.split("..."))
        if re.fullmatch(pattern, line):
            return shown
    return line


def _rewrite(block: Block, new_source: str) -> None:
    """Replaces a block's body in its file (``--update-examples``), found by its content: the
    line numbers of later blocks move as earlier ones are rewritten."""
    text = block.path.read_text(encoding="utf-8")
    matches = [m for m in FENCE.finditer(text) if textwrap.dedent(m.group(4)) == block.source]
    assert len(matches) == 1, f"{block.id}: cannot find the block to rewrite"
    m = matches[0]
    indent = m.group(1)[: len(m.group(1)) - 3]
    body = "".join(
        indent + line if line.strip() else line for line in new_source.splitlines(keepends=True)
    )
    block.path.write_text(text[: m.start(4)] + body + text[m.end(4) :], encoding="utf-8")


# --- commands shown, not run ----------------------------------------------------------------


def _commands(source: str) -> list[str]:
    commands = []
    for line in source.splitlines():
        command = line.split(" #", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if command:
            commands.append(command)
    return commands


def _sh_blocks() -> list[Any]:
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.language == "sh"]


@pytest.mark.parametrize("block", _sh_blocks())
def test_sh(block: Block) -> None:
    for command in _commands(block.source):
        words = shlex.split(command)
        if words[0] == "make":
            run = subprocess.run(
                ["make", "-n", *words[1:]],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            assert run.returncode == 0, f"{block.id}: make -n {' '.join(words[1:])}: {run.stderr}"
        else:
            assert command in NOT_RUN, (
                f"{block.id}: {command!r} is neither run here nor listed in NOT_RUN with a reason"
            )


def test_not_run_commands_are_all_shown() -> None:
    """No stale entries: every command NOT_RUN excuses is on a page."""
    shown = {c for b in BLOCKS if b.language == "sh" for c in _commands(b.source)}
    assert set(NOT_RUN) <= shown, set(NOT_RUN) - shown


# --- layout trees ------------------------------------------------------------------------------


def _text_blocks() -> list[Any]:
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.language == "text"]


@pytest.mark.parametrize("block", _text_blocks())
def test_layout(block: Block) -> None:
    """A ``text`` block is a tree of the repository: every path it names exists."""
    paths = [line.split()[0] for line in block.source.splitlines() if line[:1].strip()]
    assert paths, f"{block.id}: a text block that names no path"
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, f"{block.id}: no such path in the repository: {missing}"


# --- everything else ----------------------------------------------------------------------------


def _other_blocks() -> list[Any]:
    return [
        pytest.param(b, id=b.id)
        for b in BLOCKS
        if b.language not in ("py", "python", "console", "sh", "text")
    ]


@pytest.mark.parametrize("block", _other_blocks())
def test_included(block: Block) -> None:
    """Any other block must include a whole file that a named test runs."""
    m = INCLUDE.fullmatch(block.source)
    assert m, f"{block.id}: a ```{block.language} block that no test runs"
    path = m.group(1)
    assert path in INCLUDED, f"{block.id}: includes {path}, which INCLUDED does not list"
    runner = ROOT / INCLUDED[path]
    assert Path(path).name in runner.read_text(encoding="utf-8"), (
        f"{INCLUDED[path]} does not run {path}"
    )


def test_readme_is_a_front_door() -> None:
    """The README stays short: the manual is the site."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 150, f"README.md has {lines} lines"


def test_version_is_the_one_documented() -> None:
    """Sanity: the examples run against the uuidx of this tree."""
    assert Path(uuidx.__file__).resolve().is_relative_to(ROOT / "python")

"""Package metadata: ``uuidx.__version__``, ``python -m uuidx --version``, the license."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, Optional

import uuidx


def test_version_is_the_dist_version() -> None:
    # The extension reports its crate's version; maturin writes the same into the dist metadata.
    assert isinstance(uuidx.__version__, str)
    assert uuidx.__version__ == uuidx._core.__version__
    assert uuidx.__version__ == metadata.version("uuidx")


def test_cli_version() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "uuidx", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"uuidx {uuidx.__version__}\n", "")


def test_license_metadata() -> None:
    meta = metadata.metadata("uuidx")
    assert meta["License-Expression"] == "MIT OR Apache-2.0"
    assert sorted(meta.get_all("License-File") or []) == ["LICENSE-APACHE", "LICENSE-MIT"]


def run_fresh(code: str) -> str:
    """``code``'s standard output in a fresh interpreter (no module already imported)."""
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return proc.stdout.strip()


def test_import_loads_no_submodule_typing_or_datetime() -> None:
    """``import uuidx`` costs little more than ``import uuid``: the submodules, ``typing`` and
    ``datetime`` load on first use."""
    loaded = run_fresh(
        "import sys, uuidx; print(sorted(m for m in ('typing', 'datetime', 'uuidx.layout', "
        "'uuidx.arrow', 'uuidx.testing') if m in sys.modules))"
    )
    assert loaded == "[]"


def test_package_attribute_reads_can_be_specialised() -> None:
    """CPython 3.11+ does not specialise attribute reads on a module that has a module-level
    ``__getattr__``; every ``uuidx.uuid4()`` would pay for it."""
    assert "__getattr__" not in vars(uuidx)


def test_submodules_load_on_first_use() -> None:
    out = run_fresh(
        "import sys, uuidx\n"
        "from uuidx import layout\n"  # the placeholder, before any use
        "print(type(uuidx.layout.fields(uuidx.NIL)).__name__)\n"
        "print(uuidx.layout is sys.modules['uuidx.layout'], isinstance(uuidx.layout, type(sys)))\n"
        "print(layout.fields is uuidx.layout.fields, 'fields' in dir(layout))\n"
        "print(uuidx.arrow.__spec__.name, uuidx.testing.deterministic.__module__)"
    )
    assert out.splitlines() == ["NilFields", "True True", "True True", "uuidx.arrow uuidx.testing"]
    assert {"arrow", "layout"} <= set(uuidx.__all__)


def _stub_docstrings() -> dict[str, Optional[str]]:
    """Every public function, class, method and property of the shipped ``_core.pyi``, by
    dotted name, with its docstring (``None`` when it has none)."""
    stub = Path(uuidx._core.__file__).with_name("_core.pyi")
    found: dict[str, Optional[str]] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                found[prefix + node.name] = ast.get_docstring(node)
                if isinstance(node, ast.ClassDef):
                    visit(node.body, f"{prefix}{node.name}.")

    visit(ast.parse(stub.read_text(encoding="utf-8")).body, "")
    return found


def test_the_stubs_carry_the_extension_docstrings() -> None:
    """What an editor shows from ``_core.pyi`` is what ``help()`` shows at runtime: every public
    name of the extension has a docstring in the stub, the compiled one's words."""
    missing, differ = [], []
    for name, doc in _stub_docstrings().items():
        obj: Any = uuidx._core
        for part in name.split("."):
            obj = getattr(obj, part)
        runtime = inspect.getdoc(obj)
        if doc is None:
            missing.append(name)
        elif runtime is not None and doc.split() != runtime.split():  # wrapped differently
            differ.append(name)
    assert missing == [], f"no docstring in _core.pyi: {missing}"
    assert differ == [], f"docstring in _core.pyi differs from the extension's: {differ}"

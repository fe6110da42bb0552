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
        "'uuidx.arrow', 'uuidx.testing', 'uuidx.typing') if m in sys.modules))"
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


def _private_names(annotation: Optional[ast.AST]) -> list[str]:
    """The private names a signature shows for an annotation or a base class: ``_Form``, but
    not ``_dt.datetime`` (shown as ``datetime``)."""
    if annotation is None:
        return []
    if isinstance(annotation, ast.Attribute):
        return [annotation.attr] if annotation.attr.startswith("_") else []
    if isinstance(annotation, ast.Name):
        private = annotation.id.startswith("_") and not annotation.id.startswith("__")
        return [annotation.id] if private else []
    return [name for child in ast.iter_child_nodes(annotation) for name in _private_names(child)]


def _signature_names(body: list[ast.stmt], prefix: str) -> dict[str, list[str]]:
    """``{name: private names}`` of the public functions, methods, classes, attributes and type
    aliases of a module's (or a class's) body: the types their signatures, bases, annotations
    and alias values name."""
    found: dict[str, list[str]] = {}
    for node in body:
        if isinstance(node, ast.If):  # TYPE_CHECKING blocks
            found.update(_signature_names(node.body + node.orelse, prefix))
            continue
        target = getattr(node, "target", None) or (getattr(node, "targets", None) or [None])[0]
        name = str(getattr(node, "name", None) or getattr(target, "id", ""))
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            annotations = [a.annotation for a in every if a is not None] + [node.returns]
            found[prefix + name] = [n for a in annotations for n in _private_names(a)]
        elif isinstance(node, ast.ClassDef):
            found[prefix + name] = [n for base in node.bases for n in _private_names(base)]
            found.update(_signature_names(node.body, f"{prefix}{name}."))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and name:
            # An alias's value is shown (Union[...], Literal[...]); a constant's is not.
            alias = isinstance(node.value, (ast.Subscript, ast.Name, ast.Attribute))
            names = _private_names(node.value) if alias else []
            if isinstance(node, ast.AnnAssign):
                names += _private_names(node.annotation)
            found[prefix + name] = names
    return found


def test_signatures_name_no_private_type() -> None:
    """The API reference and editors show signatures as written: a private alias there
    (``_Form``, ``_Int``) is a name that nothing documents. The public types of the
    signatures live in ``uuidx.typing`` (or in the module that returns them)."""
    import uuidx.arrow
    import uuidx.layout
    import uuidx.testing
    import uuidx.typing

    sources = [Path(uuidx._core.__file__).with_name("_core.pyi")]
    sources += [
        Path(str(module.__file__))
        for module in (uuidx, uuidx.layout, uuidx.arrow, uuidx.testing, uuidx.typing)
    ]
    found = {}
    for path in sources:
        signatures = _signature_names(ast.parse(path.read_text(encoding="utf-8")).body, "")
        assert len(signatures) >= 3, path
        found.update({f"{path.name}:{k}": v for k, v in signatures.items() if v})
    assert found == {}
    example = (
        "def f(a: Optional[_Int], b: _dt.datetime) -> _Form: ...\n"
        "class C(_Base): ...\n"
        "A = Union[int, _Name]\n"
        "X: int = _x or 1\n"
    )
    assert _signature_names(ast.parse(example).body, "") == {
        "f": ["_Int", "_Form"],
        "C": ["_Base"],
        "A": ["_Name"],
        "X": [],
    }

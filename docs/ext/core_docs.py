"""A griffe extension for the documentation site: a facade function that reuses the docstring
of the ``uuidx._core`` function it wraps (``uuid4.__doc__ = _core.arrow_uuid4.__doc__`` after
its definition, so that the text is written once, in Rust) shows that docstring, read from the
stub, as ``help()`` shows it at run time.

Static analysis does not run the assignment; this extension finds it in the module's source.
"""

from __future__ import annotations

import ast
from typing import Any

import griffe


class CoreDocs(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.path != "uuidx":
            return
        core = pkg["_core"]
        for module in _modules(pkg):
            if module.filepath is None or module.filepath.suffix != ".py":  # type: ignore[union-attr]
                continue
            source = module.filepath.read_text(encoding="utf-8")  # type: ignore[union-attr]
            for name, wrapped in _copies(ast.parse(source)):
                doc = core[wrapped].docstring
                if doc is None:
                    raise LookupError(f"{module.path}.{name}: _core.{wrapped} has no docstring")
                obj = module[name]
                obj.docstring = griffe.Docstring(
                    doc.value,
                    lineno=doc.lineno,
                    endlineno=doc.endlineno,
                    parent=obj,
                    parser=doc.parser,
                    parser_options=doc.parser_options,
                )


def _modules(module: griffe.Module) -> list[griffe.Module]:
    found = [module]
    for member in module.modules.values():
        if not member.is_alias:
            found += _modules(member)
    return found


def _copies(tree: ast.Module) -> list[tuple[str, str]]:
    """``(name, wrapped)`` for each ``name.__doc__ = _core.wrapped.__doc__`` of the module."""
    found = []
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if (
            isinstance(target, ast.Attribute)
            and target.attr == "__doc__"
            and isinstance(target.value, ast.Name)
            and isinstance(value, ast.Attribute)
            and value.attr == "__doc__"
            and isinstance(value.value, ast.Attribute)
            and isinstance(value.value.value, ast.Name)
            and value.value.value.id == "_core"
        ):
            found.append((target.value.id, value.value.attr))
    return found

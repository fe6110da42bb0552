"""A griffe extension for the documentation site: Sphinx cross-reference roles in docstrings
(:func:`parse`, :class:`UUIDArray`, :mod:`uuidx.layout`, ...) become links to the API
reference, so that the docstrings, also read by ``help()`` and IDEs, need no Markdown.

A name is looked up as the docstring's module sees it (``uuidx._core`` counting as ``uuidx``,
whose public names it defines), then under ``uuidx``; a name found neither way stays code.
mkdocs (``--strict``) then fails on any link to an object the reference does not show.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|mod|data|meth|attr|exc|obj):`~?([\w.]+)`")


class SphinxRoles(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = ROLE.sub(
                    lambda m, obj=obj: _link(pkg, obj, m.group(1)), obj.docstring.value
                )


def _walk(obj: griffe.Object) -> list[griffe.Object]:
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found += _walk(member)  # type: ignore[arg-type]
    return found


def _module(obj: griffe.Object) -> str:
    while not obj.is_module:
        obj = obj.parent  # type: ignore[assignment]
    return "uuidx" if obj.path == "uuidx._core" else obj.path


def _link(pkg: griffe.Module, obj: griffe.Object, name: str) -> str:
    if "." in name:
        candidates = [name, f"uuidx.{name}"]
    else:
        candidates = [f"{_module(obj)}.{name}", f"uuidx.{name}"]
    for path in candidates:
        if path == "uuidx" or path.startswith("uuidx."):
            try:
                pkg[path.removeprefix("uuidx").lstrip(".")] if path != "uuidx" else pkg
            except (KeyError, ValueError):
                continue
            return f"[`{name}`][{path}]"
    return f"`{name}`"

"""The core's catalogues as ``uuidx._core`` exports them (forms, name-based algorithms, v7
methods, layouts) and its form detector: what the facade and the command line take their
names from, checked against what the functions accept, the stub's types, and the named tuples
of ``uuidx.layout``."""

from __future__ import annotations

import ast
import inspect
import pickle
import re
import typing
import uuid
from pathlib import Path
from typing import Any, Optional

import pytest

import uuidx
from uuidx import _core, layout

STUB = Path(_core.__file__).with_name("_core.pyi")
LAYOUT_SOURCE = Path(layout.__file__)
CATALOGUES = ("_forms", "_algorithms", "_v7_methods", "_layouts", "_detect")
V7 = uuid.UUID("01890a5d-ac96-774b-bcce-b302099a8057")


def test_the_stub_carries_the_catalogues_docstrings() -> None:
    stub = {
        node.name: ast.get_docstring(node)
        for node in ast.parse(STUB.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef)
    }
    for name in CATALOGUES:
        doc, runtime = stub[name], inspect.getdoc(getattr(_core, name))
        assert doc is not None and runtime is not None, name
        assert doc.split() == runtime.split(), name


def test_forms_are_what_encode_and_decode_take() -> None:
    forms = _core._forms()
    names = tuple(name for name, *_ in forms)
    assert names == typing.get_args(uuidx.typing.Form)
    for name, length, alphabet, case, sorts in forms:
        text = uuidx.encode(V7, name)  # type: ignore[arg-type]
        assert len(text) == length and uuidx.decode(text, name) == V7  # type: ignore[arg-type]
        assert case in ("lower", "upper", "sensitive")
        assert sorts == (list(alphabet) == sorted(alphabet)), name
    assert [f[0] for f in forms if f[4]] == [n for n in names if n != "base64url"]


def test_algorithms_and_methods_are_what_the_functions_take() -> None:
    algorithms = _core._algorithms()
    assert algorithms == typing.get_args(uuidx.typing.Algorithm)
    for name in algorithms:
        uuidx.uuid8_name(uuidx.NAMESPACE_DNS, "x", name)  # type: ignore[arg-type]
    methods = _core._v7_methods()
    assert methods == typing.get_args(uuidx.typing.V7Method)
    assert layout.V7Method is uuidx.typing.V7Method
    assert uuidx.V7Generator().method == methods[0]
    for name in methods:
        assert uuidx.V7Generator(method=name).method == name  # type: ignore[arg-type]


def _static_classes() -> dict[str, tuple[Optional[str], tuple[str, ...]]]:
    """The named tuples ``layout.py`` writes out for type checkers: docstring and fields."""
    tree = ast.parse(LAYOUT_SOURCE.read_text(encoding="utf-8"))
    (block,) = [
        node
        for node in tree.body
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    ]
    return {
        node.name: (
            ast.get_docstring(node),
            tuple(
                s.target.id  # type: ignore[union-attr]
                for s in node.body
                if isinstance(s, ast.AnnAssign)
            ),
        )
        for node in block.body
        if isinstance(node, ast.ClassDef)
    }


def test_layout_named_tuples_are_the_core_tables() -> None:
    static = _static_classes()
    layouts = _core._layouts()
    assert [name for name, *_ in layouts] == [
        "v1",
        "v2",
        "v3",
        "v4",
        "v5",
        "v6",
        "v7",
        "v8",
        "nil",
        "max",
    ]
    assert len(static) == len(layouts)
    for name, version, title, fields in layouts:
        cls: Any = getattr(layout, f"{name.capitalize()}Fields")
        names = tuple(field for field, _, _ in fields)
        assert cls._fields == names and cls.__doc__ == title and cls.__module__ == "uuidx.layout"
        assert static[cls.__name__] == (title, names), cls.__name__
        assert sum(bits for _, bits, _ in fields) in (0, 128)
        if version is None:
            continue
        bits_of_all_kinds = 0x0123456789ABCDEF_FEDCBA9876543210 & ~(0xF << 76) & ~(0x3 << 62)
        value = uuid.UUID(int=bits_of_all_kinds | version << 76 | 0x2 << 62)
        got = layout.fields(value)
        assert type(got) is cls
        for (field, bits, offset), got_value in zip(fields, got):
            assert got_value == (value.int >> (128 - offset - bits)) & ((1 << bits) - 1), field
        assert pickle.loads(pickle.dumps(got)) == got
    assert type(layout.fields(uuidx.NIL)) is layout.NilFields


def test_detect_reads_any_form() -> None:
    ulid = uuidx.encode(V7, "ulid")
    assert _core._detect(ulid) == (("ulid", V7, ""),)
    assert _core._detect(ulid.lower()) == (("base32", V7, ""),)
    assert _core._detect(str(V7).upper()) == (("hyphenated", V7, ""),)
    tid = uuidx.typeid("users", V7)  # 32 characters, as long as a hex form
    assert _core._detect(tid) == (("typeid", V7, "users"),)
    readings = _core._detect(uuidx.encode(V7, "base58"))
    assert [form for form, _, _ in readings] == ["base58", "base62"] and readings[0][1] == V7
    with pytest.raises(ValueError, match=r'^invalid UUID "nope": 4 characters; expected 32 '):
        _core._detect("nope")
    with pytest.raises(ValueError, match=r"^invalid hyphenated UUID .*'g' at position 35"):
        _core._detect(str(V7)[:-1] + "g")
    with pytest.raises(ValueError, match=r"lone surrogate '\\udc80' at position 3 in the prefix"):
        _core._detect("pre\udc80_" + uuidx.encode(V7, "base32"))
    with pytest.raises(TypeError, match="text must be a str"):
        _core._detect(b"nope")  # type: ignore[arg-type]


def test_the_facade_tables_are_the_core_catalogues() -> None:
    from uuidx import _catalog

    forms = tuple(name for name, *_ in _core._forms())
    assert _catalog.FORMS == forms == typing.get_args(uuidx.typing.Form)
    assert _catalog.OUTPUT_FORMS == (*forms, "typeid")
    assert _catalog.ALGORITHMS == _core._algorithms()
    assert list(layout._TYPES) == [name for name, *_ in _core._layouts()]


def test_the_command_line_detects_forms_as_the_core_does() -> None:
    from uuidx._catalog import detect  # uuidx.cli's

    tid = uuidx.typeid("users", V7)  # 32 characters, as long as a hex form
    assert detect(tid) == ("typeid", V7, "users") == _core._detect(tid)[0]
    for text in (uuidx.encode(V7, "ulid"), str(V7), uuidx.encode(V7, "base64url")):
        assert (detect(text),) == _core._detect(text)
    ambiguous = uuidx.encode(V7, "base58")
    with pytest.raises(ValueError, match=r"^ambiguous UUID .* as base58 \(.* as base62 \("):
        detect(ambiguous)
    for text in ("nope", str(V7)[:-1] + "g"):
        with pytest.raises(ValueError) as from_core:
            _core._detect(text)
        with pytest.raises(ValueError, match=f"^{re.escape(str(from_core.value))}$"):
            detect(text)

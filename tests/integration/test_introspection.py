"""What introspection tools read from uuidx: the module each public object reports (pickle,
Django's migrations, documentation tools), the type hints of every public callable evaluated at
run time (``typing.get_type_hints``, ``pydantic.validate_call``), and the public namespace
``dir(uuidx)`` offers."""

from __future__ import annotations

import ast
import inspect
import pickle
import subprocess
import sys
import textwrap
import types
import typing
from typing import Any, Optional

import catalog
import pytest
from optional import need
from platform_facts import PYPY

import uuidx
import uuidx.arrow
import uuidx.layout
import uuidx.testing
from uuidx.testing import deterministic

MODULES = (uuidx, uuidx.layout, uuidx.arrow, uuidx.testing)


def resolve(name: str) -> Any:
    """The object a catalogue name (``uuid7``, ``layout.v1``, ``V7Generator.generate``) is."""
    found: Any = uuidx
    for part in name.split("."):
        found = getattr(found, part)
    return found


def is_alias(value: object) -> bool:
    """A type alias (``Union[...]``, ``Literal[...]``): typing's object, shared and cached by
    typing, whose ``__module__`` is typing's."""
    return type(value).__module__ == "typing"


def functions_and_classes() -> list[tuple[str, str, Any]]:
    """``(module, name, object)`` for each public function and class of uuidx's modules but the
    standard library's own objects that ``uuidx`` re-exports."""
    found = []
    for module in MODULES:
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, types.ModuleType) or is_alias(value) or name in catalog.STDLIB:
                continue
            if isinstance(value, type) or callable(value):
                found.append((module.__name__, name, value))
    return found


PUBLIC = functions_and_classes()


def public_callables() -> list[Any]:
    """Every public callable the catalogue lists (functions, classes, methods), with its name."""
    found = []
    for name in catalog.public_names():
        value = resolve(name)
        if callable(value) and not is_alias(value) and not isinstance(value, types.ModuleType):
            found.append(pytest.param(value, id=name))
    return found


# --- the module each object reports -------------------------------------------------------------


def test_there_are_functions_and_classes_of_each_module() -> None:
    assert {module for module, _, _ in PUBLIC} == {m.__name__ for m in MODULES}
    assert len([1 for module, _, _ in PUBLIC if module == "uuidx"]) >= 40


@pytest.mark.parametrize(
    ("module", "name", "value"), PUBLIC, ids=[f"{m}.{n}" for m, n, _ in PUBLIC]
)
def test_each_reports_the_module_that_documents_it(module: str, name: str, value: Any) -> None:
    """``uuidx.uuid7.__module__`` is ``uuidx``: Django writes ``default=uuidx.uuid7`` into a
    migration, pickle stores ``uuidx.uuid7``; never the private ``uuidx._core``."""
    assert value.__module__ == module
    assert value.__qualname__ == name
    assert getattr(sys.modules[value.__module__], value.__qualname__) is value


@pytest.mark.parametrize(
    ("module", "name", "value"), PUBLIC, ids=[f"{m}.{n}" for m, n, _ in PUBLIC]
)
def test_each_pickles_by_reference(module: str, name: str, value: Any) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        data = pickle.dumps(value, protocol)
        assert b"_core" not in data
        assert pickle.loads(data) is value


def test_instances_of_the_classes_pickle() -> None:
    for error in (uuidx.ClockError("c"), uuidx.ClockRollbackError("r"),
                  uuidx.NamespaceTypeError("n")):  # fmt: skip
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and back.args == error.args
    for u in (catalog.V1, catalog.V4, catalog.V6, catalog.V7, uuidx.NIL, uuidx.MAX):
        fields = uuidx.layout.fields(u)
        assert pickle.loads(pickle.dumps(fields)) == fields
        assert type(pickle.loads(pickle.dumps(fields))) is type(fields)
    split = uuidx.layout.fields(catalog.V7, method="counter")
    assert pickle.loads(pickle.dumps(split)) == split


# --- the public namespace ----------------------------------------------------------------------


def fresh(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    return proc.stdout.strip()


def test_dir_offers_all_and_the_submodules() -> None:
    """Not ``annotations``, ``TYPE_CHECKING`` or the names only annotations use."""
    code = (
        "import uuidx\n"
        "print(' '.join(n for n in dir(uuidx) if not n.startswith('_')))\n"
        "import uuidx.cli\n"
        "print(' '.join(n for n in dir(uuidx) if not n.startswith('_')))\n"
    )
    before, after = (line.split() for line in fresh(code).splitlines())
    assert set(before) == {*uuidx.__all__, "testing", "typing"}
    assert len(before) == len(set(before)) and before == sorted(before)
    assert set(after) == {*uuidx.__all__, "testing", "typing", "cli"}
    # pytest imported uuidx's plugin module (the pytest11 entry point) into this process, and
    # other tests may have imported uuidx.cli.
    private = set(dir(uuidx)) - set(after) - {"pytest_plugin"}
    assert all(n.startswith("_") for n in private), private
    assert {"__all__", "__version__", "__doc__", "_core"} <= private
    assert "__getattr__" not in vars(uuidx)


# --- type hints at run time ---------------------------------------------------------------------


def _names_left(hint: Any) -> list[Any]:
    """The unresolved names (forward references, strings) anywhere inside a hint (a
    ``Literal``'s strings are values)."""
    if isinstance(hint, (str, typing.ForwardRef)):
        return [hint]
    if typing.get_origin(hint) is typing.Literal:
        return []
    return [left for arg in typing.get_args(hint) for left in _names_left(arg)]


@pytest.mark.parametrize("value", public_callables())
def test_type_hints_resolve(value: Any) -> None:
    if PYPY and not isinstance(value, (type, types.FunctionType)):
        pytest.skip("PyPy: typing.get_type_hints refuses cpyext's method descriptors")
    hints = typing.get_type_hints(value)
    assert [left for hint in hints.values() for left in _names_left(hint)] == []


#: The callables whose hints name an instant (an aware datetime or nanoseconds) or a buffer,
#: which only type checkers could see.
INSTANTS = [
    uuidx.uuid7_at, uuidx.min_uuid7, uuidx.max_uuid7, uuidx.uuid7_bounds,
    uuidx.testing.deterministic,
]  # fmt: skip


@pytest.mark.parametrize("value", INSTANTS, ids=lambda f: f.__name__)
def test_instants_are_datetime_or_int(value: Any) -> None:
    import datetime

    hints = typing.get_type_hints(value)
    instant = hints["t"] if "t" in hints else hints["start"]
    assert {datetime.datetime, int} <= set(typing.get_args(instant))


def test_other_hints_named_only_for_type_checkers() -> None:
    import datetime

    assert typing.get_type_hints(uuidx.to_datetime)["return"] is datetime.datetime
    for mask in (uuidx.arrow.mask_v7, uuidx.arrow.unmask_v7):
        key = typing.get_type_hints(mask)["key"]
        assert all(isinstance(b, key) for b in (b"k", bytearray(b"k"), memoryview(b"k")))
    for func in (uuidx.arrow.encode, uuidx.arrow.decode):
        form = typing.get_type_hints(func)["form"]
        assert typing.get_origin(form) is typing.Literal
        assert "base58" in typing.get_args(form) and "ulid" in typing.get_args(form)


def test_import_loads_neither_typing_nor_datetime() -> None:
    """The names the hints need cost nothing until a hint is evaluated."""
    code = (
        "import sys, uuidx\n"
        "print(sorted(m for m in ('typing', 'datetime', 'uuidx.typing') if m in sys.modules))\n"
        "import typing\n"
        "typing.get_type_hints(uuidx.uuid7_bounds)\n"
        "print(sorted(m for m in ('datetime', 'uuidx.typing') if m in sys.modules))\n"
    )
    assert fresh(code).splitlines() == ["[]", "['datetime', 'uuidx.typing']"]


# --- pydantic.validate_call ---------------------------------------------------------------------


def python_functions() -> list[Any]:
    """uuidx's public callables written in Python. ``pydantic.validate_call`` wraps functions
    only: not C functions (pydantic: ``Input built-in function ... is not supported``), whose
    hints are the stub's, nor classes."""
    return [
        p for p in public_callables()
        if isinstance(p.values[0], types.FunctionType) and p.id not in catalog.STDLIB
    ]  # fmt: skip


def test_the_python_functions_are_those_of_the_facade() -> None:
    names = {p.id for p in python_functions()}
    assert {"uuid7_bounds", "to_datetime", "main", "layout.fields", "arrow.encode",
            "testing.deterministic"} <= names  # fmt: skip
    assert not any(isinstance(resolve(n), types.BuiltinFunctionType) for n in names)
    assert all(
        isinstance(p.values[0], (type, types.BuiltinFunctionType)) or "." in p.id
        for p in public_callables() if p.id not in names and p.id not in catalog.STDLIB
    )  # fmt: skip


def wrapped_core_function(function: Any) -> Optional[str]:
    """The name of the ``uuidx._core`` function a facade function only delegates to (its body,
    after any docstring, is ``return _core.name(...)`` of its parameters, unconverted), else
    ``None``."""
    if inspect.unwrap(function) is not function:  # PyPy: uuidx's call of a compiled function
        return None
    (node,) = ast.parse(textwrap.dedent(inspect.getsource(function))).body
    assert isinstance(node, ast.FunctionDef)
    body = node.body[1:] if ast.get_docstring(node) is not None else node.body
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return None
    call = body[0].value
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == "_core"
        and all(isinstance(arg, ast.Name) for arg in call.args)
        and all(isinstance(kw.value, ast.Name) for kw in call.keywords)
    ):
        return call.func.attr
    return None


WRAPPERS = [
    (p.id, wrapped)
    for p in python_functions()
    if (wrapped := wrapped_core_function(p.values[0])) is not None
]


def test_the_wrappers_are_found() -> None:
    assert ("arrow.encode", "arrow_encode") in WRAPPERS and ("layout.v1", "layout_v1") in WRAPPERS
    assert "layout.fields" not in dict(WRAPPERS)  # two core functions, and named tuples
    assert "max_uuid7" not in dict(WRAPPERS)  # a datetime converted to nanoseconds


@pytest.mark.parametrize(("name", "wrapped"), WRAPPERS)
def test_a_wrapper_has_the_docstring_of_the_function_it_wraps(name: str, wrapped: str) -> None:
    """Written once, in Rust (and copied to the stub, checked word for word elsewhere)."""
    doc = getattr(uuidx._core, wrapped).__doc__
    assert doc and resolve(name).__doc__ == doc, name


def test_the_compiled_functions_are_of_a_type_tools_accept() -> None:
    """``typing.get_type_hints`` and Django's migration writer take functions by type: CPython's
    compiled functions are ``types.BuiltinFunctionType`` and uuidx exports them as they are;
    PyPy's (cpyext's) are not, and uuidx exports plain Python functions that call them."""
    compiled = [
        (name, value) for name, value in vars(uuidx._core).items()
        if name in uuidx.__all__ and not isinstance(value, type)
    ]  # fmt: skip
    assert len(compiled) >= 25
    for name, function in compiled:
        public = getattr(uuidx, name)
        if isinstance(function, types.BuiltinFunctionType):
            assert not PYPY and public is function
            continue
        assert PYPY, f"{name}: {type(function)}"
        assert type(public) is types.FunctionType and inspect.unwrap(public) is function
        assert (public.__module__, public.__qualname__) == ("uuidx", name)
        assert public.__doc__ == function.__doc__ and typing.get_type_hints(public) == {}


@pytest.mark.skipif(PYPY, reason="PyPy: uuidx.uuid7 and the others are Python functions there")
@pytest.mark.parametrize("value", [uuidx.uuid7, uuidx.parse, uuidx.uuid8_name, uuidx.encode])
def test_pydantic_does_not_wrap_c_functions(value: Any) -> None:
    """The functions written in Rust have no annotations at run time (their types are the
    stub's): pydantic refuses built-in functions before reading any hint."""
    pydantic = need("pydantic")
    assert typing.get_type_hints(value) == {}
    with pytest.raises(pydantic.PydanticUserError) as refused:
        pydantic.validate_call(value)
    assert refused.value.code == "validate-call-type"


def _validated(value: Any) -> Any:
    pydantic = need("pydantic")
    if value.__module__ == "uuidx.arrow":
        # Columns are Arrow objects or classes pydantic has no schema for: checked by isinstance.
        return pydantic.validate_call(config={"arbitrary_types_allowed": True})(value)
    return pydantic.validate_call(value)


@pytest.mark.parametrize("value", python_functions())
def test_pydantic_validate_call(value: Any, request: pytest.FixtureRequest) -> None:
    """Each wraps, and the wrapped function returns what the function does, for every call of
    the catalogue that returns."""
    validated = _validated(value)
    name = request.node.callspec.id
    if name == "testing.deterministic":
        for seed in (1, "worker-1", b"1"):
            with validated(seed):
                wrapped = uuidx.uuid7()
            with value(seed):
                assert uuidx.uuid7() == wrapped
        return
    if name == "testing.follow_python_clock":
        with validated():
            made = uuidx.uuid7_many(3)
        assert made == sorted(made) and len(set(made)) == 3
        return
    entry = catalog.BY_NAME[name]
    returning = [s for s in entry.shapes if s.raises is None]
    assert returning or entry.untested
    for shape in returning:
        with deterministic(seed=7):
            expected = catalog.plain(entry.call(shape))
        with deterministic(seed=7):
            got = catalog.plain(validated(*shape.args, **shape.kwargs))
        if name == "uuid7_at":  # random bits that deterministic() does not reach
            assert uuidx.timestamp_ns(got) == uuidx.timestamp_ns(expected), shape.label
        else:
            assert got == expected, shape.label


def test_pydantic_validates_instants() -> None:
    pydantic = need("pydantic")
    validated: Any = pydantic.validate_call(uuidx.uuid7_bounds)
    assert validated(catalog.NOW_NS) == uuidx.uuid7_bounds(catalog.NOW_NS)
    with pytest.raises(pydantic.ValidationError):
        validated("noon")
    to_datetime: Any = pydantic.validate_call(uuidx.to_datetime)
    with pytest.raises(pydantic.ValidationError):
        to_datetime(object())
    assert to_datetime(str(catalog.V7)) == uuidx.to_datetime(catalog.V7)

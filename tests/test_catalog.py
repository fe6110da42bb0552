"""The catalogue of the public API (``tests/catalog.py``) is complete and tells the truth: every
public name is in it, every shape does what it declares, and every shape reaches the entry point
it declares (checked in the debug build, which counts the calls the fast bodies handle). Its
generator axis (``tests/generator_axis.py``) covers every generator class, v7 method, call and
rollback policy that uuidx has, read from the package itself."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional

import catalog
import generator_axis
import pytest
from messages import names

import uuidx


def test_every_public_name_is_in_the_catalogue() -> None:
    known = set(catalog.BY_NAME) | catalog.CONSTANTS | catalog.STDLIB | catalog.TYPES
    missing = sorted(set(catalog.public_names()) - known)
    assert missing == [], f"add these to tests/catalog.py: {missing}"


def test_the_catalogue_names_nothing_that_is_gone() -> None:
    """Every entry and every listed name exists (dunder entries are the classes' protocols)."""
    public = set(catalog.public_names())
    listed = set(catalog.BY_NAME) | catalog.CONSTANTS | catalog.STDLIB | catalog.TYPES
    stale = [name for name in sorted(listed) if name not in public and "__" not in name]
    assert stale == []


def test_entries_are_well_formed() -> None:
    for entry in catalog.ENTRIES:
        if entry.untested:
            assert entry.shapes == (), entry.name
            continue
        assert entry.shapes, entry.name
        assert entry.sample.raises is None, f"{entry.name}: the first shape must return"
        labels = [s.label for s in entry.shapes]
        assert len(labels) == len(set(labels)), entry.name
        if entry.hot:
            paths = {(s.path, s.raises is None) for s in entry.shapes}
            # Both entry points of a hot function, and an error on the full function.
            assert (catalog.FAST, True) in paths and (catalog.FULL, False) in paths, entry.name
        else:
            assert all(s.path == catalog.FULL for s in entry.shapes), entry.name


@pytest.mark.parametrize("pair", catalog.shapes(), ids=catalog.shape_id)
def test_each_shape_does_what_it_declares(pair: tuple[catalog.Entry, catalog.Shape]) -> None:
    entry, shape = pair
    if shape.raises is None:
        result: Any = entry.call(shape)
        if entry.returns_uuid:
            assert isinstance(result, uuidx.UUID)
        return
    with pytest.raises(shape.raises) as info:
        entry.call(shape)
    if shape.names is not catalog.UNSET:
        message = str(info.value)
        assert names(message, shape.names), f"{message!r} does not name {shape.names!r}"


def _counting() -> bool:
    forced = os.environ.get("UUIDX_FORCE_FALLBACK", "") not in ("", "0")
    return uuidx._core._fast_calls() is not None and not forced


@pytest.mark.skipif(
    not _counting(),
    reason="only the debug build counts fast calls (the third pass of make test), and on the "
    "fallback path the fast bodies decline what they cannot read by slot",
)
@pytest.mark.parametrize("pair", catalog.shapes(), ids=catalog.shape_id)
def test_each_shape_reaches_its_entry_point(pair: tuple[catalog.Entry, catalog.Shape]) -> None:
    entry, shape = pair
    before = uuidx._core._fast_calls()
    try:
        entry.call(shape)
    except BaseException as exc:  # the declared exception, checked above
        assert shape.raises is not None and isinstance(exc, shape.raises), exc
    after = uuidx._core._fast_calls()
    assert before is not None and after is not None
    assert after - before == (1 if shape.path == catalog.FAST else 0), shape.path


# --- the generator axis ------------------------------------------------------------------------

STUB = Path(uuidx._core.__file__).with_name("_core.pyi")


def _stub_classes() -> dict[str, ast.ClassDef]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _stub_methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    return {node.name: node for node in cls.body if isinstance(node, ast.FunctionDef)}


def _strings(node: Optional[ast.expr]) -> set[str]:
    """The string constants in an annotation (the values of its ``Literal``)."""
    if node is None:
        return set()
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _public_generator_classes() -> dict[str, type[Any]]:
    """The classes of ``uuidx.__all__`` that generate UUIDs."""
    found = {name: getattr(uuidx, name) for name in uuidx.__all__}
    return {
        name: obj
        for name, obj in found.items()
        if isinstance(obj, type) and callable(getattr(obj, "generate", None))
    }


def _stub_calls(cls: ast.ClassDef) -> set[str]:
    """The stub's methods of ``cls`` that return UUIDs (``UUID`` or ``list[UUID]``)."""
    return {
        name
        for name, node in _stub_methods(cls).items()
        if node.returns is not None and ast.unparse(node.returns) in ("UUID", "list[UUID]")
    }


def _stub_policies(cls: ast.ClassDef) -> set[str]:
    """The values of the ``rollback_policy`` its constructor's signature names."""
    new = _stub_methods(cls)["__new__"]
    (arg,) = [a for a in new.args.kwonlyargs if a.arg == "rollback_policy"]
    return _strings(arg.annotation)


def _accepts_policy(cls: type[Any], method: Optional[str], policy: str) -> bool:
    args = () if method is None else (method,)
    try:
        g = cls(*args, rollback_policy=policy)
    except ValueError:
        return False
    assert g.rollback_policy == policy
    return True


def test_the_generator_axis_covers_every_generator() -> None:
    """Every generator class of ``uuidx.__all__``, every v7 method of the core's catalogue
    (``_v7_methods``), every call that returns UUIDs (in the stub) and every rollback policy
    the stub names and the constructor accepts, is in ``catalog.GENERATOR_CASES``, with both
    clocks; a method that takes no policy is there once, with ``None``."""
    classes = _public_generator_classes()
    stub = _stub_classes()
    cases = catalog.GENERATOR_CASES
    assert {c.config.cls for c in cases} == set(classes.values())
    methods = set(uuidx._core._v7_methods())
    expected: set[tuple[Any, ...]] = set()
    for name, cls in classes.items():
        policies = _stub_policies(stub[name])
        assert policies, name
        no_method: list[Optional[str]] = [None]
        for method in [*sorted(methods)] if hasattr(cls, "method") else no_method:
            accepted: set[Optional[str]] = {p for p in policies if _accepts_policy(cls, method, p)}
            # Methods 1 and 3 run on either engine, by width; the others on the 128-bit one.
            engines = (
                generator_axis.ENGINES if method in ("counter", "submillisecond") else ["wide"]
            )
            for policy in accepted or {None}:
                for call in _stub_calls(stub[name]):
                    for clock in generator_axis.CLOCKS:
                        for engine in engines:
                            expected.add((cls, method, policy, call, clock, engine))
    covered = {
        (c.config.cls, c.config.method, c.config.policy, c.call, c.config.clock, c.config.engine)
        for c in cases
    }
    assert sorted(map(str, expected - covered)) == [], "add these to tests/generator_axis.py"
    assert sorted(map(str, covered - expected)) == [], "gone from uuidx"
    # Widths beyond the engines' own (PostgreSQL's counterless Method 3) are further layouts.
    widths = {
        (c.config.cls, c.config.method, c.config.bits, c.config.policy, c.call, c.config.clock)
        for c in cases
    }
    assert len(widths) == len(cases), "a case is listed twice"
    assert len({c.id for c in cases}) == len(cases)
    assert {c.config for c in cases} == set(catalog.GENERATOR_CONFIGS)


@pytest.mark.parametrize("config", catalog.GENERATOR_CONFIGS, ids=generator_axis.case_id)
def test_each_generator_config_is_what_it_says(config: generator_axis.Config) -> None:
    g = config.make()
    assert type(g) is config.cls
    u = g.generate()
    assert u.version == config.version
    if isinstance(g, uuidx.V7Generator):
        assert g.method == config.method
        # The key layout the run-ahead bounds assume, as the generator reads its own UUIDs:
        # with every bit after the timestamp set, the fraction and the counter are all ones.
        fraction_bits, counter_bits, step = generator_axis.v7_key(g.method, config.bits)
        ones = uuidx.layout.v7(0, (1 << 12) - 1, (1 << 62) - 1)
        _, fraction, counter, _, _ = g.fields(ones)
        assert (fraction.bit_length(), counter.bit_length()) == (fraction_bits, counter_bits)
        assert step == (1 << g.bits if g.method == "monotonic_random" else 1)
        assert g.fields(u)[0] == u.int >> 80
        if config.policy is None:
            # The method takes no policy, and has none.
            assert g.rollback_policy is None and g.rollback_allowance_ns is None
            with pytest.raises(ValueError, match="rollback_policy"):
                config.make(rollback_policy="reset")
    assert g.rollback_policy == config.policy
    if config.clock == "python":
        readings: list[int] = []

        def clock() -> int:
            readings.append(generator_axis.python_clock())
            return readings[-1]

        config.make(clock).generate()
        assert readings, "the injected clock was not read"
    else:
        assert "custom sources" not in repr(g)


def test_the_generator_axis_reads_timestamps_as_uuidx_does() -> None:
    """``generator_axis.timestamp_ns`` agrees with uuidx's own readings of each version."""
    for cls in generator_axis.CLASSES:
        u = cls().generate()
        if u.version == 7:
            assert generator_axis.timestamp_ns(u) == uuidx.timestamp_ns(u) // 1_000_000 * 1_000_000
        else:
            v1 = uuidx.v6_to_v1(u) if u.version == 6 else u
            assert (
                generator_axis.timestamp_ns(u) == v1.time * 100 - generator_axis.GREGORIAN_OFFSET_NS
            )


def test_the_carry_bounds_are_the_counters_headroom() -> None:
    """What ``Config.carry_ns`` allows: nothing for v7 until a counter can overflow (at least
    2**9 UUIDs for Method 3's default 10 bits, 2**41 for the 42-bit counters and Method 2),
    one 100-ns tick per UUID for v1 and v6."""
    by_method = {c.method: c for c in catalog.GENERATOR_CONFIGS if c.bits is None}
    assert by_method["submillisecond"].carry_ns(1 << 9) == 0
    assert by_method["submillisecond"].carry_ns((1 << 9) + 1) == 245  # one 1/4096 ms tick
    for method in ("counter", "cpython", "monotonic_random"):
        assert by_method[method].carry_ns((1 << 41) - 1) == 0, method
    assert by_method["counter"].carry_ns((1 << 41) + 1) == 1_000_000
    assert by_method[None].carry_ns(10) == 1_000
    assert by_method[None].uuids_within(1_000_000) == 10_000

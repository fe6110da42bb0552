"""Hostile and look-alike inputs at the unsafe boundary (``rust/uuidx-py/src/ffi/``).

uuidx reads the ``int`` slot of a ``uuid.UUID`` directly, but only from an object whose type
is *exactly* ``uuid.UUID`` (invariant 4 of ``ffi/uuid_object.rs``). Everything else goes through the
public attribute the stdlib itself would use: ``namespace.bytes`` in ``uuid3``/``uuid5`` (and
``uuid8_name``), ``.int`` elsewhere. These tests feed every function that takes a UUID or a
namespace objects that lie about their class, mocks, subclasses that override ``int`` or
``bytes``, and UUIDs whose slots were rebound, and check that uuidx either agrees with the
stdlib or raises a clear ``TypeError``, and never crashes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import unittest.mock
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import catalog
import pytest
from catalog import V7, plain
from platform_facts import PYPY

import uuidx

#: Every function that takes a UUID (or a column of them), from the catalogue.
UUID_TAKERS = catalog.uuid_takers()
#: Every function that takes a namespace, from the catalogue.
NAMESPACE_TAKERS = catalog.namespace_takers()
#: The stdlib's functions of the same name, where there is one.
STDLIB = {"uuid3": uuid.uuid3, "uuid5": uuid.uuid5}


def _name(entry: catalog.Entry) -> str:
    return entry.name


def with_namespace(entry: catalog.Entry, namespace: Any) -> Any:
    assert entry.namespace_arg is not None
    return plain(entry.call_with(entry.namespace_arg, namespace))


def _claims_uuid(self: object) -> type:
    return uuid.UUID


#: An int that claims the class: ``isinstance(x, uuid.UUID)`` is True, its layout is an
#: int's. Reading uuid.UUID's slot from it would read past the int and crash. (Classes built with
#: ``type()`` here: they break the stdlib's typing on purpose, which mypy rightly refuses.)
ClaimsToBeUUID: Any = type("ClaimsToBeUUID", (int,), {"__class__": property(_claims_uuid)})


def _fake_init(self: Any, value: object) -> None:
    self.int = value


#: Claims the class and offers ``.int``: read through the attribute, validated.
FakeWithInt: Any = type(
    "FakeWithInt",
    (),
    {
        "__class__": property(_claims_uuid),
        "__init__": _fake_init,
        "__repr__": lambda self: f"FakeWithInt({self.int!r})",
    },
)


def overrides_int(value: int) -> Any:
    """A subclass whose ``int`` property (answering ``value``) shadows the slot, as the stdlib
    would read it."""
    return type("OverridesInt", (uuid.UUID,), {"int": property(lambda self: value)})


#: :func:`overrides_int` of V7's int.
OverridesInt: Any = overrides_int(V7.int)


def _raise_from_int(self: object) -> int:
    raise KeyError("from .int")


#: A subclass whose ``int`` property raises.
RaisingInt: Any = type("RaisingInt", (uuid.UUID,), {"int": property(_raise_from_int)})


def with_slots(cls: type[uuid.UUID], value: int) -> Any:
    """An instance of a subclass whose ``int`` property shadows the slot (so the constructor,
    which sets ``int``, cannot make it): the slots are set through the base's descriptors."""
    u = object.__new__(cls)
    uuid.UUID.__dict__["int"].__set__(u, value)
    uuid.UUID.__dict__["is_safe"].__set__(u, uuid.SafeUUID.unknown)
    return u


#: A subclass whose ``bytes`` differs from its int: the stdlib hashes ``.bytes``.
OverridesBytes: Any = type(
    "OverridesBytes", (uuid.UUID,), {"bytes": property(lambda self: bytes(range(16)))}
)


class ExtraSlots(uuid.UUID):
    """A subclass that extends the layout: read through the attribute all the same."""

    __slots__ = ("extra",)


class RaisingBytes:
    @property
    def bytes(self) -> bytes:
        raise KeyError("from .bytes")


class RaisingRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr failed")


# --- objects that lie about their class -------------------------------------------------------


@pytest.mark.parametrize("entry", UUID_TAKERS, ids=_name)
def test_int_claiming_the_class_is_a_type_error(entry: catalog.Entry) -> None:
    fake = ClaimsToBeUUID(5)
    assert isinstance(fake, uuid.UUID)
    with pytest.raises(TypeError, match="ClaimsToBeUUID"):
        entry.with_uuid(fake)


@pytest.mark.parametrize("entry", NAMESPACE_TAKERS, ids=_name)
def test_int_claiming_the_class_is_not_a_namespace(entry: catalog.Entry) -> None:
    with pytest.raises(uuidx.NamespaceTypeError, match="ClaimsToBeUUID"):
        with_namespace(entry, ClaimsToBeUUID(5))


def test_int_look_alikes_never_crash_a_fresh_interpreter() -> None:
    """A crash reproduced, in a subprocess so that a crash is a failure, not an abort
    of the whole suite; every function that takes a UUID or a namespace (the catalogue's)."""
    script = textwrap.dedent(
        """
        import sys, uuid
        sys.path.insert(0, sys.argv[1])
        import catalog, uuidx
        F = type("F", (int,), {"__class__": uuid.UUID})
        calls = [e.with_uuid for e in catalog.uuid_takers()] + [
            lambda f, e=e: e.call_with(e.namespace_arg, f) for e in catalog.namespace_takers()
        ]
        for call in calls:
            for value in (0, 5, -1, 1 << 200):
                try:
                    call(F(value))
                except TypeError:
                    pass
                else:
                    raise SystemExit(f"{call} accepted F({value})")
        print("ok")
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(Path(__file__).resolve().parents[1])],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert proc.stdout.strip() == "ok"


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        (V7.int, True),
        (0, True),
        ((1 << 128) - 1, True),
        (True, True),  # an int subclass, as the stdlib's own attribute could hold
        (-1, False),
        (1 << 128, False),
        ("017f22e2-79b0-7cc3-98c4-dc0c0c07398f", False),
        (1.0, False),
        (None, False),
    ],
    ids=["v7", "zero", "max", "bool", "negative", "2**128", "str", "float", "None"],
)
def test_look_alikes_are_read_through_int_and_validated(value: object, valid: bool) -> None:
    """In detail for ``to_str`` (the other functions: the tests below)."""
    fake = FakeWithInt(value)
    if valid:
        assert isinstance(value, int)
        assert uuidx.to_str(fake) == str(uuid.UUID(int=value))
        if value == V7.int:
            assert uuidx.layout.fields(fake) == uuidx.layout.fields(V7)
            assert uuidx.timestamp_ns(fake) == uuidx.timestamp_ns(V7)
    else:
        with pytest.raises(TypeError, match="FakeWithInt"):
            uuidx.to_str(fake)


@pytest.mark.parametrize("entry", UUID_TAKERS, ids=_name)
def test_look_alikes_everywhere(entry: catalog.Entry) -> None:
    """A look-alike with a valid ``.int`` is read through it by every function that takes a
    UUID; an invalid ``.int`` is a TypeError naming it."""
    u = entry.sample_uuid
    assert plain(entry.with_uuid(FakeWithInt(u.int))) == plain(entry.with_uuid(u))
    for bad in (-1, 1 << 128, "x", None):
        with pytest.raises(TypeError, match="FakeWithInt"):
            entry.with_uuid(FakeWithInt(bad))


# --- mocks -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make_mock",
    [
        lambda: unittest.mock.MagicMock(spec=uuid.UUID),
        lambda: unittest.mock.NonCallableMagicMock(spec=uuid.UUID),
        lambda: unittest.mock.Mock(spec=uuid.UUID),
        lambda: unittest.mock.create_autospec(uuid.UUID, instance=True),
    ],
    ids=["MagicMock", "NonCallableMagicMock", "Mock", "autospec"],
)
@pytest.mark.parametrize("entry", NAMESPACE_TAKERS, ids=_name)
def test_mock_namespaces_are_rejected_as_the_stdlib_rejects_them(
    make_mock: Callable[[], Any], entry: catalog.Entry
) -> None:
    mock = make_mock()
    assert isinstance(mock, uuid.UUID)
    theirs = STDLIB.get(entry.name)
    if theirs is not None:
        with pytest.raises(TypeError):
            theirs(mock, "x")
    # A mock's .bytes is a mock, not 16 bytes: never hashed as some default value.
    with pytest.raises(uuidx.NamespaceTypeError, match="Mock"):
        with_namespace(entry, mock)


@pytest.mark.parametrize("entry", UUID_TAKERS, ids=_name)
def test_mock_uuids_are_type_errors(entry: catalog.Entry) -> None:
    with pytest.raises(TypeError, match="Mock"):
        entry.with_uuid(unittest.mock.MagicMock(spec=uuid.UUID))


def test_a_mock_configured_with_real_values_is_used_like_the_stdlib_uses_it() -> None:
    mock = unittest.mock.MagicMock(spec=uuid.UUID)
    mock.bytes = uuid.NAMESPACE_DNS.bytes
    mock.int = uuid.NAMESPACE_DNS.int
    assert uuidx.uuid5(mock, "x") == uuid.uuid5(mock, "x") == uuid.uuid5(uuid.NAMESPACE_DNS, "x")
    assert uuidx.to_str(mock) == str(uuid.NAMESPACE_DNS)


@pytest.mark.parametrize("entry", UUID_TAKERS, ids=_name)
def test_a_configured_mock_is_read_through_its_int_everywhere(entry: catalog.Entry) -> None:
    mock = unittest.mock.MagicMock(spec=uuid.UUID)
    mock.int = entry.sample_uuid.int
    assert plain(entry.with_uuid(mock)) == plain(entry.with_uuid(entry.sample_uuid))


@pytest.mark.parametrize("entry", NAMESPACE_TAKERS, ids=_name)
def test_a_configured_mock_namespace_is_read_through_its_bytes(entry: catalog.Entry) -> None:
    mock = unittest.mock.MagicMock(spec=uuid.UUID)
    mock.bytes = uuid.NAMESPACE_DNS.bytes
    assert entry.namespace_arg is not None
    assert entry.sample.args[entry.namespace_arg] == uuid.NAMESPACE_DNS
    assert with_namespace(entry, mock) == plain(entry.call_sample())


# --- subclasses --------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", NAMESPACE_TAKERS, ids=_name)
def test_subclass_overriding_bytes_hashes_what_the_stdlib_hashes(entry: catalog.Entry) -> None:
    ns = OverridesBytes(int=5)
    got = with_namespace(entry, ns)
    assert got == with_namespace(entry, uuid.UUID(bytes=bytes(range(16))))
    assert got != with_namespace(entry, uuid.UUID(int=5))
    theirs = STDLIB.get(entry.name)
    if theirs is not None:
        name = entry.sample.args[1]
        assert entry.func(ns, name) == theirs(ns, name)


@pytest.mark.parametrize("entry", UUID_TAKERS, ids=_name)
def test_subclasses_are_read_through_their_int(entry: catalog.Entry) -> None:
    # The subclass answers the sample's int, whatever its slot holds.
    arg = entry.sample_uuid
    expected = plain(entry.with_uuid(arg))
    assert plain(entry.with_uuid(with_slots(overrides_int(arg.int), 1))) == expected
    assert plain(entry.with_uuid(ExtraSlots(int=arg.int))) == expected


def test_subclass_int_agrees_with_str_of_the_stdlib() -> None:
    u = with_slots(OverridesInt, 1)
    assert uuidx.to_str(u) == str(u) == str(V7)


def test_exceptions_from_properties_propagate_as_in_the_stdlib() -> None:
    for ours, theirs in ((uuidx.uuid3, uuid.uuid3), (uuidx.uuid5, uuid.uuid5)):
        with pytest.raises(KeyError, match="from .bytes"):
            theirs(RaisingBytes(), "x")  # type: ignore[arg-type]
        with pytest.raises(KeyError, match="from .bytes"):
            ours(RaisingBytes(), "x")  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="from .bytes"):
        uuidx.uuid8_name(RaisingBytes(), "x")  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="from .int"):
        str(with_slots(RaisingInt, 1))
    with pytest.raises(KeyError, match="from .int"):
        uuidx.to_str(with_slots(RaisingInt, 1))


# --- exact uuid.UUID objects whose slots were tampered with ------------------------------------


def tampered(value: object) -> uuid.UUID:
    u = uuid.UUID(int=1)
    object.__setattr__(u, "int", value)
    return u


@pytest.mark.parametrize(
    "value", ["x", 1.5, -1, 1 << 128, True], ids=["str", "float", "negative", "2**128", "bool"]
)
def test_exact_uuid_with_a_rebound_int_slot(value: object) -> None:
    u = tampered(value)
    assert type(u) is uuid.UUID
    if value is True:
        # An int subclass in range: read through the attribute, as the stdlib reads it.
        assert uuidx.to_str(u) == str(u)
        return
    with pytest.raises(TypeError, match=r"\.int"):
        uuidx.to_str(u)
    with pytest.raises(TypeError):
        uuidx.layout.fields(u)


def test_exact_uuid_with_an_empty_int_slot() -> None:
    u = uuid.UUID(int=1)
    object.__delattr__(u, "int")
    with pytest.raises(AttributeError):
        str(u)
    with pytest.raises(TypeError, match="UUID"):
        uuidx.to_str(u)
    with pytest.raises(uuidx.NamespaceTypeError):
        uuidx.uuid5(u, "x")


def test_rebinding_a_slot_while_reading_from_threads() -> None:
    """The slot is read while other threads rebind it: every read sees one of the values
    (on a GIL build the GIL orders them; on a free-threaded one the reference is taken as
    CPython's member getter takes it)."""
    import threading

    u = uuid.UUID(int=1)
    values = [uuid.UUID(int=i).int for i in range(1, 9)]
    stop = threading.Event()

    def writer() -> None:
        i = 0
        while not stop.is_set():
            object.__setattr__(u, "int", values[i % len(values)] + (1 << 100))
            i += 1

    threads = [threading.Thread(target=writer) for _ in range(2)]
    for t in threads:
        t.start()
    try:
        seen = {uuidx.to_str(u) for _ in range(20_000)}
    finally:
        stop.set()
        for t in threads:
            t.join()
    allowed = {str(uuid.UUID(int=v + (1 << 100))) for v in values} | {str(uuid.UUID(int=1))}
    assert seen <= allowed


# --- reprs ---------------------------------------------------------------------------------


def _positions(entry: catalog.Entry) -> list[int]:
    """The positional arguments of an entry's sample, columns of rows excepted (a row's
    problem is the row's, tested with the rows)."""
    return [
        i for i, arg in enumerate(entry.sample.args)
        if not isinstance(arg, list) and i != entry.column_arg
    ]  # fmt: skip


ARGUMENT_POSITIONS = [(e, i) for e in catalog.ENTRIES if e.shapes for i in _positions(e)]


@pytest.mark.parametrize(
    ("entry", "position"), ARGUMENT_POSITIONS, ids=[f"{e.name}-{i}" for e, i in ARGUMENT_POSITIONS]
)
def test_an_argument_whose_repr_raises_still_gets_the_type_error(
    entry: catalog.Entry, position: int
) -> None:
    """Every argument of every function: an object whose ``__repr__`` raises is a TypeError
    (NamespaceTypeError for a namespace, AttributeError for a getter's object) that names its
    type."""
    with pytest.raises((TypeError, AttributeError), match="RaisingRepr"):
        entry.call_with(position, RaisingRepr())
    assert not isinstance(RaisingRepr(), uuid.UUID)
    if position == entry.namespace_arg:
        with pytest.raises(uuidx.NamespaceTypeError, match="RaisingRepr"):
            entry.call_with(position, RaisingRepr())


HUGE_VALUES = {
    "str": "x" * 10_000_000,
    "bytes": b"x" * 10_000_000,
    "bytearray": bytearray(10_000_000),
    "list": ["x" * 100] * 1_000_000,
    "dict": {i: i for i in range(100_000)},
    "int": 10**100_000,
}


@pytest.mark.parametrize("huge", list(HUGE_VALUES.values()), ids=list(HUGE_VALUES))
def test_messages_never_echo_a_huge_value(huge: object) -> None:
    """Every argument of every function (a huge value may be valid, such as a name to hash;
    when it is not, the message stays short)."""
    problems = []
    for entry, position in ARGUMENT_POSITIONS:
        try:
            entry.call_with(position, huge)
        except (TypeError, ValueError, MemoryError, AttributeError) as exc:
            if len(str(exc)) >= 400:
                problems.append(f"{entry.name}-{position}: {str(exc)[:500]}")
    assert not problems, "\n".join(problems)


def test_short_repr_shortens_and_keeps_short_values() -> None:
    short = uuidx._core._short_repr
    for value in ("abc", 5, None, b"\x00\xff", [1, 2], uuid.NAMESPACE_DNS):
        assert short(value) == repr(value)
    assert short("y" * 1000).startswith("'yyyy")
    assert len(short("y" * 1000)) < 100
    assert short(b"z" * 1000).startswith("b'zzz")
    assert len(short(b"z" * 1000)) < 100
    assert short(10**1000) == "<int of 3322 bits>"
    assert "RaisingRepr" in short(RaisingRepr())


# --- the three passes -------------------------------------------------------------------------


def test_the_build_is_the_one_this_pass_expects() -> None:
    """``make test`` runs the suite against a release build, then with the fallback forced,
    then against a debug build (``UUIDX_EXPECT_DEBUG_BUILD=1``): make sure each pass tests
    what it says."""
    expected = os.environ.get("UUIDX_EXPECT_DEBUG_BUILD")
    if expected not in ("0", "1"):
        pytest.skip("UUIDX_EXPECT_DEBUG_BUILD is not set (make test sets it for each pass)")
    assert uuidx._core._debug_build() is (expected == "1")


def test_generators_are_allocated_as_their_alignment_requires() -> None:
    """The core generators are 64-byte aligned; the Python objects hold them boxed. A debug
    build aborts on a misaligned access ("misaligned pointer dereference"), so this runs in a
    subprocess: many objects of each class, created, used and freed."""
    script = textwrap.dedent(
        """
        import uuidx
        keep = []
        for i in range(3000):
            for g in (uuidx.V7Generator(), uuidx.V7Generator("counter"), uuidx.V6Generator(),
                      uuidx.V1Generator(node=i)):
                g.generate()
                if i % 7 == 0:
                    keep.append(g)
        print(len(keep))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.strip() == str(4 * 429)


# --- the fallback path -------------------------------------------------------------------------


def test_the_fast_path_is_on_unless_forced_off() -> None:
    forced = os.environ.get("UUIDX_FORCE_FALLBACK", "") not in ("", "0")
    expected = sys.implementation.name == "cpython" and not forced
    assert uuidx._core._uses_slot_stores() is expected


def test_ints_go_through_digits_where_the_layout_is_known() -> None:
    forced = os.environ.get("UUIDX_FORCE_FALLBACK", "") not in ("", "0")
    expected = sys.implementation.name == "cpython" and not forced
    assert uuidx._core._uses_int_digits() is expected


def test_instances_come_from_gc_new_on_gil_builds() -> None:
    forced = os.environ.get("UUIDX_FORCE_FALLBACK", "") not in ("", "0")
    free_threaded = bool(getattr(sys, "_is_gil_enabled", lambda: True)() is False)
    expected = sys.implementation.name == "cpython" and not forced and not free_threaded
    assert uuidx._core._uses_gc_new() is expected


@pytest.mark.parametrize("setting", ["1", "yes", "0", ""])
def test_the_fallback_switch_is_read_at_import(setting: str) -> None:
    env = dict(os.environ, UUIDX_FORCE_FALLBACK=setting)
    script = textwrap.dedent(
        """
        import uuid, uuidx
        u = uuidx.uuid7()
        ns = uuidx.uuid5(uuidx.NAMESPACE_DNS, "www.example.com")
        assert type(u) is uuid.UUID and u.is_safe is uuid.SafeUUID.unknown
        assert str(ns) == "2ed6657d-e927-568b-95e1-2665a8aea6a2"
        assert uuidx.to_str(ns) == str(ns)
        print(uuidx._core._uses_slot_stores())
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    fast = setting in ("", "0") and sys.implementation.name == "cpython"
    assert proc.stdout.strip() == str(fast)


@pytest.mark.skipif(PYPY, reason="PyPy: uuidx always makes UUIDs through uuid.UUID there")
def test_a_slot_descriptor_of_another_class_bound_to_int_takes_the_fallback() -> None:
    """``uuid.UUID.int`` rebound, before uuidx loads, to a slot descriptor of another class
    whose offset is where a ``uuid.UUID`` keeps its weak references (up to 3.11; past its end
    from 3.12, where weak references are managed): the descriptor is not
    ``uuid.UUID``'s own (invariant 1 of ``ffi/uuid_object.rs``), so uuidx must build UUIDs through
    the class, not store the int at that offset (which crashed when the UUID was freed). In a
    subprocess, so that a crash is a failure; the fast path is not forced off there."""
    script = textwrap.dedent(
        """
        import gc, uuid, weakref
        from importlib.machinery import ExtensionFileLoader
        class Other:
            # "c" lies where uuid.UUID keeps its weak references up to 3.11, and past the end
            # of a uuid.UUID from 3.12 (managed weak references: two slots, 32 bytes).
            __slots__ = ("a", "b", "c")
        assert Other.__dict__["c"].__objclass__ is Other
        stdlib_int = uuid.UUID.__dict__["int"]
        def rebound(step):
            # Rebound only while uuidx._core loads (and resolves uuid.UUID): the package's own
            # Python code makes UUIDs through the class, which the foreign descriptor refuses.
            def run(loader, arg):
                uuid.UUID.int = Other.__dict__["c"]
                try:
                    return step(loader, arg)
                finally:
                    uuid.UUID.int = stdlib_int
            return run
        steps = ExtensionFileLoader.create_module, ExtensionFileLoader.exec_module
        ExtensionFileLoader.create_module = rebound(steps[0])
        ExtensionFileLoader.exec_module = rebound(steps[1])
        import uuidx
        ExtensionFileLoader.create_module, ExtensionFileLoader.exec_module = steps
        print(uuidx._core._uses_slot_stores())
        makers = [
            uuidx.uuid4, uuidx.uuid7, uuidx.uuid1, uuidx.uuid6, uuidx.uuid8,
            lambda: uuidx.uuid5(uuidx.NAMESPACE_DNS, "www.example.com"),
            lambda: uuidx.parse("2ed6657d-e927-568b-95e1-2665a8aea6a2"),
            lambda: uuidx.uuid7_many(3)[2],
        ]
        for make in makers:
            u = make()
            assert type(u) is uuid.UUID and isinstance(u.int, int), make
            assert uuid.UUID(str(u)) == u and uuidx.to_str(u) == str(u), make
            ref = weakref.ref(u)
            del u
            gc.collect()
            assert ref() is None
        ns = uuidx.uuid5(uuidx.NAMESPACE_DNS, "www.example.com")
        assert str(ns) == "2ed6657d-e927-568b-95e1-2665a8aea6a2", ns
        print("ok")
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "UUIDX_FORCE_FALLBACK"}
    proc = subprocess.run(
        [sys.executable, "-c", script],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert proc.stdout.split() == ["False", "ok"], proc.stdout

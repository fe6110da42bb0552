"""Hostile and look-alike inputs at the unsafe boundary (``rust/uuidx-py/src/exact.rs``).

uuidx reads the ``int`` slot of a ``uuid.UUID`` directly, but only from an object whose type
is *exactly* ``uuid.UUID`` (invariant 4 of ``exact.rs``). Everything else goes through the
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
from typing import Any

import pytest

import uuidx
from uuidx import layout

V1 = uuid.UUID("c232ab00-9414-11ec-b3c8-9f6bdeced846")
V6 = uuid.UUID("1ec9414c-232a-6b00-b3c8-9f6bdeced846")
V7 = uuid.UUID("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")

#: Every function that takes a UUID (not a namespace), with a valid argument for it.
UUID_TAKERS: list[tuple[str, Callable[[Any], object], uuid.UUID]] = [
    ("to_str", uuidx.to_str, V7),
    ("timestamp_ns", uuidx.timestamp_ns, V7),
    ("to_datetime", uuidx.to_datetime, V7),
    ("fields", layout.fields, V7),
    ("v1_to_v6", uuidx.v1_to_v6, V1),
    ("v6_to_v1", uuidx.v6_to_v1, V6),
]
TAKER_IDS = [n for n, _, _ in UUID_TAKERS]

#: Every function that takes a namespace, and the stdlib function it matches (if any).
NAMESPACE_TAKERS: list[tuple[str, Callable[[Any, str], uuid.UUID], Any]] = [
    ("uuid3", uuidx.uuid3, uuid.uuid3),
    ("uuid5", uuidx.uuid5, uuid.uuid5),
    ("uuid8_name", uuidx.uuid8_name, None),
]
NS_IDS = [n for n, _, _ in NAMESPACE_TAKERS]


def _claims_uuid(self: object) -> type:
    return uuid.UUID


#: An int that claims the class: ``isinstance(x, uuid.UUID)`` is True, its layout is an
#: int's. Reading uuid.UUID's slot from it used to crash the interpreter. (Classes built with
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

#: A subclass whose ``int`` property shadows the slot, as the stdlib would read it.
OverridesInt: Any = type("OverridesInt", (uuid.UUID,), {"int": property(lambda self: V7.int)})


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


@pytest.mark.parametrize("func", [f for _, f, _ in UUID_TAKERS], ids=TAKER_IDS)
def test_int_claiming_the_class_is_a_type_error(func: Callable[[Any], object]) -> None:
    fake = ClaimsToBeUUID(5)
    assert isinstance(fake, uuid.UUID)
    with pytest.raises(TypeError, match="ClaimsToBeUUID"):
        func(fake)


@pytest.mark.parametrize("func", [f for _, f, _ in NAMESPACE_TAKERS], ids=NS_IDS)
def test_int_claiming_the_class_is_not_a_namespace(func: Callable[[Any, str], object]) -> None:
    with pytest.raises(uuidx.NamespaceTypeError, match="ClaimsToBeUUID"):
        func(ClaimsToBeUUID(5), "x")


def test_the_reported_crash_in_a_fresh_interpreter() -> None:
    """The reproduction from the issue, in a subprocess so a crash is a failure, not an abort
    of the whole suite; every function that takes a UUID or a namespace."""
    script = textwrap.dedent(
        """
        import uuid, uuidx
        F = type("F", (int,), {"__class__": uuid.UUID})
        calls = [uuidx.to_str, uuidx.timestamp_ns, uuidx.to_datetime, uuidx.layout.fields,
                 uuidx.v1_to_v6, uuidx.v6_to_v1,
                 lambda f: uuidx.uuid3(f, "x"), lambda f: uuidx.uuid5(f, "x"),
                 lambda f: uuidx.uuid8_name(f, "x")]
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
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
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
@pytest.mark.parametrize(("name", "ours", "theirs"), NAMESPACE_TAKERS, ids=NS_IDS)
def test_mock_namespaces_are_rejected_as_the_stdlib_rejects_them(
    make_mock: Callable[[], Any], name: str, ours: Callable[..., object], theirs: Any
) -> None:
    mock = make_mock()
    assert isinstance(mock, uuid.UUID)
    if theirs is not None:
        with pytest.raises(TypeError):
            theirs(mock, "x")
    # A mock's .bytes is a mock, not 16 bytes: never hashed as some default value.
    with pytest.raises(uuidx.NamespaceTypeError, match="Mock"):
        ours(mock, "x")


@pytest.mark.parametrize("func", [f for _, f, _ in UUID_TAKERS], ids=TAKER_IDS)
def test_mock_uuids_are_type_errors(func: Callable[[Any], object]) -> None:
    with pytest.raises(TypeError, match="Mock"):
        func(unittest.mock.MagicMock(spec=uuid.UUID))


def test_a_mock_configured_with_real_values_is_used_like_the_stdlib_uses_it() -> None:
    mock = unittest.mock.MagicMock(spec=uuid.UUID)
    mock.bytes = uuid.NAMESPACE_DNS.bytes
    mock.int = uuid.NAMESPACE_DNS.int
    assert uuidx.uuid5(mock, "x") == uuid.uuid5(mock, "x") == uuid.uuid5(uuid.NAMESPACE_DNS, "x")
    assert uuidx.to_str(mock) == str(uuid.NAMESPACE_DNS)


# --- subclasses --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "ours", "theirs"), NAMESPACE_TAKERS, ids=NS_IDS)
def test_subclass_overriding_bytes_hashes_what_the_stdlib_hashes(
    name: str, ours: Callable[..., uuid.UUID], theirs: Any
) -> None:
    ns = OverridesBytes(int=5)
    got = ours(ns, "x")
    assert got == ours(uuid.UUID(bytes=bytes(range(16))), "x")
    assert got != ours(uuid.UUID(int=5), "x")
    if theirs is not None:
        assert got == theirs(ns, "x")


@pytest.mark.parametrize(("func", "arg"), [(f, a) for _, f, a in UUID_TAKERS], ids=TAKER_IDS)
def test_subclasses_are_read_through_their_int(func: Callable[[Any], object], arg: uuid.UUID) -> None:
    # OverridesInt always answers V7's int, whatever its slot holds.
    if func is uuidx.v1_to_v6 or func is uuidx.v6_to_v1:
        return  # V7 is neither v1 nor v6
    assert func(with_slots(OverridesInt, 1)) == func(V7)
    extra = ExtraSlots(int=arg.int)
    assert func(extra) == func(arg)


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


def test_an_argument_whose_repr_raises_still_gets_the_type_error() -> None:
    for call in (
        lambda: uuidx.parse(RaisingRepr()),  # type: ignore[arg-type]
        lambda: uuidx.to_str(RaisingRepr()),  # type: ignore[arg-type]
        lambda: uuidx.uuid4_many(RaisingRepr()),  # type: ignore[arg-type]
        lambda: uuidx.uuid7_at(RaisingRepr()),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError, match="RaisingRepr"):
            call()
    with pytest.raises(uuidx.NamespaceTypeError, match="RaisingRepr"):
        uuidx.uuid5(RaisingRepr(), "x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "huge",
    [
        "x" * 10_000_000,
        b"x" * 10_000_000,
        bytearray(10_000_000),
        ["x" * 100] * 1_000_000,
        {i: i for i in range(100_000)},
        10**100_000,
    ],
    ids=["str", "bytes", "bytearray", "list", "dict", "int"],
)
def test_messages_never_echo_a_huge_value(huge: object) -> None:
    calls: list[Callable[[], object]] = [
        lambda: uuidx.parse(huge),  # type: ignore[arg-type]
        lambda: uuidx.uuid7_at(huge),  # type: ignore[arg-type]
        lambda: uuidx.to_str(huge),  # type: ignore[arg-type]
        lambda: uuidx.uuid5(huge, "x"),  # type: ignore[arg-type]
        lambda: uuidx.uuid4_many(huge),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises((TypeError, ValueError, MemoryError)) as info:
            call()
        assert len(str(info.value)) < 400, str(info.value)[:500]


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
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    fast = setting in ("", "0") and sys.implementation.name == "cpython"
    assert proc.stdout.strip() == str(fast)

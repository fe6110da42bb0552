"""The invariants of ``rust/uuidx-py/src/ffi/uuid_object.rs`` and ``int_digits.rs``, which build
``uuid.UUID`` instances by allocating them and storing the ``int`` and ``is_safe`` slots
directly: the objects must be indistinguishable from ``uuid.UUID(int=...)``."""

from __future__ import annotations

import copy
import gc
import os
import pickle
import sys
import types
import uuid
import weakref
from collections.abc import Callable

import catalog
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from platform_facts import PYPY, PYPY_NO_REFCOUNTS, examples

import uuidx
from uuidx import layout

#: Every function that returns a UUID (the catalogue's, called with their sample arguments),
#: UUIDs from a list of them, and the edges of the value range.
MAKERS: list[tuple[str, Callable[[], uuid.UUID]]] = [
    *((e.name, e.call_sample) for e in catalog.uuid_makers()),
    ("V7Generator.many", lambda: uuidx.V7Generator().many(2)[1]),
    ("uuid7_many", lambda: uuidx.uuid7_many(3)[2]),
    ("nil", lambda: uuidx.parse("00000000-0000-0000-0000-000000000000")),
    ("max", lambda: uuidx.parse("ffffffff-ffff-ffff-ffff-ffffffffffff")),
]
MAKER_IDS = [n for n, _ in MAKERS]
MAKER_FUNCS = [f for _, f in MAKERS]
STDLIB_SLOTS = ("int", "is_safe", "__weakref__")


def test_stdlib_uuid_layout_is_what_the_uuid_object_contract_expects() -> None:
    # Invariant 1 of ffi/uuid_object.rs: 'int' and 'is_safe' are member descriptors of uuid.UUID.
    assert uuid.UUID.__slots__ == STDLIB_SLOTS
    for name in ("int", "is_safe"):
        assert type(uuid.UUID.__dict__[name]) is types.MemberDescriptorType


@pytest.mark.parametrize("make", MAKER_FUNCS, ids=MAKER_IDS)
def test_objects_are_exact_stdlib_uuids(make: Callable[[], uuid.UUID]) -> None:
    u = make()
    # What the slot stores put there: the exact class, an exact int in range, the enum member.
    assert type(u) is uuid.UUID
    assert object.__getattribute__(u, "is_safe") is uuid.SafeUUID.unknown
    value = object.__getattribute__(u, "int")
    assert type(value) is int
    assert 0 <= value < 1 << 128
    assert u.__slots__ == STDLIB_SLOTS
    assert not hasattr(u, "__dict__")
    # The stdlib's methods, running on the stored int, agree with uuidx's Rust formatting,
    # parsing and field decomposition.
    assert str(u) == uuidx.to_str(u)
    assert uuidx.parse(u.hex) == u and uuidx.parse(u.urn) == u
    fields = layout.fields(u)
    if u.version is not None and 1 <= u.version <= 8:
        assert fields.ver == u.version  # type: ignore[union-attr]


@pytest.mark.parametrize("make", MAKER_FUNCS, ids=MAKER_IDS)
def test_immutable_like_the_stdlib(make: Callable[[], uuid.UUID]) -> None:
    u = make()
    before = u.int
    for attr in ("int", "is_safe", "hex", "anything"):
        with pytest.raises(TypeError):
            setattr(u, attr, 1)
    assert u.int == before


@pytest.mark.parametrize("make", MAKER_FUNCS, ids=MAKER_IDS)
def test_pickle_round_trip(make: Callable[[], uuid.UUID]) -> None:
    u = make()
    ref = uuid.UUID(int=u.int)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        data = pickle.dumps(u, protocol)
        assert data == pickle.dumps(ref, protocol), protocol
        back = pickle.loads(data)
        assert type(back) is uuid.UUID
        assert back == u == ref
        assert back.is_safe is uuid.SafeUUID.unknown


@pytest.mark.parametrize("make", MAKER_FUNCS, ids=MAKER_IDS)
def test_copy_and_deepcopy(make: Callable[[], uuid.UUID]) -> None:
    u = make()
    for c in (copy.copy(u), copy.deepcopy(u), copy.deepcopy([u])[0]):
        assert type(c) is uuid.UUID
        assert c == u and c.int == u.int
        assert c.is_safe is uuid.SafeUUID.unknown


@pytest.mark.skipif(PYPY, reason=PYPY_NO_REFCOUNTS)
@pytest.mark.parametrize("make", MAKER_FUNCS, ids=MAKER_IDS)
def test_the_stored_int_is_the_one_cpython_makes_for_its_value(
    make: Callable[[], uuid.UUID],
) -> None:
    """The int each maker stores is CPython's own int for the value: equal to, hashed as and
    the size (the digit count) of the int CPython parses from uuidx's text of the UUID, so the
    stdlib's ``==``, ``hash`` and ordering, which read only the int, hold for it."""
    u = make()
    stored = object.__getattribute__(u, "int")
    fresh = int(uuidx.to_str(u).replace("-", ""), 16)
    assert stored == fresh and hash(stored) == hash(fresh)
    assert sys.getsizeof(stored) == sys.getsizeof(fresh)


def test_sorting_mixed_lists() -> None:
    ours = [uuidx.uuid4() for _ in range(200)]
    theirs = [uuid.uuid4() for _ in range(200)]
    mixed = sorted(ours + theirs)
    assert [u.int for u in mixed] == sorted(u.int for u in ours + theirs)


@pytest.mark.parametrize("make", MAKER_FUNCS, ids=MAKER_IDS)
def test_weakref(make: Callable[[], uuid.UUID], request: pytest.FixtureRequest) -> None:
    if PYPY and request.node.callspec.id in ("V7Generator.many", "uuid7_many"):
        pytest.skip(
            "PyPy: a UUID of a list uuidx made outlives gc.collect() (cpyext frees it later)"
        )
    u = make()
    r = weakref.ref(u)
    assert r() is u
    proxy = weakref.proxy(u)
    assert proxy.int == u.int
    del u
    gc.collect()
    assert r() is None


@pytest.mark.skipif(PYPY, reason=PYPY_NO_REFCOUNTS)
def test_uuids_made_by_slot_stores_are_not_tracked_by_the_cycle_collector() -> None:
    """A documented decision: a UUID holds an int and an enum member, so it cannot be part of
    a cycle (unless object.__setattr__ puts a container in its slots); untracking it spares
    every list of UUIDs a collector pass per 700 allocations. On the fallback path the stdlib
    builds the objects and tracks them as it always does."""
    fast = uuidx._core._uses_slot_stores()
    for _, make in MAKERS:
        u = make()
        assert gc.is_tracked(u) is (not fast)
    assert gc.is_tracked(uuid.UUID(int=1))  # the stdlib's own objects are unchanged
    # Untracked objects are still freed by reference counting.
    u = uuidx.uuid4()
    r = weakref.ref(u)
    del u
    assert r() is None


@pytest.mark.skipif(PYPY, reason=PYPY_NO_REFCOUNTS)
@pytest.mark.parametrize("make", MAKER_FUNCS, ids=MAKER_IDS)
def test_the_object_is_what_the_stdlib_allocates(make: Callable[[], uuid.UUID]) -> None:
    """Allocated by uuidx (PyObject_GC_New on GIL builds, tp_alloc otherwise), the object has
    the stdlib's size, the stdlib's referents, an empty weak reference list, and survives the
    collector's traversal and a full collection."""
    u = make()
    ref = uuid.UUID(int=u.int)
    assert sys.getsizeof(u) == sys.getsizeof(ref)
    assert [type(x) for x in gc.get_referents(u)] == [type(x) for x in gc.get_referents(ref)]
    assert gc.get_referents(u)[0] is object.__getattribute__(u, "int")
    assert weakref.getweakrefcount(u) == 0
    called = []
    r = weakref.ref(u, lambda _: called.append(True))
    assert weakref.getweakrefcount(u) == 1
    gc.collect()
    assert r() is u
    del u
    assert called == [True]


@pytest.mark.skipif(PYPY, reason=PYPY_NO_REFCOUNTS)
def test_reference_counts_of_a_fresh_object() -> None:
    ours = uuidx.uuid4()
    theirs = uuid.UUID(bytes=os.urandom(16))
    assert sys.getrefcount(ours) == sys.getrefcount(theirs)
    ours_int = ours.int
    theirs_int = theirs.int
    # The int is owned once by the slot (plus the local name and the call's argument).
    assert sys.getrefcount(ours_int) == sys.getrefcount(theirs_int)
    del ours
    # Dropping the UUID drops the slot's reference.
    assert sys.getrefcount(ours_int) == sys.getrefcount(theirs_int) - 1


@pytest.mark.skipif(PYPY, reason=PYPY_NO_REFCOUNTS)
def test_is_safe_reference_is_not_leaked() -> None:
    unknown = uuid.SafeUUID.unknown
    before = sys.getrefcount(unknown)
    for _ in range(100_000):
        uuidx.uuid4()
    assert sys.getrefcount(unknown) == before
    kept = [uuidx.uuid7() for _ in range(1000)]
    assert sys.getrefcount(unknown) == before + 1000
    del kept
    assert sys.getrefcount(unknown) == before


@pytest.mark.skipif(PYPY, reason=PYPY_NO_REFCOUNTS)
def test_dropping_many_uuids_frees_them() -> None:
    import tracemalloc

    gc.collect()
    objects_before = len(gc.get_objects())
    tracemalloc.start()
    try:
        gc.collect()
        mem_before, _ = tracemalloc.get_traced_memory()
        batch = [uuidx.uuid4() for _ in range(100_000)]
        batch += uuidx.V7Generator().many(1000)
        mem_peak, _ = tracemalloc.get_traced_memory()
        del batch
        for _ in range(100_000):
            uuidx.uuid7()
        gc.collect()
        mem_after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    gc.collect()
    objects_after = len(gc.get_objects())
    # 100k UUIDs take megabytes; the tolerance is for interpreter noise (a leak of even one
    # int per UUID would be over 3 MB).
    assert mem_peak - mem_before > 5_000_000
    assert mem_after - mem_before < 500_000
    assert abs(objects_after - objects_before) < 1000


#: Values across every digit count of a 30-bit-digit int, and their edges.
INT_EDGES = [0, 1, (1 << 30) - 1, 1 << 30, (1 << 64) - 1, 1 << 64, (1 << 90) - 1, 1 << 90,
             (1 << 120) - 1, 1 << 120, (1 << 127) + 7, (1 << 128) - 1]  # fmt: skip


@settings(max_examples=examples(500))
@given(st.integers(min_value=0, max_value=(1 << 128) - 1) | st.sampled_from(INT_EDGES))
def test_ints_are_exactly_the_values(value: int) -> None:
    """The int in the slot, built through its digits on 3.9-3.13, is the value: equal, same
    hash, same text, usable in arithmetic; and uuidx reads ints CPython made back exactly."""
    u = uuid.UUID(int=value)
    ours = uuidx.parse(str(u))  # built by uuidx
    stored = object.__getattribute__(ours, "int")
    assert type(stored) is int
    assert stored == value and hash(stored) == hash(value) and str(stored) == str(value)
    assert stored + 1 - 1 == value and stored.bit_length() == value.bit_length()
    assert uuidx.to_str(u) == str(u)  # read by uuidx from CPython's int
    assert uuidx.layout.v8(value >> 80, (value >> 64) & 0xFFF, value & ((1 << 62) - 1)).int == (
        (value & ~((0xF << 76) | (0x3 << 62))) | (0x8 << 76) | (0x2 << 62)
    )


class SubUUID(uuid.UUID):
    """A user subclass: stdlib code reads ``.bytes``; uuidx reads the inherited slot."""


class DuckNamespace:
    """Not a UUID at all, but with 16 bytes in ``.bytes``, which is all the stdlib reads."""

    def __init__(self, value: bytes) -> None:
        self.bytes = value


@pytest.mark.parametrize("name", ["", "www.example.com", "\u00e9\u4e2d", b"\x00\xff"])
def test_subclass_and_duck_typed_namespaces(name: str | bytes) -> None:
    base = uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
    sub = SubUUID(int=base.int)
    duck = DuckNamespace(base.bytes)
    name_str = name if isinstance(name, str) else None
    for ns in (sub, duck):
        assert uuidx.uuid3(ns, name) == uuidx.uuid3(base, name)  # type: ignore[arg-type]
        assert uuidx.uuid5(ns, name) == uuidx.uuid5(base, name)  # type: ignore[arg-type]
        assert uuidx.uuid8_name(ns, name) == uuidx.uuid8_name(base, name)  # type: ignore[arg-type]
        if name_str is not None:
            assert uuidx.uuid3(ns, name_str) == uuid.uuid3(ns, name_str)  # type: ignore[arg-type]
            assert uuidx.uuid5(ns, name_str) == uuid.uuid5(ns, name_str)  # type: ignore[arg-type]
    duck_buffer = DuckNamespace(bytearray(base.bytes))  # type: ignore[arg-type]
    assert uuidx.uuid5(duck_buffer, "x") == uuid.uuid5(base, "x")  # type: ignore[arg-type]


def test_subclass_instances_are_accepted_everywhere() -> None:
    v7 = uuidx.uuid7()
    sub = SubUUID(int=v7.int)
    assert layout.fields(sub) == layout.fields(v7)
    assert uuidx.timestamp_ns(sub) == uuidx.timestamp_ns(v7)
    assert uuidx.to_datetime(sub) == uuidx.to_datetime(v7)
    v1 = uuidx.uuid1()
    assert uuidx.v1_to_v6(SubUUID(int=v1.int)) == uuidx.v1_to_v6(v1)
    # Results are exact uuid.UUID, never the subclass.
    assert type(uuidx.v1_to_v6(SubUUID(int=v1.int))) is uuid.UUID

"""The invariants of the unsafe fast path in ``rust/uuidx-py/src/exact.rs``, which builds
``uuid.UUID`` instances by allocating them and storing the ``int`` and ``is_safe`` slots
directly: the objects must be indistinguishable from ``uuid.UUID(int=...)``."""

from __future__ import annotations

import copy
import gc
import os
import pickle
import sys
import tracemalloc
import types
import uuid
import weakref
from collections.abc import Callable

import pytest

import uuidx
from uuidx import layout

MAKERS: list[tuple[str, Callable[[], uuid.UUID]]] = [
    ("uuid1", uuidx.uuid1),
    ("uuid3", lambda: uuidx.uuid3(uuidx.NAMESPACE_DNS, "exact")),
    ("uuid4", uuidx.uuid4),
    ("uuid5", lambda: uuidx.uuid5(uuidx.NAMESPACE_DNS, "exact")),
    ("uuid6", uuidx.uuid6),
    ("uuid7", uuidx.uuid7),
    ("uuid8", uuidx.uuid8),
    ("uuid8_name", lambda: uuidx.uuid8_name(uuidx.NAMESPACE_DNS, "exact")),
    ("parse", lambda: uuidx.parse("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")),
    ("layout.v7", lambda: layout.v7(1, 2, 3)),
    ("V7Generator.many", lambda: uuidx.V7Generator().many(2)[1]),
    ("nil", lambda: uuidx.parse("00000000-0000-0000-0000-000000000000")),
    ("max", lambda: uuidx.parse("ffffffff-ffff-ffff-ffff-ffffffffffff")),
]
MAKER_IDS = [n for n, _ in MAKERS]
MAKER_FUNCS = [f for _, f in MAKERS]
STDLIB_SLOTS = ("int", "is_safe", "__weakref__")


def test_stdlib_uuid_layout_is_what_exact_rs_expects() -> None:
    # Invariant 1 of exact.rs: 'int' and 'is_safe' are member descriptors of uuid.UUID.
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


@pytest.mark.parametrize("make", MAKER_FUNCS, ids=MAKER_IDS)
def test_hash_eq_and_ordering_with_stdlib_uuids(make: Callable[[], uuid.UUID]) -> None:
    u = make()
    ref = uuid.UUID(int=u.int)
    assert u == ref and ref == u
    assert not (u != ref)
    assert hash(u) == hash(ref) == hash(u.int)
    assert {u: 1}[ref] == 1
    assert len({u, ref}) == 1
    if u.int > 0:
        smaller = uuid.UUID(int=u.int - 1)
        assert smaller < u and u > smaller and smaller != u
    if u.int < (1 << 128) - 1:
        larger = uuid.UUID(int=u.int + 1)
        assert u < larger and larger > u and u <= larger
    assert u <= ref and u >= ref


def test_sorting_mixed_lists() -> None:
    ours = [uuidx.uuid4() for _ in range(200)]
    theirs = [uuid.uuid4() for _ in range(200)]
    mixed = sorted(ours + theirs)
    assert [u.int for u in mixed] == sorted(u.int for u in ours + theirs)


@pytest.mark.parametrize("make", MAKER_FUNCS, ids=MAKER_IDS)
def test_weakref(make: Callable[[], uuid.UUID]) -> None:
    u = make()
    r = weakref.ref(u)
    assert r() is u
    proxy = weakref.proxy(u)
    assert proxy.int == u.int
    del u
    gc.collect()
    assert r() is None


def test_gc_tracking_matches_the_stdlib() -> None:
    ref = uuid.UUID(int=1)
    for _, make in MAKERS:
        assert gc.is_tracked(make()) == gc.is_tracked(ref)


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


def test_dropping_many_uuids_frees_them() -> None:
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

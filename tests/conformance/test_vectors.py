"""RFC 9562 test vectors (Appendix A, Appendix B, §4, §5.9, §5.10, §6.6) through the public API.

Every entry of ``vectors`` goes through :func:`check_vector`, which fails on a version (or a
version 8 kind) it does not know, so a vector added to the file cannot go unchecked.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from typing import Any

import pytest

import uuidx
from uuidx import layout

Vector = dict[str, Any]


def with_version(value: int, version: int) -> int:
    """``value`` with the 4-bit version set to ``version`` and the variant set to ``10``."""
    value = (value & ~(0xF << 76)) | (version << 76)
    return (value & ~(0xC << 60)) | (0x8 << 60)


def check_parse(vector: Vector) -> uuid.UUID:
    text: str = vector["uuid"]
    u = uuidx.parse(text)
    assert type(u) is uuid.UUID
    assert u == uuid.UUID(text)
    assert str(u) == text
    assert u.version == vector["version"]
    assert u.variant == uuid.RFC_4122
    for form in (text.upper(), u.hex, u.urn, "{" + text + "}"):
        assert uuidx.parse(form) == u, form
    return u


def check_gregorian(vector: Vector, u: uuid.UUID) -> None:
    """Versions 1 and 6: layout constructor, decomposition, timestamp, stdlib accessors."""
    make = layout.v1 if vector["version"] == 1 else layout.v6
    built = make(vector["gregorian_100ns"], vector["clock_seq"], vector["node"])
    assert type(built) is uuid.UUID
    assert built == u
    f = layout.fields(u)
    if vector["version"] == 1:
        assert isinstance(f, layout.V1Fields)
    else:
        assert isinstance(f, layout.V6Fields)
    assert (f.ver, f.var, f.clock_seq, f.node) == (
        vector["version"],
        2,
        vector["clock_seq"],
        vector["node"],
    )
    assert uuidx.timestamp_ns(u) == vector["unix_ns"]
    assert u.clock_seq == vector["clock_seq"]
    assert u.node == vector["node"]
    if vector["version"] == 1:
        assert u.time == vector["gregorian_100ns"]


def check_name_based(vector: Vector, u: uuid.UUID) -> None:
    """Versions 3, 5 and name-based 8: uuidx, the stdlib and hashlib agree with the vector."""
    ns = uuidx.parse(vector["namespace"])
    assert ns == uuidx.NAMESPACE_DNS
    name: str = vector["name"]
    data = ns.bytes + name.encode("utf-8")
    version: int = vector["version"]
    funcs: dict[int, tuple[Callable[[uuid.UUID, str], uuid.UUID], str]] = {
        3: (uuidx.uuid3, "md5"),
        5: (uuidx.uuid5, "sha1"),
        8: (lambda n, s: uuidx.uuid8_name(n, s, "sha256"), "sha256"),
    }
    make, algorithm = funcs[version]
    digest = hashlib.new(algorithm, data).hexdigest()
    assert digest == vector["digest"]
    assert with_version(int(digest[:32], 16), version) == u.int
    for namespace in (uuidx.NAMESPACE_DNS, ns):
        for n in (name, name.encode("utf-8")):
            got = make(namespace, n)  # type: ignore[arg-type]
            assert type(got) is uuid.UUID
            assert got == u
    if version == 3:
        assert uuid.uuid3(uuid.NAMESPACE_DNS, name) == u
    elif version == 5:
        assert uuid.uuid5(uuid.NAMESPACE_DNS, name) == u


def check_v4(vector: Vector, u: uuid.UUID) -> None:
    random = bytes.fromhex(vector["random_bytes"])
    assert layout.v4(random) == u
    v4_any: Any = layout.v4  # any buffer is accepted, as the _core stub says
    assert v4_any(bytearray(random)) == u
    assert v4_any(memoryview(random)) == u
    f = layout.fields(u)
    assert isinstance(f, layout.V4Fields)
    assert (f.ver, f.var) == (4, 2)


def check_v7(vector: Vector, u: uuid.UUID) -> None:
    built = layout.v7(vector["unix_ts_ms"], vector["rand_a"], vector["rand_b"])
    assert type(built) is uuid.UUID
    assert built == u
    assert layout.fields(u) == layout.V7Fields(
        unix_ts_ms=vector["unix_ts_ms"],
        ver=7,
        rand_a=vector["rand_a"],
        var=2,
        rand_b=vector["rand_b"],
    )
    assert uuidx.timestamp_ns(u) == vector["unix_ts_ms"] * 1_000_000


def check_v8_custom(vector: Vector, u: uuid.UUID) -> None:
    built = layout.v8(vector["custom_a"], vector["custom_b"], vector["custom_c"])
    assert type(built) is uuid.UUID
    assert built == u
    assert layout.fields(u) == layout.V8Fields(
        custom_a=vector["custom_a"],
        ver=8,
        custom_b=vector["custom_b"],
        var=2,
        custom_c=vector["custom_c"],
    )
    # The stdlib-shaped uuid8 builds the same UUID from the same parts.
    assert uuidx.uuid8(vector["custom_a"], vector["custom_b"], vector["custom_c"]) == u


def check_vector(vector: Vector) -> None:
    """Checks one vector; fails for versions and kinds without a check."""
    version = vector["version"]
    u = check_parse(vector)
    if version in (1, 6):
        check_gregorian(vector, u)
    elif version in (3, 5):
        check_name_based(vector, u)
    elif version == 4:
        check_v4(vector, u)
    elif version == 7:
        check_v7(vector, u)
    elif version == 8 and "custom_a" in vector:
        check_v8_custom(vector, u)
    elif version == 8 and "name" in vector:
        check_name_based(vector, u)
    else:
        pytest.fail(f"no check for vector {vector!r}: add one to test_vectors.py")


def test_vector(vector: Vector) -> None:
    check_vector(vector)


def test_every_expected_version_has_a_vector(vectors: dict[str, Any]) -> None:
    versions = sorted({v["version"] for v in vectors["vectors"]})
    assert versions == [1, 3, 4, 5, 6, 7, 8]


def test_v1_and_v6_vectors_convert(vectors: dict[str, Any]) -> None:
    by_version = {v["version"]: v for v in vectors["vectors"] if v["version"] in (1, 6)}
    v1 = uuidx.parse(by_version[1]["uuid"])
    v6 = uuidx.parse(by_version[6]["uuid"])
    converted = uuidx.v1_to_v6(v1)
    assert type(converted) is uuid.UUID
    assert converted == v6
    back = uuidx.v6_to_v1(v6)
    assert type(back) is uuid.UUID
    assert back == v1
    assert uuidx.timestamp_ns(v1) == uuidx.timestamp_ns(v6)
    assert uuidx.to_datetime(v1) == uuidx.to_datetime(v6)


def test_timestamps_as_datetimes(vectors: dict[str, Any]) -> None:
    import datetime as dt

    expected = dt.datetime(2022, 2, 22, 19, 22, 22, tzinfo=dt.timezone.utc)
    for v in vectors["vectors"]:
        if v["version"] in (1, 6, 7):
            got = uuidx.to_datetime(uuidx.parse(v["uuid"]))
            assert got == expected
            assert got.tzinfo is dt.timezone.utc


def test_nil_and_max(vectors: dict[str, Any]) -> None:
    nil = uuidx.parse(vectors["nil"])
    max_ = uuidx.parse(vectors["max"])
    assert nil == uuidx.NIL and nil.int == 0
    assert max_ == uuidx.MAX and max_.int == (1 << 128) - 1
    assert type(uuidx.NIL) is uuid.UUID and type(uuidx.MAX) is uuid.UUID
    assert str(uuidx.NIL) == vectors["nil"]
    assert str(uuidx.MAX) == vectors["max"]
    assert layout.fields(nil) == layout.NilFields()
    assert layout.fields(max_) == layout.MaxFields()


def test_namespaces(vectors: dict[str, Any]) -> None:
    expected = {
        "dns": uuidx.NAMESPACE_DNS,
        "url": uuidx.NAMESPACE_URL,
        "oid": uuidx.NAMESPACE_OID,
        "x500": uuidx.NAMESPACE_X500,
    }
    assert set(vectors["namespaces"]) == set(expected)
    for key, text in vectors["namespaces"].items():
        assert uuidx.parse(text) == expected[key]
        assert str(expected[key]) == text


def test_format_example(vectors: dict[str, Any]) -> None:
    example = vectors["format_example"]
    u = uuidx.parse(example["string"])
    assert u.int == example["int"]
    assert u.urn == example["urn"]
    assert uuidx.parse(example["urn"]) == u
    assert str(u) == example["string"]

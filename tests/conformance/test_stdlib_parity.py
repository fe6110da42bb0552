"""uuidx against the standard library's ``uuid`` (and Python 3.14's semantics for the functions
this interpreter's stdlib lacks), with hypothesis.

Python 3.14 reference, transcribed from its ``uuid.py``:

- ``uuid1(node, clock_seq)``: ``node`` outside ``[0, 2**48)`` raises ``ValueError``;
  ``clock_seq`` keeps its low 14 bits (two's complement for negative ints).
- ``uuid6(node, clock_seq)``: ``node & (2**48 - 1)``, ``clock_seq & 0x3fff``.
- ``uuid8(a, b, c)``: ``a``, ``b``, ``c`` masked to 48, 12 and 62 bits; ``None`` is random.
- ``uuid3``/``uuid5``: ``str`` names as UTF-8, bytes as they are, hashed after
  ``namespace.bytes``.
"""

from __future__ import annotations

import hashlib
import sys
import uuid
from collections.abc import Callable
from types import ModuleType
from typing import Any, Optional, Union

import catalog
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from platform_facts import examples

import uuidx
from uuidx import layout

M12 = (1 << 12) - 1
M14 = (1 << 14) - 1
M48 = (1 << 48) - 1
M62 = (1 << 62) - 1

ALGORITHMS = ("sha256", "sha512", "sha3_256", "sha3_512", "shake_128", "shake_256")

#: Names as the stdlib takes them: any str (no lone surrogates) or bytes.
names: st.SearchStrategy[Union[str, bytes]] = st.text() | st.binary()
#: Ints of any size and sign, with the interesting edges drawn often.
any_ints: st.SearchStrategy[int] = st.one_of(
    st.integers(),
    st.integers(min_value=-(1 << 140), max_value=1 << 140),
    st.sampled_from(
        [
            0,
            1,
            -1,
            M12,
            M14,
            M48,
            M62,
            1 << 48,
            1 << 62,
            1 << 63,
            1 << 64,
            (1 << 64) - 1,
            1 << 65,
            -(1 << 64),
            -(1 << 64) - 1,
            1 << 128,
            -(1 << 128),
        ]
    ),
)


def with_version(value: int, version: int) -> int:
    """``value`` with the version field set to ``version`` and the RFC variant bits."""
    value = (value & ~(0xF << 76)) | (version << 76)
    return (value & ~(0xC << 60)) | (0x8 << 60)


def name_bytes(name: Union[str, bytes]) -> bytes:
    return name.encode("utf-8") if isinstance(name, str) else name


def hashlib_uuid(version: int, algorithm: str, ns: uuid.UUID, name: Union[str, bytes]) -> int:
    data = ns.bytes + name_bytes(name)
    if algorithm == "shake_128":
        digest = hashlib.shake_128(data).digest(16)
    elif algorithm == "shake_256":
        digest = hashlib.shake_256(data).digest(16)
    else:
        digest = hashlib.new(algorithm, data).digest()
    return with_version(int.from_bytes(digest[:16], "big"), version)


STDLIB_TAKES_BYTES = sys.version_info >= (3, 12)


optional_ints: st.SearchStrategy[Optional[int]] = st.one_of(st.none(), any_ints)


# --- name-based ---------------------------------------------------------------------------


@settings(max_examples=examples(300))
@given(st.uuids(), names)
@example(uuid.NAMESPACE_DNS, "www.example.com")
@example(uuid.NAMESPACE_URL, "")
@example(uuid.NAMESPACE_OID, b"\x00\xff")
def test_uuid3_uuid5_match_stdlib_and_hashlib(ns: uuid.UUID, name: Union[str, bytes]) -> None:
    for version, algorithm, ours, theirs in (
        (3, "md5", uuidx.uuid3, uuid.uuid3),
        (5, "sha1", uuidx.uuid5, uuid.uuid5),
    ):
        got = ours(ns, name)
        assert type(got) is uuid.UUID
        assert got.int == hashlib_uuid(version, algorithm, ns, name)
        assert got.version == version and got.variant == uuid.RFC_4122
        if isinstance(name, str) or STDLIB_TAKES_BYTES:
            # typeshed accepts bytes names from 3.12 on only: call through an untyped alias,
            # valid for mypy on every version (a `type: ignore` is unused on 3.12+).
            stdlib: Callable[..., uuid.UUID] = theirs
            assert got == stdlib(ns, name)


@settings(max_examples=examples(200))
@given(st.uuids(), st.binary())
def test_name_buffers_are_bytes(ns: uuid.UUID, name: bytes) -> None:
    for make in (uuidx.uuid3, uuidx.uuid5, uuidx.uuid8_name):
        expected = make(ns, name)
        assert make(ns, bytearray(name)) == expected
        assert make(ns, memoryview(name)) == expected


@settings(max_examples=examples(100))
@given(st.uuids(), names)
def test_uuid8_name_matches_hashlib(ns: uuid.UUID, name: Union[str, bytes]) -> None:
    for algorithm in ALGORITHMS:
        got = uuidx.uuid8_name(ns, name, algorithm)  # type: ignore[arg-type]
        assert type(got) is uuid.UUID
        assert got.int == hashlib_uuid(8, algorithm, ns, name), algorithm
        assert got.version == 8 and got.variant == uuid.RFC_4122
    assert uuidx.uuid8_name(ns, name) == uuidx.uuid8_name(ns, name, "sha256")


# --- uuid1 / uuid6 / uuid8 argument semantics ------------------------------------------------


def ref_uuid8(a: int, b: int, c: int) -> int:
    """Python 3.14's ``uuid8(a, b, c).int`` for given parts."""
    value = (a & M48) << 80
    value |= (b & M12) << 64
    value |= c & M62
    return value | (0x8000 << 64) | (0x8 << 60)


@settings(max_examples=examples(300))
@given(any_ints, any_ints, any_ints)
def test_uuid8_masks_like_python_314(a: int, b: int, c: int) -> None:
    got = uuidx.uuid8(a, b, c)
    assert type(got) is uuid.UUID
    assert got.int == ref_uuid8(a, b, c)
    assert got.version == 8 and got.variant == uuid.RFC_4122
    assert layout.fields(got) == layout.V8Fields(a & M48, 8, b & M12, 2, c & M62)


@settings(max_examples=examples(100))
@given(optional_ints, optional_ints, optional_ints)
def test_uuid8_none_parts_are_random(a: Optional[int], b: Optional[int], c: Optional[int]) -> None:
    first, second = uuidx.uuid8(a, b, c), uuidx.uuid8(a, b, c)
    for u in (first, second):
        assert u.version == 8 and u.variant == uuid.RFC_4122
        f = layout.fields(u)
        assert isinstance(f, layout.V8Fields)
        if a is not None:
            assert f.custom_a == a & M48
        if b is not None:
            assert f.custom_b == b & M12
        if c is not None:
            assert f.custom_c == c & M62
    if c is None:
        # 62 random bits: a repeat is a broken random source, not bad luck.
        assert first != second


def test_uuid8_without_arguments_is_random() -> None:
    values = {uuidx.uuid8() for _ in range(1000)}
    assert len(values) == 1000
    assert all(u.version == 8 and u.variant == uuid.RFC_4122 for u in values)


#: Bit positions of a v8 UUID that are not version or variant: custom_c, custom_b, custom_a.
RANDOM_BITS_V8 = [*range(0, 62), *range(64, 76), *range(80, 128)]


def test_uuid8_has_122_independent_random_bits() -> None:
    """Every free bit varies, and no two of them move together (bits cut twice from one draw
    would agree, or disagree, on every UUID). With 2000 UUIDs, two independent bits agree on
    all of them with probability 2**-2000."""
    draws = [uuidx.uuid8().int for _ in range(2000)]
    columns = {p: sum(((v >> p) & 1) << i for i, v in enumerate(draws)) for p in RANDOM_BITS_V8}
    everything = (1 << len(draws)) - 1
    assert len(RANDOM_BITS_V8) == 122
    for p, column in columns.items():
        assert column not in (0, everything), f"bit {p} is constant"
    seen: dict[int, int] = {}
    for p, column in columns.items():
        key = min(column, column ^ everything)  # a bit and its complement move together
        assert key not in seen, f"bits {seen.get(key)} and {p} move together"
        seen[key] = p


@settings(max_examples=examples(300))
@given(st.one_of(st.none(), any_ints), st.one_of(st.none(), any_ints))
def test_uuid6_masks_like_python_314(node: Optional[int], clock_seq: Optional[int]) -> None:
    u = uuidx.uuid6(node, clock_seq)
    assert type(u) is uuid.UUID
    assert u.version == 6 and u.variant == uuid.RFC_4122
    f = layout.fields(u)
    assert isinstance(f, layout.V6Fields)
    expected_node = uuidx.process_node() if node is None else node & M48
    assert f.node == expected_node == u.node
    if clock_seq is not None:
        assert f.clock_seq == clock_seq & M14 == u.clock_seq


@settings(max_examples=examples(300))
@given(
    st.one_of(st.integers(min_value=0, max_value=M48), any_ints),
    st.one_of(st.none(), any_ints),
)
@example(0, None)
@example(M48, -1)
@example(1 << 48, 0)
@example(-1, 0)
@example(1 << 64, 0)
def test_uuid1_arguments_like_the_stdlib(node: int, clock_seq: Optional[int]) -> None:
    if not 0 <= node < 1 << 48:
        with pytest.raises(ValueError):
            uuid.uuid1(node, clock_seq)
        with pytest.raises(ValueError, match=str(node)):
            uuidx.uuid1(node, clock_seq)
        return
    got = uuidx.uuid1(node, clock_seq)
    theirs = uuid.uuid1(node, clock_seq)
    assert type(got) is uuid.UUID
    assert got.version == 1 and got.variant == uuid.RFC_4122
    assert got.node == node == theirs.node
    if clock_seq is not None:
        assert got.clock_seq == clock_seq & M14 == theirs.clock_seq
    f = layout.fields(got)
    assert isinstance(f, layout.V1Fields)
    assert f.node == node


def test_uuid1_uuid6_clock_seq_default_and_explicit() -> None:
    for make in (uuidx.uuid1, uuidx.uuid6):
        # Without a clock_seq, the generator's own (RFC 9562 §6.3): drawn once and kept, a
        # documented difference from the stdlib, which draws one per call. An explicit
        # clock_seq does not disturb it.
        default = make(clock_seq=None).clock_seq
        assert {make(clock_seq=None).clock_seq for _ in range(200)} == {default}
        explicit = [make(clock_seq=s).clock_seq for s in range(0, 1 << 14, 37)]
        assert explicit == list(range(0, 1 << 14, 37))
        assert make().clock_seq == default


# --- exact types --------------------------------------------------------------------------

#: Every call shape that returns a UUID (the catalogue's), UUIDs from lists and pairs, and the
#: constants.
GENERATORS: list[tuple[str, Callable[[], object]]] = [
    *(
        (catalog.shape_id((e, s)), lambda e=e, s=s: e.call(s))
        for e, s in catalog.shapes(lambda e, s: e.returns_uuid and s.raises is None)
    ),
    ("uuid7_bounds-lo", lambda: uuidx.uuid7_bounds(0, 10**9)[0]),
    ("uuid7_bounds-hi", lambda: uuidx.uuid7_bounds(0, 10**9)[1]),
    ("V7Generator.many", lambda: uuidx.V7Generator("counter").many(3)[2]),
    ("uuid1-args", lambda: uuidx.uuid1(5, 7)),
    ("uuid6-args", lambda: uuidx.uuid6(-1, -1)),
    ("uuid8_name-shake_256", lambda: uuidx.uuid8_name(uuidx.NAMESPACE_OID, "a", "shake_256")),
    ("parse-urn", lambda: uuidx.parse("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")),
    ("NIL", lambda: uuidx.NIL),
    ("MAX", lambda: uuidx.MAX),
]


@pytest.mark.parametrize("make", [g for _, g in GENERATORS], ids=[n for n, _ in GENERATORS])
def test_every_generator_returns_exact_stdlib_uuid(make: Callable[[], object]) -> None:
    u = make()
    assert type(u) is uuid.UUID
    assert u.is_safe is uuid.SafeUUID.unknown
    assert type(u.int) is int
    # The stdlib's str() of the object and uuidx's Rust formatting agree, and each parser
    # reads the other's text back to an equal object.
    assert str(u) == uuidx.to_str(u)
    assert uuidx.parse(str(u)) == u == uuid.UUID(uuidx.to_str(u))


# --- parse against uuid.UUID(str) -------------------------------------------------------------

URN_PREFIX = "urn:uuid:"

#: Characters around the accepted forms: hex digits of both cases, separators, the URN prefix's
#: letters, whitespace, what ``int(x, 16)`` tolerates (``+``, ``_``, ``0x``), and non-ASCII
#: characters (digits and letters included, which ``int()`` may accept).
ALPHABET = (
    "0123456789abcdefABCDEF"
    "-{}:urnidURNID"
    " \t\n\r\x0b\x0c"
    "+_xXgG"
    "\u00e9\u00df\u0660\u0661\u0966\uff10\uff41\u00a0\u2028\u212a\u0130\ud800"
)

CANDIDATE_CHARS: st.SearchStrategy[str] = st.sampled_from(ALPHABET)


def forms(u: uuid.UUID) -> list[str]:
    """Every accepted rendering of ``u``, lower and upper case."""
    base = [str(u), u.hex, u.urn, "{" + str(u) + "}", "URN:UUID:" + str(u), "Urn:Uuid:" + str(u)]
    return base + [s.upper() for s in base] + [URN_PREFIX + str(u).upper()]


@st.composite
def mutated_forms(draw: st.DrawFn) -> str:
    """A valid rendering of a random UUID with one to three small edits."""
    u = draw(st.uuids(allow_nil=True))
    s = draw(st.sampled_from(forms(u)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        op = draw(st.sampled_from(["replace", "insert", "delete", "swapcase", "wrap", "dup"]))
        i = draw(st.integers(min_value=0, max_value=len(s)))
        c = draw(CANDIDATE_CHARS)
        if op == "replace" and i < len(s):
            s = s[:i] + c + s[i + 1 :]
        elif op == "insert":
            s = s[:i] + c + s[i:]
        elif op == "delete" and i < len(s):
            s = s[:i] + s[i + 1 :]
        elif op == "swapcase":
            s = s[:i] + s[i:].swapcase()
        elif op == "wrap":
            s = c + s + draw(CANDIDATE_CHARS)
        elif op == "dup" and i < len(s):
            s = s[:i] + s[i] + s[i:]
    return s


@st.composite
def sized_text(draw: st.DrawFn) -> str:
    """Text over ``ALPHABET`` whose length is usually one of the accepted lengths."""
    size = draw(st.sampled_from([32, 36, 38, 45]) | st.integers(min_value=0, max_value=50))
    # Mostly hex digits and hyphens, so that some candidates are accepted.
    weighted = st.sampled_from(list("0123456789abcdefABCDEF-") * 12 + list(ALPHABET))
    chars = draw(st.lists(weighted, min_size=size, max_size=size))
    return "".join(chars)


def is_other_case_urn(s: str) -> bool:
    return len(s) == 45 and s[:9].lower() == URN_PREFIX and s[:9] != URN_PREFIX


def check_parse_against_stdlib(s: str) -> None:
    """``parse`` accepts nothing ``uuid.UUID`` rejects and agrees with it on the value, except
    for a ``urn:uuid:`` prefix in another case (RFC 8141: case-insensitive), which the stdlib
    rejects."""
    try:
        got = uuidx.parse(s)
    except ValueError:
        return
    assert type(got) is uuid.UUID
    if is_other_case_urn(s):
        with pytest.raises(ValueError):
            uuid.UUID(s)
        expected = uuid.UUID(URN_PREFIX + s[9:])
    else:
        expected = uuid.UUID(s)  # must not raise: parse is stricter than the stdlib
    assert got == expected, s
    assert got.int == expected.int


@settings(max_examples=examples(1000), suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=CANDIDATE_CHARS, max_size=50))
def test_parse_text_over_alphabet(s: str) -> None:
    check_parse_against_stdlib(s)


@settings(max_examples=examples(1000), suppress_health_check=[HealthCheck.too_slow])
@given(sized_text())
def test_parse_text_of_accepted_lengths(s: str) -> None:
    check_parse_against_stdlib(s)


@settings(max_examples=examples(300))
@given(st.text(max_size=50))
def test_parse_arbitrary_text(s: str) -> None:
    check_parse_against_stdlib(s)


@settings(max_examples=examples(2000), suppress_health_check=[HealthCheck.too_slow])
@given(mutated_forms())
@example("0x" + "f" * 30)
@example(" " + "f" * 31)
@example("f" * 31 + "\n")
@example("+" + "f" * 31)
@example("ff_" + "f" * 29)
@example("{{" + "f" * 32 + "}}")
@example("{" + "f" * 34 + "}")
@example("urn:uuid:" + "f" * 32 + "----")
@example("urn:" + "f" * 32)
@example("\u0660" * 32)
@example("-" * 4 + "f" * 32)
@example("ffffffff-ffff-ffff-ffff-ffffffffffff}")
@example("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")
@example("uRn:uUiD:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
def test_parse_mutated_forms(s: str) -> None:
    check_parse_against_stdlib(s)


def test_parse_accepts_the_documented_urn_deviation() -> None:
    for prefix in ("URN:UUID:", "Urn:Uuid:", "urn:UUID:", "URN:uuid:"):
        s = prefix + "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
        assert is_other_case_urn(s)
        assert uuidx.parse(s) == uuid.UUID("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
        with pytest.raises(ValueError):
            uuid.UUID(s)


def test_parse_rejects_what_the_stdlib_tolerates() -> None:
    """The stdlib strips every '{', '}', '-', 'urn:' and 'uuid:' and hands the rest to
    ``int(x, 16)``; parse keeps to RFC 9562 §4 and these four forms."""
    lax = [
        "f81d4fae7dec11d0a76500a0c91e6bf6".replace("f8", "0x", 1),
        "{{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}}",
        "f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
        "f81d4fae7dec-11d0-a765-00a0c91e6bf6-",
        "f-8-1-d-4fae7dec11d0a76500a0c91e6bf6",
        "urn:f81d4fae7dec11d0a76500a0c91e6bf6",
        "urn:uuid:f81d4fae7dec11d0a76500a0c91e6bf6",
        "{urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
        " f81d4fae7dec11d0a76500a0c91e6b ",
        "+f81d4fae7dec11d0a76500a0c91e6bf",
        "f81d4fae_7dec11d0a76500a0c91e6bf",
        "\u0660" * 32,
    ]
    for s in lax:
        uuid.UUID(s)  # the stdlib takes it
        with pytest.raises(ValueError):
            uuidx.parse(s)


@settings(max_examples=examples(300))
@given(st.uuids(allow_nil=True))
@example(uuid.UUID(int=0))
@example(uuid.UUID(int=(1 << 128) - 1))
def test_parse_round_trips_canonical_forms(u: uuid.UUID) -> None:
    for s in (str(u), u.hex, u.urn, "{" + str(u) + "}"):
        for text in (s, s.upper(), s.lower()):
            got = uuidx.parse(text)
            assert type(got) is uuid.UUID
            assert got == u, text
            assert uuid.UUID(text.replace("URN:UUID:", URN_PREFIX)) == u


@settings(max_examples=examples(300))
@given(st.text(max_size=60) | st.text(alphabet=CANDIDATE_CHARS, max_size=60))
def test_parse_raises_only_value_error(s: str) -> None:
    try:
        uuidx.parse(s)
    except ValueError:
        pass


# --- the module surface -------------------------------------------------------------------

PY314_PUBLIC = [
    "UUID", "SafeUUID", "getnode",
    "uuid1", "uuid3", "uuid4", "uuid5", "uuid6", "uuid7", "uuid8",
    "NAMESPACE_DNS", "NAMESPACE_URL", "NAMESPACE_OID", "NAMESPACE_X500",
    "NIL", "MAX",
    "RESERVED_NCS", "RFC_4122", "RESERVED_MICROSOFT", "RESERVED_FUTURE", "main",
]  # fmt: skip


def test_exposes_python_314_public_names() -> None:
    for name in PY314_PUBLIC:
        assert hasattr(uuidx, name), name
        assert name in uuidx.__all__, name


def test_all_names_exist() -> None:
    for name in uuidx.__all__:
        assert hasattr(uuidx, name), name
    for name in layout.__all__:
        assert hasattr(layout, name), name


def test_shared_objects_are_the_stdlib_ones() -> None:
    assert uuidx.UUID is uuid.UUID
    assert uuidx.SafeUUID is uuid.SafeUUID
    assert uuidx.getnode is uuid.getnode
    for name in ("RESERVED_NCS", "RFC_4122", "RESERVED_MICROSOFT", "RESERVED_FUTURE"):
        assert getattr(uuidx, name) == getattr(uuid, name)
    for name in ("NAMESPACE_DNS", "NAMESPACE_URL", "NAMESPACE_OID", "NAMESPACE_X500"):
        assert getattr(uuidx, name) == getattr(uuid, name)
        assert type(getattr(uuidx, name)) is uuid.UUID
    for name in ("NIL", "MAX"):
        if hasattr(uuid, name):  # Python 3.14+
            assert getattr(uuidx, name) == getattr(uuid, name)


def stdlib_style_app(uuid: ModuleType) -> list[Any]:
    """Code written against the stdlib's ``uuid`` module, unchanged; run with either."""
    out: list[Any] = []
    site = uuid.uuid5(uuid.NAMESPACE_URL, "https://example.com/")
    out.append(str(site))
    out.append(uuid.uuid3(uuid.NAMESPACE_DNS, "python.org").hex)
    out.append(uuid.uuid5(uuid.NAMESPACE_X500, "CN=x").urn)
    u = uuid.UUID("{12345678-1234-5678-1234-567812345678}")
    out.append((u.int, u.version, u.variant == uuid.RFC_4122, u.urn, u.fields, u.bytes_le))
    r = uuid.uuid4()
    out.append((isinstance(r, uuid.UUID), r.version, r.variant == uuid.RFC_4122))
    out.append(uuid.UUID(bytes=r.bytes) == r and uuid.UUID(hex=r.hex) == r)
    t = uuid.uuid1(node=0x123456789ABC, clock_seq=0x1234)
    out.append((t.version, t.node, t.clock_seq))
    out.append(sorted([uuid.UUID(int=3), uuid.UUID(int=1), site])[0].int)
    out.append({uuid.UUID(int=7): "seven"}[uuid.UUID(int=7)])
    out.append(uuid.SafeUUID.unknown.value)
    out.append(callable(uuid.getnode))
    try:
        uuid.uuid1(node=1 << 48)
    except ValueError:
        out.append("node rejected")
    return out


def test_import_uuidx_as_uuid_runs_stdlib_code() -> None:
    assert stdlib_style_app(uuidx) == stdlib_style_app(uuid)


def py314_style_app(uuid: ModuleType) -> list[Any]:
    """Code written for Python 3.14's ``uuid``: the new functions and constants."""
    a, b = uuid.uuid7(), uuid.uuid7()
    return [
        (a.version, b.version, a < b),
        uuid.uuid6().version,
        uuid.uuid6(node=5, clock_seq=6).node,
        uuid.uuid8(1, 2, 3).int,
        str(uuid.NIL),
        str(uuid.MAX),
    ]


def test_python_314_api_runs_on_uuidx() -> None:
    assert py314_style_app(uuidx) == [
        (7, 7, True),
        6,
        5,
        ref_uuid8(1, 2, 3),
        "00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
    ]


def test_namespace_may_be_any_stdlib_uuid() -> None:
    # Anything with .bytes is a namespace in the stdlib; UUIDs made any way work the same.
    ns = uuid.UUID(bytes=bytes(range(16)))
    assert uuidx.uuid5(ns, "x") == uuid.uuid5(ns, "x")
    assert uuidx.uuid3(uuidx.parse(str(ns)), "x") == uuid.uuid3(ns, "x")

"""UUID field layouts (RFC 9562 §5): constructors that set version and variant, and
:func:`fields`, which decomposes a UUID into the fields the RFC names for its version.

The constructors are strict: a field that does not fit its width raises ``ValueError``
naming the field and the value (the stdlib-shaped ``uuid6``/``uuid8`` truncate instead).
"""

from __future__ import annotations

from typing import Literal, NamedTuple, Optional, Union, overload
from uuid import UUID

from . import _core

__all__ = [
    "Fields",
    "MaxFields",
    "NilFields",
    "V1Fields",
    "V2Fields",
    "V3Fields",
    "V4Fields",
    "V5Fields",
    "V6Fields",
    "V7Fields",
    "V8Fields",
    "V7GeneratorFields",
    "V7Method",
    "fields",
    "v1",
    "v2",
    "v4",
    "v6",
    "v7",
    "v8",
]


class V1Fields(NamedTuple):
    """Version 1, Gregorian time-based (RFC 9562 §5.1)."""

    time_low: int
    time_mid: int
    ver: int
    time_high: int
    var: int
    clock_seq: int
    node: int


class V2Fields(NamedTuple):
    """Version 2, DCE Security (RFC 9562 §5.2; DCE 1.1)."""

    local_id: int
    time_mid: int
    ver: int
    time_high: int
    var: int
    clock_seq: int
    local_domain: int
    node: int


class V3Fields(NamedTuple):
    """Version 3, MD5 name-based (RFC 9562 §5.3)."""

    md5_high: int
    ver: int
    md5_mid: int
    var: int
    md5_low: int


class V4Fields(NamedTuple):
    """Version 4, random (RFC 9562 §5.4)."""

    random_a: int
    ver: int
    random_b: int
    var: int
    random_c: int


class V5Fields(NamedTuple):
    """Version 5, SHA-1 name-based (RFC 9562 §5.5)."""

    sha1_high: int
    ver: int
    sha1_mid: int
    var: int
    sha1_low: int


class V6Fields(NamedTuple):
    """Version 6, reordered Gregorian time-based (RFC 9562 §5.6)."""

    time_high: int
    time_mid: int
    ver: int
    time_low: int
    var: int
    clock_seq: int
    node: int


class V7Fields(NamedTuple):
    """Version 7, Unix Epoch time-based (RFC 9562 §5.7)."""

    unix_ts_ms: int
    ver: int
    rand_a: int
    var: int
    rand_b: int


class V8Fields(NamedTuple):
    """Version 8, custom (RFC 9562 §5.8)."""

    custom_a: int
    ver: int
    custom_b: int
    var: int
    custom_c: int


V7Method = Literal["submillisecond", "counter", "monotonic_random", "cpython"]
"""The methods of :class:`uuidx.V7Generator` (RFC 9562 §6.2, and CPython 3.14's)."""


class V7GeneratorFields(NamedTuple):
    """A version 7 UUID as a monotonic generator laid out the 74 bits after ``unix_ts_ms``
    (RFC 9562 §6.2, §6.4): the sub-millisecond ``fraction`` (Method 3), the ``counter``, a
    fixed ``node`` id and the fresh ``random`` bits, left to right, the version and variant
    bits skipped."""

    unix_ts_ms: int
    fraction: int
    counter: int
    node: int
    random: int


class NilFields(NamedTuple):
    """The Nil UUID (RFC 9562 §5.9): no fields."""


class MaxFields(NamedTuple):
    """The Max UUID (RFC 9562 §5.10): no fields."""


Fields = Union[
    V1Fields,
    V2Fields,
    V3Fields,
    V4Fields,
    V5Fields,
    V6Fields,
    V7Fields,
    V8Fields,
    NilFields,
    MaxFields,
]

_TYPES: dict[str, type[Fields]] = {
    "v1": V1Fields,
    "v2": V2Fields,
    "v3": V3Fields,
    "v4": V4Fields,
    "v5": V5Fields,
    "v6": V6Fields,
    "v7": V7Fields,
    "v8": V8Fields,
    "nil": NilFields,
    "max": MaxFields,
}


@overload
def fields(u: UUID) -> Fields: ...
@overload
def fields(
    u: UUID, *, method: V7Method, bits: Optional[int] = None, node_bits: int = 0
) -> V7GeneratorFields: ...
def fields(
    u: UUID,
    *,
    method: Optional[V7Method] = None,
    bits: Optional[int] = None,
    node_bits: int = 0,
) -> Union[Fields, V7GeneratorFields]:
    """Decompose ``u`` into the fields RFC 9562 §5 names for its version.

    With ``method`` (and ``bits``, ``node_bits`` as given to :class:`uuidx.V7Generator`), a
    version 7 UUID is split as that generator lays it out instead: fraction, counter, node
    and random bits (RFC 9562 §6.2, §6.4).

    Args:
        u: Any ``uuid.UUID``; a version 7 one when ``method`` is given.
        method: A :class:`uuidx.V7Generator` method: ``"submillisecond"``, ``"counter"``,
            ``"monotonic_random"`` or ``"cpython"``.
        bits: The method's width, as given to the generator (its default when ``None``).
        node_bits: The width of the generator's node id, 0 for none.

    Returns:
        A ``V1Fields`` ... ``V8Fields``, ``NilFields`` or ``MaxFields`` named tuple, ``ver``
        and ``var`` included, in the order of the RFC's figures; with ``method``, a
        ``V7GeneratorFields``.

    Raises:
        TypeError: ``u`` is not a ``uuid.UUID``.
        ValueError: ``u`` is neither Nil, Max nor of the RFC variant with a version 1 to 8;
            with ``method``, ``u`` is not version 7 or the widths are invalid.
    """
    if method is not None:
        return V7GeneratorFields(*_core.v7_generator_fields(u, method, bits, node_bits))
    layout, names, values = _core.fields(u)
    cls = _TYPES[layout]
    assert cls._fields == names, (cls._fields, names)
    return cls(*values)


def v1(time_100ns: int, clock_seq: int, node: int) -> UUID:
    """Version 1 from a 60-bit timestamp (100-ns intervals since 1582-10-15), a 14-bit
    clock sequence and a 48-bit node (RFC 9562 §5.1).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """
    return _core.layout_v1(time_100ns, clock_seq, node)


def v2(local_domain: int, local_id: int, time_100ns: int, clock_seq: int, node: int) -> UUID:
    """Version 2, DCE Security: an 8-bit local domain (0 person, 1 group, 2 org), a 32-bit
    local id (a POSIX UID/GID), a 60-bit timestamp of which the high 28 bits are kept, a
    6-bit clock sequence and a 48-bit node (RFC 9562 §5.2; DCE 1.1).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """
    return _core.layout_v2(local_domain, local_id, time_100ns, clock_seq, node)


def v4(random: bytes) -> UUID:
    """Version 4 from 16 random bytes; the version and variant bits are overwritten
    (RFC 9562 §5.4).

    Raises:
        TypeError: ``random`` is not bytes-like.
        ValueError: ``random`` is not 16 bytes long.
    """
    return _core.layout_v4(random)


def v6(time_100ns: int, clock_seq: int, node: int) -> UUID:
    """Version 6 from a 60-bit timestamp (100-ns intervals since 1582-10-15), a 14-bit
    clock sequence and a 48-bit node (RFC 9562 §5.6).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """
    return _core.layout_v6(time_100ns, clock_seq, node)


def v7(unix_ts_ms: int, rand_a: int, rand_b: int) -> UUID:
    """Version 7 from a 48-bit Unix millisecond timestamp, 12 bits of ``rand_a`` and 62 bits
    of ``rand_b`` (RFC 9562 §5.7).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """
    return _core.layout_v7(unix_ts_ms, rand_a, rand_b)


def v8(custom_a: int, custom_b: int, custom_c: int) -> UUID:
    """Version 8 from 48, 12 and 62 bits of custom data (RFC 9562 §5.8).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """
    return _core.layout_v8(custom_a, custom_b, custom_c)

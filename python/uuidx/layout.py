"""UUID field layouts (RFC 9562 §5): constructors that set version and variant, and
:func:`fields`, which decomposes a UUID into the fields the RFC names for its version.

The constructors are strict: a field that does not fit its width raises ``ValueError``
naming the field and the value (the stdlib-shaped ``uuid6``/``uuid8`` truncate instead).

The named tuples of the layouts are built at import from the core's tables (their fields'
names, widths and positions), so that they cannot disagree with the core; type checkers read
the same classes as written out below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Optional, Union, overload
from uuid import UUID

from . import _core
from .typing import V7Method

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


if TYPE_CHECKING:

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

    class NilFields(NamedTuple):
        """The Nil UUID (RFC 9562 §5.9): no fields."""

    class MaxFields(NamedTuple):
        """The Max UUID (RFC 9562 §5.10): no fields."""

else:

    def _named_tuple(name: str, title: str, fields: tuple[tuple[str, int, int], ...]) -> type:
        cls = NamedTuple(f"{name.capitalize()}Fields", [(field, int) for field, _, _ in fields])
        cls.__doc__ = title
        cls.__module__ = __name__
        return cls

    _BUILT = {
        name: _named_tuple(name, title, fields) for name, _, title, fields in _core._layouts()
    }
    V1Fields, V2Fields, V3Fields, V4Fields = _BUILT["v1"], _BUILT["v2"], _BUILT["v3"], _BUILT["v4"]
    V5Fields, V6Fields, V7Fields, V8Fields = _BUILT["v5"], _BUILT["v6"], _BUILT["v7"], _BUILT["v8"]
    NilFields, MaxFields = _BUILT["nil"], _BUILT["max"]


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

#: The named tuple of each layout, by the core's name for it.
_TYPES: dict[str, type[Fields]] = {
    name: globals()[f"{name.capitalize()}Fields"] for name, _, _, _ in _core._layouts()
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
    layout, _, values = _core.fields(u)
    return _TYPES[layout](*values)


def v1(time_100ns: int, clock_seq: int, node: int) -> UUID:
    return _core.layout_v1(time_100ns, clock_seq, node)


v1.__doc__ = _core.layout_v1.__doc__


def v2(local_domain: int, local_id: int, time_100ns: int, clock_seq: int, node: int) -> UUID:
    return _core.layout_v2(local_domain, local_id, time_100ns, clock_seq, node)


v2.__doc__ = _core.layout_v2.__doc__


def v4(random: bytes) -> UUID:
    return _core.layout_v4(random)


v4.__doc__ = _core.layout_v4.__doc__


def v6(time_100ns: int, clock_seq: int, node: int) -> UUID:
    return _core.layout_v6(time_100ns, clock_seq, node)


v6.__doc__ = _core.layout_v6.__doc__


def v7(unix_ts_ms: int, rand_a: int, rand_b: int) -> UUID:
    return _core.layout_v7(unix_ts_ms, rand_a, rand_b)


v7.__doc__ = _core.layout_v7.__doc__


def v8(custom_a: int, custom_b: int, custom_c: int) -> UUID:
    return _core.layout_v8(custom_a, custom_b, custom_c)


v8.__doc__ = _core.layout_v8.__doc__

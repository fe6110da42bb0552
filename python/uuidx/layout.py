"""UUID field layouts (RFC 9562 §5): build a UUID from its fields, or split one into them.

- The constructors :func:`v1`, :func:`v2`, :func:`v4`, :func:`v6`, :func:`v7` and :func:`v8`
  take the fields the RFC names for their version and set the version and variant bits. They
  are strict: a field that does not fit its width raises ``ValueError`` naming the field and
  the value (the stdlib-shaped :func:`uuidx.uuid6` and :func:`uuidx.uuid8` truncate instead).
- :func:`fields` splits a UUID into the fields of its version: a named tuple per layout
  (:class:`V1Fields` to :class:`V8Fields`, :class:`NilFields`, :class:`MaxFields`; any of them
  is a :data:`Fields`), or, given a :data:`V7Method`, a :class:`V7GeneratorFields` that splits
  a version 7 UUID as a :class:`uuidx.V7Generator` laid it out.

```python
import uuidx
from uuidx import layout

u = layout.v7(unix_ts_ms=1_645_557_742_000, rand_a=0xCC3, rand_b=0x18C4DC0C0C07398F)
assert str(u) == "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"  # RFC 9562 Appendix A.6
assert layout.fields(u) == layout.V7Fields(1_645_557_742_000, 7, 0xCC3, 2, 0x18C4DC0C0C07398F)
```

The named tuples are built at import from the core's tables (their fields' names, widths and
positions), so that they cannot disagree with the core; type checkers and this page read the
same classes, written out in the module's source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Optional, Union, overload
from uuid import UUID

from . import _core
from .typing import V7Method, V7Preset

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
    from typing_extensions import TypeAlias

    class V1Fields(NamedTuple):
        """Version 1, Gregorian time-based (RFC 9562 §5.1)."""

        time_low: int
        """The least significant 32 bits of the 60-bit timestamp (100-ns intervals since
        1582-10-15)."""
        time_mid: int
        """The middle 16 bits of the timestamp."""
        ver: int
        """The 4-bit version field: 1."""
        time_high: int
        """The most significant 12 bits of the timestamp."""
        var: int
        """The 2-bit variant field: 0b10 (2), the RFC's variant."""
        clock_seq: int
        """The 14-bit clock sequence."""
        node: int
        """The 48-bit node (a MAC address, or random with the multicast bit set)."""

    class V2Fields(NamedTuple):
        """Version 2, DCE Security (RFC 9562 §5.2; DCE 1.1)."""

        local_id: int
        """The 32-bit local identifier, a POSIX UID or GID (in place of ``time_low``)."""
        time_mid: int
        """The middle 16 bits of the 60-bit timestamp (100-ns intervals since 1582-10-15)."""
        ver: int
        """The 4-bit version field: 2."""
        time_high: int
        """The most significant 12 bits of the timestamp."""
        var: int
        """The 2-bit variant field: 0b10 (2), the RFC's variant."""
        clock_seq: int
        """The 6-bit clock sequence."""
        local_domain: int
        """The 8-bit local domain: 0 person, 1 group, 2 org (in place of the clock sequence's low
        octet)."""
        node: int
        """The 48-bit node."""

    class V3Fields(NamedTuple):
        """Version 3, MD5 name-based (RFC 9562 §5.3)."""

        md5_high: int
        """The first 48 bits of the MD5 hash of the namespace and the name."""
        ver: int
        """The 4-bit version field: 3."""
        md5_mid: int
        """The next 12 bits of the hash."""
        var: int
        """The 2-bit variant field: 0b10 (2), the RFC's variant."""
        md5_low: int
        """The 62 bits of the hash after the variant."""

    class V4Fields(NamedTuple):
        """Version 4, random (RFC 9562 §5.4)."""

        random_a: int
        """48 random bits."""
        ver: int
        """The 4-bit version field: 4."""
        random_b: int
        """12 random bits."""
        var: int
        """The 2-bit variant field: 0b10 (2), the RFC's variant."""
        random_c: int
        """62 random bits."""

    class V5Fields(NamedTuple):
        """Version 5, SHA-1 name-based (RFC 9562 §5.5)."""

        sha1_high: int
        """The first 48 bits of the SHA-1 hash of the namespace and the name."""
        ver: int
        """The 4-bit version field: 5."""
        sha1_mid: int
        """The next 12 bits of the hash."""
        var: int
        """The 2-bit variant field: 0b10 (2), the RFC's variant."""
        sha1_low: int
        """The 62 bits of the hash after the variant (the rest of the hash is dropped)."""

    class V6Fields(NamedTuple):
        """Version 6, reordered Gregorian time-based (RFC 9562 §5.6)."""

        time_high: int
        """The most significant 32 bits of the 60-bit timestamp (100-ns intervals since
        1582-10-15)."""
        time_mid: int
        """The middle 16 bits of the timestamp."""
        ver: int
        """The 4-bit version field: 6."""
        time_low: int
        """The least significant 12 bits of the timestamp."""
        var: int
        """The 2-bit variant field: 0b10 (2), the RFC's variant."""
        clock_seq: int
        """The 14-bit clock sequence."""
        node: int
        """The 48-bit node."""

    class V7Fields(NamedTuple):
        """Version 7, Unix Epoch time-based (RFC 9562 §5.7)."""

        unix_ts_ms: int
        """The 48-bit timestamp: milliseconds since 1970-01-01T00:00:00Z."""
        ver: int
        """The 4-bit version field: 7."""
        rand_a: int
        """12 bits: random, or a sub-millisecond fraction or counter (RFC 9562 §6.2)."""
        var: int
        """The 2-bit variant field: 0b10 (2), the RFC's variant."""
        rand_b: int
        """62 bits: random, or a counter followed by random bits (RFC 9562 §6.2)."""

    class V8Fields(NamedTuple):
        """Version 8, custom (RFC 9562 §5.8)."""

        custom_a: int
        """48 bits of custom data."""
        ver: int
        """The 4-bit version field: 8."""
        custom_b: int
        """12 bits of custom data."""
        var: int
        """The 2-bit variant field: 0b10 (2), the RFC's variant."""
        custom_c: int
        """62 bits of custom data."""

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
    """The 48-bit timestamp: milliseconds since 1970-01-01T00:00:00Z."""
    fraction: int
    """The sub-millisecond fraction of the timestamp in 4096ths (``"submillisecond"``), 0 for the
    other methods."""
    counter: int
    """The counter that orders the UUIDs of one millisecond (``bits`` wide), 0 when the method has
    none."""
    node: int
    """The fixed node id (``node_bits`` wide), 0 when ``node_bits`` is 0."""
    random: int
    """The random bits that fill the rest of the 74 bits after the timestamp."""


Fields: TypeAlias = Union[
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
"""What :func:`fields` returns for a UUID: the named tuple of its version's layout
(:class:`V1Fields` to :class:`V8Fields`), or :class:`NilFields` or :class:`MaxFields` (no
fields) for the Nil and Max UUIDs. Each lists the fields left to right as the RFC's figure for
that version draws them, ``ver`` and ``var`` included: ``fields(u).ver`` is ``u.version``.
Narrow it with ``isinstance`` (``isinstance(f, V7Fields)``) or ``match``."""

#: The named tuple of each layout, by the core's name for it.
_TYPES: dict[str, type[Fields]] = {
    name: globals()[f"{name.capitalize()}Fields"] for name, _, _, _ in _core._layouts()
}


@overload
def fields(u: UUID) -> Fields: ...
@overload
def fields(
    u: UUID,
    *,
    method: Union[V7Method, V7Preset],
    bits: Optional[int] = None,
    node_bits: int = 0,
) -> V7GeneratorFields: ...
def fields(
    u: UUID,
    *,
    method: Optional[Union[V7Method, V7Preset]] = None,
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
            ``"monotonic_random"`` or ``"cpython"``, or a preset (``"postgresql"``).
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

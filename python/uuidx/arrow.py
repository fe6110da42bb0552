"""UUID columns as Arrow arrays: many UUIDs per call, for pyarrow, Polars, DuckDB, pandas and
Spark.

A column of UUIDs is a :class:`UUIDArray`: Arrow's ``FixedSizeBinary(16)``, each value a
UUID's 16 octets in network order (RFC 9562 §4), tagged with Arrow's canonical extension type
``arrow.uuid`` (what ``pa.uuid()`` is) unless made with ``extension=False`` (plain
``FixedSizeBinary(16)``, for consumers that reject the extension, such as Polars). Columns that
are not UUIDs (:func:`to_str`, :func:`encode`, :func:`timestamp_ns`) are :class:`ArrowArray` objects. Both
export themselves through the Arrow PyCapsule interface (``__arrow_c_array__``,
``__arrow_c_schema__``), so any Arrow library reads them without a copy::

    import pyarrow as pa, polars as pl, uuidx.arrow

    keys = uuidx.arrow.uuid7(1_000_000)                 # strictly increasing v7 keys
    pa.array(keys).type == pa.uuid()                    # True
    pl.Series("id", uuidx.arrow.uuid7(10, extension=False))   # binary column
    ids = uuidx.arrow.uuid5(uuidx.NAMESPACE_URL, pa.array(["a", "b", None]))

Every function that reads UUIDs accepts a :class:`UUIDArray`, any object exporting an Arrow
``FixedSizeBinary(16)`` array or stream (with or without ``arrow.uuid``; a pyarrow ``Array`` or
``ChunkedArray``, a pandas ``Series``, ...), a binary column whose values all have 16 bytes
(what a Polars ``Series`` makes of ``FixedSizeBinary(16)``), or a sequence of ``uuid.UUID``
and ``None``. Every function that reads names or text accepts an Arrow ``string``,
``large_string``, ``string_view``, ``binary`` or ``large_binary`` array or stream, or a
sequence of ``str`` (and, for names, ``bytes``) and ``None``. A table of one column (a record
batch, a DuckDB relation) stands for that column. A null row gives a null row. The work runs in
Rust with the GIL released. This module needs no Arrow library at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Optional, Protocol, Sequence, Union
from uuid import UUID

from . import _core
from ._core import ArrowArray, UUIDArray

if TYPE_CHECKING:
    from typing_extensions import Buffer

    from ._core import _Form

__all__ = [
    "ArrowArray",
    "ArrowArrayExportable",
    "ArrowStreamExportable",
    "Names",
    "Strings",
    "UUIDArray",
    "UUIDs",
    "array",
    "decode",
    "encode",
    "mask_v7",
    "parse",
    "timestamp_ns",
    "to_str",
    "unmask_v7",
    "uuid3",
    "uuid4",
    "uuid5",
    "uuid7",
    "uuid8_name",
]


class ArrowArrayExportable(Protocol):
    """An object that exports one Arrow array (PyCapsule interface)."""

    def __arrow_c_array__(
        self, requested_schema: object | None = None
    ) -> tuple[object, object]: ...


class ArrowStreamExportable(Protocol):
    """An object that exports an Arrow stream of arrays (PyCapsule interface)."""

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...


if TYPE_CHECKING:
    from typing_extensions import TypeAlias

#: A column of UUIDs: a :class:`UUIDArray`, an Arrow ``FixedSizeBinary(16)`` array or stream,
#: or a sequence of ``uuid.UUID`` and ``None``.
UUIDs: TypeAlias = Union[
    UUIDArray, ArrowArrayExportable, ArrowStreamExportable, Sequence[Optional[UUID]]
]
#: A column of names: an Arrow string or binary array or stream, or a sequence of ``str``,
#: ``bytes`` and ``None``.
Names: TypeAlias = Union[
    ArrowArrayExportable, ArrowStreamExportable, Sequence[Union[str, bytes, None]]
]
#: A column of text: an Arrow string array or stream, or a sequence of ``str`` and ``None``.
Strings: TypeAlias = Union[ArrowArrayExportable, ArrowStreamExportable, Sequence[Optional[str]]]

_Algorithm = Literal["sha256", "sha512", "sha3_256", "sha3_512", "shake_128", "shake_256"]


def uuid4(n: int, *, extension: bool = True) -> UUIDArray:
    """``n`` random version 4 UUIDs (RFC 9562 §5.4) from the per-thread CSPRNG (§6.9).

    Args:
        n: How many.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain
            ``FixedSizeBinary(16)``.

    Raises:
        TypeError: ``n`` is not an int.
        ValueError: ``n`` is negative.
        MemoryError: ``16 * n`` bytes could never fit in this machine's memory.
    """
    return _core.arrow_uuid4(n, extension)


def uuid7(n: int, *, extension: bool = True) -> UUIDArray:
    """``n`` consecutive version 7 UUIDs (RFC 9562 §5.7, §6.2) of the process-wide sequence.

    The column is strictly increasing and continues the sequence of :func:`uuidx.uuid7`: every
    UUID in it is greater than every v7 this process made before, and smaller than every one it
    makes after. Sorting by these keys (bytes, or ``ORDER BY`` on a UUID column) is generation
    order.

    Args:
        n: How many.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        TypeError: ``n`` is not an int.
        ValueError: ``n`` is negative.
        MemoryError: ``16 * n`` bytes could never fit in this machine's memory.
        uuidx.ClockError: the clock reads before 1970.
    """
    return _core.arrow_uuid7(n, extension)


def uuid3(namespace: UUID, names: Names, *, extension: bool = True) -> UUIDArray:
    """Version 3 UUIDs (RFC 9562 §5.3, MD5) of ``namespace`` and each name, row by row equal to
    :func:`uuidx.uuid3`; a null name gives a null UUID.

    Args:
        namespace: A ``uuid.UUID``, read as :func:`uuidx.uuid3` reads it.
        names: Text (hashed as UTF-8) or binary names: see the module documentation.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        uuidx.NamespaceTypeError: ``namespace`` is not a UUID.
        TypeError: ``names`` is not a column of names (the message names what it is).
    """
    return _core.arrow_uuid3(namespace, names, extension)


def uuid5(namespace: UUID, names: Names, *, extension: bool = True) -> UUIDArray:
    """Version 5 UUIDs (RFC 9562 §5.5, SHA-1) of ``namespace`` and each name, row by row
    equal to :func:`uuidx.uuid5`; a null name gives a null UUID. Deterministic keys from
    natural keys, a column at a time.

    Args:
        namespace: A ``uuid.UUID``, read as :func:`uuidx.uuid5` reads it.
        names: Text (hashed as UTF-8) or binary names: see the module documentation.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        uuidx.NamespaceTypeError: ``namespace`` is not a UUID.
        TypeError: ``names`` is not a column of names (the message names what it is).
    """
    return _core.arrow_uuid5(namespace, names, extension)


def uuid8_name(
    namespace: UUID,
    names: Names,
    algorithm: _Algorithm = "sha256",
    *,
    extension: bool = True,
) -> UUIDArray:
    """Name-based version 8 UUIDs (RFC 9562 §5.8, Appendix B.2) of ``namespace`` and each
    name, row by row equal to :func:`uuidx.uuid8_name`; a null name gives a null UUID.

    Args:
        namespace: A ``uuid.UUID``.
        names: Text (hashed as UTF-8) or binary names: see the module documentation.
        algorithm: One of hashlib's ``sha256``, ``sha512``, ``sha3_256``, ``sha3_512``,
            ``shake_128``, ``shake_256``.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        uuidx.NamespaceTypeError: ``namespace`` is not a UUID.
        TypeError: ``names`` is not a column of names, or ``algorithm`` is not a str.
        ValueError: ``algorithm`` is not one of the six.
    """
    return _core.arrow_uuid8_name(namespace, names, algorithm, extension)


def parse(
    strings: Strings,
    *,
    errors: Literal["raise", "null"] = "raise",
    extension: bool = True,
) -> UUIDArray:
    """The UUID in each row of text, in the forms :func:`uuidx.parse` accepts (RFC 9562 §4:
    hyphenated, 32 hex digits, ``{braced}``, ``urn:uuid:``; any case), so DuckDB's and
    PostgreSQL's text forms parse as they come.

    Args:
        strings: A column of text: see the module documentation.
        errors: ``"raise"`` (default): the first bad row raises; ``"null"``: bad rows become
            null. Null rows stay null either way.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        ValueError: a row is not a UUID (the message names its index, the text, shortened,
            and the first problem), or ``errors`` is neither ``"raise"`` nor ``"null"``.
        TypeError: ``strings`` is not a column of text, or an item of a sequence is not a
            ``str`` or ``None``.
    """
    return _core.arrow_parse(strings, errors, extension)


def array(uuids: UUIDs, *, extension: bool = True) -> UUIDArray:
    """A :class:`UUIDArray` of ``uuids``: a sequence of ``uuid.UUID`` (``None`` for a null
    row), or any Arrow ``FixedSizeBinary(16)`` array or stream (the chunks of a stream are
    joined). A ``UUIDArray`` or a single Arrow array is shared, not copied.

    Args:
        uuids: A column of UUIDs: see the module documentation.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        TypeError: ``uuids`` is not a column of UUIDs (wrong Arrow type or width, or neither
            Arrow nor a sequence), or an item of a sequence is not a ``uuid.UUID`` or ``None``.
    """
    return _core.arrow_uuids(uuids, extension)


def to_str(uuids: UUIDs) -> ArrowArray:
    """The hyphenated lower-case text of each UUID (``str(u)``, RFC 9562 §4) as an Arrow
    ``string`` column (``large_string`` when the text exceeds 2**31 - 1 bytes, that is beyond
    59,652,323 rows); null rows stay null.

    Args:
        uuids: A column of UUIDs: see the module documentation.

    Raises:
        TypeError: ``uuids`` is not a column of UUIDs.
    """
    return _core.arrow_to_str(uuids)


def timestamp_ns(uuids: UUIDs, *, errors: Literal["raise", "null"] = "raise") -> ArrowArray:
    """The time in each version 1, 6 and 7 UUID (RFC 9562 §5.1, §5.6, §5.7, §6.1) as an Arrow
    ``timestamp[ns, tz=UTC]`` column; rows of other versions (and Nil, Max, other variants)
    and null rows are null. ``ArrowArray.to_pylist()`` gives ints, the values
    :func:`uuidx.timestamp_ns` returns.

    Nanoseconds in an ``int64`` reach from 1677-09-21 to 2262-04-11; a v1 or v6 timestamp can
    lie from 1582 to 5236 and a v7 one up to the year 10889. Such a row raises by default,
    rather than being confused with a row that has no timestamp.

    Args:
        uuids: A column of UUIDs: see the module documentation.
        errors: ``"raise"`` (default): a timestamp outside the ``int64`` range raises;
            ``"null"``: such rows become null.

    Raises:
        ValueError: a timestamp outside the range (the message names the row, the
            nanoseconds and the UUID), or ``errors`` is neither ``"raise"`` nor ``"null"``.
        TypeError: ``uuids`` is not a column of UUIDs.
    """
    return _core.arrow_timestamp_ns(uuids, errors)


def encode(uuids: UUIDs, form: _Form) -> ArrowArray:
    """Each UUID in the text encoding ``form``, row by row equal to :func:`uuidx.encode`, as
    an Arrow ``string`` column (``large_string`` when the text exceeds 2**31 - 1 bytes); null
    rows stay null.

    Args:
        uuids: A column of UUIDs: see the module documentation.
        form: ``"hex"``, ``"hyphenated"``, ``"urn"``, ``"braced"``, ``"base32"``, ``"ulid"``,
            ``"base32hex"``, ``"base58"``, ``"base62"`` or ``"base64url"`` (see
            :func:`uuidx.encode`).

    Raises:
        TypeError: ``uuids`` is not a column of UUIDs, or ``form`` is not a str.
        ValueError: ``form`` is not one of the names above.
    """
    return _core.arrow_encode(uuids, form)


def decode(
    strings: Strings,
    form: _Form,
    *,
    errors: Literal["raise", "null"] = "raise",
    extension: bool = True,
) -> UUIDArray:
    """The UUID in each row of text written in the encoding ``form``, row by row equal to
    :func:`uuidx.decode` (the same lengths, alphabets and case rules).

    Args:
        strings: A column of text: see the module documentation.
        form: One of the names :func:`encode` takes.
        errors: ``"raise"`` (default): the first bad row raises; ``"null"``: bad rows become
            null. Null rows stay null either way.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        ValueError: a row is not a UUID in ``form`` (the message names its index, the text,
            shortened, and the first problem with its position), ``form`` is unknown, or
            ``errors`` is neither ``"raise"`` nor ``"null"``.
        TypeError: ``strings`` is not a column of text, an item of a sequence is not a
            ``str`` or ``None``, or ``form`` is not a str.
    """
    return _core.arrow_decode(strings, form, errors, extension)


def mask_v7(
    uuids: UUIDs,
    key: Buffer,
    *,
    errors: Literal["raise", "null"] = "raise",
    extension: bool = True,
) -> UUIDArray:
    """The UUIDv47 facade of each version 7 UUID under ``key``, row by row equal to
    :func:`uuidx.mask_v7`: what to show outside while the database keeps the v7 keys.

    Args:
        uuids: A column of version 7 UUIDs: see the module documentation.
        key: 16 bytes, kept secret.
        errors: ``"raise"`` (default): a row that is not a version 7 UUID raises; ``"null"``:
            such rows become null. Null rows stay null either way.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        ValueError: a row is not a version 7 UUID (the message names its index and the
            UUID), ``key`` is not 16 bytes long, or ``errors`` is unknown.
        TypeError: ``uuids`` is not a column of UUIDs, or ``key`` is not bytes-like.
    """
    return _core.arrow_mask_v7(uuids, key, errors, extension)


def unmask_v7(
    uuids: UUIDs,
    key: Buffer,
    *,
    errors: Literal["raise", "null"] = "raise",
    extension: bool = True,
) -> UUIDArray:
    """The version 7 UUID behind each UUIDv47 facade under ``key``, row by row equal to
    :func:`uuidx.unmask_v7`.

    Args:
        uuids: A column of facades (version 4 UUIDs): see the module documentation.
        key: The 16 bytes :func:`mask_v7` used.
        errors: ``"raise"`` (default): a row that is not a version 4 UUID raises; ``"null"``:
            such rows become null. Null rows stay null either way.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        ValueError: a row is not a version 4 UUID (the message names its index and the
            UUID), ``key`` is not 16 bytes long, or ``errors`` is unknown.
        TypeError: ``uuids`` is not a column of UUIDs, or ``key`` is not bytes-like.
    """
    return _core.arrow_unmask_v7(uuids, key, errors, extension)

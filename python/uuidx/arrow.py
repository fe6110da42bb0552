"""UUID columns as Arrow arrays: many UUIDs per call, for pyarrow, Polars, DuckDB, pandas and
Spark.

A column of UUIDs is a :class:`UUIDArray`: Arrow's ``FixedSizeBinary(16)``, each value a
UUID's 16 octets in network order (RFC 9562 §4), tagged with Arrow's canonical extension type
``arrow.uuid`` (what ``pa.uuid()`` is) unless made with ``extension=False`` (plain
``FixedSizeBinary(16)``, for consumers that reject the extension, such as Polars). Columns that
are not UUIDs (:func:`to_str`, :func:`encode`, :func:`timestamp_ns`) are :class:`ArrowArray` objects. Both
export themselves through the Arrow PyCapsule interface (``__arrow_c_array__``,
``__arrow_c_schema__``), so any Arrow library reads them without a copy:

```python
import pyarrow as pa, polars as pl, uuidx.arrow

keys = uuidx.arrow.uuid7(1_000_000)                 # strictly increasing v7 keys
pa.array(keys).type == pa.uuid()                    # True
pl.Series("id", uuidx.arrow.uuid7(10, extension=False))   # binary column
ids = uuidx.arrow.uuid5(uuidx.NAMESPACE_URL, pa.array(["a", "b", None]))
```

Every function that reads UUIDs accepts a :class:`UUIDArray`, any object exporting an Arrow
``FixedSizeBinary(16)`` array or stream (with or without ``arrow.uuid``; a pyarrow ``Array`` or
``ChunkedArray``, a pandas ``Series``, ...), a binary column whose values all have 16 bytes
(what a Polars ``Series`` makes of ``FixedSizeBinary(16)``), or a sequence of ``uuid.UUID``
and ``None``. Every function that reads names or text accepts an Arrow ``string``,
``large_string``, ``string_view``, ``binary`` or ``large_binary`` array or stream, or a
sequence of ``str`` (and, for names, ``bytes``) and ``None``. A table of one column (a record
batch, a DuckDB relation) stands for that column. A null row gives a null row. The work runs in
Rust with the GIL released, in chunks between which Python's signal handlers run: Ctrl-C stops
a call within milliseconds, frees what it made and raises ``KeyboardInterrupt`` (or what the
handler raised), also when it stops the producer of an Arrow stream (a Python generator behind
a pyarrow ``RecordBatchReader``), whose other failures are a ``ValueError``. Memory running out
during a call is a ``MemoryError``, never an abort. An Arrow producer's C structures are
checked before they are read: a malformed one is a ``ValueError`` naming the member at fault.
This module needs no Arrow library at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Optional, Protocol, Union, runtime_checkable
from uuid import UUID

from . import _core
from ._core import ArrowArray, UUIDArray
from .typing import Algorithm, Buffer, Form

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


@runtime_checkable
class ArrowArrayExportable(Protocol):
    """An object that exports one Arrow array (PyCapsule interface)."""

    def __arrow_c_array__(
        self, requested_schema: Optional[object] = None
    ) -> tuple[object, object]: ...


@runtime_checkable
class ArrowStreamExportable(Protocol):
    """An object that exports an Arrow stream of arrays (PyCapsule interface)."""

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...


if TYPE_CHECKING:
    from typing_extensions import TypeAlias

UUIDs: TypeAlias = Union[
    UUIDArray, ArrowArrayExportable, ArrowStreamExportable, Sequence[Optional[UUID]]
]
"""A column of UUIDs: a :class:`UUIDArray`, any Arrow ``FixedSizeBinary(16)`` array or stream
(tagged ``arrow.uuid`` or not), a binary column whose values all have 16 bytes, or a sequence
of ``uuid.UUID`` and ``None``. A ``None`` is a null row."""

Names: TypeAlias = Union[
    ArrowArrayExportable, ArrowStreamExportable, Sequence[Union[str, bytes, None]]
]
"""A column of names to hash: an Arrow ``string``, ``large_string``, ``string_view``,
``binary`` or ``large_binary`` array or stream, or a sequence of ``str``, ``bytes`` and
``None``. A ``str`` is hashed as its UTF-8 bytes; a null row gives a null row."""

Strings: TypeAlias = Union[ArrowArrayExportable, ArrowStreamExportable, Sequence[Optional[str]]]
"""A column of text: an Arrow ``string``, ``large_string``, ``string_view``, ``binary`` or
``large_binary`` array or stream, or a sequence of ``str`` and ``None``. A null row gives a
null row."""


def uuid4(n: int, *, extension: bool = True) -> UUIDArray:
    return _core.arrow_uuid4(n, extension)


uuid4.__doc__ = _core.arrow_uuid4.__doc__


def uuid7(n: int, *, extension: bool = True) -> UUIDArray:
    return _core.arrow_uuid7(n, extension)


uuid7.__doc__ = _core.arrow_uuid7.__doc__


def uuid3(namespace: UUID, names: Names, *, extension: bool = True) -> UUIDArray:
    return _core.arrow_uuid3(namespace, names, extension)


uuid3.__doc__ = _core.arrow_uuid3.__doc__


def uuid5(namespace: UUID, names: Names, *, extension: bool = True) -> UUIDArray:
    return _core.arrow_uuid5(namespace, names, extension)


uuid5.__doc__ = _core.arrow_uuid5.__doc__


def uuid8_name(
    namespace: UUID,
    names: Names,
    algorithm: Algorithm = "sha256",
    *,
    extension: bool = True,
) -> UUIDArray:
    return _core.arrow_uuid8_name(namespace, names, algorithm, extension)


uuid8_name.__doc__ = _core.arrow_uuid8_name.__doc__


def parse(
    strings: Strings,
    *,
    errors: Literal["raise", "null"] = "raise",
    extension: bool = True,
) -> UUIDArray:
    return _core.arrow_parse(strings, errors, extension)


parse.__doc__ = _core.arrow_parse.__doc__


def array(uuids: UUIDs, *, extension: bool = True) -> UUIDArray:
    return _core.arrow_uuids(uuids, extension)


array.__doc__ = _core.arrow_uuids.__doc__


def to_str(uuids: UUIDs) -> ArrowArray:
    return _core.arrow_to_str(uuids)


to_str.__doc__ = _core.arrow_to_str.__doc__


def timestamp_ns(uuids: UUIDs, *, errors: Literal["raise", "null"] = "raise") -> ArrowArray:
    return _core.arrow_timestamp_ns(uuids, errors)


timestamp_ns.__doc__ = _core.arrow_timestamp_ns.__doc__


def encode(uuids: UUIDs, form: Form) -> ArrowArray:
    return _core.arrow_encode(uuids, form)


encode.__doc__ = _core.arrow_encode.__doc__


def decode(
    strings: Strings,
    form: Form,
    *,
    errors: Literal["raise", "null"] = "raise",
    extension: bool = True,
) -> UUIDArray:
    return _core.arrow_decode(strings, form, errors, extension)


decode.__doc__ = _core.arrow_decode.__doc__


def mask_v7(
    uuids: UUIDs,
    key: Buffer,
    *,
    errors: Literal["raise", "null"] = "raise",
    extension: bool = True,
) -> UUIDArray:
    return _core.arrow_mask_v7(uuids, key, errors, extension)


mask_v7.__doc__ = _core.arrow_mask_v7.__doc__


def unmask_v7(
    uuids: UUIDs,
    key: Buffer,
    *,
    errors: Literal["raise", "null"] = "raise",
    extension: bool = True,
) -> UUIDArray:
    return _core.arrow_unmask_v7(uuids, key, errors, extension)


unmask_v7.__doc__ = _core.arrow_unmask_v7.__doc__

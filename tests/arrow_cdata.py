"""Arrow C data structures built by hand with ctypes, to play an Arrow producer that gets them
wrong (``tests/test_arrow_hostile.py``).

The structs are the C data interface's own (``ArrowSchema``, ``ArrowArray``,
``ArrowArrayStream``), handed over in real PyCapsules made with ``PyCapsule_New``. Every
piece of memory they point to is kept alive by the :class:`Producer` that made it, and every
release callback is counted, so a test can tell whether a consumer released what it took.

On PyPy, which has no ``ctypes.pythonapi`` to make capsules with, a test module that imports
this one skips.
"""

from __future__ import annotations

import ctypes
import struct
from collections.abc import Sequence
from ctypes import CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_int64, c_void_p
from typing import Any, Optional, Union

import pytest
from platform_facts import PYPY, PYPY_NO_PYTHONAPI

if PYPY:
    pytest.skip(PYPY_NO_PYTHONAPI, allow_module_level=True)


class ArrowSchema(Structure):
    pass


class ArrowArray(Structure):
    pass


class ArrowArrayStream(Structure):
    pass


RELEASE_SCHEMA = CFUNCTYPE(None, POINTER(ArrowSchema))
RELEASE_ARRAY = CFUNCTYPE(None, POINTER(ArrowArray))
RELEASE_STREAM = CFUNCTYPE(None, POINTER(ArrowArrayStream))
GET_SCHEMA = CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowSchema))
GET_NEXT = CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowArray))
GET_LAST_ERROR = CFUNCTYPE(c_void_p, POINTER(ArrowArrayStream))

ArrowSchema._fields_ = [
    ("format", c_void_p),
    ("name", c_void_p),
    ("metadata", c_void_p),
    ("flags", c_int64),
    ("n_children", c_int64),
    ("children", POINTER(POINTER(ArrowSchema))),
    ("dictionary", POINTER(ArrowSchema)),
    ("release", RELEASE_SCHEMA),
    ("private_data", c_void_p),
]
ArrowArray._fields_ = [
    ("length", c_int64),
    ("null_count", c_int64),
    ("offset", c_int64),
    ("n_buffers", c_int64),
    ("n_children", c_int64),
    ("buffers", POINTER(c_void_p)),
    ("children", POINTER(POINTER(ArrowArray))),
    ("dictionary", POINTER(ArrowArray)),
    ("release", RELEASE_ARRAY),
    ("private_data", c_void_p),
]
ArrowArrayStream._fields_ = [
    ("get_schema", GET_SCHEMA),
    ("get_next", GET_NEXT),
    ("get_last_error", GET_LAST_ERROR),
    ("release", RELEASE_STREAM),
    ("private_data", c_void_p),
]

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [c_void_p, c_char_p, c_void_p]

# Capsule names must outlive their capsules: module constants do.
SCHEMA_NAME = b"arrow_schema"
ARRAY_NAME = b"arrow_array"
STREAM_NAME = b"arrow_array_stream"

# A buffer given as bytes is copied into memory the producer keeps; an int is used as the
# pointer itself (0 for NULL); None is NULL.
BufferSpec = Union[bytes, int, None]


def metadata(entries: Sequence[tuple[bytes, bytes]], count: Optional[int] = None) -> bytes:
    """Schema metadata: an int32 count (``len(entries)`` unless given), then each key and value
    as an int32 length and its bytes."""
    out = struct.pack("=i", len(entries) if count is None else count)
    for key, value in entries:
        out += struct.pack("=i", len(key)) + key + struct.pack("=i", len(value)) + value
    return out


def offsets32(*values: int) -> bytes:
    return struct.pack(f"={len(values)}i", *values)


def offsets64(*values: int) -> bytes:
    return struct.pack(f"={len(values)}q", *values)


def inline_view(data: bytes) -> bytes:
    """A 16-byte view of at most 12 bytes held inline."""
    assert len(data) <= 12
    return struct.pack("=i", len(data)) + data.ljust(12, b"\0")


def buffer_view(length: int, prefix: bytes, index: int, offset: int) -> bytes:
    """A 16-byte view of ``length`` bytes in variadic buffer ``index`` at ``offset``."""
    return struct.pack("=i4sii", length, prefix[:4].ljust(4, b"\0"), index, offset)


class Producer:
    """Makes C structures, keeps every piece of them alive and counts release calls."""

    def __init__(self) -> None:
        self.keep: list[Any] = []
        self.released = {"schema": 0, "array": 0, "stream": 0}
        self._release_schema = RELEASE_SCHEMA(self._on_release_schema)
        self._release_array = RELEASE_ARRAY(self._on_release_array)
        self._release_stream = RELEASE_STREAM(self._on_release_stream)

    def _on_release_schema(self, p: Any) -> None:
        self.released["schema"] += 1
        p.contents.release = RELEASE_SCHEMA()

    def _on_release_array(self, p: Any) -> None:
        self.released["array"] += 1
        p.contents.release = RELEASE_ARRAY()

    def _on_release_stream(self, p: Any) -> None:
        self.released["stream"] += 1
        p.contents.release = RELEASE_STREAM()

    def memory(self, data: BufferSpec, align: int = 64, misalign: int = 0) -> Optional[int]:
        """The address of a copy of ``data`` (aligned to ``align``, plus ``misalign`` bytes), or
        ``data`` itself if it is an int or None."""
        if data is None or isinstance(data, int):
            return data
        raw = ctypes.create_string_buffer(len(data) + align + misalign + 1)
        self.keep.append(raw)
        address = ctypes.addressof(raw)
        address += (-address) % align + misalign
        ctypes.memmove(address, data, len(data))
        return address

    def schema(
        self,
        format: BufferSpec,
        *,
        name: BufferSpec = None,
        metadata: BufferSpec = None,
        children: Optional[Sequence[Optional[ArrowSchema]]] = None,
        n_children: Optional[int] = None,
        children_pointer: Optional[int] = None,
        dictionary: Optional[ArrowSchema] = None,
        flags: int = 2,
        released: bool = False,
    ) -> ArrowSchema:
        s = ArrowSchema()
        s.format = self.memory(format + b"\0" if isinstance(format, bytes) else format)
        s.name = self.memory(name + b"\0" if isinstance(name, bytes) else name)
        s.metadata = self.memory(metadata)
        s.flags = flags
        kids = list(children or [])
        s.n_children = len(kids) if n_children is None else n_children
        if children_pointer is not None:
            s.children = ctypes.cast(children_pointer, POINTER(POINTER(ArrowSchema)))
        elif kids:
            table = (POINTER(ArrowSchema) * len(kids))(
                *[ctypes.pointer(k) if k is not None else POINTER(ArrowSchema)() for k in kids]
            )
            self.keep.append(table)
            s.children = ctypes.cast(table, POINTER(POINTER(ArrowSchema)))
        if dictionary is not None:
            s.dictionary = ctypes.pointer(dictionary)
        if not released:
            s.release = self._release_schema
        self.keep.append(s)
        return s

    def array(
        self,
        length: int,
        buffers: Optional[Sequence[BufferSpec]],
        *,
        n_buffers: Optional[int] = None,
        null_count: int = 0,
        offset: int = 0,
        children: Optional[Sequence[Optional[ArrowArray]]] = None,
        n_children: Optional[int] = None,
        dictionary: Optional[ArrowArray] = None,
        misalign: int = 0,
        released: bool = False,
    ) -> ArrowArray:
        a = ArrowArray()
        a.length, a.null_count, a.offset = length, null_count, offset
        if buffers is None:
            a.n_buffers = n_buffers or 0
        else:
            pointers = [self.memory(b, misalign=misalign) for b in buffers]
            table = (c_void_p * max(len(pointers), 1))(*pointers)
            self.keep.append(table)
            a.buffers = ctypes.cast(table, POINTER(c_void_p))
            a.n_buffers = len(pointers) if n_buffers is None else n_buffers
        kids = list(children or [])
        a.n_children = len(kids) if n_children is None else n_children
        if kids:
            kid_table = (POINTER(ArrowArray) * len(kids))(
                *[ctypes.pointer(k) if k is not None else POINTER(ArrowArray)() for k in kids]
            )
            self.keep.append(kid_table)
            a.children = ctypes.cast(kid_table, POINTER(POINTER(ArrowArray)))
        if dictionary is not None:
            a.dictionary = ctypes.pointer(dictionary)
        if not released:
            a.release = self._release_array
        self.keep.append(a)
        return a

    def capsule(self, struct_: Union[ArrowSchema, ArrowArray, ArrowArrayStream]) -> Any:
        name = {
            ArrowSchema: SCHEMA_NAME,
            ArrowArray: ARRAY_NAME,
            ArrowArrayStream: STREAM_NAME,
        }[type(struct_)]
        return _capsule_new(ctypes.addressof(struct_), name, None)

    def stream(
        self, schema: ArrowSchema, arrays: Sequence[ArrowArray], *, endless: bool = False
    ) -> ArrowArrayStream:
        """A stream that hands out ``schema`` and then each of ``arrays`` (all of them moved),
        or, if ``endless``, the first array's members again and again."""
        queue = list(arrays)
        message = ctypes.create_string_buffer(b"no error")
        self.keep.append(message)

        def get_schema(_stream: Any, out: Any) -> int:
            ctypes.memmove(out, ctypes.addressof(schema), ctypes.sizeof(ArrowSchema))
            return 0

        def get_next(_stream: Any, out: Any) -> int:
            if endless:
                ctypes.memmove(out, ctypes.addressof(arrays[0]), ctypes.sizeof(ArrowArray))
            elif queue:
                ctypes.memmove(out, ctypes.addressof(queue.pop(0)), ctypes.sizeof(ArrowArray))
            else:
                ctypes.memset(out, 0, ctypes.sizeof(ArrowArray))
            return 0

        def get_last_error(_stream: Any) -> int:
            return ctypes.addressof(message)

        s = ArrowArrayStream()
        s.get_schema = GET_SCHEMA(get_schema)
        s.get_next = GET_NEXT(get_next)
        s.get_last_error = GET_LAST_ERROR(get_last_error)
        s.release = self._release_stream
        self.keep.extend([s, s.get_schema, s.get_next, s.get_last_error])
        return s


class Exports:
    """An object whose ``__arrow_c_array__`` (``pair``) or ``__arrow_c_stream__`` (``stream``)
    returns fresh capsules of the structures given each time."""

    def __init__(
        self,
        producer: Producer,
        schema: ArrowSchema,
        array: Optional[ArrowArray] = None,
        *,
        stream: bool = False,
        arrays: Sequence[ArrowArray] = (),
    ) -> None:
        self.producer, self.schema, self.array = producer, schema, array
        if stream:
            self.__arrow_c_stream__ = self._stream
            self._arrays = list(arrays) if arrays else ([array] if array is not None else [])
        else:
            self.__arrow_c_array__ = self._pair

    def _pair(self, requested_schema: object = None) -> tuple[Any, Any]:
        assert self.array is not None
        return self.producer.capsule(self.schema), self.producer.capsule(self.array)

    def _stream(self, requested_schema: object = None) -> Any:
        return self.producer.capsule(self.producer.stream(self.schema, self._arrays))


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, c_char_p]


class Releases:
    """Counts the release callbacks of structures another producer exported: :meth:`watch`
    puts a counting callback, which then calls the producer's own, in the ``release`` of the
    structure a capsule holds. A capsule dropped unimported must release its structure once,
    so after the capsules are gone :attr:`released` equals :attr:`watched`."""

    def __init__(self) -> None:
        self.watched = 0
        self.released = 0
        self.keep: list[object] = []

    def watch(self, capsule: Any) -> None:
        kinds = {
            SCHEMA_NAME: (ArrowSchema, RELEASE_SCHEMA),
            ARRAY_NAME: (ArrowArray, RELEASE_ARRAY),
        }
        name = next(
            (n for n in kinds if ctypes.pythonapi.PyCapsule_IsValid(ctypes.py_object(capsule), n)),
            None,
        )
        if name is None:
            raise TypeError(f"not an arrow_schema or arrow_array capsule: {capsule!r}")
        kind, release = kinds[name]
        struct = kind.from_address(_capsule_pointer(capsule, name))
        # The producer's callback, by its address: the field itself reads what is stored now.
        address = ctypes.cast(struct.release, c_void_p).value
        assert address, "the capsule holds a released structure"
        original = release(address)

        def counted(pointer: Any) -> None:
            self.released += 1
            original(pointer)

        callback = release(counted)
        struct.release = callback
        self.keep.extend([original, callback])
        self.watched += 1

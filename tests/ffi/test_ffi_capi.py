"""The small C-API helpers of ``rust/uuidx-py/src/ffi/capi.rs`` through the functions that use
them: the bytes of any C-contiguous buffer, whatever its item format and shape, are read as
they lie; a buffer that is not C-contiguous, or whose export fails, is refused with a
``TypeError``; and neither path leaks.
"""

from __future__ import annotations

import array
import hashlib
import uuid
from typing import Any, Optional

import pytest
from leakcheck import check, pymalloc_counts
from platform_facts import PYPY, PYPY_NO_REFCOUNTS

import uuidx
import uuidx.layout

NS = uuid.NAMESPACE_DNS


def name_of(buffer: object) -> uuid.UUID:
    """``uuid5`` of a bytes-like name: the name's octets go through the buffer protocol."""
    return uuidx.uuid5(NS, buffer)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "buffer",
    [
        bytearray(b"example.org"),
        bytearray(),
        memoryview(b"example.org"),
        memoryview(b"abcdef").cast("B", (2, 3)),
        array.array("B", b"xyz"),
        array.array("b", [-1, 2, -3]),
        array.array("i", [1, -2, 3]),
        array.array("d", [0.5, -1.5]),
        memoryview(array.array("q", [2**40, -7])),
    ],
    ids=lambda b: f"{type(b).__name__}-{len(bytes(b))}",
)
def test_contiguous_buffers_are_read_as_their_bytes(buffer: object) -> None:
    raw = bytes(buffer)  # type: ignore[call-overload]
    expected = uuid.UUID(bytes=hashlib.sha1(NS.bytes + raw).digest()[:16], version=5)
    assert name_of(buffer) == expected == name_of(raw)


@pytest.mark.parametrize(
    "random",
    [bytearray(range(16)), memoryview(bytes(range(16))), array.array("i", [7, -8, 9, 10])],
    ids=["bytearray", "memoryview", "int-array"],
)
def test_sixteen_bytes_of_any_buffer(random: Any) -> None:
    assert uuidx.layout.v4(random) == uuidx.layout.v4(bytes(random))


def released_view() -> memoryview:
    view = memoryview(b"example.org")
    view.release()
    return view


@pytest.mark.parametrize(
    "make",
    [
        lambda: memoryview(b"abcdefgh")[::2],
        lambda: memoryview(array.array("i", range(8)))[1::3],
        released_view,
        lambda: 3.5,
        lambda: object(),
    ],
    ids=["strided", "strided-int", "released", "float", "object"],
)
def test_other_objects_are_refused_with_a_type_error(
    make: object, request: pytest.FixtureRequest
) -> None:
    if PYPY and request.node.callspec.id == "released":
        pytest.skip("PyPy: a released memoryview raises its own ValueError when asked for a buffer")
    obj = make()  # type: ignore[operator]
    with pytest.raises(TypeError, match="name must be a str or a bytes-like object"):
        name_of(obj)
    with pytest.raises(TypeError, match="random must be 16 bytes"):
        uuidx.layout.v4(obj)


@pytest.mark.skipif(
    PYPY or not pymalloc_counts(),
    reason=PYPY_NO_REFCOUNTS if PYPY else "needs the interpreter's block count",
)
@pytest.mark.parametrize(
    ("buffer", "raises"),
    [
        (bytearray(b"example.org"), None),
        (array.array("i", [1, 2, 3]), None),
        (memoryview(b"abcdefgh")[::2], TypeError),
    ],
    ids=["bytes-format", "int-format", "strided"],
)
def test_buffer_reads_do_not_leak(buffer: object, raises: Optional[type[Exception]]) -> None:
    check(lambda: name_of(buffer), raises, (buffer,))

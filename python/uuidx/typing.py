"""The type aliases of uuidx's signatures, for annotating code that calls uuidx.

Each alias names what an argument accepts where a plain type would say too little
(``IntLike``: any integer, not only ``int``) or too much (``Form``: ten names, not any
``str``). Type checkers read them from this module, and so do the tools that evaluate hints at
run time (``typing.get_type_hints``, pydantic, FastAPI): every alias is an ordinary object.

```python
import uuidx
from uuidx.typing import Form

def shorten(u: uuidx.UUID, form: Form = "base58") -> str:
    return uuidx.encode(u, form)
```

``import uuidx`` does not import this module (nor ``typing`` or ``datetime``): uuidx's own
annotations name its aliases through forward references, resolved when a hint is evaluated.
The module is named as ``numpy.typing`` is. It is not in ``uuidx.__all__``, so that
``from uuidx import *`` never hides the standard library's ``typing``.
"""

from __future__ import annotations

import datetime
import sys
from typing import TYPE_CHECKING, Callable, Literal, SupportsIndex, Union

__all__ = [
    "Algorithm",
    "Buffer",
    "Clock",
    "Form",
    "Instant",
    "IntLike",
    "Name",
    "RandomSource",
    "V7Method",
    "V7Preset",
]

if TYPE_CHECKING:
    from typing_extensions import Buffer, TypeAlias
elif sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    import abc

    class Buffer(abc.ABC):  # noqa: B024 (a virtual base: types register with it)
        """An object that exports the buffer protocol: ``collections.abc.Buffer`` on Python
        3.12 and later; before, an abstract class with which ``bytes``, ``bytearray`` and
        ``memoryview`` are registered (as ``typing_extensions.Buffer`` registers them), and
        which type checkers read as ``typing_extensions.Buffer``."""

        __slots__ = ()

    Buffer.register(bytes)
    Buffer.register(bytearray)
    Buffer.register(memoryview)


IntLike: TypeAlias = SupportsIndex
"""An integer field: an ``int``, or any object with ``__index__`` (a ``bool``, a NumPy
integer). uuidx reads the exact integer (``operator.index``) and never rounds: a ``float`` or
a ``str`` is a ``TypeError``."""

Name: TypeAlias = Union[str, bytes, bytearray, memoryview, Buffer]
"""The name of a name-based UUID (:func:`uuidx.uuid3`, :func:`uuidx.uuid5`,
:func:`uuidx.uuid8_name`): a ``str``, hashed as its UTF-8 bytes, or any bytes-like object,
hashed as it is (``"a"`` and ``b"a"`` give the same UUID)."""

Form: TypeAlias = Literal[
    "hex",
    "hyphenated",
    "urn",
    "braced",
    "base32",
    "ulid",
    "base32hex",
    "base58",
    "base62",
    "base64url",
]
"""A text encoding of :func:`uuidx.encode` and :func:`uuidx.decode` (and of their
columns in :mod:`uuidx.arrow`):

- ``"hex"``, ``"hyphenated"``, ``"urn"``, ``"braced"``: the forms of RFC 9562 §4;
- ``"base32"`` (Crockford's, lower case: a TypeID's suffix) and ``"ulid"`` (the same digits
  in upper case: a ULID);
- ``"base32hex"`` (RFC 4648 §7), ``"base58"`` (Bitcoin's alphabet), ``"base62"`` and
  ``"base64url"`` (RFC 4648 §5).

Every form has a fixed length, and all but ``"base64url"`` sort as the UUIDs do. Any other
``str`` is a ``ValueError``."""

Algorithm: TypeAlias = Literal["sha256", "sha512", "sha3_256", "sha3_512", "shake_128", "shake_256"]
"""The hash of a name-based version 8 UUID (:func:`uuidx.uuid8_name`,
:func:`uuidx.arrow.uuid8_name`; RFC 9562 Appendix B.2), by its ``hashlib`` name,
``"sha256"`` by default. (MD5 and SHA-1 make versions 3 and 5.)"""

V7Method: TypeAlias = Literal["submillisecond", "counter", "monotonic_random", "cpython"]
"""How a :class:`uuidx.V7Generator` keeps its UUIDs increasing within a millisecond
(RFC 9562 §6.2):

- ``"submillisecond"`` (Method 3, the default): 12 more bits of time, then a counter;
- ``"counter"`` (Method 1): a counter of 12 to 42 bits, CPython 3.14's layout;
- ``"monotonic_random"`` (Method 2): random increments;
- ``"cpython"``: CPython 3.14's ``uuid.uuid7()`` algorithm, step for step.

:func:`uuidx.layout.fields` takes the same names, to split a UUID as that generator laid
it out."""

V7Preset: TypeAlias = Literal["postgresql"]
"""A :class:`uuidx.V7Generator` layout named after the system that makes it, accepted wherever a
:data:`V7Method` is:

- ``"postgresql"``: PostgreSQL 18's ``uuidv7()``, ``"submillisecond"`` with no counter bits
  (12 bits of sub-millisecond time, then 62 random bits; a call within the last UUID's
  1/4096 ms moves one 1/4096 ms ahead). The generator reports its method and bits:
  ``"submillisecond"`` and ``0``."""

Clock: TypeAlias = Callable[[], int]
"""A generator's clock (``clock=``): called with no argument, it returns the time as an
``int`` of nanoseconds since 1970-01-01T00:00:00Z, as ``time.time_ns`` does. Give one to make
a generator's timestamps reproducible in tests; without one, a generator reads the system
clock."""

RandomSource: TypeAlias = Union[Callable[[int], Buffer], int]
"""A generator's randomness (``random=``): a callable, ``random(n)`` returning ``n`` bytes
(``os.urandom``, ``secrets.token_bytes``), or an ``int``, the seed of a reproducible stream.
Without one, a generator draws from a per-thread CSPRNG seeded by the operating system."""

Instant: TypeAlias = Union[datetime.datetime, int]
"""A point in time: an aware ``datetime`` (a naive one is a ``ValueError``), or an ``int`` of
nanoseconds since 1970-01-01T00:00:00Z (what ``time.time_ns`` returns). :func:`uuidx.uuid7_at`,
:func:`uuidx.uuid7_bounds` and :func:`uuidx.testing.deterministic` take these."""

"""uuidx: RFC 9562 UUIDs at Rust speed, as the standard library's own ``uuid.UUID``.

``import uuidx as uuid`` works in existing code: uuidx exposes Python 3.14's whole ``uuid``
API (``uuid1`` to ``uuid8``, ``NIL``, ``MAX``, the namespaces and variant constants,
``SafeUUID``, ``getnode``) on every supported Python, and every function returns exact
``uuid.UUID`` objects (``type(u) is uuid.UUID``), so pickle, pydantic, SQLAlchemy, Django,
psycopg and orjson treat them as they always have.

Beyond the stdlib: :func:`parse` (strict RFC 9562 §4 parsing), :mod:`uuidx.layout` (field
constructors and decomposition for every version), :func:`uuid8_name` (name-based version 8),
:func:`timestamp_ns` and :func:`to_datetime`, :func:`v1_to_v6` / :func:`v6_to_v1`,
:func:`process_node`, compact text forms (:func:`encode` / :func:`decode`: base32, ULID,
base32hex, base58, base62, base64url), TypeIDs (:func:`typeid` / :func:`parse_typeid`),
:func:`mask_v7` / :func:`unmask_v7` (a v4-looking facade for v7 keys, UUIDv47), generators
with their own state, clock and randomness (:class:`V7Generator`, :class:`V6Generator`,
:class:`V1Generator`: ``clock=``, ``random=``, ``node=``, CPython 3.14's exact algorithm),
:mod:`uuidx.testing` (reproducible UUIDs in tests) and :mod:`uuidx.arrow` (UUID columns as
Arrow arrays).

uuidx runs in the main interpreter only: importing it in a subinterpreter (legacy or isolated)
raises ``ImportError`` saying so, and never keeps the main interpreter from importing it.
"""

from __future__ import annotations

import os as _os
import types as _types  # already imported by uuid (through enum)
import uuid as _uuid
from uuid import (
    NAMESPACE_DNS,
    NAMESPACE_OID,
    NAMESPACE_URL,
    NAMESPACE_X500,
    RESERVED_FUTURE,
    RESERVED_MICROSOFT,
    RESERVED_NCS,
    RFC_4122,
    UUID,
    SafeUUID,
    getnode,
)

from . import _core
from ._core import (
    ClockError,
    ClockRollbackError,
    NamespaceTypeError,
    V1Generator,
    V6Generator,
    V7Generator,
    decode,
    encode,
    mask_v7,
    parse,
    parse_typeid,
    process_node,
    timestamp_ns,
    to_str,
    typeid,
    unmask_v7,
    uuid1,
    uuid3,
    uuid4,
    uuid4_bytes,
    uuid4_many,
    uuid4_str,
    uuid4_str_many,
    uuid5,
    uuid6,
    uuid7,
    uuid7_bytes,
    uuid7_many,
    uuid7_str,
    uuid7_str_many,
    uuid8,
    uuid8_name,
    v1_to_v6,
    v6_to_v1,
)
from ._core import __version__ as __version__

__all__ = [
    "MAX",
    "NAMESPACE_DNS",
    "NAMESPACE_OID",
    "NAMESPACE_URL",
    "NAMESPACE_X500",
    "NIL",
    "RESERVED_FUTURE",
    "RESERVED_MICROSOFT",
    "RESERVED_NCS",
    "RFC_4122",
    "UUID",
    "ClockError",
    "ClockRollbackError",
    "V1Generator",
    "V6Generator",
    "V7Generator",
    "NamespaceTypeError",
    "SafeUUID",
    "arrow",
    "decode",
    "encode",
    "getnode",
    "layout",
    "main",
    "mask_v7",
    "max_uuid7",
    "min_uuid7",
    "parse",
    "parse_typeid",
    "process_node",
    "timestamp_ns",
    "to_datetime",
    "to_str",
    "typeid",
    "uuid1",
    "uuid3",
    "uuid4",
    "uuid4_bytes",
    "uuid4_many",
    "uuid4_str",
    "uuid4_str_many",
    "uuid5",
    "uuid6",
    "uuid7",
    "uuid7_at",
    "uuid7_bytes",
    "uuid7_many",
    "uuid7_str",
    "uuid7_str_many",
    "uuid7_bounds",
    "uuid8",
    "uuid8_name",
    "unmask_v7",
    "v1_to_v6",
    "v6_to_v1",
]

#: The Nil UUID, all 128 bits zero (RFC 9562 §5.9); the stdlib's own object on 3.14+.
NIL: UUID = getattr(_uuid, "NIL", None) or UUID(int=0)
#: The Max UUID, all 128 bits one (RFC 9562 §5.10); the stdlib's own object on 3.14+.
MAX: UUID = getattr(_uuid, "MAX", None) or UUID(int=(1 << 128) - 1)

# Imported only by type checkers, or on first use: `import uuidx` costs little more than
# `import uuid` (datetime, typing and the layout module's named tuples load when needed). At
# run time the names the annotations use are bound at the end of this module, at no cost.
# mypy treats any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime as _dt
    from typing import Any, Callable, Optional

    from . import arrow, layout, testing, typing
    from .typing import Instant

    _Compiled = Callable[..., Any]

# The functions of _core report the module that documents them, as numpy's set_module does:
# pickle, Django's migrations (`default=uuidx.uuid7`) and documentation tools then name
# `uuidx.uuid7`, never the private `uuidx._core.uuid7`. A C function's __module__ is a plain
# attribute that its calls never read.
for _name in __all__:
    _public = vars(_core).get(_name)
    if _public is not None and _public.__module__ == _core.__name__:
        _public.__module__ = __name__
del _name, _public


def _python_function(name: str, compiled: _Compiled) -> _Compiled:
    """A plain Python function that calls ``compiled``, named ``uuidx.<name>``, with its
    docstring, no annotations, and ``__wrapped__`` (whose signature ``inspect.signature``
    reads)."""

    def function(*args: object, **kwargs: object) -> object:
        return compiled(*args, **kwargs)

    import functools

    functools.update_wrapper(function, compiled)
    function.__module__ = __name__
    function.__name__ = function.__qualname__ = name
    function.__annotations__ = {}  # the stub's types, as for the compiled function
    return function


# Where the compiled functions are not the interpreter's own built-in function type (PyPy's
# cpyext has its own), tools that accept functions by type refuse them: typing.get_type_hints
# raises TypeError, Django's migrations cannot serialize `default=uuidx.uuid7`. There the facade
# binds each to a plain Python function that calls it; CPython keeps the compiled functions.
if not isinstance(_core.uuid7, _types.BuiltinFunctionType):
    for _name in __all__:
        _public = vars(_core).get(_name)
        if _public is not None and not isinstance(_public, type):
            globals()[_name] = _python_function(_name, _public)
    del _name, _public


def _epoch() -> _dt.datetime:
    """1970-01-01T00:00:00Z (``datetime`` is imported on first use)."""
    import datetime

    return datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def main() -> None:
    """Python 3.14's ``uuid.main()``, the stdlib's command line (``-u``, ``-n``, ``-N``,
    ``-C``), reading ``sys.argv``. uuidx's own CLI is ``python -m uuidx``."""
    from .cli import stdlib_main

    stdlib_main()


def to_datetime(u: UUID) -> _dt.datetime:
    """The timestamp of a version 1, 6 or 7 UUID as an aware UTC ``datetime``.

    RFC 9562 §5.1, §5.6, §5.7. The datetime has microsecond precision (rounded down); v1 and
    v6 timestamps have 100-ns precision, v7 millisecond precision.

    Args:
        u: A ``uuid.UUID`` of version 1, 6 or 7.

    Returns:
        The embedded time, ``tzinfo=datetime.timezone.utc``.

    Raises:
        TypeError: ``u`` is not a ``uuid.UUID``.
        ValueError: ``u`` carries no timestamp, or one outside ``datetime``'s years 1 to 9999.
    """
    import datetime

    ns = timestamp_ns(u)
    try:
        return _epoch() + datetime.timedelta(microseconds=ns // 1000)
    except OverflowError:
        raise ValueError(
            f"the timestamp of UUID {u} ({ns} ns since 1970) is outside datetime's range"
        ) from None


def _unix_ns(t: Instant) -> int:
    import datetime

    if isinstance(t, datetime.datetime):
        if t.tzinfo is None or t.utcoffset() is None:
            raise ValueError(
                f"naive datetime {_core._short_repr(t)}: "
                "give a tzinfo (datetime.timezone.utc for UTC)"
            )
        delta = t - _epoch()
        return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000
    if isinstance(t, int) and not isinstance(t, bool):
        return t
    raise TypeError(
        f"time must be an aware datetime or an int of nanoseconds since 1970, "
        f"got {type(t).__name__}: {_core._short_repr(t)}"
    )


def uuid7_at(t: Instant) -> UUID:
    """A version 7 UUID for a given instant (RFC 9562 §5.7).

    The millisecond goes in ``unix_ts_ms``, the sub-millisecond fraction in ``rand_a``
    (§6.2 Method 3) and 62 random bits in ``rand_b``. It is not part of the monotonic
    sequence of :func:`uuid7`: use it to backfill or to key historical records.

    Args:
        t: An aware ``datetime`` or nanoseconds since the Unix epoch.

    Raises:
        TypeError: ``t`` is neither.
        ValueError: naive datetime, or a time before 1970 or after the year 10889.
    """
    return _core.uuid7_at_ns(_unix_ns(t))


def min_uuid7(t: Instant) -> UUID:
    """The smallest version 7 UUID of the millisecond containing ``t``.

    RFC 9562 §5.7, §6.13: ``unix_ts_ms`` is that millisecond and every bit after it but the
    version and variant is 0, so every v7 UUID whose timestamp is that millisecond or later
    sorts at or after it. The lower bound of a range query over v7 keys (``WHERE id >= ...``);
    :func:`uuid7_bounds` gives both bounds of a range.

    Args:
        t: An aware ``datetime`` or an int of nanoseconds since the Unix epoch.

    Returns:
        ``UUID('<unix_ts_ms>-7000-8000-000000000000')``: for 2022-02-22T19:22:22Z,
        ``017f22e2-79b0-7000-8000-000000000000``.

    Raises:
        TypeError: ``t`` is not an aware datetime or an int.
        ValueError: naive datetime, or a time before 1970 or after the year 10889.
    """
    return _core.min_uuid7_ns(_unix_ns(t))


def max_uuid7(t: Instant) -> UUID:
    """The largest version 7 UUID of the millisecond containing ``t``.

    RFC 9562 §5.7, §6.13: ``unix_ts_ms`` is that millisecond and every bit after it but the
    version and variant is 1, so every v7 UUID whose timestamp is that millisecond or earlier
    sorts at or before it. The upper bound of a range query over v7 keys
    (``WHERE id <= ...``); :func:`uuid7_bounds` gives both bounds of a range.

    Args:
        t: An aware ``datetime`` or an int of nanoseconds since the Unix epoch.

    Returns:
        ``UUID('<unix_ts_ms>-7fff-bfff-ffffffffffff')``: for 2022-02-22T19:22:22Z,
        ``017f22e2-79b0-7fff-bfff-ffffffffffff``.

    Raises:
        TypeError: ``t`` is not an aware datetime or an int.
        ValueError: naive datetime, or a time before 1970 or after the year 10889.
    """
    return _core.max_uuid7_ns(_unix_ns(t))


def uuid7_bounds(start: Instant, end: Optional[Instant] = None) -> tuple[UUID, UUID]:
    """``(lo, hi)`` such that every version 7 UUID whose embedded timestamp lies from ``start``
    to ``end`` (inclusive, at millisecond precision) satisfies ``lo <= u <= hi``: for
    ``WHERE id BETWEEN lo AND hi`` and partition boundaries (RFC 9562 §6.13). ``end``
    defaults to ``start``. A UUID's timestamp is its generator's clock, which may run slightly
    ahead of the wall clock during bursts or after a clock step back within the allowance.

    Raises:
        TypeError: an instant is not an aware datetime or an int.
        ValueError: naive datetime, ``end`` before ``start``, or a time outside 1970-10889.
    """
    lo = _unix_ns(start)
    hi = lo if end is None else _unix_ns(end)
    if hi < lo:
        raise ValueError(f"end {_core._short_repr(end)} is before start {_core._short_repr(start)}")
    return _core.min_uuid7_ns(lo), _core.max_uuid7_ns(hi)


class _Submodule(_types.ModuleType):
    """``uuidx.arrow``, ``uuidx.layout``, ``uuidx.testing`` or ``uuidx.typing`` until first
    used (or a module that only the evaluation of a type hint needs).

    Its first attribute read imports the real submodule, which the import system then sets as
    the package's attribute in its place, and reads the attribute from it (a placeholder kept
    by ``from uuidx import layout`` forwards every read the same way). A module-level
    ``__getattr__`` would be simpler, but CPython 3.11+ does not specialise attribute reads on
    a module that has one: every ``uuidx.uuid4()`` would pay about 150 more instructions, a
    tenth of the call.
    """

    def __init__(self, name: str) -> None:
        super().__init__(name)
        for attribute in ("__loader__", "__package__", "__spec__"):
            delattr(self, attribute)  # read from the real module instead

    def __getattr__(self, name: str) -> object:
        import importlib

        return getattr(importlib.import_module(self.__name__), name)

    def __dir__(self) -> list[str]:
        import importlib

        return dir(importlib.import_module(self.__name__))


class _TypingForm:
    """``typing.Optional`` (or another of typing's subscriptable forms) in an annotation
    evaluated at run time: subscripting it imports typing."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getitem__(self, parameters: object) -> object:
        import typing

        return getattr(typing, self._name)[parameters]

    def __repr__(self) -> str:
        return f"typing.{self._name}"


if not TYPE_CHECKING:
    arrow = _Submodule(f"{__name__}.arrow")
    layout = _Submodule(f"{__name__}.layout")
    testing = _Submodule(f"{__name__}.testing")
    typing = _Submodule(f"{__name__}.typing")

    # The names the annotations above use, for the tools that evaluate them at run time
    # (typing.get_type_hints, pydantic): typing reads a str as a forward reference, and the
    # placeholders import datetime, typing and uuidx.typing only when a hint is evaluated.
    _dt = _Submodule("datetime")
    Instant = "typing.Instant"
    Optional = _TypingForm("Optional")


def __dir__() -> list[str]:
    """The public names (``__all__`` and the submodules) and the private ones: not the names
    that only annotations use (``Instant``, ``Optional``), nor ``TYPE_CHECKING`` and
    ``annotations``."""
    public = set(__all__)
    return sorted(
        name
        for name, value in globals().items()
        if name.startswith("_")
        or name in public
        or (isinstance(value, _types.ModuleType) and value.__name__ == f"{__name__}.{name}")
    )


if hasattr(_os, "register_at_fork"):
    # The Rust core's pthread_atfork handler already runs in any forked child; this hook calls
    # the same once-per-process function, so the two count as one fork.
    _os.register_at_fork(after_in_child=_core._after_fork_in_child)

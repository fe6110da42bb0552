"""The public API of uuidx in one place: every public callable, with sample arguments, its
bad-argument cases, and the entry point each call shape reaches.

The hostile-input (``test_hostile.py``), exact-type (``test_exact.py``), wrong-type
(``test_errors.py``) and leak (``test_leaks.py``) tests parametrise over :data:`ENTRIES`, and
``test_catalog.py`` fails when a public name of ``uuidx``, ``uuidx.layout``, ``uuidx.arrow`` or
``uuidx.testing``, or a public attribute of a generator class, has no entry here (or in one of
the sets of names that are not uuidx's callables: constants, stdlib re-exports, types).

Entry points (:attr:`Shape.path`): the hot functions (``uuid1``, ``uuid3`` to ``uuid8``,
``uuid8_name``, ``parse``, ``to_str``, ``uuid4_str``, ``uuid7_str``) are C functions whose
*fast body* handles the common call (positional arguments of the usual types) without pyo3's
argument handling, :data:`FAST`; every other call of them (keywords, other argument counts or
types) is declined and forwarded to the function pyo3 generated, :data:`FULL`, which is also
how every other function is called (directly, or under the Python facade).

The generators have an axis of their own, :data:`GENERATOR_CASES` (``generator_axis.py``):
every class, v7 method, call, rollback policy and clock, for the suites that must hold for
every generator (threads, fork, leaks).
"""

from __future__ import annotations

import datetime
import operator
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Optional

import generator_axis

import uuidx
import uuidx.arrow
import uuidx.layout
import uuidx.testing
import uuidx.typing

#: The forms of ``uuidx.encode`` and ``uuidx.decode``, in the documented order, written out here
#: rather than read from the core so that the tests check its catalogue, not repeat it.
FORMS: list[Any] = [
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

#: The C entry point's fast body handles the call.
FAST = "fast"
#: The full pyo3 function handles it (a hot function's fast body declined it, or the function
#: has no fast body).
FULL = "full"

V1 = uuid.UUID("c232ab00-9414-11ec-b3c8-9f6bdeced846")
V4 = uuid.UUID("919108f7-52d1-4320-9bac-f847db4148a8")
V6 = uuid.UUID("1ec9414c-232a-6b00-b3c8-9f6bdeced846")
V7 = uuid.UUID("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
NS = uuid.NAMESPACE_DNS
VALID = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
KEY = bytes(range(16))
MASKED = uuidx.mask_v7(V7, KEY)
NOW_NS = 1_700_000_000_123_456_789
HUGE = 10**12  # UUIDs: more than any memory holds
#: A version 7 UUID of the year 10889, beyond an Arrow timestamp's int64 of nanoseconds.
FAR_V7 = uuidx.layout.v7((1 << 48) - 1, 0, 0)


class SubUUID(uuid.UUID):
    """A subclass: the fast bodies decline it, the full functions read its ``.int``."""


class _Unset:
    def __repr__(self) -> str:
        return "<unset>"


#: :attr:`Shape.names` when the message need not name a value.
UNSET: Any = _Unset()


@dataclass(frozen=True)
class Shape:
    """One way to call an entry: arguments, and what happens."""

    label: str
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    #: The exception the call raises, or ``None`` for a result.
    raises: Optional[type[BaseException]] = None
    #: :data:`FAST` or :data:`FULL`.
    path: str = FULL
    #: A value the error message must show (``test_errors.names``).
    names: Any = UNSET


def ok(label: str, *args: Any, path: str = FULL, **kwargs: Any) -> Shape:
    """A call that returns."""
    return Shape(label, args, kwargs, None, path)


def err(
    label: str,
    raises: type[BaseException],
    *args: Any,
    path: str = FULL,
    names: Any = UNSET,
    **kwargs: Any,
) -> Shape:
    """A call that raises ``raises``."""
    return Shape(label, args, kwargs, raises, path, names)


@dataclass(frozen=True)
class Entry:
    """A public callable: its name as users write it, the callable, and its call shapes. The
    first shape returns, with sample arguments the ``*_arg`` positions refer to."""

    name: str
    func: Callable[..., Any]
    shapes: tuple[Shape, ...]
    #: Position of an argument that is a UUID, read by the UUID rule (``convert::uuid_value``).
    uuid_arg: Optional[int] = None
    #: Position of a namespace, read as the stdlib reads it (``.bytes``).
    namespace_arg: Optional[int] = None
    #: Position of one name (``str`` as UTF-8, or bytes) to hash with the namespace.
    name_arg: Optional[int] = None
    #: Position of a column of UUIDs (``uuidx.arrow``), whose items follow the UUID rule.
    column_arg: Optional[int] = None
    #: Position of an instant (an aware datetime or an int of nanoseconds since 1970).
    instant_arg: Optional[int] = None
    #: The result is one exact ``uuid.UUID``.
    returns_uuid: bool = False
    #: Its C entry point has a fast body.
    hot: bool = False
    #: ``(field, bits)`` of each argument of a layout constructor.
    int_fields: tuple[tuple[str, int], ...] = ()
    #: Why the entry has no shapes (it is tested elsewhere), if it has none.
    untested: str = ""

    @property
    def sample(self) -> Shape:
        """The first shape, which returns."""
        return self.shapes[0]

    def call(self, shape: Shape) -> Any:
        return self.func(*shape.args, **shape.kwargs)

    def call_sample(self) -> Any:
        return self.call(self.sample)

    def call_with(self, position: int, value: Any) -> Any:
        """The sample call with the argument at ``position`` replaced by ``value``."""
        args = list(self.sample.args)
        args[position] = value
        return self.func(*args, **self.sample.kwargs)

    def with_uuid(self, value: Any) -> Any:
        """The sample call with ``value`` as its UUID (or as the only row of its column)."""
        if self.uuid_arg is not None:
            return self.call_with(self.uuid_arg, value)
        assert self.column_arg is not None, self.name
        return self.call_with(self.column_arg, [value])

    @property
    def sample_uuid(self) -> uuid.UUID:
        """The UUID of the sample call (the first row of its column)."""
        if self.uuid_arg is not None:
            value = self.sample.args[self.uuid_arg]
        else:
            assert self.column_arg is not None, self.name
            value = next(u for u in self.sample.args[self.column_arg] if u is not None)
        assert type(value) is uuid.UUID, self.name
        return value


def plain(result: Any) -> Any:
    """A column's rows (columns have no ``==``), or the result itself."""
    return result.to_pylist() if hasattr(result, "to_pylist") else result


# --- sources for the generators ----------------------------------------------------------------


def _clock() -> int:
    return NOW_NS


def _before_1970() -> int:
    return -1


def _clock_of_the_wrong_type() -> str:
    return "noon"


def _raising_clock() -> int:
    raise KeyError("from the clock")


def _random(n: int) -> bytes:
    return bytes(n)


def _short_random(n: int) -> bytes:
    return b"\x01"


G7 = uuidx.V7Generator()
G7_SOURCES = uuidx.V7Generator(clock=_clock, random=_random)
G7_SEEDED = uuidx.V7Generator("counter", random=7)
G7_BEFORE_1970 = uuidx.V7Generator(clock=_before_1970)
G7_WRONG_CLOCK = uuidx.V7Generator(clock=_clock_of_the_wrong_type)  # type: ignore[arg-type]
G7_RAISING_CLOCK = uuidx.V7Generator(clock=_raising_clock)
G7_SHORT_RANDOM = uuidx.V7Generator(random=_short_random)
G6 = uuidx.V6Generator()
G6_SOURCES = uuidx.V6Generator(clock=_clock, random=_random)
G6_BEFORE_1970 = uuidx.V6Generator(clock=_before_1970)
G1 = uuidx.V1Generator(node=5)
G1_SOURCES = uuidx.V1Generator(clock=_clock, random=7)
G1_RAISING_CLOCK = uuidx.V1Generator(clock=_raising_clock)


def _in_deterministic(seed: Any) -> uuid.UUID:
    """``uuidx.testing.deterministic`` entered and left around one bulk ``uuid7``."""
    with uuidx.testing.deterministic(seed):
        return uuidx.uuid7_many(1)[0]


#: ``uuidx.uuid7`` as a type checker sees any callable: for a call its stub refuses.
_UUID7_UNTYPED: Any = uuidx.uuid7


def _following_python_clock(call: Callable[[], Any]) -> Any:
    """``uuidx.testing.follow_python_clock`` entered and left around ``call()``."""
    with uuidx.testing.follow_python_clock():
        return call()


# --- the entries -------------------------------------------------------------------------------


def _count_shapes() -> tuple[Shape, ...]:
    """A bulk function's shapes: a small count, a negative one, one of the wrong type, one
    beyond any memory."""
    return (
        ok("n", 3),
        ok("n=0", 0),
        err("negative", ValueError, -1, names=-1),
        err("str", TypeError, "3", names="3"),
        err("beyond-memory", MemoryError, HUGE, names=HUGE),
    )


def _time_shapes() -> tuple[Shape, ...]:
    return (
        ok("ns", NOW_NS),
        err("before-1970", ValueError, -1, names=-1),
        err("float", TypeError, 1.5, names=1.5),
    )


def _layout(name: str, func: Callable[..., Any], spec: tuple[tuple[str, int], ...]) -> Entry:
    ones = tuple(1 for _ in spec)
    too_big = (1 << spec[0][1],) + ones[1:]
    wrong = ("1",) + ones[1:]
    return Entry(
        f"layout.{name}",
        func,
        (
            ok("fields", *ones),
            err("out-of-range", ValueError, *too_big, names=too_big[0]),
            err("str", TypeError, *wrong, names="1"),
        ),
        returns_uuid=True,
        int_fields=spec,
    )


def _generator_getters(cls_name: str, instance: Any, names: tuple[str, ...]) -> list[Entry]:
    return [
        Entry(f"{cls_name}.{attr}", operator.attrgetter(attr), (ok("get", instance),))
        for attr in names
    ]


def _build() -> tuple[Entry, ...]:
    ua = uuidx.arrow
    entries = [
        # --- the hot functions: fast bodies and full functions ---------------------------------
        Entry(
            "uuid1",
            uuidx.uuid1,
            (
                ok("no-args", path=FAST),
                ok("node=", node=1),
                ok("positional", 1, 2),
                err("node-too-big", ValueError, node=1 << 48, names=1 << 48),
                err("node-str", TypeError, node="1", names="1"),
            ),
            returns_uuid=True,
            hot=True,
        ),
        Entry(
            "uuid3",
            uuidx.uuid3,
            (
                ok("str", NS, "x", path=FAST),
                ok("bytes", NS, b"x", path=FAST),
                ok("subclass", SubUUID(int=NS.int), "x"),
                ok("keywords", namespace=NS, name="x"),
                ok("bytearray", NS, bytearray(b"x")),
                err("namespace-str", uuidx.NamespaceTypeError, VALID, "x", names=VALID),
                err("name-int", TypeError, NS, 5, names=5),
                err("surrogate", UnicodeEncodeError, NS, "\ud800"),
            ),
            namespace_arg=0,
            name_arg=1,
            returns_uuid=True,
            hot=True,
        ),
        Entry(
            "uuid4",
            uuidx.uuid4,
            (ok("no-args", path=FAST), err("an-argument", TypeError, 1)),
            returns_uuid=True,
            hot=True,
        ),
        Entry(
            "uuid5",
            uuidx.uuid5,
            (
                ok("str", NS, "x", path=FAST),
                ok("bytes", NS, b"x", path=FAST),
                ok("subclass", SubUUID(int=NS.int), "x"),
                ok("keywords", namespace=NS, name="x"),
                err("namespace-none", uuidx.NamespaceTypeError, None, "x", names=None),
                err("name-float", TypeError, NS, 1.5, names=1.5),
                err("surrogate", UnicodeEncodeError, NS, "\udfff"),
            ),
            namespace_arg=0,
            name_arg=1,
            returns_uuid=True,
            hot=True,
        ),
        Entry(
            "uuid6",
            uuidx.uuid6,
            (
                ok("no-args", path=FAST),
                ok("keywords", node=1, clock_seq=2),
                err("node-str", TypeError, node="1", names="1"),
            ),
            returns_uuid=True,
            hot=True,
        ),
        Entry(
            "uuid7",
            uuidx.uuid7,
            (
                ok("no-args", path=FAST),
                ok("shift-timedelta", shift=datetime.timedelta(days=-1)),
                ok("shift-ns", shift=1_500_000),
                ok("shift-none", shift=None),
                err("an-argument", TypeError, 1),
                err("two-arguments", TypeError, 1, shift=2),
                err("unknown-keyword", TypeError, foo=1, names="foo"),
                err("shift-bool", TypeError, shift=True, names=True),
                err("shift-float", TypeError, shift=1.5, names=1.5),
                err("shift-beyond-int64", ValueError, shift=1 << 63, names=1 << 63),
                err("shift-before-1970", ValueError, shift=-(1 << 62)),
            ),
            returns_uuid=True,
            hot=True,
        ),
        Entry(
            "uuid8",
            uuidx.uuid8,
            (
                ok("no-args", path=FAST),
                ok("parts", 1, 2, 3),
                err("part-str", TypeError, a="1", names="1"),
            ),
            returns_uuid=True,
            hot=True,
        ),
        Entry(
            "uuid8_name",
            uuidx.uuid8_name,
            (
                ok("str", NS, "x", path=FAST),
                ok("algorithm", NS, "x", "sha3_256"),
                ok("keywords", namespace=NS, name=b"x"),
                err("algorithm-unknown", ValueError, NS, "x", "md5", names="md5"),
                err("namespace-int", uuidx.NamespaceTypeError, 5, "x", names=5),
                err("name-int", TypeError, NS, 5, names=5),
            ),
            namespace_arg=0,
            name_arg=1,
            returns_uuid=True,
            hot=True,
        ),
        Entry(
            "parse",
            uuidx.parse,
            (
                ok("text", VALID, path=FAST),
                err("bad-text", ValueError, "bad", path=FAST, names="bad"),
                ok("keyword", s=VALID),
                err("bad-text-keyword", ValueError, s="bad", names="bad"),
                err("surrogate", ValueError, "\ud800"),
                err("int", TypeError, 5, names=5),
                err("bytes", TypeError, VALID.encode(), names=VALID.encode()),
            ),
            returns_uuid=True,
            hot=True,
        ),
        Entry(
            "to_str",
            uuidx.to_str,
            (
                ok("uuid", V7, path=FAST),
                ok("subclass", SubUUID(int=V7.int)),
                ok("keyword", u=V7),
                err("int", TypeError, 5, names=5),
            ),
            uuid_arg=0,
            hot=True,
        ),
        Entry(
            "uuid4_str",
            uuidx.uuid4_str,
            (ok("no-args", path=FAST), err("an-argument", TypeError, 1)),
            hot=True,
        ),
        Entry(
            "uuid7_str",
            uuidx.uuid7_str,
            (ok("no-args", path=FAST), err("an-argument", TypeError, 1)),
            hot=True,
        ),
        # --- bulk ------------------------------------------------------------------------------
        *(
            Entry(name, getattr(uuidx, name), _count_shapes())
            for name in (
                "uuid4_many",
                "uuid7_many",
                "uuid4_str_many",
                "uuid7_str_many",
                "uuid4_bytes",
                "uuid7_bytes",
            )
        ),
        # --- UUIDs in, values out --------------------------------------------------------------
        Entry(
            "timestamp_ns",
            uuidx.timestamp_ns,
            (
                ok("v7", V7),
                err("v4", ValueError, V4, names=V4),
                err("str", TypeError, VALID, names=VALID),
            ),
            uuid_arg=0,
        ),
        Entry(
            "to_datetime",
            uuidx.to_datetime,
            (
                ok("v7", V7),
                err("v4", ValueError, V4, names=V4),
                err("none", TypeError, None, names=None),
            ),
            uuid_arg=0,
        ),
        Entry(
            "v1_to_v6",
            uuidx.v1_to_v6,
            (
                ok("v1", V1),
                err("v7", ValueError, V7, names=V7),
                err("int", TypeError, 5, names=5),
            ),
            uuid_arg=0,
            returns_uuid=True,
        ),
        Entry(
            "v6_to_v1",
            uuidx.v6_to_v1,
            (
                ok("v6", V6),
                err("v7", ValueError, V7, names=V7),
                err("bytes", TypeError, V6.bytes, names=V6.bytes),
            ),
            uuid_arg=0,
            returns_uuid=True,
        ),
        Entry(
            "process_node",
            uuidx.process_node,
            (ok("no-args"), err("an-argument", TypeError, 1)),
        ),
        Entry(
            "encode",
            uuidx.encode,
            (
                ok("base58", V7, "base58"),
                ok("hyphenated", V7, "hyphenated"),
                err("form-unknown", ValueError, V7, "base99", names="base99"),
                err("int", TypeError, 5, "base58", names=5),
            ),
            uuid_arg=0,
        ),
        Entry(
            "decode",
            uuidx.decode,
            (
                ok("base58", "1BzmjTFLHWXwiSK4y3H5iW", "base58"),
                err("bad-text", ValueError, "0", "base58", names="0"),
                err("int", TypeError, 5, "base58", names=5),
            ),
            returns_uuid=True,
        ),
        Entry(
            "typeid",
            uuidx.typeid,
            (
                ok("user", "user", V7),
                err("bad-prefix", ValueError, "User!", V7, names="User!"),
                err("int", TypeError, "user", 5, names=5),
            ),
            uuid_arg=1,
        ),
        Entry(
            "parse_typeid",
            uuidx.parse_typeid,
            (
                ok("user", "user_01h455vb4pex5vsknk084sn02q"),
                err("bad-suffix", ValueError, "user_x", names="user_x"),
                err("int", TypeError, 5, names=5),
            ),
        ),
        Entry(
            "mask_v7",
            uuidx.mask_v7,
            (
                ok("v7", V7, KEY),
                err("v4", ValueError, V4, KEY, names=V4),
                err("short-key", ValueError, V7, b"short"),
                err("key-int", TypeError, V7, 5, names=5),
            ),
            uuid_arg=0,
            returns_uuid=True,
        ),
        Entry(
            "unmask_v7",
            uuidx.unmask_v7,
            (
                ok("facade", MASKED, KEY),
                err("v7", ValueError, V7, KEY, names=V7),
                err("key-str", TypeError, MASKED, "k" * 16),
            ),
            uuid_arg=0,
            returns_uuid=True,
        ),
        # --- instants ---------------------------------------------------------------------------
        Entry("uuid7_at", uuidx.uuid7_at, _time_shapes(), instant_arg=0, returns_uuid=True),
        Entry("min_uuid7", uuidx.min_uuid7, _time_shapes(), instant_arg=0, returns_uuid=True),
        Entry("max_uuid7", uuidx.max_uuid7, _time_shapes(), instant_arg=0, returns_uuid=True),
        Entry(
            "uuid7_bounds",
            uuidx.uuid7_bounds,
            (*_time_shapes(), err("end-before-start", ValueError, 10, 5, names=5)),
            instant_arg=0,
        ),
        Entry(
            "main",
            uuidx.main,
            (),
            untested="reads sys.argv and writes to stdout: tests/cli/test_cli_stdlib.py",
        ),
        # --- generators -------------------------------------------------------------------------
        Entry(
            "V7Generator",
            uuidx.V7Generator,
            (
                ok("default"),
                ok("counter", "counter"),
                ok("sources", clock=_clock, random=_random),
                ok("seed", random=42),
                ok("node", node=3, node_bits=4),
                ok("postgresql", "postgresql"),
                ok("shift", shift=datetime.timedelta(hours=-1)),
                err("method-unknown", ValueError, "nope", names="nope"),
                err("preset-bits", ValueError, "postgresql", 4),
                err("shift-str", TypeError, shift="1h", names="1h"),
                err("clock-int", TypeError, clock=5, names=5),
                err("node-alone", ValueError, node=1),
            ),
        ),
        Entry(
            "V7Generator.generate",
            uuidx.V7Generator.generate,
            (
                ok("system", G7),
                ok("sources", G7_SOURCES),
                ok("seed", G7_SEEDED),
                err("clock-before-1970", uuidx.ClockError, G7_BEFORE_1970),
                err("clock-raises", KeyError, G7_RAISING_CLOCK),
                err("clock-str", TypeError, G7_WRONG_CLOCK),
                err("random-short", ValueError, G7_SHORT_RANDOM),
            ),
            returns_uuid=True,
        ),
        Entry(
            "V7Generator.many",
            uuidx.V7Generator.many,
            (
                ok("system", G7, 3),
                ok("sources", G7_SOURCES, 3),
                err("negative", ValueError, G7, -1, names=-1),
                err("str", TypeError, G7, "3", names="3"),
                err("beyond-memory", MemoryError, G7, HUGE, names=HUGE),
                err("clock-raises", KeyError, G7_RAISING_CLOCK, 2),
            ),
        ),
        Entry(
            "V7Generator.fields",
            uuidx.V7Generator.fields,
            (
                ok("v7", G7, V7),
                err("v4", ValueError, G7, V4, names=V4),
                err("int", TypeError, G7, 5, names=5),
            ),
            uuid_arg=1,
        ),
        *_generator_getters(
            "V7Generator",
            G7,
            (
                "method",
                "bits",
                "rollback_allowance_ns",
                "rollback_policy",
                "node",
                "node_bits",
                "shift_ns",
                "lock_free",
            ),
        ),
    ]
    for cls, system, sources, failing in (
        (uuidx.V6Generator, G6, G6_SOURCES, (uuidx.ClockError, G6_BEFORE_1970)),
        (uuidx.V1Generator, G1, G1_SOURCES, (KeyError, G1_RAISING_CLOCK)),
    ):
        name = cls.__name__
        entries += [
            Entry(
                name,
                cls,
                (
                    ok("default"),
                    ok("node", node=7),
                    ok("sources", clock=_clock, random=_random),
                    err("node-too-big", ValueError, node=1 << 48, names=1 << 48),
                    err("policy-unknown", ValueError, rollback_policy="x", names="x"),
                    err("random-float", TypeError, random=1.5, names=1.5),
                ),
            ),
            Entry(
                f"{name}.generate",
                cls.generate,
                (ok("system", system), ok("sources", sources), err("clock", *failing)),
                returns_uuid=True,
            ),
            *_generator_getters(
                name, system, ("node", "rollback_allowance_ns", "rollback_policy", "lock_free")
            ),
        ]
    # --- uuidx.layout ---------------------------------------------------------------------------
    lay = uuidx.layout
    entries += [
        Entry(
            "layout.fields",
            lay.fields,
            (
                ok("v7", V7),
                ok("generator", V7, method="counter"),
                err("ncs-variant", ValueError, uuid.UUID(int=1), names=uuid.UUID(int=1)),
                err("str", TypeError, VALID, names=VALID),
                err("method-unknown", ValueError, V7, method="nope", names="nope"),
            ),
            uuid_arg=0,
        ),
        _layout("v1", lay.v1, (("time_100ns", 60), ("clock_seq", 14), ("node", 48))),
        _layout(
            "v2",
            lay.v2,
            (
                ("local_domain", 8),
                ("local_id", 32),
                ("time_100ns", 60),
                ("clock_seq", 6),
                ("node", 48),
            ),
        ),  # fmt: skip
        _layout("v6", lay.v6, (("time_100ns", 60), ("clock_seq", 14), ("node", 48))),
        _layout("v7", lay.v7, (("unix_ts_ms", 48), ("rand_a", 12), ("rand_b", 62))),
        _layout("v8", lay.v8, (("custom_a", 48), ("custom_b", 12), ("custom_c", 62))),
        Entry(
            "layout.v4",
            lay.v4,
            (
                ok("bytes", bytes(16)),
                ok("bytearray", bytearray(16)),
                err("short", ValueError, bytes(15)),
                err("int", TypeError, 5, names=5),
            ),
            returns_uuid=True,
        ),
    ]
    # --- uuidx.arrow ----------------------------------------------------------------------------
    column = [V7, None, V4]
    sample = ua.array([V7, V4])
    texts = ua.to_str(column)
    entries += [
        Entry(
            "arrow.uuid4",
            ua.uuid4,
            (ok("n", 3), ok("plain", 3, extension=False), err("negative", ValueError, -1)),
        ),
        Entry(
            "arrow.uuid7",
            ua.uuid7,
            (ok("n", 3), err("str", TypeError, "3"), err("beyond-memory", MemoryError, HUGE)),
        ),
        *(
            Entry(
                f"arrow.{name}",
                getattr(ua, name),
                (
                    ok("names", NS, ["a", None, b"b"]),
                    err("namespace-str", uuidx.NamespaceTypeError, VALID, ["a"]),
                    err("names-int", TypeError, NS, 5),
                ),
                namespace_arg=0,
            )
            for name in ("uuid3", "uuid5", "uuid8_name")
        ),
        Entry(
            "arrow.parse",
            ua.parse,
            (
                ok("texts", [VALID, None]),
                ok("errors-null", ["bad"], errors="null"),
                err("bad-text", ValueError, ["bad"]),
                err("int", TypeError, 5),
            ),
        ),
        Entry(
            "arrow.array",
            ua.array,
            (ok("uuids", column), err("row-int", TypeError, [5]), err("int", TypeError, 5)),
            column_arg=0,
        ),
        Entry(
            "arrow.to_str",
            ua.to_str,
            (ok("uuids", column), ok("column", sample), err("row-str", TypeError, [VALID])),
            column_arg=0,
        ),
        Entry(
            "arrow.timestamp_ns",
            ua.timestamp_ns,
            (
                ok("v7", [V7, None, V4]),
                ok("errors-null", [FAR_V7], errors="null"),
                err("beyond-int64", ValueError, [FAR_V7]),
                err("errors-unknown", ValueError, [V7], errors="x"),
            ),
            column_arg=0,
        ),
        Entry(
            "arrow.encode",
            ua.encode,
            (ok("base58", column, "base58"), err("form-unknown", ValueError, column, "x")),
            column_arg=0,
        ),
        Entry(
            "arrow.decode",
            ua.decode,
            (
                ok("base58", ["1BzmjTFLHWXwiSK4y3H5iW", None], "base58"),
                err("bad-text", ValueError, ["0"], "base58"),
            ),
        ),
        Entry(
            "arrow.mask_v7",
            ua.mask_v7,
            (ok("v7", [V7, None], KEY), err("v4", ValueError, [V4], KEY)),
            column_arg=0,
        ),
        Entry(
            "arrow.unmask_v7",
            ua.unmask_v7,
            (ok("facade", [MASKED], KEY), err("key-short", ValueError, [MASKED], b"k")),
            column_arg=0,
        ),
        Entry("arrow.UUIDArray.to_pylist", ua.UUIDArray.to_pylist, (ok("column", sample),)),
        Entry("arrow.UUIDArray.__len__", len, (ok("column", sample),)),
        Entry(
            "arrow.UUIDArray.__arrow_c_array__",
            ua.UUIDArray.__arrow_c_array__,
            (ok("column", sample),),
        ),
        Entry(
            "arrow.UUIDArray.__arrow_c_schema__",
            ua.UUIDArray.__arrow_c_schema__,
            (ok("column", sample),),
        ),
        Entry("arrow.UUIDArray.__buffer__", memoryview, (ok("column", sample),)),
        *_generator_getters("arrow.UUIDArray", sample, ("extension", "null_count")),
        Entry("arrow.ArrowArray.to_pylist", ua.ArrowArray.to_pylist, (ok("column", texts),)),
        Entry(
            "arrow.ArrowArray.__arrow_c_array__",
            ua.ArrowArray.__arrow_c_array__,
            (ok("column", texts),),
        ),
        *_generator_getters("arrow.ArrowArray", texts, ("type", "null_count")),
        # --- uuidx.testing ----------------------------------------------------------------------
        Entry(
            "testing.deterministic",
            _in_deterministic,
            (
                ok("int", 1),
                ok("str", "worker-1"),
                err("float", TypeError, 1.5),
            ),
        ),
        Entry(
            "testing.follow_python_clock",
            _following_python_clock,
            (
                # Calls that skip the hot functions' fast bodies: this entry point is the
                # wrapper's (the fast bodies read the stand-in as well: test_python_clock.py).
                ok("uuid7", lambda: uuidx.uuid7(shift=0)),
                ok("uuid1", lambda: uuidx.uuid1(node=None)),
                ok("bulk", lambda: uuidx.uuid7_many(3)),
                err("call-raises", TypeError, lambda: _UUID7_UNTYPED(1)),
            ),
        ),
    ]
    return tuple(entries)


ENTRIES: tuple[Entry, ...] = _build()
BY_NAME: dict[str, Entry] = {e.name: e for e in ENTRIES}

#: Every generator configuration: class, v7 method, rollback policy, clock.
GENERATOR_CONFIGS: tuple[generator_axis.Config, ...] = generator_axis.CONFIGS
#: Every configuration with each of its calls (``generate()``, ``many(n)``).
GENERATOR_CASES: tuple[generator_axis.Case, ...] = generator_axis.CASES

#: Public names that are values, not callables of uuidx's.
CONSTANTS = frozenset(
    {
        "MAX", "NIL", "NAMESPACE_DNS", "NAMESPACE_OID", "NAMESPACE_URL", "NAMESPACE_X500",
        "RESERVED_FUTURE", "RESERVED_MICROSOFT", "RESERVED_NCS", "RFC_4122",
        "testing.DEFAULT_START_NS",
    }
)  # fmt: skip
#: The standard library's own objects, re-exported unchanged.
STDLIB = frozenset({"UUID", "SafeUUID", "getnode"})
#: Submodules, exception classes, named tuples, protocols, type aliases and classes that Python
#: code cannot instantiate.
TYPES = frozenset(
    {
        "arrow", "layout", "ClockError", "ClockRollbackError", "NamespaceTypeError",
        "layout.Fields", "layout.MaxFields", "layout.NilFields", "layout.V1Fields",
        "layout.V2Fields", "layout.V3Fields", "layout.V4Fields", "layout.V5Fields",
        "layout.V6Fields", "layout.V7Fields", "layout.V8Fields", "layout.V7GeneratorFields",
        "layout.V7Method", "arrow.ArrowArrayExportable", "arrow.ArrowStreamExportable",
        "arrow.Names", "arrow.Strings", "arrow.UUIDs", "testing.Seed",
        # The aliases of uuidx.typing, and its buffer ABC (a virtual base before 3.12).
        "typing.Algorithm", "typing.Buffer", "typing.Clock", "typing.Form", "typing.Instant",
        "typing.IntLike", "typing.Name", "typing.RandomSource", "typing.V7Method",
        "typing.V7Preset",
        # The column classes: made by the functions of uuidx.arrow (their methods are entries).
        "arrow.UUIDArray", "arrow.ArrowArray",
    }
)  # fmt: skip


def public_names() -> Iterator[str]:
    """Every public name the catalogue must account for: ``uuidx.__all__``, the ``__all__`` of
    ``uuidx.layout``, ``uuidx.arrow``, ``uuidx.testing`` and ``uuidx.typing`` (prefixed with the
    module's name), and the public attributes of the generator and column classes."""
    yield from uuidx.__all__
    for module in (uuidx.layout, uuidx.arrow, uuidx.testing, uuidx.typing):
        prefix = module.__name__.split(".")[-1]
        yield from (f"{prefix}.{name}" for name in module.__all__)
    for prefix, cls in (
        ("V7Generator", uuidx.V7Generator),
        ("V6Generator", uuidx.V6Generator),
        ("V1Generator", uuidx.V1Generator),
        ("arrow.UUIDArray", uuidx.arrow.UUIDArray),
        ("arrow.ArrowArray", uuidx.arrow.ArrowArray),
    ):
        yield from (f"{prefix}.{name}" for name in dir(cls) if not name.startswith("_"))


def shapes(
    select: Callable[[Entry, Shape], bool] = lambda e, s: True,
) -> list[tuple[Entry, Shape]]:
    """Every ``(entry, shape)`` that ``select`` accepts."""
    return [(e, s) for e in ENTRIES for s in e.shapes if select(e, s)]


def shape_id(pair: tuple[Entry, Shape]) -> str:
    return f"{pair[0].name}[{pair[1].label}]"


def uuid_takers() -> list[Entry]:
    """Entries with a UUID argument or a column of UUIDs."""
    return [e for e in ENTRIES if e.uuid_arg is not None or e.column_arg is not None]


def column_readers() -> list[tuple[Entry, int]]:
    """The entries of ``uuidx.arrow`` that read a column (of UUIDs, names or text: an Arrow
    array or stream, or a sequence), each with the position of the column, the one list among
    its sample's arguments (a column of UUIDs where that is :attr:`Entry.column_arg`)."""
    readers = []
    for e in ENTRIES:
        if not e.name.startswith("arrow.") or not e.shapes:
            continue
        columns = [i for i, arg in enumerate(e.sample.args) if isinstance(arg, list)]
        if columns:
            assert len(columns) == 1, e.name
            readers.append((e, columns[0]))
    return readers


def namespace_takers() -> list[Entry]:
    return [e for e in ENTRIES if e.namespace_arg is not None]


def name_takers() -> list[Entry]:
    """Entries that hash one name (not a column of them) with a namespace."""
    return [e for e in ENTRIES if e.name_arg is not None]


def instant_takers() -> list[Entry]:
    return [e for e in ENTRIES if e.instant_arg is not None]


def uuid_makers() -> list[Entry]:
    """Entries whose result is one exact ``uuid.UUID``."""
    return [e for e in ENTRIES if e.returns_uuid]

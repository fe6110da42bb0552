"""The generator axis: every way to build and call a time-based generator of uuidx, as data.

A :class:`Config` is a generator as it is built: its class, its method (``V7Generator`` only),
its rollback policy and its clock (the system clock, or an injected Python callable). A
:class:`Case` is a config and one of its calls: ``generate()``, or ``many(n)`` where the class
has it. The suites that must hold for every generator (threads, fork, leaks:
``generation/test_generator_axis.py``, ``test_leaks.py``) parametrise over :data:`CASES`;
``test_catalog.py`` fails when the package has a generator class, a v7 method, a call or a
policy that the axis does not cover.

The ``"cpython"`` method has no rollback policy (its constructor refuses one, with a
``ValueError``, and its ``rollback_policy`` is ``None``: it handles a clock that goes back as
CPython 3.14 does), so it appears once per class, call and clock, with the policy ``None``.

A generator may legitimately run ahead of the clock: a counter that overflows carries into the
timestamp (RFC 9562 §6.2), and v1/v6 timestamps advance one 100-ns tick per UUID when UUIDs are
made faster than the clock ticks (§6.1). :meth:`Config.carry_ns` is the exact bound on that
run-ahead after a number of UUIDs, so that the tests allow that much and no more.
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Optional, Union

import uuidx

Generator = Union[uuidx.V1Generator, uuidx.V6Generator, uuidx.V7Generator]
Clock = Callable[[], int]

#: The generator classes and their versions.
CLASSES: dict[type[Generator], int] = {
    uuidx.V1Generator: 1,
    uuidx.V6Generator: 6,
    uuidx.V7Generator: 7,
}
#: The methods of ``V7Generator`` (RFC 9562 §6.2 Methods 3, 1, 2, and CPython 3.14's).
V7_METHODS = ("submillisecond", "counter", "monotonic_random", "cpython")
#: The methods that take no rollback policy.
POLICYLESS_METHODS = frozenset({"cpython"})
#: Each method's key layout with its default width (RFC 9562 §6.2): ``(fraction_bits,
#: counter_bits, step)``, the bits of sub-millisecond time, the counter's bits after them, and
#: the most one UUID adds to the counter (Method 2 adds a random 1 to ``2**32`` to all 74 bits).
V7_KEYS: dict[str, tuple[int, int, int]] = {
    "submillisecond": (12, 10, 1),
    "counter": (0, 42, 1),
    "monotonic_random": (0, 74, 1 << 32),
    "cpython": (0, 42, 1),
}
#: The layouts of the axis: each method at its default width, and Methods 3 and 1 at a width
#: that puts them on the other engine (the default Method 3 and a Method 1 of up to 22 counter
#: bits keep their state in one 64-bit word; wider keys in the 128-bit engine).
V7_LAYOUTS: tuple[tuple[str, Optional[int]], ...] = (
    ("submillisecond", None),
    ("submillisecond", 14),
    # No counter: PostgreSQL 18's layout (the "postgresql" preset), one tick per UUID.
    ("submillisecond", 0),
    ("counter", None),
    ("counter", 22),
    ("monotonic_random", None),
    ("cpython", None),
)
#: The engines a generator's state can be on.
ENGINES = ("word", "wide")


def v7_key(method: str, bits: Optional[int]) -> tuple[int, int, int]:
    """``(fraction_bits, counter_bits, step)`` of a layout (see :data:`V7_KEYS`)."""
    fraction_bits, counter_bits, step = V7_KEYS[method]
    if bits is not None and method in ("submillisecond", "counter"):
        counter_bits = bits
    return fraction_bits, counter_bits, step


def engine(method: Optional[str], bits: Optional[int]) -> str:
    """Where a generator keeps its state: ``"word"`` (a 64-bit word advanced by ``fetch_add``:
    Methods 1 and 3 whose 42-bit millisecond, fraction and counter fit 64 bits) or ``"wide"``
    (the 128-bit compare-and-swap engine: every other layout, and v1/v6)."""
    if method not in ("submillisecond", "counter"):
        return "wide"
    fraction_bits, counter_bits, _ = v7_key(method, bits)
    return "word" if 42 + fraction_bits + counter_bits <= 64 else "wide"


POLICIES = ("reset", "error")
#: The calls of each class: ``many`` is ``V7Generator``'s alone.
CALLS: dict[type[Generator], tuple[str, ...]] = {
    uuidx.V1Generator: ("generate",),
    uuidx.V6Generator: ("generate",),
    uuidx.V7Generator: ("generate", "many"),
}
#: ``"system"``: no ``clock=``, the core reads the system clock itself (with the default
#: random source, the lock-free path that releases the GIL in ``many``). ``"python"``: the
#: same clock through a Python callable, which runs Python code (a point where a GIL build
#: switches threads) in the middle of every step.
CLOCKS = ("system", "python")
#: UUIDs per ``many(n)`` call.
MANY_N = 100

#: Nanoseconds between 1582-10-15 (the Gregorian epoch of v1 and v6) and 1970-01-01.
GREGORIAN_OFFSET_NS = 0x01B21DD213814000 * 100


def python_clock() -> int:
    """The system clock, as an injected ``clock=``."""
    return time.time_ns()


@dataclass(frozen=True)
class Config:
    """A generator as it is built."""

    cls: type[Generator]
    #: The ``V7Generator`` method, ``None`` for the other classes.
    method: Optional[str]
    #: ``"reset"`` or ``"error"``; ``None`` for a method that takes none.
    policy: Optional[str]
    #: One of :data:`CLOCKS`.
    clock: str
    #: The ``V7Generator`` width (``bits``), ``None`` for the method's default.
    bits: Optional[int] = None

    @property
    def engine(self) -> str:
        """One of :data:`ENGINES`."""
        return engine(self.method, self.bits)

    @property
    def version(self) -> int:
        return CLASSES[self.cls]

    @property
    def id(self) -> str:
        parts = [f"v{self.version}"]
        if self.method is not None:
            parts.append(self.method + ("" if self.bits is None else str(self.bits)))
        parts.append(self.policy or "no-policy")
        parts.append(f"{self.clock}-clock")
        return "-".join(parts)

    def make(self, clock: Optional[Clock] = None, **options: object) -> Generator:
        """A new generator of this config. ``clock`` replaces :func:`python_clock` (for a
        config with an injected clock only); ``options`` are further constructor options."""
        kwargs: dict[str, object] = dict(options)
        if self.policy is not None:
            kwargs["rollback_policy"] = self.policy
        if self.clock == "python":
            kwargs["clock"] = clock or python_clock
        else:
            assert clock is None, "a system-clock config takes no clock"
        if self.method is not None:
            # Only V7Generator takes a method and a width: its options arrive as a dict.
            v7: Any = self.cls
            made: Generator = v7(self.method, self.bits, **kwargs)
            return made
        return self.cls(**kwargs)  # type: ignore[arg-type]

    def carry_ns(self, n: int) -> int:
        """How far ahead of the clock (in ns) a timestamp can be after this generator made
        ``n`` UUIDs from a clock that does not go back, by counting alone.

        v7 keys are ``tick | counter`` of ``c`` counter bits, the tick a millisecond or
        (Method 3) 1/4096 ms. A new tick seeds the counter below ``2**(c-1)`` (its top bit
        clear); every UUID adds at most ``step`` (1, or ``2**bits`` for Method 2, whose whole
        74 bits count). So the key is at most ``2**(c-1) - 1 + n * step`` counter units past
        the clock's tick: ``floor`` of that over ``2**c`` whole ticks. (``cpython``: 42 bits,
        seeded below ``2**41``, and an overflow moves to the next millisecond: the same.)
        v1/v6 timestamps are kept strictly increasing in 100-ns ticks: at most ``n`` ticks.
        """
        if self.version in (1, 6):
            return 100 * n
        fraction_bits, counter_bits, step = v7_key(str(self.method), self.bits)
        seed = (1 << (counter_bits - 1)) - 1 if counter_bits else 0
        ticks = (seed + n * step) >> counter_bits
        return -(-ticks * 1_000_000 >> fraction_bits)  # rounded up

    def uuids_within(self, carry_ns: int) -> int:
        """The most UUIDs this generator can make with :meth:`carry_ns` at most ``carry_ns``
        (capped at ``2**50``)."""
        low, high = 0, 1 << 50
        while low < high:
            mid = (low + high + 1) // 2
            if self.carry_ns(mid) <= carry_ns:
                low = mid
            else:
                high = mid - 1
        return low


@dataclass(frozen=True)
class Case:
    """A config and one of its calls."""

    config: Config
    #: ``"generate"`` or ``"many"``.
    call: str

    @property
    def id(self) -> str:
        return f"{self.config.id}-{self.call}"

    def caller(self, g: Generator, n: int = MANY_N) -> Callable[[], list[uuid.UUID]]:
        """The call on ``g``: a function returning the UUIDs it made, in order."""
        if self.call == "many":
            assert isinstance(g, uuidx.V7Generator)
            return lambda: g.many(n)
        return lambda: [g.generate()]


def _configs() -> tuple[Config, ...]:
    configs = []
    for cls in CLASSES:
        layouts: tuple[tuple[Optional[str], Optional[int]], ...] = (
            V7_LAYOUTS if cls is uuidx.V7Generator else ((None, None),)
        )
        for (method, bits), clock in itertools.product(layouts, CLOCKS):
            policies = (None,) if method in POLICYLESS_METHODS else POLICIES
            configs += [Config(cls, method, policy, clock, bits) for policy in policies]
    return tuple(configs)


#: Every generator configuration.
CONFIGS: tuple[Config, ...] = _configs()
#: Every configuration with every call its class has.
CASES: tuple[Case, ...] = tuple(Case(c, call) for c in CONFIGS for call in CALLS[c.cls])


def case_id(case: Union[Case, Config]) -> str:
    return case.id


def order(u: uuid.UUID) -> int:
    """What a generator keeps strictly increasing: the timestamp for v1 (whose UUIDs do not
    sort by it), the UUID itself for v6 and v7."""
    return u.time if u.version == 1 else u.int


def timestamp_ns(u: uuid.UUID) -> int:
    """The instant of a v1, v6 or v7 UUID's timestamp, in ns since 1970: ``unix_ts_ms`` (bits
    127 to 80) for v7, the 60-bit count of 100 ns since 1582-10-15 for v1 and v6."""
    v = u.int
    version = (v >> 76) & 0xF
    if version == 7:
        return (v >> 80) * 1_000_000
    if version == 6:
        ticks = (v >> 96) << 28 | ((v >> 80) & 0xFFFF) << 12 | (v >> 64) & 0xFFF
    else:
        assert version == 1, u
        ticks = ((v >> 64) & 0xFFF) << 48 | ((v >> 80) & 0xFFFF) << 32 | v >> 96
    return ticks * 100 - GREGORIAN_OFFSET_NS

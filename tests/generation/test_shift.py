"""``shift=`` of ``uuidx.uuid7`` and ``uuidx.V7Generator``, and the ``"postgresql"`` preset
(PostgreSQL 18's ``uuidv7()`` layout). The same against a real PostgreSQL 18 server:
``tests/integration/test_postgres18.py``."""

from __future__ import annotations

import datetime
import typing

import pytest

import uuidx
import uuidx.typing

DAY_NS = 86_400 * 10**9
T = 1_709_208_000_123_456_789  # 2024-02-29T12:00:00.123456789Z


def _ticks(u: typing.Any) -> int:
    """A process-wide (or preset) v7's time in 1/4096 ms: millisecond and fraction."""
    ms, fraction, *_ = uuidx.layout.fields(u, method="submillisecond")
    return int(ms) * 4096 + int(fraction)


@pytest.mark.parametrize(
    "shift",
    [
        datetime.timedelta(days=-1),
        datetime.timedelta(hours=1, microseconds=7),
        -90 * 60 * 10**9,
        2_500_000_000,
        1,
        -1,
    ],
)
def test_a_generator_reads_its_clock_moved_by_the_shift(shift: typing.Any) -> None:
    ns = (
        shift
        if isinstance(shift, int)
        else ((shift.days * 86_400 + shift.seconds) * 10**9 + shift.microseconds * 1000)
    )
    shifted = uuidx.V7Generator("postgresql", clock=lambda: T, shift=shift, random=1)
    reference = uuidx.V7Generator("postgresql", clock=lambda: T + ns, random=1)
    assert shifted.generate() == reference.generate()
    assert shifted.shift_ns == ns
    assert f"shift={ns}" in repr(shifted)


def test_uuid7_shift_moves_the_next_uuid_of_the_sequence() -> None:
    before = uuidx.uuid7()
    day_ago = [uuidx.uuid7(shift=datetime.timedelta(days=-1)) for _ in range(200)]
    after = uuidx.uuid7()
    # Same shift: distinct and increasing, as the process-wide sequence is.
    assert day_ago == sorted(day_ago) and len(set(day_ago)) == len(day_ago)
    # A whole number of milliseconds moves the time exactly, in 1/4096 ms ticks.
    assert _ticks(before) - DAY_NS * 4096 // 10**6 <= _ticks(day_ago[0])
    assert _ticks(day_ago[-1]) <= _ticks(after) - DAY_NS * 4096 // 10**6
    # The rest of the UUID is the sequence's own: unshifted calls go on after it.
    assert before < after
    assert uuidx.uuid7(shift=0) > after and uuidx.uuid7(shift=None).version == 7


def test_shift_accepts_timedelta_and_ints_only() -> None:
    assert uuidx.uuid7(shift=datetime.timedelta(0)).version == 7
    bads: list[typing.Any] = [True, 1.5, "1 day", datetime.datetime.now(datetime.timezone.utc)]
    for bad in bads:
        with pytest.raises(TypeError, match="shift must be a datetime.timedelta or an int"):
            uuidx.uuid7(shift=bad)
        with pytest.raises(TypeError, match="shift must be"):
            uuidx.V7Generator(shift=bad)
    for huge in (1 << 63, -(1 << 63) - 1, datetime.timedelta(days=200_000)):
        with pytest.raises(ValueError, match="out of range: at most 2\\*\\*63 - 1 ns"):
            uuidx.uuid7(shift=huge)
    assert uuidx.V7Generator(shift=(1 << 63) - 1).shift_ns == (1 << 63) - 1


def test_a_shift_before_1970() -> None:
    with pytest.raises(ValueError, match="out of range for a version 7 UUID"):
        uuidx.uuid7(shift=-(1 << 62))
    generator = uuidx.V7Generator(clock=lambda: 10**9, shift=-2 * 10**9)
    with pytest.raises(uuidx.ClockError, match="before 1970"):
        generator.generate()


def test_the_postgresql_preset_is_its_layout() -> None:
    presets = uuidx._core._v7_presets()
    assert [name for name, _, _ in presets] == list(typing.get_args(uuidx.typing.V7Preset))
    assert presets == (("postgresql", "submillisecond", 0),)
    clock = iter(range(T, T + 10**9, 100))  # 100 ns apart: several UUIDs per 1/4096 ms tick
    preset = uuidx.V7Generator("postgresql", clock=lambda: next(clock), random=5)
    clock2 = iter(range(T, T + 10**9, 100))
    layout = uuidx.V7Generator("submillisecond", 0, clock=lambda: next(clock2), random=5)
    made = preset.many(50)
    assert made == layout.many(50)
    assert (preset.method, preset.bits) == ("submillisecond", 0)
    assert uuidx.V7Generator("postgresql", 0).bits == 0
    with pytest.raises(ValueError, match="invalid bits 10"):
        uuidx.V7Generator("postgresql", 10)
    # PostgreSQL's: 12-bit fraction (floor of ns * 4096 / 10**6), then 62 random bits.
    ms, fraction, counter, node, random = preset.fields(made[0])
    assert (ms, fraction) == (T // 10**6, (T % 10**6) * 4096 // 10**6)
    assert counter == 0 and node == 0 and random == made[0].int & ((1 << 62) - 1)
    assert uuidx.layout.fields(made[0], method="postgresql") == preset.fields(made[0])
    # A call within the last UUID's tick moves one tick ahead (PostgreSQL: >= 245 ns).
    ticks = [_ticks(u) for u in made]
    assert all(b == a + 1 for a, b in zip(ticks, ticks[1:]))

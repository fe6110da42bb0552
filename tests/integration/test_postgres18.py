"""uuidx against PostgreSQL 18's own version 7 UUIDs: ``uuidv7()``, ``uuidv7(interval)``,
``uuid_extract_timestamp()`` and ``uuid_extract_version()`` of a real server.

PostgreSQL 18 makes RFC 9562 Method 3 UUIDs: 48 bits of milliseconds, a 12-bit sub-millisecond
fraction (``ns % 1_000_000 * 4096 // 1_000_000``), 62 random bits, and each call of a backend at
least 245 ns (one fraction step) after its previous one. ``V7Generator("postgresql")`` is that
layout. The server runs from the Debian sid root of ``ci/chroot-python`` (the
``postgres18_server`` fixture of ``conftest.py``, once per session), which shares the kernel's
clock with this process, so the times read here bound the times in the server's UUIDs. Without
such a server the tests skip, or fail with ``UUIDX_REQUIRE_POSTGRES18=1`` (``make test``).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any, Optional, Union

import pytest
from optional import need
from pg_server import ChrootPostgresServer

import uuidx
from uuidx.layout import V7Fields, fields
from uuidx.typing import V7Method, V7Preset

psycopg = need("psycopg")

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
NS_PER_MS = 1_000_000
#: PostgreSQL's least step between two calls of a backend (SUBMS_MINIMAL_STEP_NS).
PG_STEP_NS = 245
MASK62 = (1 << 62) - 1


@pytest.fixture
def conn(postgres18_server: ChrootPostgresServer) -> Iterator[Any]:
    """A fresh connection (a new backend: its uuidv7() starts from the clock, with no step
    carried over from another test), in UTC."""
    with psycopg.connect(postgres18_server.conninfo, autocommit=True) as connection:
        connection.execute("SET TIME ZONE 'UTC'")
        yield connection


def tick(ns: int) -> int:
    """The 1/4096 ms tick of a time in nanoseconds since 1970, as PostgreSQL 18 computes it."""
    return ns // NS_PER_MS * 4096 + ns % NS_PER_MS * 4096 // NS_PER_MS


def uuid_tick(u: uuid.UUID) -> int:
    """The tick a Method 3 UUID carries: its 48-bit milliseconds, then its 12-bit fraction."""
    unix_ts_ms, fraction, counter, node, _ = uuidx.V7Generator("postgresql").fields(u)
    assert counter == 0 and node == 0
    return int(unix_ts_ms) * 4096 + int(fraction)


def pg_ms(conn: Any, u: uuid.UUID) -> int:
    """``uuid_extract_timestamp(u)`` in whole milliseconds since 1970 (read as a number, so
    that years past 9999, which ``datetime`` lacks, compare too)."""
    (ms,) = conn.execute(
        "SELECT (extract(epoch FROM uuid_extract_timestamp(%s)) * 1000)::bigint", (u,)
    ).fetchone()
    return int(ms)


def micros(dt: datetime) -> int:
    """Microseconds since 1970 of an aware datetime, exactly."""
    return (dt - EPOCH) // timedelta(microseconds=1)


def test_server_is_postgresql_18(conn: Any) -> None:
    (version,) = conn.execute("SHOW server_version_num").fetchone()
    assert int(version) >= 180000, f"server_version_num {version}: not PostgreSQL 18"
    (u,) = conn.execute("SELECT uuidv7()").fetchone()
    assert type(u) is uuid.UUID and u.version == 7


def test_uuidv7_is_the_postgresql_layout_and_reads_the_clock(conn: Any) -> None:
    n = 2000
    before = time.time_ns()
    rows = conn.execute(
        "SELECT uuidv7() FROM generate_series(1, %s) AS i ORDER BY i", (n,)
    ).fetchall()
    after = time.time_ns()
    made = [r[0] for r in rows]
    ticks = [uuid_tick(u) for u in made]
    for u in made:
        assert u.version == 7 and u.variant == uuid.RFC_4122, u
        # The preset splits the UUID as PostgreSQL lays it out: the 12 bits after the version
        # are the fraction, the 62 after the variant are random, no counter, no node.
        ms, fraction, counter, node, random = uuidx.V7Generator("postgresql").fields(u)
        assert (ms, fraction, counter, node) == (u.int >> 80, (u.int >> 64) & 0xFFF, 0, 0)
        assert random == u.int & MASK62
        assert fields(u) == V7Fields(unix_ts_ms=ms, ver=7, rand_a=fraction, var=2, rand_b=random)
    # One backend: each call at least one fraction step after the one before.
    assert all(a < b for a, b in zip(ticks, ticks[1:])), "uuidv7() ticks strictly increase"
    # The server's clock is this process's clock (one kernel): the ticks lie between the
    # readings taken around the query, the last one at most n minimal steps ahead of the clock.
    assert tick(before) <= ticks[0] and ticks[-1] <= tick(after + n * PG_STEP_NS)
    # 62 random bits: each of them both set and clear somewhere among 2000 UUIDs.
    randoms = [u.int & MASK62 for u in made]
    either = 0
    both = MASK62
    for r in randoms:
        either |= r
        both &= r
    assert either == MASK62 and both == 0
    assert len(set(randoms)) == n


def test_uuid_extract_timestamp_of_postgresql_uuids(conn: Any) -> None:
    rows = conn.execute(
        "SELECT u, uuid_extract_timestamp(u), uuid_extract_version(u)"
        " FROM (SELECT uuidv7() AS u FROM generate_series(1, 500)) AS s"
    ).fetchall()
    for u, extracted, version in rows:
        assert version == 7
        # PostgreSQL reads the milliseconds only.
        assert micros(extracted) == uuidx.timestamp_ns(u) // NS_PER_MS * 1000
        assert micros(uuidx.to_datetime(u)) // 1000 == micros(extracted) // 1000


# Edge times for uuid7_at: 1970 itself, the first and last nanosecond of a millisecond, a leap
# day, 2**31 seconds, and the last millisecond 48 bits hold (year 10889, past datetime's 9999).
EDGE_NS = [
    0,
    1,
    NS_PER_MS - 1,
    NS_PER_MS,
    micros(datetime(2000, 2, 29, 23, 59, 59, 999999, tzinfo=timezone.utc)) * 1000 + 999,
    2**31 * 10**9,
    (2**48 - 1) * NS_PER_MS,
    (2**48 - 1) * NS_PER_MS + NS_PER_MS - 1,
]


@pytest.mark.parametrize("ns", EDGE_NS)
def test_uuid_extract_timestamp_of_uuid7_at(conn: Any, ns: int) -> None:
    u = uuidx.uuid7_at(ns)
    assert pg_ms(conn, u) == ns // NS_PER_MS == uuidx.timestamp_ns(u) // NS_PER_MS
    (version,) = conn.execute("SELECT uuid_extract_version(%s)", (u,)).fetchone()
    assert version == 7
    if ns <= micros(datetime.max.replace(tzinfo=timezone.utc)) * 1000:
        (extracted,) = conn.execute("SELECT uuid_extract_timestamp(%s)", (u,)).fetchone()
        assert extracted == EPOCH + timedelta(milliseconds=ns // NS_PER_MS)
        assert micros(uuidx.to_datetime(u)) // 1000 == ns // NS_PER_MS


@pytest.mark.parametrize("method", [None, "submillisecond", "postgresql", "counter"])
def test_uuid_extract_timestamp_of_uuidx_uuids(
    conn: Any, method: Optional[Union[V7Method, V7Preset]]
) -> None:
    """The process-wide uuid7() (method None), a default generator, the preset, Method 1."""
    make = uuidx.uuid7 if method is None else uuidx.V7Generator(method).generate
    made = [make() for _ in range(300)]
    rows = conn.execute(
        "SELECT u, uuid_extract_timestamp(u), uuid_extract_version(u) FROM unnest(%s::uuid[]) AS u",
        (made,),
    ).fetchall()
    assert [r[0] for r in rows] == made
    for u, extracted, version in rows:
        assert version == 7
        assert micros(extracted) == uuidx.timestamp_ns(u) // NS_PER_MS * 1000
        assert micros(uuidx.to_datetime(u)) // 1000 == micros(extracted) // 1000


def test_preset_uuids_round_trip_through_a_uuid_column(conn: Any) -> None:
    generator = uuidx.V7Generator("postgresql")
    assert (generator.method, generator.bits) == ("submillisecond", 0)
    made = [generator.generate() for _ in range(3000)]
    conn.execute("CREATE TEMPORARY TABLE preset (id uuid PRIMARY KEY, n int NOT NULL)")
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO preset VALUES (%s, %s)", list(zip(made, range(len(made)))))
    rows = conn.execute("SELECT id, n, uuid_extract_version(id) FROM preset ORDER BY id").fetchall()
    assert [r[0] for r in rows] == made
    assert [r[1] for r in rows] == list(range(len(made)))
    assert {r[2] for r in rows} == {7}
    # The layout PostgreSQL makes: no counter, and 62 random bits after the variant.
    assert len({u.int & MASK62 for u in made}) == len(made)
    ticks = [uuid_tick(u) for u in made]
    assert all(a < b for a, b in zip(ticks, ticks[1:]))


def test_app_and_database_uuids_interleave_in_time_order(conn: Any) -> None:
    conn.execute("CREATE TEMPORARY TABLE mixed (id uuid PRIMARY KEY, n int NOT NULL)")
    created: list[uuid.UUID] = []
    for i in range(200):
        if i % 2 == 0:
            u = uuidx.uuid7()
            conn.execute("INSERT INTO mixed VALUES (%s, %s)", (u, i))
        else:
            (u,) = conn.execute(
                "INSERT INTO mixed VALUES (uuidv7(), %s) RETURNING id", (i,)
            ).fetchone()
        created.append(u)
        # Some hundreds of microseconds, so that the next UUID's clock reading (in the other
        # process, half of the time) is ticks later than this one's.
        time.sleep(0.0003)
    assert sorted(created) == created
    rows = conn.execute("SELECT id, n FROM mixed ORDER BY id").fetchall()
    assert [r[0] for r in rows] == created
    assert [r[1] for r in rows] == list(range(len(created)))


# interval text, the same duration for shift: UTC has no daylight saving time, so in a UTC
# session '-1 day' is 24 hours.
SHIFTS = [
    ("-1 day", timedelta(days=-1)),
    ("1 hour", timedelta(hours=1)),
    ("-90 minutes", timedelta(minutes=-90)),
    ("2 seconds 500 milliseconds", timedelta(seconds=2, milliseconds=500)),
    ("-3 microseconds", timedelta(microseconds=-3)),
    ("36500 days", timedelta(days=36500)),
]


@pytest.mark.parametrize(("interval", "shift"), SHIFTS, ids=[s[0] for s in SHIFTS])
def test_shift_agrees_with_uuidv7_interval(conn: Any, interval: str, shift: timedelta) -> None:
    shift_ns = shift // timedelta(microseconds=1) * 1000
    before = time.time_ns()
    (from_pg,) = conn.execute("SELECT uuidv7(%s::interval)", (interval,)).fetchone()
    from_app = uuidx.uuid7(shift=shift)
    from_preset = uuidx.V7Generator("postgresql", shift=shift).generate()
    from_int = uuidx.uuid7(shift=shift_ns)
    after = time.time_ns()
    # The server and a generator shift the clock's reading (PostgreSQL at microsecond
    # precision, keeping the nanoseconds below: the same for a whole-microsecond shift).
    lo, hi = tick(before + shift_ns), tick(after + shift_ns + PG_STEP_NS)
    for u in (from_pg, from_preset):
        assert lo <= uuid_tick(u) <= hi, (u, interval)
        assert lo >> 12 <= pg_ms(conn, u) <= hi >> 12
    # uuid7(shift=) moves the next UUID of the process-wide sequence (10 counter bits after the
    # fraction) by the shift in whole 1/4096 ms ticks, rounded down.
    moved = (shift_ns << 12) // NS_PER_MS
    lo, hi = tick(before) + moved, tick(after) + moved
    for u in (from_app, from_int):
        ms, fraction = u.int >> 80, (u.int >> 64) & 0xFFF
        assert lo <= ms * 4096 + fraction <= hi, (u, interval)
        assert lo >> 12 <= pg_ms(conn, u) <= hi >> 12
    assert from_app < from_int, "calls with the same shift increase"


# A fixed clock with a sub-microsecond part: PostgreSQL adds the interval to the microseconds
# and keeps the nanoseconds below them.
FIXED = micros(datetime(2025, 6, 15, 12, 34, 56, 789012, tzinfo=timezone.utc)) * 1000 + 345


@pytest.mark.parametrize(("interval", "shift"), SHIFTS, ids=[s[0] for s in SHIFTS])
def test_shift_arithmetic_is_postgresql_timestamptz_plus_interval(
    conn: Any, interval: str, shift: timedelta
) -> None:
    generator = uuidx.V7Generator("postgresql", clock=lambda: FIXED, shift=shift)
    u = generator.generate()
    # uuidv7(interval) in PostgreSQL 18: the clock's microseconds as a timestamptz, plus the
    # interval, then the nanoseconds below the microsecond back.
    (shifted,) = conn.execute(
        "SELECT %s::timestamptz + %s::interval",
        (EPOCH + timedelta(microseconds=FIXED // 1000), interval),
    ).fetchone()
    expected_ns = micros(shifted) * 1000 + FIXED % 1000
    assert uuid_tick(u) == tick(expected_ns)
    assert pg_ms(conn, u) == expected_ns // NS_PER_MS
    (truncated,) = conn.execute(
        "SELECT date_trunc('milliseconds', %s::timestamptz + %s::interval) = uuid_extract_timestamp(%s)",
        (EPOCH + timedelta(microseconds=FIXED // 1000), interval, u),
    ).fetchone()
    assert truncated is True
    # An int shift in nanoseconds is the same shift.
    same = uuidx.V7Generator(
        "postgresql", clock=lambda: FIXED, shift=shift // timedelta(microseconds=1) * 1000
    )
    assert uuid_tick(same.generate()) == uuid_tick(u)


def test_day_and_month_intervals_are_calendar_based_shift_is_not(conn: Any) -> None:
    # Europe/Berlin moved its clocks forward at 01:00 UTC on 2025-03-30: in a session in that
    # zone, '-1 day' from noon UTC that day is 23 hours; a timedelta(days=-1) is always 24.
    t = datetime(2025, 3, 30, 12, tzinfo=timezone.utc)
    generator = uuidx.V7Generator(
        "postgresql", clock=lambda: micros(t) * 1000, shift=timedelta(days=-1)
    )
    from_app = generator.generate()
    conn.execute("SET TIME ZONE 'Europe/Berlin'")
    (berlin,) = conn.execute("SELECT %s::timestamptz + interval '-1 day'", (t,)).fetchone()
    conn.execute("SET TIME ZONE 'UTC'")
    (utc,) = conn.execute("SELECT %s::timestamptz + interval '-1 day'", (t,)).fetchone()
    assert t - berlin == timedelta(hours=23) and t - utc == timedelta(hours=24)
    assert pg_ms(conn, from_app) * 1000 == micros(utc) != micros(berlin)
    # A month is no fixed duration at all: from 31 January, '1 month' is 28 days.
    jan31 = datetime(2025, 1, 31, tzinfo=timezone.utc)
    (feb,) = conn.execute("SELECT %s::timestamptz + interval '1 month'", (jan31,)).fetchone()
    assert feb - jan31 == timedelta(days=28)

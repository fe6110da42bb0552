"""uuidx's UUIDs through psycopg 3 into a real PostgreSQL server and back.

The server is a throwaway cluster on a Unix socket (see ``pg_server.py``), so the tests skip
on Windows. Without PostgreSQL binaries they skip too, unless ``UUIDX_REQUIRE_POSTGRES=1`` (set
by ``make test``), which turns a missing server into a failure. Each test runs twice: against
the host's server (whatever version it has) and against PostgreSQL 18 (the session's server of
the Debian sid root, in a database of its own; ``UUIDX_REQUIRE_POSTGRES18=1`` likewise).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from optional import need
from pg_server import ChrootPostgresServer, PostgresServer, find_bin
from platform_facts import WINDOWS

import uuidx

if WINDOWS:
    pytest.skip(
        "Windows: the throwaway server is a POSIX one (a Unix socket, run as the postgres user)",
        allow_module_level=True,
    )
psycopg = need("psycopg")

REQUIRED = os.environ.get("UUIDX_REQUIRE_POSTGRES") == "1"


@pytest.fixture(scope="module", params=["host", "postgresql-18"])
def conn(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "postgresql-18":
        pg18: ChrootPostgresServer = request.getfixturevalue("postgres18_server")
        with psycopg.connect(pg18.conninfo, autocommit=True) as admin:
            admin.execute("DROP DATABASE IF EXISTS test_postgres")
            admin.execute("CREATE DATABASE test_postgres")
        conninfo = pg18.conninfo.replace("dbname=postgres", "dbname=test_postgres")
        with psycopg.connect(conninfo, autocommit=True) as connection:
            yield connection
        return
    if find_bin("initdb") is None and not REQUIRED:
        pytest.skip("PostgreSQL server binaries not installed (make test installs them)")
    server = PostgresServer()
    server.start()
    try:
        with psycopg.connect(server.conninfo, autocommit=True) as connection:
            yield connection
    finally:
        server.stop()


def test_uuid_column_round_trip(conn: Any) -> None:
    conn.execute("CREATE TABLE items (id uuid PRIMARY KEY, n int NOT NULL)")
    made = [uuidx.uuid7() for _ in range(2000)]
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO items (id, n) VALUES (%s, %s)", [(u, i) for i, u in enumerate(made)]
        )
    rows = conn.execute("SELECT id, n FROM items ORDER BY id").fetchall()
    assert [r[0] for r in rows] == made, "PostgreSQL's uuid order is generation order for v7"
    assert [r[1] for r in rows] == list(range(len(made)))
    assert all(type(r[0]) is uuid.UUID for r in rows)


def test_every_version_is_stored_verbatim(conn: Any) -> None:
    values = [
        uuidx.uuid1(),
        uuidx.uuid3(uuidx.NAMESPACE_DNS, "x"),
        uuidx.uuid4(),
        uuidx.uuid5(uuidx.NAMESPACE_URL, "y"),
        uuidx.uuid6(),
        uuidx.uuid7(),
        uuidx.uuid8(),
        uuidx.uuid8_name(uuidx.NAMESPACE_OID, "z", "sha3_512"),
        uuidx.NIL,
        uuidx.MAX,
    ]
    for u in values:
        (back, text) = conn.execute("SELECT %s::uuid, %s::uuid::text", (u, u)).fetchone()
        assert back == u and text == str(u)


def test_server_parses_our_upper_case_text(conn: Any) -> None:
    u = uuidx.uuid7()
    (parsed,) = conn.execute("SELECT %s::text::uuid", (str(u).upper(),)).fetchone()
    assert parsed == u


def test_time_range_query_with_uuid7_bounds(conn: Any) -> None:
    conn.execute("CREATE TABLE events (id uuid PRIMARY KEY)")
    base = datetime(2025, 3, 1, tzinfo=timezone.utc)
    days = [uuidx.uuid7_at(base + timedelta(days=d, minutes=m)) for d in range(5) for m in (0, 30)]
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO events (id) VALUES (%s)", [(u,) for u in days])
    lo, hi = uuidx.uuid7_bounds(base + timedelta(days=1), base + timedelta(days=2, minutes=59))
    rows = conn.execute(
        "SELECT id FROM events WHERE id BETWEEN %s AND %s ORDER BY id", (lo, hi)
    ).fetchall()
    got = [uuidx.to_datetime(r[0]) for r in rows]
    assert got == [base + timedelta(days=d, minutes=m) for d in (1, 2) for m in (0, 30)]


@pytest.mark.skipif(WINDOWS, reason="the throwaway server listens on a Unix socket")
def test_host_server_starts_under_any_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The throwaway cluster does not depend on the caller's locale: under a ``LC_ALL`` naming a
    locale no machine has, initdb alone fails ("invalid locale settings")."""
    if find_bin("initdb") is None and not REQUIRED:
        pytest.skip("PostgreSQL server binaries not installed (make test installs them)")
    monkeypatch.setenv("LC_ALL", "xx_NOWHERE.UTF-8")
    monkeypatch.setenv("LANG", "xx_NOWHERE.UTF-8")
    server = PostgresServer()
    try:
        server.start()
        with psycopg.connect(server.conninfo, autocommit=True) as connection:
            value = uuidx.uuid7()
            assert connection.execute("SELECT %s::uuid", (value,)).fetchone() == (value,)
    finally:
        server.stop()

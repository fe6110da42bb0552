"""Libraries that must take uuidx's UUIDs exactly as the stdlib's: orjson and SQLAlchemy 2 (on an
in-memory SQLite database); pydantic v2 in test_pydantic.py."""

from __future__ import annotations

import random
import uuid
from typing import Any, Optional

import pytest
import sqlalchemy as sa
from optional import need
from platform_facts import PYPY
from samples import SAMPLES
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

import uuidx

# --- orjson --------------------------------------------------------------------------------


@pytest.fixture
def orjson() -> Any:
    return need("orjson", "orjson publishes no wheel for PyPy" if PYPY else None)


def test_orjson_serialises_natively(orjson: Any) -> None:
    for u in SAMPLES:
        data = orjson.dumps(u)
        assert data == orjson.dumps(uuid.UUID(int=u.int))
        assert data == b'"' + str(u).encode() + b'"'
    many = [uuidx.uuid7() for _ in range(1000)]
    assert orjson.dumps(many) == orjson.dumps([uuid.UUID(int=u.int) for u in many])
    nested = {"ids": many[:3], "one": {"id": many[3]}}
    assert orjson.loads(orjson.dumps(nested)) == {
        "ids": [str(u) for u in many[:3]],
        "one": {"id": str(many[3])},
    }


def test_orjson_dict_keys(orjson: Any) -> None:
    u = uuidx.uuid4()
    data = orjson.dumps({u: 1}, option=orjson.OPT_NON_STR_KEYS)
    assert data == orjson.dumps({uuid.UUID(int=u.int): 1}, option=orjson.OPT_NON_STR_KEYS)


# --- SQLAlchemy ----------------------------------------------------------------------------


class Base(DeclarativeBase):
    pass


class Row(Base):
    __tablename__ = "rows"

    id: Mapped[uuid.UUID] = mapped_column(sa.Uuid, primary_key=True)
    seq: Mapped[int] = mapped_column()
    other: Mapped[Optional[uuid.UUID]] = mapped_column(sa.Uuid, nullable=True)


def test_sqlalchemy_round_trip_and_v7_order() -> None:
    engine = sa.create_engine("sqlite://")
    try:
        Base.metadata.create_all(engine)
        generated = [uuidx.uuid7() for _ in range(500)]
        shuffled = list(enumerate(generated))
        random.Random(1234).shuffle(shuffled)
        others = {u: SAMPLES[i % len(SAMPLES)] for i, u in enumerate(generated)}
        with Session(engine) as session:
            session.add_all(Row(id=u, seq=i, other=others[u]) for i, u in shuffled)
            session.commit()
        with Session(engine) as session:
            rows = session.scalars(sa.select(Row).order_by(Row.id)).all()
            assert [r.id for r in rows] == generated
            assert [r.seq for r in rows] == list(range(500))
            assert all(type(r.id) is uuid.UUID for r in rows)
            assert all(r.other == others[r.id] for r in rows)
            # Lookups by a uuidx UUID and by a stdlib UUID find the same row.
            target = generated[123]
            found = session.get(Row, target)
            assert found is not None and found.seq == 123
            same = session.scalars(sa.select(Row).where(Row.id == uuid.UUID(str(target)))).one()
            assert same.seq == 123
            # v7 bounds select exactly the rows of a time range.
            lo, hi = generated[100], generated[199]
            between = session.scalars(
                sa.select(Row.seq).where(Row.id.between(lo, hi)).order_by(Row.id)
            ).all()
            assert list(between) == list(range(100, 200))
    finally:
        engine.dispose()


def test_sqlalchemy_core_insert_all_versions() -> None:
    engine = sa.create_engine("sqlite://")
    try:
        metadata = sa.MetaData()
        table = sa.Table("t", metadata, sa.Column("id", sa.Uuid, primary_key=True))
        metadata.create_all(engine)
        with engine.begin() as conn:
            conn.execute(table.insert(), [{"id": u} for u in SAMPLES])
        with engine.connect() as conn:
            got = set(conn.scalars(sa.select(table.c.id)).all())
        assert got == set(SAMPLES)
    finally:
        engine.dispose()

"""``uuidx.arrow`` with the real libraries: pyarrow, Polars, DuckDB, pandas and NumPy read
uuidx's columns, and uuidx reads theirs. Expected values come from the stdlib or from the
other library, never from uuidx itself.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

import platform_facts
import pytest
from optional import major_version, need, uuid_column

import uuidx
import uuidx.arrow as ua

pa = need("pyarrow")
pl = need("polars")
duckdb = need("duckdb")
pd = need("pandas")
np = need("numpy")

ROWS = [uuidx.uuid7(), None, uuidx.uuid4(), uuidx.NIL, uuidx.MAX, uuidx.uuid1()]
TEXTS = [None if u is None else str(u) for u in ROWS]


# pyarrow


def test_pyarrow_reads_the_canonical_uuid_type() -> None:
    keys = pa.array(ua.uuid7(10))
    assert keys.type == pa.uuid()
    assert all(type(u) is uuid.UUID and u.version == 7 for u in keys.to_pylist())
    plain = pa.array(ua.uuid7(10, extension=False))
    assert plain.type == pa.binary(16)
    assert pa.array(ua.array(ROWS)).to_pylist() == ROWS
    # A pyarrow pa.uuid() column comes back unchanged.
    theirs = uuid_column(pa, ROWS)
    assert ua.array(theirs).to_pylist() == ROWS
    assert pa.array(ua.array(theirs)).equals(theirs)


@pytest.mark.skipif(major_version(pa) < 22, reason="pyarrow converts uuid.UUID objects from 22 on")
def test_pyarrow_infers_uuid_objects_as_the_canonical_type() -> None:
    inferred = pa.array(ROWS)
    assert inferred.type == pa.uuid()
    assert ua.array(inferred).to_pylist() == ROWS
    assert pa.array(ua.array(inferred)).equals(inferred)


def test_pyarrow_text_and_timestamps() -> None:
    text = pa.array(ua.to_str(uuid_column(pa, ROWS)))
    assert text.type == pa.string() and text.to_pylist() == TEXTS
    times = pa.array(ua.timestamp_ns(uuid_column(pa, ROWS)))
    assert times.type == pa.timestamp("ns", tz="UTC")
    v7 = ROWS[0]
    assert v7 is not None
    assert times[0].value == (v7.int >> 80) * 1_000_000, "unix_ts_ms from the stdlib's int"
    assert times.null_count == 4
    assert ua.parse(pa.array(TEXTS)).to_pylist() == ROWS
    assert ua.parse(pa.array(TEXTS, pa.string_view())).to_pylist() == ROWS


def test_pyarrow_chunked_columns_and_bad_inputs() -> None:
    chunked = pa.chunked_array([uuid_column(pa, ROWS[:2]), uuid_column(pa, ROWS[2:])])
    assert ua.to_str(chunked).to_pylist() == TEXTS
    with pytest.raises(
        TypeError, match=r"uuids must be .*; got an Arrow column of Int64 from .*Int64Array"
    ):
        ua.to_str(pa.array([1, 2]))
    with pytest.raises(TypeError, match=r"got an Arrow column of FixedSizeBinary\(8\)"):
        ua.array(pa.array([b"12345678"], pa.binary(8)))
    with pytest.raises(ValueError, match="row 1 of a binary column holds 3 bytes; a UUID holds 16"):
        ua.to_str(pa.array([bytes(16), b"abc"]))
    with pytest.raises(TypeError, match=r"names must be .*; got an Arrow column of Int32"):
        ua.uuid5(uuidx.NAMESPACE_DNS, pa.array([1], pa.int32()))
    with pytest.raises(ValueError, match=r"row 2: invalid UUID string \"nope\""):
        ua.parse(pa.chunked_array([[TEXTS[0], None], ["nope"]]))


def test_uuid5_over_a_pyarrow_column_equals_the_stdlib() -> None:
    names = pa.array(["alice", None, "bob", "", "\u00e9t\u00e9"] * 100)
    got = ua.uuid5(uuidx.NAMESPACE_URL, names).to_pylist()
    assert got == [
        None if n is None else uuid.uuid5(uuid.NAMESPACE_URL, n) for n in names.to_pylist()
    ]
    binary = pa.array([b"\x00\xff", None], pa.large_binary())
    digest = hashlib.md5(uuid.NAMESPACE_OID.bytes + b"\x00\xff").digest()
    assert ua.uuid3(uuidx.NAMESPACE_OID, binary).to_pylist() == [
        uuid.UUID(bytes=digest[:16], version=3),
        None,
    ]


def test_encoded_columns_through_pyarrow_equal_the_peer_libraries() -> None:
    """ULID text from python-ulid, base58 from the base58 package, base64url from the stdlib."""
    import base64

    import base58
    import ulid

    keys = pa.array(ua.uuid7(300))
    uuids = keys.to_pylist()
    ulids = pa.array(ua.encode(keys, "ulid"))
    assert ulids.type == pa.string()
    assert ulids.to_pylist() == [str(ulid.ULID.from_uuid(u)) for u in uuids]
    b58 = [base58.b58encode_int(u.int).decode().rjust(22, "1") for u in uuids]
    assert ua.encode(keys, "base58").to_pylist() == b58
    b64 = [base64.urlsafe_b64encode(u.bytes).rstrip(b"=").decode() for u in uuids]
    assert ua.encode(keys, "base64url").to_pylist() == b64
    texts_of: list[tuple[Any, Any]] = [
        ("ulid", ulids),
        ("base58", pa.array(b58, pa.large_string())),
    ]
    for form, texts in texts_of:
        assert ua.decode(texts, form).to_pylist() == uuids
        assert pa.array(ua.decode(texts, form)).type == pa.uuid()
    # The facade column keeps a key's random bits and hides its time; it round-trips.
    key = bytes(range(16))
    facades = pa.array(ua.mask_v7(keys, key))
    assert {u.version for u in facades.to_pylist()} == {4}
    assert pa.array(ua.unmask_v7(facades, key)).equals(keys)


# Polars


def test_polars_series_of_keys_and_text() -> None:
    keys = pl.Series(ua.uuid7(5, extension=False)).alias("id")
    assert keys.dtype == pl.Binary and keys.len() == 5
    assert [uuid.UUID(bytes=b).version for b in keys.to_list()] == [7] * 5
    # Polars reads FixedSizeBinary(16) as binary; uuidx reads those 16-byte values back.
    text = pl.Series(ua.to_str(keys))
    assert text.dtype == pl.String
    assert text.to_list() == [str(uuid.UUID(bytes=b)) for b in keys.to_list()]
    strings = pl.Series("t", TEXTS)
    assert ua.parse(strings).to_pylist() == ROWS
    frame = pl.DataFrame({"name": ["a", None, "b"]})
    ids = ua.uuid5(uuidx.NAMESPACE_DNS, frame["name"])
    assert ids.to_pylist() == [
        uuid.uuid5(uuid.NAMESPACE_DNS, "a"),
        None,
        uuid.uuid5(uuid.NAMESPACE_DNS, "b"),
    ]
    with_ids = frame.with_columns(id=pl.Series(ua.to_str(ids)))
    assert with_ids["id"].to_list()[0] == str(uuid.uuid5(uuid.NAMESPACE_DNS, "a"))
    assert ua.timestamp_ns(keys).to_pylist()[0] == (uuid.UUID(bytes=keys[0]).int >> 80) * 10**6
    # Short public ids in a frame, and back.
    short = pl.Series("short", ua.encode(keys, "base62"))
    assert short.dtype == pl.String and short.str.len_chars().to_list() == [22] * 5
    assert ua.decode(short, "base62").to_pylist() == [uuid.UUID(bytes=b) for b in keys.to_list()]


# DuckDB


@pytest.mark.skipif(not platform_facts.SSL, reason=platform_facts.NO_SSL)
def test_duckdb_reads_the_column_as_uuid_and_orders_v7_keys_by_generation() -> None:
    keys = ua.uuid7(2000)
    keyed = pa.table({"id": keys, "n": pa.array(range(2000))})  # noqa: F841 (DuckDB reads it by name)
    con = duckdb.connect()
    assert con.sql("SELECT DISTINCT typeof(id) FROM keyed").fetchall() == [("UUID",)]
    ordered = con.sql("SELECT n FROM keyed ORDER BY id").fetchall()
    assert [n for (n,) in ordered] == list(range(2000)), "ORDER BY on v7 keys is generation order"
    plain = pa.table({"id": ua.uuid7(3, extension=False)})  # noqa: F841 (read by name)
    assert con.sql("SELECT DISTINCT typeof(id) FROM plain").fetchall() == [("BLOB",)]


@pytest.mark.skipif(
    major_version(duckdb) < 2, reason="DuckDB scans objects with __arrow_c_array__ from 2.0 on"
)
def test_duckdb_scans_a_uuid_array_directly() -> None:
    keys = ua.uuid7(10)
    con = duckdb.connect()
    direct = con.sql("SELECT typeof(value), value FROM keys LIMIT 1").fetchall()
    assert direct[0][0] == "UUID" and direct[0][1] == keys.to_pylist()[0]
    plain = ua.uuid7(3, extension=False)  # noqa: F841 (DuckDB reads it by name)
    assert con.sql("SELECT DISTINCT typeof(value) FROM plain").fetchall() == [("BLOB",)]


def test_duckdb_uuid_text_parses() -> None:
    con = duckdb.connect()
    made = con.sql("SELECT uuid()::VARCHAR AS t, upper(uuid()::VARCHAR) AS u FROM range(100)")
    table = made.to_arrow_table()
    for column in ("t", "u"):
        texts = table[column].to_pylist()
        assert ua.parse(table[column]).to_pylist() == [uuid.UUID(t) for t in texts]
    relation = con.sql(
        "SELECT id FROM (VALUES ('f81d4fae-7dec-11d0-a765-00a0c91e6bf6'::UUID)) v(id)"
    )
    assert ua.parse(relation).to_pylist() == [uuid.UUID("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")]


# pandas and NumPy


def test_pandas_arrow_dtype_and_numpy_view() -> None:
    col = ua.array(ROWS)
    series = pd.Series(pd.arrays.ArrowExtensionArray(pa.array(col)))
    assert isinstance(series.dtype, pd.ArrowDtype) and series.dtype.pyarrow_dtype == pa.uuid()
    assert series.tolist()[:1] == ROWS[:1]
    assert ua.to_str(pa.array(series.array)).to_pylist() == TEXTS, "through pyarrow: any pandas"
    text = pd.Series(pd.arrays.ArrowExtensionArray(pa.array(ua.to_str(col))))
    assert text.dtype == pd.ArrowDtype(pa.string()) and text.isna().sum() == 1
    view = np.frombuffer(col, dtype="V16")
    assert [bytes(v) for v in view] == [bytes(16) if u is None else u.bytes for u in ROWS]


@pytest.mark.skipif(major_version(pd) < 3, reason="a pandas Series exports Arrow from pandas 3 on")
def test_pandas_series_are_columns() -> None:
    series = pd.Series(pd.arrays.ArrowExtensionArray(pa.array(ua.array(ROWS))))
    assert ua.to_str(series).to_pylist() == TEXTS
    back = ua.parse(pd.Series(TEXTS, dtype=pd.ArrowDtype(pa.string())))
    assert back.to_pylist() == ROWS

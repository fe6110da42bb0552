"""``uuidx.arrow.encode``/``decode`` and ``uuidx.arrow.mask_v7``/``unmask_v7``:
row by row equal to the scalar functions (hypothesis), with nulls, the error policy, errors
naming the row, and bad arguments. No Arrow library is needed; ``test_arrow_libraries.py``
runs the same columns through pyarrow and Polars.
"""

from __future__ import annotations

import uuid
from typing import Any, Optional

import pytest
from catalog import FORMS
from hypothesis import given
from hypothesis import strategies as st
from spec_data import spec_json

import uuidx
import uuidx.arrow as ua

KEY = bytes(range(16))

uuid_values = st.one_of(
    st.integers(0, 2**128 - 1).map(lambda i: uuid.UUID(int=i)),
    st.sampled_from([uuidx.NIL, uuidx.MAX]),
)
uuid_rows = st.lists(st.one_of(st.none(), uuid_values), max_size=30)


def test_the_forms_are_the_scalar_functions_forms() -> None:
    assert len(FORMS) == 10
    for form in FORMS:
        assert uuidx.decode(uuidx.encode(uuidx.MAX, form), form) == uuidx.MAX


@pytest.mark.parametrize("form", FORMS)
@given(rows=uuid_rows)
def test_encode_column_equals_the_scalar_function(
    form: Any, rows: list[Optional[uuid.UUID]]
) -> None:
    text = ua.encode(rows, form)
    assert text.type == "string" and len(text) == len(rows)
    assert text.null_count == rows.count(None)
    expected = [None if u is None else uuidx.encode(u, form) for u in rows]
    assert text.to_pylist() == expected
    back = ua.decode(text, form)
    assert back.to_pylist() == rows, "round trip through the text column"
    assert ua.decode(expected, form).to_pylist() == rows, "and through a list of str"


def scalar_decode(text: str, form: Any) -> Optional[uuid.UUID]:
    try:
        return uuidx.decode(text, form)
    except ValueError:
        return None


def text_rows(form: Any) -> st.SearchStrategy[list[Optional[str]]]:
    """Valid text of ``form``, the same with one character changed, and arbitrary text."""
    valid = uuid_values.map(lambda u: uuidx.encode(u, form))
    mutated = st.tuples(valid, st.integers(0, 44), st.characters()).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1 :]
    )
    return st.lists(st.one_of(st.none(), valid, mutated, st.text(max_size=50)), max_size=20)


@pytest.mark.parametrize("form", FORMS)
@given(data=st.data())
def test_decode_column_equals_the_scalar_function(form: Any, data: st.DataObject) -> None:
    rows = data.draw(text_rows(form))
    expected = [None if r is None else scalar_decode(r, form) for r in rows]
    assert ua.decode(rows, form, errors="null").to_pylist() == expected
    bad = [i for i, (r, e) in enumerate(zip(rows, expected)) if r is not None and e is None]
    if not bad:
        assert ua.decode(rows, form).to_pylist() == expected
        return
    text = rows[bad[0]]
    assert text is not None
    with pytest.raises(ValueError) as info:
        ua.decode(rows, form)
    with pytest.raises(ValueError) as scalar_info:
        uuidx.decode(text, form)
    if any("\ud800" <= c <= "\udfff" for c in text):
        # A lone surrogate reaches the column as U+FFFD; the row and position are the same.
        assert str(info.value).startswith(f"row {bad[0]}: ")
    else:
        assert str(info.value) == f"row {bad[0]}: {scalar_info.value}"


def test_decode_errors_name_row_value_and_position() -> None:
    good = uuidx.encode(uuidx.MAX, "ulid")
    with pytest.raises(ValueError, match=r"^row 2: .*'U' at position 25"):
        ua.decode([good, None, good[:-1] + "U"], "ulid")
    with pytest.raises(ValueError) as info:
        ua.decode(["x" * 10_000], "base58")
    assert str(info.value).startswith("row 0: ") and len(str(info.value)) < 300
    col = ua.decode([good, "nope", None, good.lower()], "ulid", errors="null")
    assert col.to_pylist() == [uuidx.MAX, None, None, uuidx.MAX]
    assert col.null_count == 2


def test_encode_decode_bad_arguments() -> None:
    calls: list[tuple[Any, Any]] = [(ua.encode, [uuidx.MAX]), (ua.decode, ["x"])]
    for fn, column in calls:
        with pytest.raises(ValueError, match="unknown form 'base36': expected one of 'hex'"):
            fn(column, "base36")
        with pytest.raises(TypeError, match="form must be a str, got int"):
            fn(column, 36)
    with pytest.raises(ValueError, match="invalid errors .skip."):
        ua.decode(["x"], "hex", errors="skip")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"strings\[0\] must be a str or None, got bytes"):
        ua.decode([b"x"], "hex")  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"uuids\[1\] must be a uuid.UUID, got str"):
        ua.encode([uuidx.MAX, "x"], "hex")  # type: ignore[list-item]


def test_encode_empty_and_plain_columns() -> None:
    assert ua.encode([], "base62").to_pylist() == []
    col = ua.decode(["7n42DGM5Tflk9n8mt7Fhc7"], "base62", extension=False)
    assert not col.extension and col.to_pylist() == [uuidx.MAX]
    # A UUIDArray with nulls and a v7 column of the process-wide sequence keep their order.
    keys = ua.uuid7(200)
    text = [str(t) for t in ua.encode(keys, "base32").to_pylist()]
    assert text == sorted(text), "base32 keeps the order of v7 keys"


# --------------------------------------------------------------------------------------------
# UUIDv47 masks


def v7_rows() -> st.SearchStrategy[list[Optional[uuid.UUID]]]:
    v7 = st.tuples(st.integers(0, 2**48 - 1), st.integers(0, 2**12 - 1), st.integers(0, 2**62 - 1))
    return st.lists(
        st.one_of(st.none(), v7.map(lambda t: uuidx.layout.v7(*t)), uuid_values), max_size=30
    )


def scalar(fn: Any, u: Optional[uuid.UUID], key: bytes) -> Optional[uuid.UUID]:
    if u is None:
        return None
    try:
        result: uuid.UUID = fn(u, key)
        return result
    except ValueError:
        return None


@given(rows=v7_rows(), key=st.binary(min_size=16, max_size=16))
def test_mask_columns_equal_the_scalar_functions(
    rows: list[Optional[uuid.UUID]], key: bytes
) -> None:
    facades = ua.mask_v7(rows, key, errors="null")
    expected = [scalar(uuidx.mask_v7, u, key) for u in rows]
    assert facades.to_pylist() == expected
    back = ua.unmask_v7(facades, key)
    assert back.to_pylist() == [None if f is None else u for u, f in zip(rows, expected)]
    revealed = ua.unmask_v7(rows, key, errors="null").to_pylist()
    assert revealed == [scalar(uuidx.unmask_v7, u, key) for u in rows]


def test_mask_columns_reproduce_the_uuidv47_vectors() -> None:
    """Every vector, as one column per key (a key is SipHash's k0 then k1, little-endian)."""
    by_key: dict[bytes, list[tuple[uuid.UUID, uuid.UUID]]] = {}
    for v in spec_json("uuidv47-vectors.json")["vectors"]:
        key = int(v["k0"], 16).to_bytes(8, "little") + int(v["k1"], 16).to_bytes(8, "little")
        by_key.setdefault(key, []).append((uuid.UUID(v["v7"]), uuid.UUID(v["facade"])))
    assert sum(map(len, by_key.values())) >= 10
    for key, pairs in by_key.items():
        v7s, facades = [p[0] for p in pairs], [p[1] for p in pairs]
        assert ua.mask_v7(v7s + [None], key).to_pylist() == facades + [None]
        assert ua.unmask_v7(facades, key).to_pylist() == v7s


def test_mask_errors_name_the_row_and_the_uuid() -> None:
    v7 = uuidx.uuid7()
    v4 = uuidx.uuid4()
    with pytest.raises(ValueError, match=f"^row 2: .*{v4}"):
        ua.mask_v7([v7, None, v4], KEY)
    with pytest.raises(ValueError, match=f"^row 0: .*{v7}"):
        ua.unmask_v7([v7], KEY)
    col = ua.mask_v7([v7, v4, None], KEY, errors="null", extension=False)
    assert not col.extension and col.null_count == 2
    assert col.to_pylist() == [uuidx.mask_v7(v7, KEY), None, None]
    with pytest.raises(ValueError, match="16 bytes long, got 15"):
        ua.mask_v7([v7], KEY[:15])
    with pytest.raises(TypeError, match="key must be 16 bytes, got str"):
        ua.unmask_v7([v7], "k" * 16)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="invalid errors .skip."):
        ua.mask_v7([v7], KEY, errors="skip")  # type: ignore[arg-type]
    assert ua.mask_v7(ua.uuid7(0), bytearray(KEY)).to_pylist() == []

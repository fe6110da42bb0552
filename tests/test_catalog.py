"""The catalogue of the public API (``tests/catalog.py``) is complete and tells the truth: every
public name is in it, every shape does what it declares, and every shape reaches the entry point
it declares (checked in the debug build, which counts the calls the fast bodies handle)."""

from __future__ import annotations

import os
from typing import Any

import catalog
import pytest
from messages import names

import uuidx


def test_every_public_name_is_in_the_catalogue() -> None:
    known = set(catalog.BY_NAME) | catalog.CONSTANTS | catalog.STDLIB | catalog.TYPES
    missing = sorted(set(catalog.public_names()) - known)
    assert missing == [], f"add these to tests/catalog.py: {missing}"


def test_the_catalogue_names_nothing_that_is_gone() -> None:
    """Every entry and every listed name exists (dunder entries are the classes' protocols)."""
    public = set(catalog.public_names())
    listed = set(catalog.BY_NAME) | catalog.CONSTANTS | catalog.STDLIB | catalog.TYPES
    stale = [name for name in sorted(listed) if name not in public and "__" not in name]
    assert stale == []


def test_entries_are_well_formed() -> None:
    for entry in catalog.ENTRIES:
        if entry.untested:
            assert entry.shapes == (), entry.name
            continue
        assert entry.shapes, entry.name
        assert entry.sample.raises is None, f"{entry.name}: the first shape must return"
        labels = [s.label for s in entry.shapes]
        assert len(labels) == len(set(labels)), entry.name
        if entry.hot:
            paths = {(s.path, s.raises is None) for s in entry.shapes}
            # Both entry points of a hot function, and an error on the full function.
            assert (catalog.FAST, True) in paths and (catalog.FULL, False) in paths, entry.name
        else:
            assert all(s.path == catalog.FULL for s in entry.shapes), entry.name


@pytest.mark.parametrize("pair", catalog.shapes(), ids=catalog.shape_id)
def test_each_shape_does_what_it_declares(pair: tuple[catalog.Entry, catalog.Shape]) -> None:
    entry, shape = pair
    if shape.raises is None:
        result: Any = entry.call(shape)
        if entry.returns_uuid:
            assert isinstance(result, uuidx.UUID)
        return
    with pytest.raises(shape.raises) as info:
        entry.call(shape)
    if shape.names is not catalog.UNSET:
        message = str(info.value)
        assert names(message, shape.names), f"{message!r} does not name {shape.names!r}"


def _counting() -> bool:
    forced = os.environ.get("UUIDX_FORCE_FALLBACK", "") not in ("", "0")
    return uuidx._core._fast_calls() is not None and not forced


@pytest.mark.skipif(
    not _counting(),
    reason="only the debug build counts fast calls (the third pass of make test), and on the "
    "fallback path the fast bodies decline what they cannot read by slot",
)
@pytest.mark.parametrize("pair", catalog.shapes(), ids=catalog.shape_id)
def test_each_shape_reaches_its_entry_point(pair: tuple[catalog.Entry, catalog.Shape]) -> None:
    entry, shape = pair
    before = uuidx._core._fast_calls()
    try:
        entry.call(shape)
    except BaseException as exc:  # the declared exception, checked above
        assert shape.raises is not None and isinstance(exc, shape.raises), exc
    after = uuidx._core._fast_calls()
    assert before is not None and after is not None
    assert after - before == (1 if shape.path == catalog.FAST else 0), shape.path

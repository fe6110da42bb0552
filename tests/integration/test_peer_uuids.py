"""Other libraries' UUID objects (``uuid_utils.UUID``, ``fastuuid.UUID``) are accepted by every
function that takes a UUID, by the one rule of ``convert::uuid_value``: an exact ``uuid.UUID`` by
its slot, anything else through its validated ``.int``; and as namespaces, read through
``.bytes`` as the stdlib reads them. Each function gives the result it gives for the equal
``uuid.UUID``. The functions come from the catalogue (``tests/catalog.py``)."""

from __future__ import annotations

import uuid
from typing import Any

import catalog
import pytest
from catalog import plain
from optional import need

import uuidx

LIBRARIES = ["uuid_utils", "fastuuid"]


@pytest.fixture(params=LIBRARIES)
def library(request: pytest.FixtureRequest) -> Any:
    return need(request.param)


def peer(library: Any, u: uuid.UUID) -> Any:
    """``u`` as the library's own UUID object."""
    value = library.UUID(str(u))
    assert type(value) is not uuid.UUID and value.int == u.int
    return value


@pytest.mark.parametrize("entry", catalog.uuid_takers(), ids=lambda e: e.name)
def test_every_uuid_taker_accepts_them(library: Any, entry: catalog.Entry) -> None:
    u = entry.sample_uuid
    assert plain(entry.with_uuid(peer(library, u))) == plain(entry.with_uuid(u))


@pytest.mark.parametrize("entry", catalog.namespace_takers(), ids=lambda e: e.name)
def test_every_namespace_taker_accepts_them(library: Any, entry: catalog.Entry) -> None:
    assert entry.namespace_arg is not None
    ns = entry.sample.args[entry.namespace_arg]
    ours = plain(entry.call_with(entry.namespace_arg, peer(library, ns)))
    assert ours == plain(entry.call_sample())


def test_their_own_generated_uuids(library: Any) -> None:
    """The reproduction: ``uuidx.encode(uuid_utils.uuid7(), "ulid")`` was a TypeError."""
    made = library.uuid4() if not hasattr(library, "uuid7") else library.uuid7()
    std = uuid.UUID(str(made))
    assert uuidx.encode(made, "ulid") == uuidx.encode(std, "ulid")
    assert uuidx.to_str(made) == str(std)
    assert uuidx.typeid("user", made) == uuidx.typeid("user", std)
    assert uuidx.layout.fields(made) == uuidx.layout.fields(std)
    assert uuidx.uuid5(made, "x") == uuidx.uuid5(std, "x") == uuid.uuid5(std, "x")
    assert uuidx.arrow.array([made, None]).to_pylist() == [std, None]


@pytest.mark.parametrize("value", [5, "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", None, b"\x00" * 16])
def test_objects_without_int_are_still_type_errors(value: object) -> None:
    for entry in catalog.uuid_takers():
        if value is None and entry.column_arg is not None:
            continue  # a null row
        with pytest.raises(TypeError, match="must be a uuid.UUID"):
            entry.with_uuid(value)

"""pydantic v2 takes uuidx's UUIDs exactly as the stdlib's: models, JSON, version checks.

pydantic has no wheel that loads on every interpreter uuidx is tested on (Debian's PyPy 7.3.19
lacks a C function that pydantic-core's PyPy 7.3 wheels call): ``need`` skips this module where
requirements-dev.txt does not install it, and fails it where it does.
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Optional

from optional import need
from samples import SAMPLES

import uuidx

if TYPE_CHECKING:
    import pydantic
else:
    pydantic = need("pydantic")


class Item(pydantic.BaseModel):
    id: uuid.UUID
    parent: Optional[uuid.UUID] = None


class Event(pydantic.BaseModel):
    id: pydantic.UUID7
    ns_id: pydantic.UUID5
    random_id: pydantic.UUID4


def test_pydantic_accepts_uuidx_uuids() -> None:
    for u in SAMPLES:
        item = Item(id=u, parent=u)
        assert item.id == u
        assert type(item.id) is uuid.UUID
        # Same dump as for a stdlib UUID of the same value.
        ref = Item(id=uuid.UUID(int=u.int), parent=uuid.UUID(int=u.int))
        assert item.model_dump() == ref.model_dump()
        assert item.model_dump_json() == ref.model_dump_json()
        assert item.model_dump(mode="json") == {"id": str(u), "parent": str(u)}


def test_pydantic_json_round_trip() -> None:
    for u in SAMPLES:
        item = Item(id=u)
        back = Item.model_validate_json(item.model_dump_json())
        assert back == item
        assert back.id == u
        assert type(back.id) is uuid.UUID
        assert json.loads(item.model_dump_json())["id"] == str(u)


def test_pydantic_version_checks_accept_uuidx_output() -> None:
    for _ in range(100):
        e = Event(
            id=uuidx.uuid7(),
            ns_id=uuidx.uuid5(uuidx.NAMESPACE_DNS, "x"),
            random_id=uuidx.uuid4(),
        )
        assert e.id.version == 7
        back = Event.model_validate_json(e.model_dump_json())
        assert back == e
    # And they reject the wrong version, so the check above means something.
    try:
        Event(
            id=uuidx.uuid4(),
            ns_id=uuidx.uuid5(uuidx.NAMESPACE_DNS, "x"),
            random_id=uuidx.uuid4(),
        )
    except pydantic.ValidationError as exc:
        assert "version" in str(exc).lower() or "7" in str(exc)
    else:
        raise AssertionError("pydantic accepted a v4 UUID as UUID7")


def test_pydantic_validates_strings_like_uuidx_parses() -> None:
    u = uuidx.uuid7()
    for text in (str(u), u.hex, str(u).upper()):
        assert Item.model_validate({"id": text}).id == uuidx.parse(text)

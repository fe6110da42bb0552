"""One UUID of each kind uuidx makes, for the libraries that must take them as the stdlib's
(tests/integration). Made at import, from the clock: a module of its own, so that tests/catalog.py,
which a child under a clock before 1970 imports, makes none."""

from __future__ import annotations

import uuid

import uuidx

#: Each version's function, a name-based v8, a parsed URN, Nil and Max.
SAMPLES: list[uuid.UUID] = [
    uuidx.uuid1(),
    uuidx.uuid3(uuidx.NAMESPACE_DNS, "www.example.com"),
    uuidx.uuid4(),
    uuidx.uuid5(uuidx.NAMESPACE_URL, "https://example.com/"),
    uuidx.uuid6(),
    uuidx.uuid7(),
    uuidx.uuid8(),
    uuidx.uuid8_name(uuidx.NAMESPACE_OID, "1.3.6.1"),
    uuidx.parse("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
    uuidx.NIL,
    uuidx.MAX,
]

"""The catalogues of the facade, in one place: the functions, forms, hash algorithms and
namespaces the command line's options accept, and :func:`detect`, which recognises the form of
a UUID's text.

The forms, the algorithms and the detector are the core's (``uuidx._core._forms()``,
``_algorithms()``, ``_detect()``), read once at import. Every other module takes these names
from here, never restates them, except the ``Literal`` aliases of :mod:`uuidx.typing`, which
type checkers must read written out (tests/packaging/test_catalogues.py checks that they are
the core's). Nothing here is imported by ``import uuidx``.
"""

from __future__ import annotations

from typing import Callable
from uuid import UUID

import uuidx
from uuidx import _core

#: The functions of ``-u/--uuid``: Python 3.14's ``python -m uuid`` offers these seven.
FUNCS: dict[str, Callable[..., UUID]] = {
    "uuid1": uuidx.uuid1,
    "uuid3": uuidx.uuid3,
    "uuid4": uuidx.uuid4,
    "uuid5": uuidx.uuid5,
    "uuid6": uuidx.uuid6,
    "uuid7": uuidx.uuid7,
    "uuid8": uuidx.uuid8,
}
#: The functions that hash a namespace and a name (``uuid8`` too, with ``-n`` and ``-N``).
NAME_BASED = ("uuid3", "uuid5")
#: The functions that take a time (``gen --at``).
TIME_BASED = ("uuid1", "uuid6", "uuid7")
#: The hashes of a name-based ``uuid8`` (``uuidx.uuid8_name``), its default first.
ALGORITHMS: tuple[str, ...] = _core._algorithms()
#: The forms of ``uuidx.encode`` and ``uuidx.decode``.
FORMS: tuple[str, ...] = tuple(name for name, *_ in _core._forms())
#: What the commands write and read: the forms, and TypeIDs (``--prefix``).
OUTPUT_FORMS = (*FORMS, "typeid")
#: The names ``-n/--namespace`` takes for the RFC's namespaces, as ``python -m uuid`` does.
NAMESPACES = {
    "@dns": uuidx.NAMESPACE_DNS,
    "@url": uuidx.NAMESPACE_URL,
    "@oid": uuidx.NAMESPACE_OID,
    "@x500": uuidx.NAMESPACE_X500,
}


def detect(text: str) -> tuple[str, UUID, str]:
    """Reads a UUID written in any form: returns ``(form, uuid, typeid_prefix)``.

    The form is recognised by length, then alphabet, by ``uuidx._core._detect`` (the core's
    ``encoding::detect``, which decides the rule):

    - more than 27 characters with an underscore: a TypeID;
    - 32, 36, 38 or 45 characters: ``hex``, ``hyphenated``, ``braced``, ``urn`` (hex digits in
      either case, as ``uuidx.parse`` reads them);
    - 26 characters: Crockford's base32 (a ULID, or a TypeID without prefix: either case and
      Crockford's aliases; reported as ``ulid`` when it has no lower case letter and no alias,
      ``base32`` otherwise) or ``base32hex``;
    - 22 characters: ``base58``, ``base62`` or ``base64url``.

    Every form of the text's length that decodes it is a reading. The text is read only when
    its readings all give one UUID; when they give different UUIDs it is ambiguous, and
    refused: nothing makes one reading likelier than another (a UUID need not have the RFC's
    layout). So the text of a UUID in any form is read as that UUID or refused, never read as
    another UUID.

    Raises:
        ValueError: the text is none of these, or ambiguous (the message lists each reading,
            the UUID it gives and the ``--from`` that picks it).
    """
    readings = _core._detect(text)
    if len(readings) == 1:
        return readings[0]
    shown = _core._short_repr(text)
    found = " and as ".join(f"{form} ({u})" for form, u, _ in readings)
    options = " or ".join(f"--from {form}" for form, *_ in readings)
    raise ValueError(f"ambiguous UUID {shown}: it decodes as {found}; say which with {options}")

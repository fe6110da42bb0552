"""`make demo`: uuidx generating, parsing and inspecting UUIDs, then what to run next."""

from __future__ import annotations

import os
import pickle
import sys
import uuid
from datetime import datetime, timezone

import uuidx
from uuidx.cli import describe


def show(label: str, value: object) -> None:
    print(f"{label:<44} {value}")


def main() -> None:
    print("== generating (every result is the stdlib's own uuid.UUID)")
    for name in ("uuid1", "uuid4", "uuid6", "uuid7", "uuid8"):
        u = getattr(uuidx, name)()
        show(f"uuidx.{name}()", f"{u}  type is uuid.UUID: {type(u) is uuid.UUID}")
    show(
        "uuidx.uuid3(NAMESPACE_DNS, 'www.example.com')",
        uuidx.uuid3(uuidx.NAMESPACE_DNS, "www.example.com"),
    )
    show(
        "uuidx.uuid5(NAMESPACE_DNS, 'www.example.com')",
        uuidx.uuid5(uuidx.NAMESPACE_DNS, "www.example.com"),
    )
    show(
        "uuidx.uuid8_name(NAMESPACE_DNS, ..., 'sha256')",
        uuidx.uuid8_name(uuidx.NAMESPACE_DNS, "www.example.com"),
    )
    burst = [uuidx.uuid7() for _ in range(5)]
    show("5 x uuid7(): strictly increasing", all(a < b for a, b in zip(burst, burst[1:])))
    gen = uuidx.V7Generator("counter", 42)
    show("V7Generator('counter', 42).generate()", gen.generate())

    print("\n== parsing")
    for text in (
        "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        "F81D4FAE7DEC11D0A76500A0C91E6BF6",
        "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
        "URN:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    ):
        show(f"parse({text!r})", uuidx.parse(text))
    try:
        uuidx.parse("f81d4fae-7dec-11d0-a765-00a0c91e6bfg")
    except ValueError as exc:
        show("parse(bad)", f"ValueError: {exc}")

    print("\n== text forms and TypeID")
    u = uuidx.parse("01890a5d-ac96-774b-bcce-b302099a8057")
    for form in ("hex", "urn", "base32", "ulid", "base32hex", "base58", "base62", "base64url"):
        text = uuidx.encode(u, form)
        show(f"encode(u, {form!r})", f"{text}  decodes back: {uuidx.decode(text, form) == u}")
    show("typeid('user', u)", uuidx.typeid("user", u))
    show("parse_typeid(...)", uuidx.parse_typeid(uuidx.typeid("user", u)))
    try:
        uuidx.decode("1BzmjTFLHWXwiSK4y3H5i0", "base58")
    except ValueError as exc:
        show("decode(bad, 'base58')", f"ValueError: {exc}")

    print("\n== inspecting")
    u7 = uuidx.uuid7()
    print("\n".join(describe(u7)))
    show("pickle round trip", pickle.loads(pickle.dumps(u7)) == u7)
    day = datetime(2026, 1, 1, tzinfo=timezone.utc)
    lo, hi = uuidx.uuid7_bounds(day, datetime(2026, 1, 2, tzinfo=timezone.utc))
    show("uuid7_bounds(2026-01-01, 2026-01-02)", f"{lo} .. {hi}")
    v6 = uuidx.uuid6()
    show("v6_to_v1(uuid6())", f"{v6} -> {uuidx.v6_to_v1(v6)}")
    next_steps(u7, uuidx.encode(u, "base58"))


def next_steps(u: uuid.UUID, base58: str) -> None:
    """How to go on with the virtualenv this demo ran in."""
    venv = os.path.relpath(sys.prefix)
    steps = [
        (f"source {venv}/bin/activate", "use it in this shell ('deactivate' leaves it)"),
        ("python -c 'import uuidx; print(uuidx.uuid7())'", ""),
        ("python -m uuidx gen -u 7 -C 3 -f base58", "the command line"),
        (f"python -m uuidx inspect {u}", ""),
        (f"python -m uuidx convert --from base58 {base58}", "base62 reads this text too"),
        (f"{venv}/bin/python your_script.py", "or without activating it"),
        ("make test", "every test (installs the test libraries)"),
        ("make docs-serve", "the documentation, at http://127.0.0.1:8000"),
    ]
    width = max(len(command) for command, _ in steps)
    print(f"\n== next: uuidx is installed in the virtualenv {venv}/")
    for command, note in steps:
        print(f"  {command:<{width}}  # {note}" if note else f"  {command}")


if __name__ == "__main__":
    main()

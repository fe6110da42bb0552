"""``python -m uuidx inspect``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from uuid import UUID

import uuidx

from ._io import read_all, write_lines
from ._options import Parser, add_input_options, parse_uuid_args

SUMMARY = "Show a UUID's form, version, variant, fields and time."


def facts(u: UUID) -> dict[str, object]:
    """What ``inspect`` reports about ``u``."""
    found: dict[str, object] = {
        "uuid": str(u), "variant": u.variant, "version": u.version,
        "layout": None, "fields": None, "unix_ns": None, "time": None,
    }  # fmt: skip
    try:
        fields = uuidx.layout.fields(u)
    except ValueError:
        return found
    found["layout"] = type(fields).__name__.removesuffix("Fields").lower()
    found["fields"] = dict(zip(fields._fields, fields))
    try:
        ns = uuidx.timestamp_ns(u)
    except ValueError:
        return found
    found["unix_ns"] = ns
    try:
        found["time"] = uuidx.to_datetime(u).isoformat()
    except ValueError as exc:
        found["time_error"] = str(exc)
    return found


def describe(u: UUID) -> list[str]:
    """The lines ``inspect`` prints for ``u``."""
    found = facts(u)
    lines = [f"uuid:      {u}", f"variant:   {u.variant}", f"version:   {u.version}"]
    fields = found["fields"]
    if not isinstance(fields, dict):
        lines.append("layout:    none (not an RFC 9562 layout)")
        return lines
    lines.append(f"layout:    {found['layout']}")
    for field, value in fields.items():
        lines.append(f"  {field + ':':<13}{value} (0x{value:x})")
    if found["unix_ns"] is not None:
        lines.append(f"unix_ns:   {found['unix_ns']}")
        lines.append(f"time:      {found.get('time') or found.get('time_error')}")
    return lines


def run(prog: str, argv: Sequence[str]) -> int:
    parser = Parser(prog=f"{prog} inspect", description=SUMMARY)
    add_input_options(parser)
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per UUID, one per line (JSON Lines)")  # fmt: skip
    args = parse_uuid_args(parser, argv)

    def report(item: tuple[str, str, UUID, str], first: bool) -> str:
        text, form, u, prefix = item
        if args.json:
            typeid = {"prefix": prefix} if form == "typeid" else {}
            return json.dumps({"input": text, "form": form, **typeid, **facts(u)})
        lines = describe(u)
        lines.insert(1, f"form:      {form}" + (f" (prefix {prefix!r})" if prefix else ""))
        return ("" if first else "\n") + "\n".join(lines)

    items = read_all(args.uuids, args.source)
    write_lines(report(item, i == 0) for i, item in enumerate(items))
    return 0

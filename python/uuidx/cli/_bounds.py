"""``python -m uuidx bounds``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

import uuidx

from ._io import as_json, write_lines, writer
from ._options import Parser, add_form_options, instant_ns, output_form

SUMMARY = "The smallest and largest v7 UUIDs of a time or a range of times."


def run(prog: str, argv: Sequence[str]) -> int:
    parser = Parser(
        prog=f"{prog} bounds",
        description=f"{SUMMARY} Inclusive, to the millisecond: every v7 made then sorts "
        "between them.",
    )
    parser.add_argument("start", metavar="START",
                        help="ISO 8601 (UTC unless an offset is given) or nanoseconds since "
                        "1970")  # fmt: skip
    parser.add_argument("end", nargs="?", default=None, metavar="END",
                        help="the end of the range, inclusive (default: START)")  # fmt: skip
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--sql", action="store_true",
                     help="print a BETWEEN clause: BETWEEN 'lo' AND 'hi'")  # fmt: skip
    how.add_argument("--json", action="store_true",
                     help='one JSON object: {"start_ns": ..., "end_ns": ..., "lo": {"uuid": '
                     '...}, "hi": {"uuid": ...}}, each UUID with its text in FORM under its '
                     "name")  # fmt: skip
    add_form_options(parser)
    args = parser.parse_args(argv)
    form = output_form(parser, args)
    write = writer(form, args.prefix)
    times = []
    for what, text in (("START", args.start), ("END", args.end or args.start)):
        try:
            times.append(instant_ns(text))
        except argparse.ArgumentTypeError as exc:
            parser.error(f"argument {what}: {exc}")
    if times[1] < times[0]:
        parser.error(f"END {args.end!r} is before START {args.start!r}")
    try:
        lo, hi = uuidx.uuid7_bounds(times[0], times[1])
    except ValueError as exc:
        parser.error(str(exc))
    a, b = write(lo, ""), write(hi, "")
    if args.json:
        line = json.dumps({
            "start_ns": times[0], "end_ns": times[1],
            "lo": as_json(str(lo), form, a), "hi": as_json(str(hi), form, b),
        })  # fmt: skip
    elif args.sql:
        line = f"BETWEEN '{a}' AND '{b}'"
    else:
        line = f"{a} {b}"
    write_lines([line])
    return 0

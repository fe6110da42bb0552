"""``python -m uuidx convert``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ._io import as_json, read_all, write_lines, writer
from ._options import Parser, add_form_options, add_input_options, output_form, parse_uuid_args

SUMMARY = "Write UUIDs in another form, one per line."


def run(prog: str, argv: Sequence[str]) -> int:
    parser = Parser(prog=f"{prog} convert", description=SUMMARY)
    add_input_options(parser)
    add_form_options(parser)
    parser.add_argument("--json", action="store_true",
                        help='one JSON object per UUID, one per line (JSON Lines): the input, '
                        'its form, {"uuid": ...} and the text in FORM under its name')  # fmt: skip
    args = parse_uuid_args(parser, argv)
    form = output_form(parser, args)
    write = writer(form, args.prefix)
    items = read_all(args.uuids, args.source)
    if args.json:
        write_lines(
            json.dumps({
                "input": text, "form": found, **({"prefix": prefix} if found == "typeid" else {}),
                **as_json(str(u), form, write(u, prefix)),
            })
            for text, found, u, prefix in items
        )  # fmt: skip
    else:
        write_lines(write(u, prefix) for _, _, u, prefix in items)
    return 0

"""``python -m uuidx gen``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Callable, Union
from uuid import UUID

import uuidx

from .._catalog import ALGORITHMS, FUNCS, NAME_BASED, TIME_BASED
from ._io import as_json, batched, write_lines, writer
from ._options import (
    Parser,
    add_form_options,
    instant_ns,
    name,
    namespace,
    output_form,
    uuid_function,
)

SUMMARY = "Generate UUIDs of any version, in any form, streamed."

_TIME_BASED = f"{', '.join(TIME_BASED[:-1])} and {TIME_BASED[-1]}"


def run(prog: str, argv: Sequence[str]) -> int:
    parser = Parser(prog=f"{prog} gen", description=SUMMARY)
    parser.add_argument(
        "-u", "--uuid", type=uuid_function, default="uuid4", choices=FUNCS, metavar="UUID",
        help=f"function: {', '.join(FUNCS)}, or just the digit (default uuid4); uuid8 with "
        "-n and -N is name-based",
    )  # fmt: skip
    parser.add_argument("-C", "--count", metavar="NUM", type=int, default=1,
                        help="how many (default 1), streamed in constant memory")  # fmt: skip
    parser.add_argument("-n", "--namespace", type=namespace, default=None,
                        help="uuid3/uuid5/uuid8: a UUID or @dns, @url, @oid, @x500")  # fmt: skip
    parser.add_argument("-N", "--name", type=name, default=None,
                        help="uuid3/uuid5/uuid8: the name (UTF-8; other bytes are hashed as "
                        "given)")  # fmt: skip
    parser.add_argument("--algorithm", default=ALGORITHMS[0], choices=ALGORITHMS,
                        help=f"hash of a name-based uuid8 (default {ALGORITHMS[0]})")  # fmt: skip
    parser.add_argument(
        "--at", default=None, metavar="TIME",
        help="uuid1/uuid6/uuid7 for this time instead of now: ISO 8601 (UTC unless an offset "
        "is given) or nanoseconds since 1970; UUIDs still increase",
    )  # fmt: skip
    add_form_options(parser)
    parser.add_argument("--json", action="store_true",
                        help='one JSON object per UUID, one per line (JSON Lines): '
                        '{"uuid": ...}, and the text in FORM under its name')  # fmt: skip
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error(f"--count must be 0 or more, got {args.count}")
    form = output_form(parser, args)
    write = writer(form, args.prefix if args.prefix is not None else "")
    many = _many(parser, args)
    if args.json:

        def lines(n: int) -> list[str]:
            return [json.dumps(as_json(str(u), form, write(u, ""))) for u in many(n)]

        write_lines(batched(args.count, lines))
    elif form == "hyphenated" and args.at is None and args.uuid in ("uuid4", "uuid7") \
            and args.namespace is None and args.name is None:  # fmt: skip
        strings = uuidx.uuid4_str_many if args.uuid == "uuid4" else uuidx.uuid7_str_many
        write_lines(batched(args.count, strings))
    else:
        write_lines(batched(args.count, lambda n: [write(u, "") for u in many(n)]))
    return 0


def _many(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[int], list[UUID]]:
    """``many(n)``: the next ``n`` UUIDs ``gen`` writes."""
    func: str = args.uuid
    named = args.namespace is not None or args.name is not None
    if func in NAME_BASED or (func == "uuid8" and named):
        if args.namespace is None or args.name is None:
            parser.error(f"{func} needs both -n/--namespace and -N/--name")
        ns: UUID = args.namespace
        text: Union[str, bytes] = args.name
        if func == "uuid8":
            one = uuidx.uuid8_name(ns, text, args.algorithm)
        else:
            one = FUNCS[func](ns, text)
        if args.at is not None:
            parser.error(f"--at is for {_TIME_BASED}, not a name-based {func}")
        return lambda n: [one] * n
    if named:
        parser.error(f"{func} takes no -n/--namespace or -N/--name")
    if args.at is not None:
        return _at(parser, func, args.at)
    if func == "uuid4":
        return uuidx.uuid4_many
    if func == "uuid7":
        return uuidx.uuid7_many
    one_by_one = FUNCS[func]
    return lambda n: [one_by_one() for _ in range(n)]


def _at(parser: argparse.ArgumentParser, func: str, text: str) -> Callable[[int], list[UUID]]:
    """``many(n)`` for ``--at``: a generator whose clock reads that time."""
    if func not in TIME_BASED:
        parser.error(f"--at is for {_TIME_BASED}, not {func}")
    try:
        at = instant_ns(text)
    except argparse.ArgumentTypeError as exc:
        parser.error(f"argument --at: {exc}")
    if at < 0:
        parser.error(
            f"--at {text!r} is before 1970: uuidx's generators refuse a clock that reads "
            "before 1970"
        )
    if at >= 1 << 64:
        parser.error(
            f"--at {text!r} is after 2554-07-21T23:34:33.709551615Z, the latest time a "
            "generator's clock can read (2**64 - 1 ns since 1970)"
        )
    if func == "uuid7":
        return uuidx.V7Generator(clock=lambda: at).many
    generator = uuidx.V1Generator if func == "uuid1" else uuidx.V6Generator
    one_by_one = generator(clock=lambda: at).generate
    return lambda n: [one_by_one() for _ in range(n)]

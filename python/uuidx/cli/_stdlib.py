"""Python 3.14's ``python -m uuid`` (``uuid.main()``), which ``python -m uuidx`` is when no
command is given."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, Optional
from uuid import UUID

import uuidx

from .._catalog import FUNCS, NAME_BASED, NAMESPACES
from ._io import batched, write_lines
from ._options import SuggestingParser, name, uuid_function


class _UuidxParser(SuggestingParser):
    """``python -m uuidx``'s parser: the standard library's, its help followed by
    ``more_help``."""

    def __init__(self, more_help: str, **options: Any) -> None:
        super().__init__(**options)
        self.more_help = more_help

    def format_help(self, *args: Any, **kwargs: Any) -> str:
        # 3.15 adds a formatter argument: passed on as given.
        return f"{super().format_help(*args, **kwargs)}\n{self.more_help}"


def stdlib_parser(
    prog: Optional[str] = None, more_help: Optional[str] = None
) -> argparse.ArgumentParser:
    """Python 3.14's parser of ``python -m uuid`` (on 3.15+, that version's help text).

    With ``more_help`` (``python -m uuidx``), three things only the standard library rejects
    change: ``-u`` also takes the digit of the version (``-u 7``), a mistyped choice gets a
    suggestion (as argparse does from 3.15), and ``-h`` prints ``more_help`` after the help."""
    tick = "`" if sys.version_info >= (3, 15) else ""
    options: dict[str, Any] = {
        "formatter_class": argparse.ArgumentDefaultsHelpFormatter,
        "description": "Generate a UUID using the selected UUID function.",
        "prog": prog,
    }
    if (3, 14) <= sys.version_info < (3, 15):
        options["color"] = True  # 3.15 made it argparse's default and dropped the argument
    function: dict[str, Any] = {}
    if more_help is None:
        parser = argparse.ArgumentParser(**options)
    else:
        parser = _UuidxParser(more_help, **options)
        function["type"] = uuid_function
    parser.add_argument("-u", "--uuid", choices=FUNCS.keys(), default="uuid4", **function,
                        help="function to generate the UUID")  # fmt: skip
    parser.add_argument("-n", "--namespace",
                        metavar=f"{{any UUID,{','.join(NAMESPACES)}}}",
                        help=f"{tick}uuid3{tick}/{tick}uuid5{tick} only: "
                        "a UUID, or a well-known predefined UUID addressed "
                        "by namespace name")  # fmt: skip
    parser.add_argument("-N", "--name",
                        help=f"{tick}uuid3{tick}/{tick}uuid5{tick} only: "
                        "name used as part of generating the UUID")  # fmt: skip
    parser.add_argument("-C", "--count", metavar="NUM", type=int, default=1,
                        help=f"generate {tick}NUM{tick} fresh UUIDs")  # fmt: skip
    return parser


def stdlib_run(
    parser: argparse.ArgumentParser, argv: Optional[Sequence[str]], module: str = "uuid"
) -> None:
    """Parses ``argv`` (``sys.argv[1:]`` when None) with ``parser`` and prints the UUIDs, one
    per line. ``module`` is the one named in the hint of the error of a missing name.

    Beyond 3.14's: a name that is not valid UTF-8 is hashed as the bytes given instead of
    failing with a traceback, any count streams in constant memory, and a closed pipe ends
    quietly."""
    args = parser.parse_args(argv)
    func = FUNCS[args.uuid]
    if args.uuid in NAME_BASED:
        if not args.namespace or not args.name:
            parser.error(
                "Incorrect number of arguments. "
                f"{args.uuid} requires a namespace and a name. "
                f"Run 'python -m {module} -h' for more information."
            )
        if args.namespace in NAMESPACES:
            namespace = NAMESPACES[args.namespace]
        else:
            try:
                namespace = UUID(args.namespace)
            except ValueError as exc:
                parser.error(f"{exc}: {args.namespace!r}")
        made = func(namespace, name(args.name))
        write_lines(str(made) for _ in range(args.count))
    elif args.uuid == "uuid4":
        write_lines(batched(args.count, uuidx.uuid4_str_many))
    elif args.uuid == "uuid7":
        write_lines(batched(args.count, uuidx.uuid7_str_many))
    else:
        write_lines(str(func()) for _ in range(args.count))


def stdlib_main(argv: Optional[Sequence[str]] = None) -> None:
    """Python 3.14's ``uuid.main()``: ``-u/--uuid uuid1..uuid8``, ``-n/--namespace``,
    ``-N/--name`` (for uuid3 and uuid5), ``-C/--count``; prints the UUIDs, one per line.

    The same options, help, output and usage errors (status 2) as 3.14's (on 3.15+, that
    version's help text), with the differences :func:`stdlib_run` lists, which only fix
    failures."""
    stdlib_run(stdlib_parser(), argv)

"""``python -m uuidx``: Python 3.14's ``python -m uuid``, and commands for what it lacks.

Without a command, the options are the standard library's and behave as its CLI does::

    python -m uuidx                              # one v4, as python -m uuid
    python -m uuidx -u uuid7 -C 3                # three v7 (or -u 7)
    python -m uuidx -u uuid5 -n @dns -N www.example.com
    python -m uuidx --version

The commands (no short option means something else than in ``python -m uuid``)::

    python -m uuidx gen -u uuid7 -C 1000000 -f base58       # streamed, constant memory
    python -m uuidx gen -u 7 --at 2020-05-17T12:00:00Z -f ulid
    python -m uuidx inspect 01H455VB4PEX5VSKNK084SN02Q --json
    python -m uuidx convert -f typeid --prefix user < ids.txt
    python -m uuidx bounds 2026-01-01 2026-02-01 --sql

``inspect`` and ``convert`` read UUIDs from their arguments, or from standard input one per line
(blank lines skipped, whitespace around a UUID ignored; at most ``_io.MAX_LINE_BYTES`` a line),
in any form ``uuidx.decode`` reads; see :func:`detect` for how the form is recognised (a text
that several forms read as different UUIDs is refused). ``--json`` writes JSON Lines. Every
error is one line on standard error: status 2 for a usage error, 1 for input that is not a
UUID. A closed pipe ends quietly with status 141.

The modules: ``_io`` (reading and writing), ``_options`` (the parsers and shared options),
``_stdlib`` (``python -m uuid``) and one module per command; the functions, forms, algorithms
and namespaces the options accept, and the form detector, come from :mod:`uuidx._catalog`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Callable, Optional

import uuidx

from .._catalog import detect
from . import _bounds, _convert, _gen, _inspect
from ._inspect import describe
from ._io import Failure, write_lines
from ._options import close_match, invalid_choice, prog_name
from ._stdlib import stdlib_main, stdlib_parser, stdlib_run

__all__ = ["describe", "detect", "main", "stdlib_main"]

#: The commands: what each runs (``run(prog, argv) -> status``) and its line in ``-h``.
_COMMANDS: dict[str, tuple[Callable[[str, Sequence[str]], int], str]] = {
    "gen": (_gen.run, _gen.SUMMARY),
    "inspect": (_inspect.run, _inspect.SUMMARY),
    "convert": (_convert.run, _convert.SUMMARY),
    "bounds": (_bounds.run, _bounds.SUMMARY),
}


def _commands_help(prog: str) -> str:
    """What ``python -m uuidx -h`` prints after the standard library's help."""
    import textwrap

    width = max(map(len, _COMMANDS)) + 2
    lines = [f"  {command:<{width}}{summary}" for command, (_, summary) in _COMMANDS.items()]
    note = textwrap.fill(
        f"Each command has its own help: {prog} gen -h. Without a command, -u also takes the "
        "version alone (-u 7 for -u uuid7), and --version prints uuidx's version.",
        width=79,
    )
    return "commands:\n" + "\n".join(lines) + "\n\n" + note + "\n"


def _meant_command(word: str) -> Optional[str]:
    """The command ``word`` was probably meant to be: the closest by spelling, as argparse
    suggests, or the one command that ``word`` spells out or shortens (``generate`` for
    ``gen``, which spelling alone finds too far)."""
    closest = close_match(word, _COMMANDS)
    if closest is not None:
        return closest
    folded = word.lower()
    spelled = [
        c for c in _COMMANDS if len(folded) >= 3 and (folded.startswith(c) or c.startswith(folded))
    ]
    return spelled[0] if len(spelled) == 1 else None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m uuidx``: with a command (``gen``, ``inspect``, ``convert``, ``bounds``) as
    the first argument, that command; ``--version`` alone, the version; otherwise Python 3.14's
    ``python -m uuid``. Returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    prog = prog_name()
    command = args[0] if args and args[0] in _COMMANDS else None
    try:
        if args == ["--version"]:
            write_lines([f"uuidx {uuidx.__version__}"])
        elif command is not None:
            return _COMMANDS[command][0](prog, args[1:])
        else:
            parser = stdlib_parser(prog, _commands_help(prog))
            meant = _meant_command(args[0]) if args and not args[0].startswith("-") else None
            if meant is not None:
                parser.error(invalid_choice("COMMAND", args[0], list(_COMMANDS), meant))
            stdlib_run(parser, args, module="uuidx")
    except Failure as exc:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            pass
        where = f" {command}" if command is not None else ""
        sys.stderr.write(f"{prog}{where}: error: {exc}\n")
        return exc.status
    except KeyboardInterrupt:
        return 130
    return 0

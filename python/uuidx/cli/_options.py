"""The parsers and the options the commands share: one-line usage errors, suggestions for a
mistyped choice, ``-u`` by name or digit, namespaces, names, times and output forms."""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, Optional, Union
from uuid import UUID

import uuidx

from .._catalog import FUNCS, NAMESPACES, OUTPUT_FORMS


class SuggestingParser(argparse.ArgumentParser):
    """A parser whose error for a mistyped choice suggests the closest one, in the words of
    Python 3.14's ``suggest_on_error`` on every Python: ``invalid choice: 'inspct', maybe you
    meant 'inspect'? (choose from ...)``. From 3.14 argparse itself does it."""

    if sys.version_info >= (3, 14):

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("suggest_on_error", True)
            super().__init__(*args, **kwargs)

    else:

        def _check_value(self, action: argparse.Action, value: Any) -> None:
            try:
                super()._check_value(action, value)
            except argparse.ArgumentError as exc:
                closest = close_match(value, action.choices)
                if closest is None:
                    raise
                message = exc.message.replace(
                    " (choose from ", f", maybe you meant {closest!r}? (choose from ", 1
                )
                raise argparse.ArgumentError(action, message) from None


def close_match(value: object, choices: object) -> Optional[str]:
    """The choice closest to a mistyped ``value`` (``difflib.get_close_matches``, as argparse
    does), or None."""
    if not isinstance(value, str) or choices is None:
        return None
    words = list(choices)  # type: ignore[call-overload]
    if not all(isinstance(word, str) for word in words):
        return None
    import difflib

    found = difflib.get_close_matches(value, words, 1)
    return found[0] if found else None


def invalid_choice(
    name: str, value: str, choices: Sequence[str], meant: Optional[str] = None
) -> str:
    """The message argparse gives ``value`` for an argument ``name`` with these ``choices``,
    with its suggestion (``meant``, where given and argparse has none): ``argument NAME:
    invalid choice: ...``."""
    probe = SuggestingParser(add_help=False, exit_on_error=False)
    probe.add_argument(name, choices=choices)
    try:
        probe.parse_args([value])
    except argparse.ArgumentError as exc:
        message = str(exc)
        if meant is not None and "maybe you meant" not in message:
            message = message.replace(
                " (choose from ", f", maybe you meant {meant!r}? (choose from ", 1
            )
        return message
    raise AssertionError(f"{value!r} is one of {choices}")


class Parser(SuggestingParser):
    """A command's parser: usage errors in one line (status 2). :func:`parse_uuid_args` sets
    :attr:`hint`, which the error then gives."""

    #: What to add to a usage error (see :func:`parse_uuid_args`), or None.
    hint: Optional[str] = None

    def error(self, message: str) -> NoReturn:
        hint = f"; {self.hint}" if self.hint is not None else ""
        self.exit(2, f"{self.prog}: error: {message}{hint} (see {self.prog} -h)\n")


def parse_uuid_args(parser: Parser, argv: Sequence[str]) -> argparse.Namespace:
    """``parser.parse_args(argv)`` for a command that reads UUIDs from its arguments. A UUID's
    text can start with ``-`` (``base64url``: 1 in 64): argparse takes it for an option unless
    it follows ``--``. When one does not, a usage error says to put ``--`` before it."""
    words = list(argv)
    before = words[: words.index("--")] if "--" in words else words
    dashed = next((word for word in before if _is_uuid_text(word)), None)
    if dashed is not None:
        parser.hint = (
            f"{dashed!r} is a UUID: put -- before UUIDs that start with '-', as in "
            f"{parser.prog} -- {dashed}"
        )
    return parser.parse_args(words)


def _is_uuid_text(word: str) -> bool:
    """Whether ``word`` starts with ``-`` and is a UUID's text in some form."""
    if not word.startswith("-") or len(word) > 100:
        return False
    try:
        uuidx._core._detect(word)
    except ValueError:
        return False
    return True


def prog_name() -> str:
    """The program name Python 3.14's argparse gives a module run with ``-m`` (``python -m
    uuidx``), on every Python; a script's or console entry point's own name otherwise."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name in ("uuidx", "uuidx.__main__"):
        return f"{os.path.basename(sys.executable)} -m uuidx"
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "uuidx"


def uuid_function(text: str) -> str:
    """``-u``: a function's name, or the digit of its version (``7`` for ``uuid7``). Anything
    else is kept as written, for the error to show it."""
    return f"uuid{text}" if f"uuid{text}" in FUNCS else text


def name(text: str) -> Union[str, bytes]:
    """A name from the command line: the text, or, when it is not valid UTF-8 (the shell
    passed bytes that Python decoded with surrogate escapes), the bytes as given."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text)
    return text


def namespace(text: str) -> UUID:
    """``-n``: a UUID in any of its hex forms, or ``@dns``, ``@url``, ``@oid``, ``@x500``."""
    if text in NAMESPACES:
        return NAMESPACES[text]
    try:
        return uuidx.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc}; or one of {', '.join(NAMESPACES)}") from None


def instant_ns(text: str) -> int:
    """A time from the command line, as nanoseconds since 1970: an integer of nanoseconds, or
    ISO 8601 (``2026-01-01``, ``2026-01-01T12:00:00.123456789Z``, ``...+02:00``); without a
    UTC offset the time is UTC. Fractions of a second keep up to nine digits."""
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    rest = text.strip()
    if rest[-1:] in ("Z", "z"):
        rest = rest[:-1] + "+00:00"
    fraction = 0
    m = re.fullmatch(r"(.*[0-9]{2}:?[0-9]{2}:?[0-9]{2})[.,]([0-9]+)(.*)", rest)
    if m:
        rest = m.group(1) + m.group(3)
        fraction = int(m.group(2)[:9].ljust(9, "0"))
    try:
        when = _dt.datetime.fromisoformat(rest)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid time {text!r}: expected ISO 8601 (such as 2026-01-01T12:00:00Z) or "
            "nanoseconds since 1970"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.timezone.utc)
    return uuidx._unix_ns(when) + fraction


def add_form_options(parser: argparse.ArgumentParser) -> None:
    """``-f/--form`` and ``--prefix``: what a command writes."""
    parser.add_argument(
        "-f", "--form", default=None, choices=OUTPUT_FORMS, metavar="FORM",
        help=f"output form: {', '.join(OUTPUT_FORMS)} (default hyphenated; typeid with "
        "--prefix)",
    )  # fmt: skip
    parser.add_argument(
        "--prefix", default=None,
        help="TypeID prefix (lowercase letters and '_'); implies -f typeid",
    )  # fmt: skip


def output_form(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The form ``-f`` and ``--prefix`` ask for (a usage error if they disagree)."""
    form: Optional[str] = args.form
    if args.prefix is not None:
        if form not in (None, "typeid"):
            parser.error(f"--prefix is for -f typeid, not -f {form}")
        try:
            uuidx.typeid(args.prefix, uuidx.NIL)
        except ValueError as exc:
            parser.error(str(exc))
        return "typeid"
    return form or "hyphenated"


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """The UUIDs a command reads (arguments or standard input) and ``--from``."""
    parser.add_argument(
        "uuids", nargs="*", metavar="UUID",
        help="UUIDs in any form; none: read standard input, one per line",
    )  # fmt: skip
    parser.add_argument(
        "--from", dest="source", default="auto", choices=("auto", *OUTPUT_FORMS),
        metavar="FORM",
        help="the form of the input (default auto: recognised by length and alphabet; a "
        "text that several forms read as different UUIDs is refused, naming them)",
    )  # fmt: skip

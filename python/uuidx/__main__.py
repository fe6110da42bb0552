"""``python -m uuidx``: Python 3.14's ``python -m uuid``, and commands for what it lacks.

Without a command, the options are the standard library's and behave as its CLI does::

    python -m uuidx                              # one v4, as python -m uuid
    python -m uuidx -u uuid7 -C 3                # three v7
    python -m uuidx -u uuid5 -n @dns -N www.example.com
    python -m uuidx --version

The commands (no short option means something else than in ``python -m uuid``)::

    python -m uuidx gen -u uuid7 -C 1000000 -f base58       # streamed, constant memory
    python -m uuidx gen -u 7 --at 2020-05-17T12:00:00Z -f ulid
    python -m uuidx inspect 01H455VB4PEX5VSKNK084SN02Q --json
    python -m uuidx convert -f typeid --prefix user < ids.txt
    python -m uuidx bounds 2026-01-01 2026-02-01 --sql

``inspect`` and ``convert`` read UUIDs from their arguments, or from standard input one per line
(blank lines skipped, whitespace around a UUID ignored), in any form ``uuidx.decode`` reads; see
:func:`detect` for how the form is recognised. Every error is one line on standard error: status 2
for a usage error, 1 for input that is not a UUID. A closed pipe ends quietly with status 141.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import re
import sys
from typing import Callable, Iterable, Iterator, NoReturn, Optional, Sequence, TextIO, Union
from uuid import UUID

import uuidx

_NAMESPACES = {
    "@dns": uuidx.NAMESPACE_DNS,
    "@url": uuidx.NAMESPACE_URL,
    "@oid": uuidx.NAMESPACE_OID,
    "@x500": uuidx.NAMESPACE_X500,
}
_ALGORITHMS = ("sha256", "sha512", "sha3_256", "sha3_512", "shake_128", "shake_256")
#: The forms of ``uuidx.encode``/``uuidx.decode``.
FORMS = (
    "hex", "hyphenated", "urn", "braced", "base32", "ulid", "base32hex", "base58", "base62",
    "base64url",
)
#: What the commands write and read: the encodings, and TypeIDs (``--prefix``).
_OUTPUT_FORMS = (*FORMS, "typeid")
_FUNCS = ("uuid1", "uuid3", "uuid4", "uuid5", "uuid6", "uuid7", "uuid8")
_COMMANDS = ("gen", "inspect", "convert", "bounds")
#: UUIDs per batch when streaming: memory stays constant whatever the count.
_BATCH = 4096


def _name(text: str) -> Union[str, bytes]:
    """A name from the command line: the text, or, when it is not valid UTF-8 (the shell
    passed bytes that Python decoded with surrogate escapes), the bytes as given."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text)
    return text


def _write_lines(lines: Iterable[str]) -> None:
    """Writes ``lines`` to standard output in batches, so that any count streams in constant
    memory. Lines made before an exception are written before it propagates. A reader that
    closes the pipe (``| head``) ends the program quietly, with the status a Unix tool killed by
    SIGPIPE has (141); any other write error (a full disk) is a one-line :class:`Failure`."""
    out = sys.stdout
    batch: list[str] = []
    try:
        try:
            for line in lines:
                batch.append(line)
                if len(batch) == 1024:
                    out.write("\n".join(batch) + "\n")
                    batch.clear()
        finally:
            if batch:
                out.write("\n".join(batch) + "\n")
        out.flush()
    except BrokenPipeError:
        _drop_stdout(out)
        raise SystemExit(141) from None
    except OSError as exc:
        _drop_stdout(out)
        raise Failure(f"cannot write the output: {exc.strerror or exc}") from None


def _drop_stdout(out: TextIO) -> None:
    """Points standard output at /dev/null, dropping what is buffered: Python flushes it again
    at exit, which must not fail a second time after a write error was reported."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, out.fileno())
    os.close(devnull)


def _batched(count: int, many: Callable[[int], Iterable[str]]) -> Iterator[str]:
    """``count`` lines made ``_BATCH`` at a time by ``many(n)``."""
    while count > 0:
        n = min(count, _BATCH)
        yield from many(n)
        count -= n


def _prog_name() -> str:
    """The program name Python 3.14's argparse gives a module run with ``-m`` (``python -m
    uuidx``), on every Python; a script's or console entry point's own name otherwise."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name in ("uuidx", "uuidx.__main__"):
        return f"{os.path.basename(sys.executable)} -m uuidx"
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "uuidx"


# --- python -m uuid -----------------------------------------------------------------------


def stdlib_main(
    argv: Optional[Sequence[str]] = None,
    *,
    prog: Optional[str] = None,
    module: str = "uuid",
    epilog: Optional[str] = None,
) -> None:
    """Python 3.14's ``uuid.main()``: ``-u/--uuid uuid1..uuid8``, ``-n/--namespace``,
    ``-N/--name`` (for uuid3 and uuid5), ``-C/--count``; prints the UUIDs, one per line.

    The same options, help, output and usage errors (status 2) as 3.14's (on 3.15+, that
    version's help text); in addition a name that is not valid UTF-8 is hashed as the bytes
    given instead of failing with a traceback, any count streams in constant memory, and a
    closed pipe ends quietly. ``python -m uuidx`` passes its own ``prog``, ``module`` (named in
    the hint of one error message) and an ``epilog`` that lists its commands."""
    funcs: dict[str, Callable[..., UUID]] = {
        "uuid1": uuidx.uuid1, "uuid3": uuidx.uuid3, "uuid4": uuidx.uuid4, "uuid5": uuidx.uuid5,
        "uuid6": uuidx.uuid6, "uuid7": uuidx.uuid7, "uuid8": uuidx.uuid8,
    }
    tick = "`" if sys.version_info >= (3, 15) else ""
    options: dict[str, object] = {
        "formatter_class": argparse.ArgumentDefaultsHelpFormatter,
        "description": "Generate a UUID using the selected UUID function.",
        "prog": prog,
        "epilog": epilog,
    }
    if (3, 14) <= sys.version_info < (3, 15):
        options["color"] = True  # 3.15 made it argparse's default and dropped the argument
    parser = argparse.ArgumentParser(**options)  # type: ignore[arg-type]
    parser.add_argument("-u", "--uuid", choices=funcs.keys(), default="uuid4",
                        help="function to generate the UUID")
    parser.add_argument("-n", "--namespace",
                        metavar=f"{{any UUID,{','.join(_NAMESPACES)}}}",
                        help=f"{tick}uuid3{tick}/{tick}uuid5{tick} only: "
                        "a UUID, or a well-known predefined UUID addressed "
                        "by namespace name")
    parser.add_argument("-N", "--name",
                        help=f"{tick}uuid3{tick}/{tick}uuid5{tick} only: "
                        "name used as part of generating the UUID")
    parser.add_argument("-C", "--count", metavar="NUM", type=int, default=1,
                        help=f"generate {tick}NUM{tick} fresh UUIDs")
    args = parser.parse_args(argv)
    func = funcs[args.uuid]
    if args.uuid in ("uuid3", "uuid5"):
        if not args.namespace or not args.name:
            parser.error(
                "Incorrect number of arguments. "
                f"{args.uuid} requires a namespace and a name. "
                f"Run 'python -m {module} -h' for more information."
            )
        if args.namespace in _NAMESPACES:
            namespace = _NAMESPACES[args.namespace]
        else:
            try:
                namespace = UUID(args.namespace)
            except ValueError as exc:
                parser.error(f"{exc}: {args.namespace!r}")
        name = _name(args.name)
        _write_lines(str(func(namespace, name)) for _ in range(args.count))
    elif args.uuid == "uuid4":
        _write_lines(_batched(args.count, uuidx.uuid4_str_many))
    elif args.uuid == "uuid7":
        _write_lines(_batched(args.count, uuidx.uuid7_str_many))
    else:
        _write_lines(str(func()) for _ in range(args.count))


# --- reading UUIDs in any form ----------------------------------------------------------------


class Failure(Exception):
    """An error the command line reports in one line, with exit status ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(" ".join(message.split("\n")))
        self.status = status


def detect(text: str) -> tuple[str, UUID, str]:
    """Reads a UUID written in any form: returns ``(form, uuid, typeid_prefix)``.

    The form is recognised by length, then alphabet:

    - 32, 36, 38 or 45 characters: ``hex``, ``hyphenated``, ``braced``, ``urn`` (hex digits in
      either case, as ``uuidx.parse`` reads them);
    - 26 characters: Crockford's base32 (a ULID, or a TypeID without prefix), either case and
      Crockford's aliases; reported as ``ulid`` when it has no lower case letter, ``base32``
      otherwise. ``base32hex`` has the same length and is never guessed: give ``--from
      base32hex``;
    - more than 27 characters with an underscore: a TypeID;
    - 22 characters: ``base58``, ``base62`` or ``base64url``, whichever of them decodes the
      text; when several do (they share most of their alphabets), the text is ambiguous and
      ``--from`` must say which.

    Raises:
        Failure: the text is none of these, or ambiguous.
    """
    n = len(text)
    try:
        if n in (32, 36, 38, 45):
            form = {32: "hex", 36: "hyphenated", 38: "braced", 45: "urn"}[n]
            return form, uuidx.decode(text, form), ""  # type: ignore[arg-type]
        if n == 26:
            form = "base32" if any(c.islower() for c in text) else "ulid"
            return form, uuidx.decode(text, "base32"), ""
        if n > 27 and "_" in text:
            prefix, u = uuidx.parse_typeid(text)
            return "typeid", u, prefix
    except ValueError as exc:
        raise Failure(str(exc)) from None
    shown = uuidx._core._short_repr(text)
    if n == 22:
        found: dict[str, UUID] = {}
        for form in ("base58", "base62", "base64url"):
            try:
                found[form] = uuidx.decode(text, form)  # type: ignore[arg-type]
            except ValueError:
                pass
        if len(set(found.values())) == 1:
            form, u = next(iter(found.items()))
            return form, u, ""
        if found:
            readings = " and as ".join(f"{form} ({u})" for form, u in found.items())
            raise Failure(
                f"ambiguous UUID {shown}: it decodes as {readings}; say which with --from"
            )
        raise Failure(
            f"invalid UUID {shown}: 22 characters, but not base58, base62 or base64url"
        )
    raise Failure(
        f"invalid UUID {shown}: {n} characters; expected 36 (hyphenated), 32 (hex), "
        "38 (braced), 45 (urn), 26 (base32, ulid, base32hex), 22 (base58, base62, "
        "base64url) or a TypeID (prefix, '_' and 26)"
    )


def _reader(form: str) -> Callable[[str], tuple[str, UUID, str]]:
    """What reads one UUID for ``--from form``: :func:`detect` for ``auto``."""
    if form == "auto":
        return detect

    def read(text: str) -> tuple[str, UUID, str]:
        try:
            if form == "typeid":
                prefix, u = uuidx.parse_typeid(text)
                return form, u, prefix
            return form, uuidx.decode(text, form), ""  # type: ignore[arg-type]
        except ValueError as exc:
            raise Failure(str(exc)) from None

    return read


def _texts(arguments: Sequence[str]) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for each UUID to read: the arguments, else the lines of standard
    input (read as bytes; blank lines skipped, whitespace around each UUID ignored)."""
    if arguments:
        for i, argument in enumerate(arguments, 1):
            yield f"argument {i}", _utf8(os.fsencode(argument), f"argument {i}").strip()
        return
    for i, raw in enumerate(sys.stdin.buffer, 1):
        line = raw.strip()
        if line:
            yield f"line {i}", _utf8(line, f"line {i}")


def _utf8(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        shown = uuidx._core._short_repr(raw)
        raise Failure(
            f"{where}: not valid UTF-8: byte 0x{raw[exc.start]:02x} at position {exc.start} "
            f"of {shown}"
        ) from None


def _read_all(
    arguments: Sequence[str], form: str
) -> Iterator[tuple[str, str, UUID, str]]:
    """``(text, form, uuid, prefix)`` for each input; a bad one raises :class:`Failure`
    saying where it is."""
    read = _reader(form)
    for where, text in _texts(arguments):
        try:
            found, u, prefix = read(text)
        except Failure as exc:
            raise Failure(f"{where}: {exc}") from None
        yield text, found, u, prefix


# --- writing --------------------------------------------------------------------------------


def _writer(form: str, prefix: Optional[str]) -> Callable[[UUID, str], str]:
    """``write(u, input_prefix)``: ``u`` in ``form``. A TypeID takes ``prefix`` if given, else
    the prefix of the TypeID it was read from (none for other inputs)."""
    if form == "typeid":
        if prefix is not None:
            fixed = prefix
            return lambda u, _: uuidx.typeid(fixed, u)
        return lambda u, given: uuidx.typeid(given, u)
    if form == "hyphenated":
        return lambda u, _: uuidx.to_str(u)
    return lambda u, _: uuidx.encode(u, form)  # type: ignore[arg-type]


def _check_prefix(parser: argparse.ArgumentParser, prefix: Optional[str]) -> None:
    if prefix is not None:
        try:
            uuidx.typeid(prefix, uuidx.NIL)
        except ValueError as exc:
            parser.error(str(exc))


def _facts(u: UUID) -> dict[str, object]:
    """What ``inspect`` reports about ``u``."""
    facts: dict[str, object] = {
        "uuid": str(u), "variant": u.variant, "version": u.version,
        "layout": None, "fields": None, "unix_ns": None, "time": None,
    }
    try:
        fields = uuidx.layout.fields(u)
    except ValueError:
        return facts
    facts["layout"] = type(fields).__name__.removesuffix("Fields").lower()
    facts["fields"] = dict(zip(fields._fields, fields))
    try:
        ns = uuidx.timestamp_ns(u)
    except ValueError:
        return facts
    facts["unix_ns"] = ns
    try:
        facts["time"] = uuidx.to_datetime(u).isoformat()
    except ValueError as exc:
        facts["time_error"] = str(exc)
    return facts


def describe(u: UUID) -> list[str]:
    """The lines ``inspect`` prints for ``u``."""
    facts = _facts(u)
    lines = [f"uuid:      {u}", f"variant:   {u.variant}", f"version:   {u.version}"]
    fields = facts["fields"]
    if not isinstance(fields, dict):
        lines.append("layout:    none (not an RFC 9562 layout)")
        return lines
    lines.append(f"layout:    {facts['layout']}")
    for name, value in fields.items():
        lines.append(f"  {name + ':':<13}{value} (0x{value:x})")
    if facts["unix_ns"] is not None:
        lines.append(f"unix_ns:   {facts['unix_ns']}")
        lines.append(f"time:      {facts.get('time') or facts.get('time_error')}")
    return lines


# --- the commands ---------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """A command's parser: usage errors in one line (status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} -h)\n")


def _parser(prog: str, command: str, description: str) -> _Parser:
    return _Parser(prog=f"{prog} {command}", description=description)


def _uuid_function(text: str) -> str:
    """``-u`` of ``gen``: ``uuid7`` or just ``7``."""
    return f"uuid{text}" if text.isdigit() else text


def _namespace(text: str) -> UUID:
    if text in _NAMESPACES:
        return _NAMESPACES[text]
    try:
        return uuidx.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc}; or one of {', '.join(_NAMESPACES)}") from None


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


def _form_options(parser: argparse.ArgumentParser, default: str = "hyphenated") -> None:
    parser.add_argument(
        "-f", "--form", default=None, choices=_OUTPUT_FORMS, metavar="FORM",
        help=f"output form: {', '.join(_OUTPUT_FORMS)} (default {default}; typeid with "
        "--prefix)",
    )
    parser.add_argument(
        "--prefix", default=None,
        help="TypeID prefix (lowercase letters and '_'); implies -f typeid",
    )


def _output_form(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    form: Optional[str] = args.form
    if args.prefix is not None:
        if form not in (None, "typeid"):
            parser.error(f"--prefix is for -f typeid, not -f {form}")
        _check_prefix(parser, args.prefix)
        return "typeid"
    return form or "hyphenated"


def _gen(prog: str, argv: Sequence[str]) -> int:
    parser = _parser(prog, "gen", "Generate UUIDs of any version, in any form, streamed.")
    parser.add_argument(
        "-u", "--uuid", type=_uuid_function, default="uuid4", choices=_FUNCS, metavar="UUID",
        help=f"function: {', '.join(_FUNCS)}, or just the digit (default uuid4); uuid8 with "
        "-n and -N is name-based",
    )
    parser.add_argument("-C", "--count", metavar="NUM", type=int, default=1,
                        help="how many (default 1), streamed in constant memory")
    parser.add_argument("-n", "--namespace", type=_namespace, default=None,
                        help="uuid3/uuid5/uuid8: a UUID or @dns, @url, @oid, @x500")
    parser.add_argument("-N", "--name", type=_name, default=None,
                        help="uuid3/uuid5/uuid8: the name (UTF-8; other bytes are hashed as given)")
    parser.add_argument("--algorithm", default="sha256", choices=_ALGORITHMS,
                        help="hash of a name-based uuid8 (default sha256)")
    parser.add_argument(
        "--at", default=None, metavar="TIME",
        help="uuid1/uuid6/uuid7 for this time instead of now: ISO 8601 (UTC unless an offset "
        "is given) or nanoseconds since 1970; UUIDs still increase",
    )
    _form_options(parser)
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error(f"--count must be 0 or more, got {args.count}")
    form = _output_form(parser, args)
    write = _writer(form, args.prefix if args.prefix is not None else "")
    many = _many(parser, args)
    if form == "hyphenated" and args.at is None and args.uuid in ("uuid4", "uuid7") \
            and args.namespace is None and args.name is None:
        strings = uuidx.uuid4_str_many if args.uuid == "uuid4" else uuidx.uuid7_str_many
        _write_lines(_batched(args.count, strings))
    else:
        _write_lines(_batched(args.count, lambda n: [write(u, "") for u in many(n)]))
    return 0


def _many(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[int], list[UUID]]:
    """``many(n)``: the next ``n`` UUIDs ``gen`` writes."""
    func: str = args.uuid
    named = args.namespace is not None or args.name is not None
    if func in ("uuid3", "uuid5") or (func == "uuid8" and named):
        if args.namespace is None or args.name is None:
            parser.error(f"{func} needs both -n/--namespace and -N/--name")
        ns: UUID = args.namespace
        name: Union[str, bytes] = args.name
        if func == "uuid3":
            one = uuidx.uuid3(ns, name)
        elif func == "uuid5":
            one = uuidx.uuid5(ns, name)
        else:
            one = uuidx.uuid8_name(ns, name, args.algorithm)
        if args.at is not None:
            parser.error(f"--at is for uuid1, uuid6 and uuid7, not a name-based {func}")
        return lambda n: [one] * n
    if named:
        parser.error(f"{func} takes no -n/--namespace or -N/--name")
    if args.at is not None:
        if func not in ("uuid1", "uuid6", "uuid7"):
            parser.error(f"--at is for uuid1, uuid6 and uuid7, not {func}")
        try:
            at = instant_ns(args.at)
        except argparse.ArgumentTypeError as exc:
            parser.error(f"argument --at: {exc}")
        if at < 0:
            parser.error(
                f"--at {args.at!r} is before 1970: uuidx's generators refuse a clock that reads "
                "before 1970"
            )
        if at >= 1 << 64:
            parser.error(
                f"--at {args.at!r} is after 2554-07-21T23:34:33.709551615Z, the latest time a "
                "generator's clock can read (2**64 - 1 ns since 1970)"
            )
        if func == "uuid7":
            return uuidx.V7Generator(clock=lambda: at).many
        one_by_one = (uuidx.V1Generator if func == "uuid1" else uuidx.V6Generator)(
            clock=lambda: at
        ).generate
        return lambda n: [one_by_one() for _ in range(n)]
    if func == "uuid4":
        return uuidx.uuid4_many
    if func == "uuid7":
        return uuidx.uuid7_many
    if func == "uuid1":
        return lambda n: [uuidx.uuid1() for _ in range(n)]
    if func == "uuid6":
        return lambda n: [uuidx.uuid6() for _ in range(n)]
    return lambda n: [uuidx.uuid8() for _ in range(n)]


def _inputs_help(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "uuids", nargs="*", metavar="UUID",
        help="UUIDs in any form; none: read standard input, one per line",
    )
    parser.add_argument(
        "--from", dest="source", default="auto", choices=("auto", *_OUTPUT_FORMS),
        metavar="FORM",
        help="the form of the input (default auto: recognised by length and alphabet; "
        "base32hex, and 22-character text that several forms decode, need it)",
    )


def _inspect(prog: str, argv: Sequence[str]) -> int:
    parser = _parser(prog, "inspect", "Show a UUID's form, version, variant, fields and time.")
    _inputs_help(parser)
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per UUID, one per line (JSON Lines)")
    args = parser.parse_args(argv)

    def report(item: tuple[str, str, UUID, str], first: bool) -> str:
        text, form, u, prefix = item
        if args.json:
            facts = {"input": text, "form": form, **({"prefix": prefix} if form == "typeid"
                                                     else {}), **_facts(u)}
            return json.dumps(facts)
        lines = describe(u)
        lines.insert(1, f"form:      {form}" + (f" (prefix {prefix!r})" if prefix else ""))
        return ("" if first else "\n") + "\n".join(lines)

    items = _read_all(args.uuids, args.source)
    _write_lines(report(item, i == 0) for i, item in enumerate(items))
    return 0


def _convert(prog: str, argv: Sequence[str]) -> int:
    parser = _parser(prog, "convert", "Write UUIDs in another form, one per line.")
    _inputs_help(parser)
    _form_options(parser)
    args = parser.parse_args(argv)
    write = _writer(_output_form(parser, args), args.prefix)
    _write_lines(write(u, prefix) for _, _, u, prefix in _read_all(args.uuids, args.source))
    return 0


def _bounds(prog: str, argv: Sequence[str]) -> int:
    parser = _parser(
        prog, "bounds",
        "The smallest and largest v7 UUIDs of a time, or of a range of times (inclusive, to the "
        "millisecond): every v7 made then sorts between them.",
    )
    parser.add_argument("start", metavar="START",
                        help="ISO 8601 (UTC unless an offset is given) or nanoseconds since 1970")
    parser.add_argument("end", nargs="?", default=None, metavar="END",
                        help="the end of the range, inclusive (default: START)")
    parser.add_argument("--sql", action="store_true",
                        help="print a BETWEEN clause: BETWEEN 'lo' AND 'hi'")
    _form_options(parser)
    args = parser.parse_args(argv)
    write = _writer(_output_form(parser, args), args.prefix)
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
    _write_lines([f"BETWEEN '{a}' AND '{b}'" if args.sql else f"{a} {b}"])
    return 0


_RUN: dict[str, Callable[[str, Sequence[str]], int]] = {
    "gen": _gen, "inspect": _inspect, "convert": _convert, "bounds": _bounds,
}

_EPILOG = (
    "uuidx adds the commands gen, inspect, convert and bounds ('COMMAND -h' for each) "
    "and --version."
)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m uuidx``: with a command (``gen``, ``inspect``, ``convert``, ``bounds``) as
    the first argument, that command; ``--version`` alone, the version; otherwise Python 3.14's
    ``python -m uuid`` (:func:`stdlib_main`). Returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    prog = _prog_name()
    try:
        if args == ["--version"]:
            _write_lines([f"uuidx {uuidx.__version__}"])
        elif args and args[0] in _RUN:
            return _RUN[args[0]](prog, args[1:])
        else:
            stdlib_main(args, prog=prog, module="uuidx", epilog=_EPILOG)
    except Failure as exc:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            pass
        command = f" {args[0]}" if args and args[0] in _RUN else ""
        sys.stderr.write(f"{prog}{command}: error: {exc}\n")
        return exc.status
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m uuidx``: generate UUIDs of any version, or inspect one.

Examples::

    python -m uuidx                          # one v4
    python -m uuidx gen -v 7 -n 3            # three v7, increasing
    python -m uuidx gen -v 5 --namespace @dns --name www.example.com
    python -m uuidx gen -v 8 --namespace @url --name https://example.com --algorithm sha3_256
    python -m uuidx inspect 017f22e2-79b0-7cc3-98c4-dc0c0c07398f
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Iterable, Optional, Sequence, Union
from uuid import UUID

import uuidx

_NAMESPACES = {
    "@dns": uuidx.NAMESPACE_DNS,
    "@url": uuidx.NAMESPACE_URL,
    "@oid": uuidx.NAMESPACE_OID,
    "@x500": uuidx.NAMESPACE_X500,
}
_ALGORITHMS = ("sha256", "sha512", "sha3_256", "sha3_512", "shake_128", "shake_256")
_FORMATS: dict[str, Callable[[UUID], str]] = {
    "hyphenated": str,
    "hex": lambda u: u.hex,
    "urn": lambda u: u.urn,
    "braced": lambda u: "{" + str(u) + "}",
    "upper": lambda u: str(u).upper(),
}


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
    memory. A reader that closes the pipe (``| head``) ends the program quietly, with the
    status a Unix tool killed by SIGPIPE has (141)."""
    out = sys.stdout
    batch: list[str] = []
    try:
        for line in lines:
            batch.append(line)
            if len(batch) == 1024:
                out.write("\n".join(batch) + "\n")
                batch.clear()
        if batch:
            out.write("\n".join(batch) + "\n")
        out.flush()
    except BrokenPipeError:
        # Python flushes stdout again at exit; point it at /dev/null so that flush is silent.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
        os.close(devnull)
        raise SystemExit(141) from None


def _namespace(text: str) -> UUID:
    if text in _NAMESPACES:
        return _NAMESPACES[text]
    try:
        return uuidx.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"{exc}; or one of {', '.join(_NAMESPACES)}"
        ) from None


def _uuid(text: str) -> UUID:
    try:
        return uuidx.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m uuidx", description="Generate or inspect RFC 9562 UUIDs."
    )
    parser.add_argument("--version", action="version", version=f"uuidx {uuidx.__version__}")
    sub = parser.add_subparsers(dest="command")
    gen = sub.add_parser("gen", help="generate UUIDs (the default command)")
    gen.add_argument(
        "-v", "--version", type=int, default=4, choices=[1, 3, 4, 5, 6, 7, 8],
        help="UUID version (default 4); 3, 5 and 8 with --name are name-based",
    )
    gen.add_argument("-n", "--count", type=int, default=1, help="how many (default 1)")
    gen.add_argument(
        "--namespace", type=_namespace, default=None,
        help="namespace for v3/v5/v8: a UUID or @dns, @url, @oid, @x500",
    )
    gen.add_argument(
        "--name", default=None, type=_name,
        help="name for v3/v5/v8 (UTF-8; other bytes are hashed as given)",
    )
    gen.add_argument(
        "--algorithm", default="sha256", choices=_ALGORITHMS,
        help="hash for name-based v8 (default sha256)",
    )
    gen.add_argument(
        "-f", "--format", default="hyphenated", choices=sorted(_FORMATS),
        help="output form (default hyphenated)",
    )
    inspect = sub.add_parser("inspect", help="show variant, version, fields and time")
    inspect.add_argument("uuids", nargs="+", type=_uuid, metavar="UUID")
    return parser


def _generator(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Callable[[], UUID]:
    version: int = args.version
    named = args.namespace is not None or args.name is not None
    if version in (3, 5) or (version == 8 and named):
        if args.namespace is None or args.name is None:
            parser.error(f"version {version} needs both --namespace and --name")
        ns: UUID = args.namespace
        name: Union[str, bytes] = args.name
        if version == 3:
            return lambda: uuidx.uuid3(ns, name)
        if version == 5:
            return lambda: uuidx.uuid5(ns, name)
        algorithm = args.algorithm
        return lambda: uuidx.uuid8_name(ns, name, algorithm)
    if named:
        parser.error(f"version {version} takes no --namespace or --name")
    simple: dict[int, Callable[[], UUID]] = {
        1: uuidx.uuid1, 4: uuidx.uuid4, 6: uuidx.uuid6, 7: uuidx.uuid7, 8: uuidx.uuid8,
    }
    return simple[version]


def describe(u: UUID) -> list[str]:
    """The lines ``inspect`` prints for ``u``."""
    lines = [f"uuid:      {u}", f"variant:   {u.variant}", f"version:   {u.version}"]
    try:
        fields = uuidx.layout.fields(u)
    except ValueError:
        lines.append("layout:    none (not an RFC 9562 layout)")
        return lines
    lines.append(f"layout:    {type(fields).__name__.removesuffix('Fields').lower()}")
    for name, value in zip(fields._fields, fields):
        lines.append(f"  {name + ':':<13}{value} (0x{value:x})")
    try:
        ns = uuidx.timestamp_ns(u)
    except ValueError:
        return lines
    lines.append(f"unix_ns:   {ns}")
    try:
        lines.append(f"time:      {uuidx.to_datetime(u).isoformat()}")
    except ValueError as exc:
        lines.append(f"time:      {exc}")
    return lines


def stdlib_main(argv: Optional[Sequence[str]] = None) -> None:
    """Python 3.14's ``uuid.main()``: ``-u/--uuid uuid1..uuid8``, ``-n/--namespace``,
    ``-N/--name`` (for uuid3 and uuid5), ``-C/--count``; prints the UUIDs, one per line.

    The same options, help, output and usage errors (status 2) as 3.14's; in addition a name
    that is not valid UTF-8 is hashed as the bytes given instead of failing with a traceback,
    and a closed pipe ends quietly."""
    funcs: dict[str, Callable[..., UUID]] = {
        "uuid1": uuidx.uuid1, "uuid3": uuidx.uuid3, "uuid4": uuidx.uuid4, "uuid5": uuidx.uuid5,
        "uuid6": uuidx.uuid6, "uuid7": uuidx.uuid7, "uuid8": uuidx.uuid8,
    }
    options: dict[str, object] = {
        "formatter_class": argparse.ArgumentDefaultsHelpFormatter,
        "description": "Generate a UUID using the selected UUID function.",
    }
    if sys.version_info >= (3, 14):
        options["color"] = True
    parser = argparse.ArgumentParser(**options)  # type: ignore[arg-type]
    parser.add_argument("-u", "--uuid", choices=funcs.keys(), default="uuid4",
                        help="function to generate the UUID")
    parser.add_argument("-n", "--namespace",
                        metavar=f"{{any UUID,{','.join(_NAMESPACES)}}}",
                        help="uuid3/uuid5 only: "
                        "a UUID, or a well-known predefined UUID addressed "
                        "by namespace name")
    parser.add_argument("-N", "--name",
                        help="uuid3/uuid5 only: "
                        "name used as part of generating the UUID")
    parser.add_argument("-C", "--count", metavar="NUM", type=int, default=1,
                        help="generate NUM fresh UUIDs")
    args = parser.parse_args(argv)
    func = funcs[args.uuid]
    if args.uuid in ("uuid3", "uuid5"):
        if not args.namespace or not args.name:
            parser.error(
                "Incorrect number of arguments. "
                f"{args.uuid} requires a namespace and a name. "
                "Run 'python -m uuid -h' for more information."
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
    else:
        _write_lines(str(func()) for _ in range(args.count))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv.insert(0, "gen")
    args = parser.parse_args(argv)
    if args.command == "inspect":
        _write_lines(
            ("\n" if i else "") + "\n".join(describe(u)) for i, u in enumerate(args.uuids)
        )
        return 0
    if args.count < 0:
        parser.error(f"--count must be 0 or more, got {args.count}")
    make = _generator(args, parser)
    fmt = _FORMATS[args.format]
    _write_lines(fmt(make()) for _ in range(args.count))
    return 0


if __name__ == "__main__":
    sys.exit(main())

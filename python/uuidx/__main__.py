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
import sys
from typing import Callable, Optional, Sequence
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
    gen.add_argument("--name", default=None, help="name for v3/v5/v8 (UTF-8)")
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
        name: str = args.name
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
    ``-N/--name`` (for uuid3 and uuid5), ``-C/--count``; prints the UUIDs, one per line."""
    funcs: dict[str, Callable[..., UUID]] = {
        "uuid1": uuidx.uuid1, "uuid3": uuidx.uuid3, "uuid4": uuidx.uuid4, "uuid5": uuidx.uuid5,
        "uuid6": uuidx.uuid6, "uuid7": uuidx.uuid7, "uuid8": uuidx.uuid8,
    }
    parser = argparse.ArgumentParser(
        description="Generate a UUID using the selected UUID function."
    )
    parser.add_argument("-u", "--uuid", choices=list(funcs), default="uuid4",
                        help="function to generate the UUID (default: uuid4)")
    parser.add_argument("-n", "--namespace",
                        help="a UUID, or @dns, @url, @oid or @x500; required for uuid3/uuid5")
    parser.add_argument("-N", "--name", help="the name; required for uuid3/uuid5")
    parser.add_argument("-C", "--count", metavar="NUM", type=int, default=1,
                        help="generate NUM fresh UUIDs (default 1)")
    args = parser.parse_args(argv)
    func = funcs[args.uuid]
    if args.uuid in ("uuid3", "uuid5"):
        if not args.namespace or not args.name:
            parser.error(
                "Incorrect number of arguments. "
                f"{args.uuid} requires a namespace and a name. "
                "Run 'python -m uuid -h' for more information."
            )
        namespace = _NAMESPACES.get(args.namespace) or UUID(args.namespace)
        for _ in range(args.count):
            print(func(namespace, args.name))
    else:
        for _ in range(args.count):
            print(func())


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv.insert(0, "gen")
    args = parser.parse_args(argv)
    if args.command == "inspect":
        print("\n\n".join("\n".join(describe(u)) for u in args.uuids))
        return 0
    if args.count < 0:
        parser.error(f"--count must be 0 or more, got {args.count}")
    make = _generator(args, parser)
    fmt = _FORMATS[args.format]
    sys.stdout.write("".join(fmt(make()) + "\n" for _ in range(args.count)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

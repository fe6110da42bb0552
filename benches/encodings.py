"""``make bench-encodings``: uuidx's encodings and TypeIDs against the libraries people use for
them today (python-ulid, base58, typeid-python; the standard library's ``base64`` and
``uuid`` for the RFC 4648 and hex forms), measured in one run with ``benches/harness.py``.

Each operation is the same conversion on both sides (a ``uuid.UUID`` to text, or text to a
``uuid.UUID``, or to ``(prefix, uuid.UUID)`` for TypeIDs; base58's encoder returns bytes and is
left so, in its favour). Prints the table and rewrites the section of
``docs/performance.md`` between the markers.
Target: uuidx at most 0.5x each python-ulid, base58 and typeid-python conversion.
"""

from __future__ import annotations

import argparse
import base64
import platform
import sys
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

import base58
import ulid
from typeid import TypeID

import uuidx
from harness import PAGE, Op, Results, measure, write_section
from machine import describe

if TYPE_CHECKING:
    from uuidx.typing import Form

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- bench-encodings:start (written by benches/encodings.py) -->"
END = "<!-- bench-encodings:end -->"

U = uuid.UUID("01890a5d-ac96-774b-bcce-b302099a8057")


def typeid_python_parse(s: str) -> tuple[str, uuid.UUID]:
    """typeid-python's parse, to the result uuidx gives: ``(prefix, uuid.UUID)``."""
    t = TypeID.from_string(s)
    return t.prefix, uuid.UUID(bytes=t.uuid_bytes)


FORMS: tuple[Form, ...] = ("hex", "hyphenated", "urn", "braced", "base32", "ulid", "base32hex",
                           "base58", "base62", "base64url")  # fmt: skip

ENV: dict[str, Any] = {
    "uuidx": uuidx,
    "u": U,
    "UUID": uuid.UUID,
    "base58": base58,
    "base64": base64,
    "ULID": ulid.ULID,
    "TypeID": TypeID,
    "typeid_python_parse": typeid_python_parse,
    **{f"s_{form}": uuidx.encode(U, form) for form in FORMS},
    "s_typeid": uuidx.typeid("user", U),
}


def expect(value: Any) -> Callable[[str, Any], None]:
    """A check that a statement's value is ``value`` (bytes read as ASCII)."""

    def check(candidate: str, got: Any) -> None:
        if isinstance(got, bytes):
            got = got.decode("ascii")
        if got != value:
            raise SystemExit(f"{candidate}: got {got!r}, expected {value!r}")

    return check


def ops() -> list[Op]:
    def op(label: str, value: Any, **stmts: str) -> Op:
        return Op(label, {k.replace("_", "-"): v for k, v in stmts.items()}, ENV, expect(value))

    return [
        op(
            "encode ulid",
            ENV["s_ulid"],
            uuidx='uuidx.encode(u, "ulid")',
            python_ulid="str(ULID.from_uuid(u))",
        ),
        op(
            "decode ulid",
            U,
            uuidx='uuidx.decode(s_ulid, "ulid")',
            python_ulid="ULID.from_str(s_ulid).to_uuid()",
        ),
        op(
            "encode base58",
            ENV["s_base58"],
            uuidx='uuidx.encode(u, "base58")',
            base58='base58.b58encode_int(u.int).rjust(22, b"1")',
        ),
        op(
            "decode base58",
            U,
            uuidx='uuidx.decode(s_base58, "base58")',
            base58="UUID(int=base58.b58decode_int(s_base58))",
        ),
        op(
            "typeid(prefix, u)",
            ENV["s_typeid"],
            uuidx='uuidx.typeid("user", u)',
            typeid_python='str(TypeID.from_uuid(suffix=u, prefix="user"))',
        ),
        op(
            "parse_typeid(s)",
            ("user", U),
            uuidx="uuidx.parse_typeid(s_typeid)",
            typeid_python="typeid_python_parse(s_typeid)",
        ),
        op(
            "encode base32hex",
            ENV["s_base32hex"],
            uuidx='uuidx.encode(u, "base32hex")',
            stdlib='base64.b32hexencode(u.bytes).rstrip(b"=")',
        ),
        op(
            "decode base32hex",
            U,
            uuidx='uuidx.decode(s_base32hex, "base32hex")',
            stdlib='UUID(bytes=base64.b32hexdecode(s_base32hex + "======"))',
        ),
        op(
            "encode base64url",
            ENV["s_base64url"],
            uuidx='uuidx.encode(u, "base64url")',
            stdlib='base64.urlsafe_b64encode(u.bytes).rstrip(b"=")',
        ),
        op(
            "decode base64url",
            U,
            uuidx='uuidx.decode(s_base64url, "base64url")',
            stdlib='UUID(bytes=base64.urlsafe_b64decode(s_base64url + "=="))',
        ),
        op(
            "encode hyphenated",
            ENV["s_hyphenated"],
            uuidx='uuidx.encode(u, "hyphenated")',
            stdlib="str(u)",
        ),
        op(
            "decode hyphenated",
            U,
            uuidx='uuidx.decode(s_hyphenated, "hyphenated")',
            stdlib="UUID(s_hyphenated)",
        ),
        op("encode base62", ENV["s_base62"], uuidx='uuidx.encode(u, "base62")'),
        op("decode base62", U, uuidx='uuidx.decode(s_base62, "base62")'),
        op("encode base32", ENV["s_base32"], uuidx='uuidx.encode(u, "base32")'),
        op("decode base32", U, uuidx='uuidx.decode(s_base32, "base32")'),
    ]


def report(results: Results, all_ops: list[Op], rounds: int, seconds: float) -> list[str]:
    """The performance page's section: its header and its table."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [
        f"Measured by `make bench-encodings` on {when}: {describe()}, "
        f"{platform.python_implementation()} {platform.python_version()}; {rounds} rounds of "
        f"interleaved visits in random order ({seconds:.0f} s), GC on. ns per call are medians; "
        "uuidx ÷ peer is the median of the per-round ratios (10th–90th percentile in brackets); "
        "< 1 means uuidx is faster.",
        "",
        "| operation | uuidx ns | peer | peer ns | uuidx ÷ peer |",
        "|:---|---:|:---|---:|---:|",
    ]
    for op in all_ops:
        ours = results.median(op.label, "uuidx")
        peers = [c for c in op.stmts if c != "uuidx"]
        if not peers:
            lines.append(f"| {op.label} | {ours:,.0f} | — | — | — |")
        for peer in peers:
            r = results.ratio(op.label, "uuidx", peer)
            lo, hi = results.ratio_spread(op.label, "uuidx", peer)
            lines.append(
                f"| {op.label} | {ours:,.0f} | {peer} | {results.median(op.label, peer):,.0f} "
                f"| {r:.2f}× ({lo:.2f}–{hi:.2f}) |"
            )
    return lines


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=200, help="rounds of visits (default 200)")
    parser.add_argument("--visit-ms", type=float, default=2.0, help="ms per visit (default 2)")
    parser.add_argument("--no-readme", action="store_true", help="print only")
    args = parser.parse_args(argv)
    all_ops = ops()
    start = time.perf_counter()
    results = measure(all_ops, rounds=args.rounds, visit_s=args.visit_ms / 1000)
    lines = report(results, all_ops, args.rounds, time.perf_counter() - start)
    print("\n".join(lines))
    if not args.no_readme:
        if write_section(START, END, lines):
            print(f"updated the encodings section of {PAGE}", file=sys.stderr)
        else:
            print(f"note: {PAGE} has no encodings markers; left unchanged", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

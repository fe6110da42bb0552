"""What the commands share to read and write: UUIDs in any form from the arguments or standard
input, lines streamed to standard output in constant memory, JSON Lines, one-line errors."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Callable, Optional, TextIO
from uuid import UUID

import uuidx

from .._catalog import detect

#: UUIDs per batch when streaming: memory stays constant whatever the count.
BATCH = 4096

#: The longest input line (or argument) read, in bytes, whitespace included: far more than any
#: UUID's text (a TypeID, the longest, has at most 90 characters). A longer one is refused
#: after reading this many bytes of it, so memory stays small whatever the input.
MAX_LINE_BYTES = 4096


class Failure(Exception):
    """An error the command line reports in one line, with exit status ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(" ".join(message.split("\n")))
        self.status = status


# --- writing --------------------------------------------------------------------------------


def write_lines(lines: Iterable[str]) -> None:
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


def batched(count: int, many: Callable[[int], Iterable[str]]) -> Iterator[str]:
    """``count`` lines made :data:`BATCH` at a time by ``many(n)``."""
    while count > 0:
        n = min(count, BATCH)
        yield from many(n)
        count -= n


def writer(form: str, prefix: Optional[str]) -> Callable[[UUID, str], str]:
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


def as_json(u: str, form: str, text: str) -> dict[str, str]:
    """A UUID in the JSON the commands write: ``{"uuid": hyphenated}``, and its text under the
    name of its form when that is not ``hyphenated`` (``{"uuid": ..., "base58": ...}``)."""
    return {"uuid": u} if form == "hyphenated" else {"uuid": u, form: text}


# --- reading --------------------------------------------------------------------------------


def reader(form: str) -> Callable[[str], tuple[str, UUID, str]]:
    """What reads one UUID for ``--from form``, as ``(form, uuid, typeid_prefix)``:
    :func:`detect` for ``auto``. A text that is not a UUID raises :class:`Failure`."""

    def read(text: str) -> tuple[str, UUID, str]:
        try:
            if form == "auto":
                return detect(text)
            if form == "typeid":
                prefix, u = uuidx.parse_typeid(text)
                return form, u, prefix
            return form, uuidx.decode(text, form), ""  # type: ignore[arg-type]
        except ValueError as exc:
            raise Failure(str(exc)) from None

    return read


def read_all(arguments: Sequence[str], form: str) -> Iterator[tuple[str, str, UUID, str]]:
    """``(text, form, uuid, prefix)`` for each input: the arguments, else the lines of standard
    input. A bad one raises :class:`Failure` saying where it is."""
    read = reader(form)
    for where, text in _texts(arguments):
        try:
            found, u, prefix = read(text)
        except Failure as exc:
            raise Failure(f"{where}: {exc}") from None
        yield text, found, u, prefix


def _texts(arguments: Sequence[str]) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for each UUID to read: the arguments, else the lines of standard
    input (read as bytes; blank lines skipped, whitespace around each UUID ignored). A line or
    argument longer than :data:`MAX_LINE_BYTES` raises :class:`Failure`; a line is read at
    most that many bytes at a time, never whole."""
    if arguments:
        for i, argument in enumerate(arguments, 1):
            where = f"argument {i}"
            raw = os.fsencode(argument)
            if len(raw) > MAX_LINE_BYTES:
                raise Failure(_too_long(where, raw))
            yield where, _utf8(raw, where).strip()
        return
    if sys.stdin.isatty():
        # Nothing to read but what a person types: say so, rather than wait in silence.
        end = "Ctrl-Z then Enter" if os.name == "nt" else "Ctrl-D"
        sys.stderr.write(
            f"reading UUIDs from standard input, one a line ({end} to end; or give them as "
            "arguments)\n"
        )
        sys.stderr.flush()
    stdin = sys.stdin.buffer
    i = 0
    while True:
        # One byte more than the bound: a line of MAX_LINE_BYTES and its newline fit.
        raw = stdin.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        i += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise Failure(_too_long(f"line {i}", raw))
        line = raw.strip()
        if line:
            yield f"line {i}", _utf8(line, f"line {i}")


def _too_long(where: str, start: bytes) -> str:
    """The error for a line or argument longer than :data:`MAX_LINE_BYTES`, which begins with
    ``start``."""
    shown = uuidx._core._short_repr(start[:32].decode("utf-8", "replace"))
    return (
        f"{where}: longer than {MAX_LINE_BYTES} bytes, the most a line or an argument may have "
        f"(a UUID's text has at most 90 characters); it begins {shown}"
    )


def _utf8(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        shown = uuidx._core._short_repr(raw)
        raise Failure(
            f"{where}: not valid UTF-8: byte 0x{raw[exc.start]:02x} at position {exc.start} "
            f"of {shown}"
        ) from None

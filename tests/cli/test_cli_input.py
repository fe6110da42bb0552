"""What ``python -m uuidx inspect`` and ``convert`` read (issue 34): a text is never read as
another UUID than the one it was written for, a UUID that starts with ``-`` goes after ``--``,
and a line longer than the bound is refused without being read whole."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from typing import Optional

import pytest
from cli_process import PROG, one_line_error, run
from hypothesis import example, given, settings
from hypothesis import strategies as st
from platform_facts import examples

import uuidx
from uuidx import _core
from uuidx._catalog import OUTPUT_FORMS, detect
from uuidx.cli._io import MAX_LINE_BYTES, reader, writer

#: Issue 34, 1: a v4 whose base32hex text (``064GKNDC...``) was read as a ULID,
#: ``06242756-...``.
BASE32HEX_V4 = uuid.UUID("01890a5d-ac96-474b-bcce-b302099a8057")
#: Issue 34, 2: a value with no RFC layout whose base58 text was read as base62, a v6.
NON_RFC = uuid.UUID("006037d0-9c4f-5255-58d9-e5b64633e8a5")
#: Issue 34, 3: the RFC's own example, whose base64url text starts with ``-``.
DASHED = uuid.UUID("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")

MAX = (1 << 128) - 1


def texts_of(u: uuid.UUID) -> dict[str, str]:
    """``u`` in every form the command line writes (``-f``, and ``--prefix``), written by the
    command line's own writer."""
    texts = {form: writer(form, None)(u, "") for form in OUTPUT_FORMS}
    texts["typeid user"] = writer("typeid", "user")(u, "")
    return texts


def _rfc(x: int, version: int) -> int:
    """``x`` with the variant ``10`` and ``version``."""
    return (x & ~(0xF << 76) & ~(0x3 << 62)) | (version << 76) | (0b10 << 62)


#: Values of every kind: any 128 bits (almost never the RFC's layout), the layout of each
#: version, numbers with leading zero bits (v7s of our years, short base58 and base62 texts),
#: Nil and Max.
values = st.one_of(
    st.integers(0, MAX),
    st.builds(_rfc, st.integers(0, MAX), st.integers(1, 8)),
    st.builds(lambda x, shift: x >> shift, st.integers(0, MAX), st.integers(0, 127)),
    st.sampled_from([0, MAX]),
).map(lambda i: uuid.UUID(int=i))


def check_read_back(text: str, u: uuid.UUID) -> Optional[str]:
    """Reads ``text``, written for ``u``, as the command line does without ``--from``. It
    must give ``u``, or be refused with ``u`` among the readings it lists, each with the
    ``--from`` that picks it, and that ``--from`` must read ``u``. Returns the refusal, or
    None."""
    try:
        _, got, _ = detect(text)
    except ValueError as exc:
        message = str(exc)
        readings = _core._detect(text)
        assert len({v for _, v, _ in readings}) > 1, (text, readings)
        assert message.startswith(f"ambiguous UUID {_core._short_repr(text)}: "), message
        for form, v, _ in readings:
            assert f"{form} ({v})" in message and f"--from {form}" in message, message
        own = [form for form, v, _ in readings if v == u]
        assert own, (text, u, readings)
        assert reader(own[0])(text)[1] == u
        return message
    assert got == u, (text, got, u)
    return None


@settings(max_examples=examples(3000))
@given(values)
@example(BASE32HEX_V4)
@example(NON_RFC)
@example(DASHED)
@example(uuid.UUID("01941f29-7c00-7000-8638-4cb0caa389a2"))
def test_any_value_in_any_form_is_read_as_itself_or_refused(u: uuid.UUID) -> None:
    for text in texts_of(u).values():
        check_read_back(text, u)


@settings(max_examples=examples(6))
@given(values)
@example(BASE32HEX_V4)
@example(NON_RFC)
def test_the_command_does_what_detection_says(u: uuid.UUID) -> None:
    """Through the real ``python -m uuidx convert``, for a sample: each text read alone is
    ``u``; each refused one fails with status 1 and the message detection gives."""
    texts = list(texts_of(u).values())
    refusals = {text: check_read_back(text, u) for text in texts}
    read = [text for text in texts if refusals[text] is None]
    proc = run("convert", "--", *read)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert proc.stdout.splitlines() == [str(u)] * len(read)
    for text in [text for text in texts if refusals[text] is not None][:2]:
        message = one_line_error(run("convert", "--", text), 1)
        assert message == f"{PROG} convert: error: argument 1: {refusals[text]}\n"


def test_base32hex_read_as_ulid_is_refused() -> None:
    text = uuidx.encode(BASE32HEX_V4, "base32hex")
    assert text.startswith("064GKNDC")
    crockford = uuidx.decode(text, "base32")
    assert str(crockford).startswith("06242756-")
    message = one_line_error(run("convert", text), 1)
    assert f"base32hex ({BASE32HEX_V4})" in message and f"base32 ({crockford})" in message
    assert "--from base32hex" in message and "--from base32" in message
    assert run("convert", "--from", "base32hex", text).stdout == f"{BASE32HEX_V4}\n"
    # A base32hex text that Crockford's base32 does not read (too large a number) needs no
    # --from.
    only = uuidx.encode(uuid.UUID(int=MAX), "base32hex")
    assert only.startswith("V")
    assert run("convert", only).stdout == f"{uuid.UUID(int=MAX)}\n"


def test_non_rfc_base58_is_refused_not_read_as_base62() -> None:
    text = uuidx.encode(NON_RFC, "base58")
    base62 = uuidx.decode(text, "base62")
    assert base62.version == 6 and base62.variant == uuid.RFC_4122  # the reading once taken
    message = one_line_error(run("convert", text), 1)
    assert f"as base58 ({NON_RFC}) and as base62 ({base62})" in message
    assert message.rstrip().endswith("say which with --from base58 or --from base62")
    assert run("convert", "--from", "base58", text).stdout == f"{NON_RFC}\n"


# --- a UUID that starts with '-' ---------------------------------------------------------------


@pytest.mark.parametrize("command", ["convert", "inspect"])
def test_a_dashed_uuid_after_double_dash_is_read(command: str) -> None:
    text = uuidx.encode(DASHED, "base64url")
    assert text.startswith("-")
    proc = run(command, "--json", "--", text)
    assert proc.returncode == 0, proc.stderr
    assert f'"uuid": "{DASHED}"' in proc.stdout and '"form": "base64url"' in proc.stdout


@pytest.mark.parametrize("command", ["convert", "inspect"])
def test_a_bare_dashed_uuid_gets_a_hint_naming_double_dash(command: str) -> None:
    text = uuidx.encode(DASHED, "base64url")
    message = one_line_error(run(command, "--json", text), 2)
    assert message.startswith(f"{PROG} {command}: error: ")
    assert f"put -- before UUIDs that start with '-', as in {PROG} {command} -- {text}" in message
    # An unknown option that is no UUID gets no such hint.
    message = one_line_error(run(command, "--nope"), 2)
    assert " -- " not in message


# --- the bound on a line -----------------------------------------------------------------------


def test_a_line_at_the_bound_is_read_and_one_beyond_is_refused() -> None:
    u = str(DASHED)
    at_bound = (" " * (MAX_LINE_BYTES - len(u)) + u).encode()
    assert len(at_bound) == MAX_LINE_BYTES
    proc = run("convert", "-f", "hex", stdin=at_bound + b"\n" + at_bound)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{DASHED.hex}\n" * 2
    beyond = b" " + at_bound
    proc = run("convert", "-f", "hex", stdin=at_bound + b"\n" + beyond + b"\n" + at_bound + b"\n")
    message = one_line_error(proc, 1)
    assert proc.stdout == f"{DASHED.hex}\n"
    assert f"line 2: longer than {MAX_LINE_BYTES} bytes" in message, message
    assert len(message) < 300


def test_an_argument_beyond_the_bound_is_refused() -> None:
    message = one_line_error(run("inspect", "x" * (MAX_LINE_BYTES + 1)), 1)
    assert f"argument 1: longer than {MAX_LINE_BYTES} bytes" in message, message


#: Runs ``python -m uuidx`` with its arguments and, at exit, writes the process's peak resident
#: memory (``VmHWM``, in kB) to standard error. ``ru_maxrss`` would not do: Linux keeps it across
#: ``exec``, so a child forked from a large test process starts with the parent's peak.
PEAK_REPORTER = """
import atexit, runpy, sys
def report():
    with open("/proc/self/status") as status:
        peak = [line.split()[1] for line in status if line.startswith("VmHWM:")][0]
    sys.stderr.write(f"\\npeak-kB {peak}\\n")
atexit.register(report)
sys.argv = ["uuidx", *sys.argv[1:]]
runpy.run_module("uuidx", run_name="__main__")
"""


@pytest.mark.skipif(
    not os.path.exists("/proc/self/status"), reason="VmHWM (peak memory) is read from Linux's /proc"
)
def test_a_huge_line_fails_without_being_read_whole() -> None:
    """A 128 MiB line, piped: the command fails with the bound's message after reading a few
    KiB of it (the writer is cut off long before the end, by the closed pipe) and its peak
    memory stays far below the line's size: less than 64 MiB above the same command's on one
    short line (reading it whole would add 128 MiB)."""
    total, chunk = 128 << 20, b"A" * (1 << 20)
    proc = subprocess.Popen(
        [sys.executable, "-c", PEAK_REPORTER, "convert"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stderr is not None and proc.stdout is not None
    written = 0
    try:
        while written < total:
            proc.stdin.write(chunk)
            written += len(chunk)
        proc.stdin.write(b"\n")
        proc.stdin.close()
    except BrokenPipeError:
        pass
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=60)
    proc.stderr.close()
    proc.stdout.close()
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    assert proc.returncode == 1, stderr
    assert f"line 1: longer than {MAX_LINE_BYTES} bytes" in stderr, stderr
    assert written < total, "the command read the whole line"
    peak = int(stderr.rsplit("peak-kB ", 1)[1].split()[0]) << 10
    # Against the peak of the same command on one short line: what an interpreter (or, under
    # qemu-user, the emulator with it: make test-s390x) takes anyway is not the line's.
    baseline = subprocess.run(
        [sys.executable, "-c", PEAK_REPORTER, "convert"],
        input=b"00000000-0000-0000-0000-000000000000\n",
        capture_output=True,
        timeout=60,
        check=True,
    )
    base = int(baseline.stderr.decode().rsplit("peak-kB ", 1)[1].split()[0]) << 10
    assert peak - base < 64 << 20, f"peak memory {peak >> 20} MiB, {base >> 20} MiB on one line"

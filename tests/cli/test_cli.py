"""``python -m uuidx``'s commands (``gen``, ``inspect``, ``convert``, ``bounds``), each run in a
subprocess. The options shared with ``python -m uuid`` are compared with the standard library's
in ``test_cli_stdlib.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from datetime import datetime, timezone
from typing import Any, Optional, Union

import pytest
from catalog import FORMS
from cli_process import PROG, one_line_error, run
from platform_facts import PYPY, WINDOWS, work

import uuidx
from uuidx import layout

V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"


def lines_of(proc: subprocess.CompletedProcess[str]) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout.splitlines()


def vector(vectors: dict[str, Any], version: int, key: str = "uuid") -> Any:
    found = [v for v in vectors["vectors"] if v["version"] == version and key in v]
    assert found, (version, key)
    return found[0]


# --- gen --------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [1, 4, 6, 7, 8])
def test_gen_each_version(version: int) -> None:
    for spelling in (str(version), f"uuid{version}"):
        lines = lines_of(run("gen", "-u", spelling, "-C", "5"))
        assert len(lines) == 5
        parsed = [uuidx.parse(line) for line in lines]
        assert all(u.version == version and u.variant == uuid.RFC_4122 for u in parsed)
        assert all(line == str(u) for line, u in zip(lines, parsed))
        assert len(set(parsed)) == 5
        if version in (6, 7):
            assert parsed == sorted(parsed)


def test_gen_defaults_to_one_v4() -> None:
    lines = lines_of(run("gen"))
    assert len(lines) == 1 and uuidx.parse(lines[0]).version == 4
    assert lines_of(run("gen", "-C", "0")) == []


def test_gen_name_based_match_the_rfc_vectors(vectors: dict[str, Any]) -> None:
    for version in (3, 5, 8):
        expected = vector(vectors, version, "name")
        lines = lines_of(
            run("gen", "-u", str(version), "-n", "@dns", "-N", expected["name"], "-C", "2")
        )
        assert lines == [expected["uuid"]] * 2
    lines = lines_of(
        run(
            "gen",
            "-u",
            "uuid5",
            "--namespace",
            str(uuidx.NAMESPACE_DNS),
            "--name",
            "www.example.com",
        )
    )
    assert lines == [vector(vectors, 5, "name")["uuid"]]


@pytest.mark.parametrize(
    "algorithm", ["sha256", "sha512", "sha3_256", "sha3_512", "shake_128", "shake_256"]
)
def test_gen_name_based_v8_algorithms(algorithm: str) -> None:
    lines = lines_of(
        run("gen", "-u", "8", "-n", "@url", "-N", "h\u00e9llo", "--algorithm", algorithm)
    )
    expected = uuidx.uuid8_name(uuidx.NAMESPACE_URL, "h\u00e9llo", algorithm)  # type: ignore[arg-type]
    assert lines == [str(expected)]


@pytest.mark.parametrize("form", FORMS)
def test_gen_forms(form: str) -> None:
    lines = lines_of(run("gen", "-u", "7", "-C", "3", "-f", form))
    made = [uuidx.decode(line, form) for line in lines]  # type: ignore[arg-type]
    assert len(made) == 3 and all(u.version == 7 for u in made) and made == sorted(made)
    assert lines == [uuidx.encode(u, form) for u in made]  # type: ignore[arg-type]
    named = lines_of(run("gen", "-u", "5", "-n", "@dns", "-N", "www.example.com", "--form", form))
    assert named == [uuidx.encode(uuid.uuid5(uuid.NAMESPACE_DNS, "www.example.com"), form)]  # type: ignore[arg-type]


def test_gen_typeid() -> None:
    lines = lines_of(run("gen", "-u", "7", "-C", "3", "--prefix", "user"))
    parsed = [uuidx.parse_typeid(line) for line in lines]
    assert all(prefix == "user" and u.version == 7 for prefix, u in parsed)
    bare = lines_of(run("gen", "-f", "typeid"))
    assert uuidx.parse_typeid(bare[0])[0] == ""


@pytest.mark.parametrize(
    ("at", "ns"),
    [
        ("2020-05-17T12:34:56.789123456Z", 1589718896789123456),
        ("2020-05-17T14:34:56.789+02:00", 1589718896789000000),
        ("2020-05-17", 1589673600000000000),
        ("2020-05-17 12:34:56", 1589718896000000000),
        ("1589718896789123456", 1589718896789123456),
    ],
)
def test_gen_at_a_time(at: str, ns: int) -> None:
    lines = lines_of(run("gen", "-u", "7", "--at", at, "-C", "1000", "-f", "ulid"))
    made = [uuidx.decode(line, "ulid") for line in lines]
    assert made == sorted(made) and len(set(made)) == 1000
    assert all(uuidx.timestamp_ns(u) == ns // 1_000_000 * 1_000_000 for u in made)
    for version in (1, 6):
        (line,) = lines_of(run("gen", "-u", str(version), "--at", at))
        assert uuidx.timestamp_ns(uuidx.parse(line)) == ns // 100 * 100


def test_gen_json_lines() -> None:
    """``--json``: one object per UUID, ``{"uuid": hyphenated}`` and the text in the form asked
    for under the form's name."""
    objects = [json.loads(line) for line in lines_of(run("gen", "-u", "7", "-C", "3", "--json"))]
    assert [list(o) for o in objects] == [["uuid"]] * 3
    made = [uuidx.parse(o["uuid"]) for o in objects]
    assert all(u.version == 7 for u in made) and made == sorted(made) and len(set(made)) == 3
    for form in (*FORMS, "typeid"):
        (line,) = lines_of(run("gen", "-u", "4", "-f", form, "--json"))
        got = json.loads(line)
        u = uuidx.parse(got["uuid"])
        if form == "hyphenated":
            assert got == {"uuid": str(u)}
        elif form == "typeid":
            assert got == {"uuid": str(u), "typeid": uuidx.typeid("", u)}
        else:
            assert got == {"uuid": str(u), form: uuidx.encode(u, form)}
    named = lines_of(run("gen", "-u", "5", "-n", "@dns", "-N", "www.example.com", "-C", "2",
                         "--prefix", "host", "--json"))  # fmt: skip
    u5 = uuid.uuid5(uuid.NAMESPACE_DNS, "www.example.com")
    assert [json.loads(line) for line in named] == [
        {"uuid": str(u5), "typeid": uuidx.typeid("host", u5)}
    ] * 2
    assert lines_of(run("gen", "-C", "0", "--json")) == []


def test_gen_json_at_a_time() -> None:
    lines = lines_of(run("gen", "-u", "7", "--at", "2020-05-17", "-C", "2", "--json"))
    made = [uuidx.parse(json.loads(line)["uuid"]) for line in lines]
    assert [uuidx.timestamp_ns(u) for u in made] == [1589673600000000000] * 2


# --- inspect ----------------------------------------------------------------------------------


def test_inspect_v7_vector(vectors: dict[str, Any]) -> None:
    v = vector(vectors, 7)
    out = "\n".join(lines_of(run("inspect", v["uuid"])))
    assert v["uuid"] in out
    assert "form:      hyphenated" in out
    assert "version:   7" in out and "layout:    v7" in out
    for name in ("unix_ts_ms", "ver", "rand_a", "var", "rand_b"):
        assert name + ":" in out
    assert str(v["rand_b"]) in out
    assert f"unix_ns:   {v['unix_ts_ms'] * 1_000_000}" in out
    assert "2022-02-22T19:22:22+00:00" in out


def test_inspect_any_form_from_arguments_and_stdin(vectors: dict[str, Any]) -> None:
    u = uuid.UUID(V7)
    inputs = {
        "hyphenated": V7.upper(),
        "hex": u.hex,
        "urn": "URN:UUID:" + V7,
        "braced": "{" + V7 + "}",
        "ulid": uuidx.encode(u, "ulid"),
        "base32": uuidx.encode(u, "base32"),
        "typeid": uuidx.typeid("user", u),
        "base64url": uuidx.encode(u, "base64url"),
    }
    for source in ("arguments", "stdin"):
        if source == "arguments":
            proc = run("inspect", "--json", *inputs.values())
        else:
            proc = run("inspect", "--json", stdin="".join(f"  {t} \r\n\n" for t in inputs.values()))
        reports = [json.loads(line) for line in lines_of(proc)]
        assert [r["form"] for r in reports] == list(inputs)
        assert [r["input"] for r in reports] == list(inputs.values())
        for r in reports:
            assert r["uuid"] == V7 and r["version"] == 7 and r["layout"] == "v7"
            assert r["fields"] == layout.fields(u)._asdict()
            assert r["unix_ns"] == uuidx.timestamp_ns(u)
            assert r["time"] == uuidx.to_datetime(u).isoformat()
        assert reports[6]["prefix"] == "user"
    v1 = vector(vectors, 1)
    text = "\n".join(lines_of(run("inspect", v1["uuid"], "00000000000000000000000000000001")))
    assert f"clock_seq:   {v1['clock_seq']}" in text
    assert "not an RFC 9562 layout" in text


@pytest.mark.parametrize("form", ["base58", "base62", "base64url", "base32hex"])
def test_inspect_from_a_given_form(form: str) -> None:
    text = uuidx.encode(uuid.UUID(V7), form)  # type: ignore[arg-type]
    (line,) = lines_of(run("inspect", "--json", "--from", form, text))
    assert json.loads(line)["uuid"] == V7 and json.loads(line)["form"] == form


#: A v7 whose base58 text decodes as base62 into another v7: truly ambiguous.
BOTH_LAID_OUT = uuid.UUID("01890a5d-ac96-774b-bcce-b302099a8057")


def test_inspect_ambiguous_text_asks_for_the_form() -> None:
    text = uuidx.encode(BOTH_LAID_OUT, "base58")
    other = uuidx.decode(text, "base62")
    assert other.version == 7 and other.variant == uuid.RFC_4122
    message = one_line_error(run("inspect", text), 1)
    assert f"ambiguous UUID '{text}'" in message
    assert f"as base58 ({BOTH_LAID_OUT}) and as base62 ({other})" in message
    assert message.rstrip().endswith("say which with --from base58 or --from base62")
    (line,) = lines_of(run("convert", "--from", "base58", text))
    assert line == str(BOTH_LAID_OUT)


def test_base58_that_base62_reads_too_is_refused() -> None:
    """The base58 text of a v7 of our years (a leading ``1``) decodes as base62 too, into
    another UUID: without ``--from`` it is refused, naming both readings, never guessed from
    the readings' layouts; ``--from base58`` reads it."""
    texts = lines_of(run("gen", "-u", "7", "-C", "3", "-f", "base58"))
    made = [uuidx.decode(t, "base58") for t in texts]
    for text, u in zip(texts, made):
        other = uuidx.decode(text, "base62")
        assert other != u
        message = one_line_error(run("convert", text), 1)
        assert f"ambiguous UUID '{text}': it decodes as base58 ({u}) and as base62 ({other})" in (
            message
        )
        assert "say which with --from base58 or --from base62" in message
    assert lines_of(run("convert", "--from", "base58", *texts)) == [str(u) for u in made]


def test_inspect_beyond_datetime_range() -> None:
    u = layout.v7((1 << 48) - 1, 0, 0)
    text = "\n".join(lines_of(run("inspect", str(u))))
    assert "layout:    v7" in text and "outside datetime's range" in text
    (line,) = lines_of(run("inspect", "--json", str(u)))
    assert json.loads(line)["time"] is None


def test_a_bad_line_stops_after_the_good_ones() -> None:
    good = [str(uuidx.uuid7()) for _ in range(3)]
    proc = run("convert", "-f", "ulid", stdin="\n".join([*good, "not-a-uuid", good[0]]) + "\n")
    assert proc.stdout.splitlines() == [uuidx.encode(uuid.UUID(g), "ulid") for g in good]
    message = one_line_error(proc, 1)
    assert "line 4" in message and '"not-a-uuid"' in message


@pytest.mark.parametrize(
    ("args", "stdin", "fragment"),
    [
        (["inspect", "nope"], None, 'argument 1: invalid UUID "nope": 4 characters'),
        (
            ["inspect", V7, "f81d4fae-7dec-11d0-a765-00a0c91e6bfg"],
            None,
            'argument 2: invalid hyphenated UUID "f81d4fae-7dec-11d0-a765-00a0c91e6bfg": invalid '
            "character 'g' at position 35",
        ),
        (["inspect"], "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6\n", "line 1: invalid UUID"),
        (["inspect"], b"\n\n\xff\xfe" + V7.encode() + b"\n", "line 3: not valid UTF-8: byte 0xff"),
        (
            ["inspect", "--from", "ulid"],
            "01H455VB4PEX5VSKNK084SN0IQ\n",
            "line 1: invalid ulid UUID \"01H455VB4PEX5VSKNK084SN0IQ\": invalid character 'I' at "
            "position 24",
        ),
        (["inspect"], "pre_01H455VB4PEX5VSKNK084SN02Q\n", "'H' at position 6"),
        (["convert", "-f", "base58"], "8zzzzzzzzzzzzzzzzzzzzzzzzz\n", "exceed 2**128 - 1"),
        (["convert", "-f", "base58"], "x" * 4000 + "\n", "4000 characters"),
    ],
)
def test_bad_input_is_one_line_naming_where(
    args: list[str], stdin: Optional[Union[str, bytes]], fragment: str
) -> None:
    message = one_line_error(run(*args, stdin=stdin), 1)
    assert fragment in message, message
    assert len(message) < 500


# --- convert ----------------------------------------------------------------------------------


@pytest.mark.parametrize("form", FORMS)
def test_convert_there_and_back(form: str) -> None:
    made = [uuidx.uuid7() for _ in range(20)] + [uuidx.NIL, uuidx.MAX]
    there = lines_of(run("convert", "-f", form, *map(str, made)))
    assert there == [uuidx.encode(u, form) for u in made]  # type: ignore[arg-type]
    back = lines_of(run("convert", "--from", form, stdin="\n".join(there) + "\n"))
    assert back == [str(u) for u in made]


def test_convert_typeid_and_ulid() -> None:
    u = uuid.UUID(V7)
    ulid_text = uuidx.encode(u, "ulid")
    assert lines_of(run("convert", "--prefix", "user", ulid_text)) == [uuidx.typeid("user", u)]
    # A TypeID keeps its prefix into another TypeID unless --prefix says otherwise.
    tid = uuidx.typeid("order_line", u)
    assert lines_of(run("convert", "-f", "typeid", tid)) == [tid]
    assert lines_of(run("convert", "--prefix", "item", tid)) == [uuidx.typeid("item", u)]
    assert lines_of(run("convert", "-f", "ulid", tid)) == [ulid_text]
    assert lines_of(run("convert", "-f", "typeid", V7)) == [uuidx.typeid("", u)]


def test_convert_json_lines() -> None:
    """``--json``: for each input, the text read, its form (and TypeID prefix), and the UUID as
    ``gen --json`` writes it."""
    u = uuid.UUID(V7)
    inputs = [V7.upper(), uuidx.encode(u, "ulid"), uuidx.typeid("user", u)]
    proc = run("convert", "-f", "base62", "--json", *inputs)
    assert [json.loads(line) for line in lines_of(proc)] == [
        {"input": V7.upper(), "form": "hyphenated", "uuid": V7,
         "base62": uuidx.encode(u, "base62")},
        {"input": inputs[1], "form": "ulid", "uuid": V7, "base62": uuidx.encode(u, "base62")},
        {"input": inputs[2], "form": "typeid", "prefix": "user", "uuid": V7,
         "base62": uuidx.encode(u, "base62")},
    ]  # fmt: skip
    typeids = run("convert", "-f", "typeid", "--json", stdin=f"{inputs[2]}\n{V7}\n")
    assert [json.loads(line) for line in lines_of(typeids)] == [
        {"input": inputs[2], "form": "typeid", "prefix": "user", "uuid": V7,
         "typeid": inputs[2]},
        {"input": V7, "form": "hyphenated", "uuid": V7, "typeid": uuidx.typeid("", u)},
    ]  # fmt: skip
    plain = run("convert", "--json", "--from", "base32hex", uuidx.encode(u, "base32hex"))
    assert [json.loads(line) for line in lines_of(plain)] == [
        {"input": uuidx.encode(u, "base32hex"), "form": "base32hex", "uuid": V7}
    ]


def test_convert_json_stops_at_a_bad_line_after_the_good_ones() -> None:
    proc = run("convert", "--json", stdin=f"{V7}\nnope\n")
    assert [json.loads(line) for line in proc.stdout.splitlines()] == [
        {"input": V7, "form": "hyphenated", "uuid": V7}
    ]
    assert "line 2" in one_line_error(proc, 1)


# --- bounds -----------------------------------------------------------------------------------


def test_bounds() -> None:
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    end = datetime(2026, 2, 1, tzinfo=timezone.utc)
    lo, hi = uuidx.uuid7_bounds(start, end)
    assert lines_of(run("bounds", "2026-01-01", "2026-02-01")) == [f"{lo} {hi}"]
    assert lines_of(run("bounds", "2026-01-01T00:00:00Z", "2026-02-01", "--sql")) == [
        f"BETWEEN '{lo}' AND '{hi}'"
    ]
    one = uuidx.uuid7_bounds(start)
    assert lines_of(run("bounds", str(1767225600000000000), "-f", "hex")) == [
        f"{one[0].hex} {one[1].hex}"
    ]
    assert lines_of(run("bounds", "2026-01-01", "--prefix", "evt")) == [
        f"{uuidx.typeid('evt', one[0])} {uuidx.typeid('evt', one[1])}"
    ]
    made = uuidx.uuid7_at(start)
    assert one[0] <= made <= one[1]


def test_bounds_json() -> None:
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    end = datetime(2026, 2, 1, tzinfo=timezone.utc)
    lo, hi = uuidx.uuid7_bounds(start, end)
    (line,) = lines_of(run("bounds", "2026-01-01", "2026-02-01", "--json"))
    assert json.loads(line) == {
        "start_ns": 1767225600000000000, "end_ns": 1769904000000000000,
        "lo": {"uuid": str(lo)}, "hi": {"uuid": str(hi)},
    }  # fmt: skip
    (line,) = lines_of(run("bounds", "2026-01-01", "--json", "-f", "ulid"))
    one = uuidx.uuid7_bounds(start)
    assert json.loads(line) == {
        "start_ns": 1767225600000000000, "end_ns": 1767225600000000000,
        "lo": {"uuid": str(one[0]), "ulid": uuidx.encode(one[0], "ulid")},
        "hi": {"uuid": str(one[1]), "ulid": uuidx.encode(one[1], "ulid")},
    }  # fmt: skip
    message = one_line_error(run("bounds", "2026-01-01", "--json", "--sql"), 2)
    assert "not allowed with argument" in message


@pytest.mark.parametrize("command", ["gen", "inspect", "convert", "bounds"])
def test_every_command_has_json(command: str) -> None:
    proc = run(command, "-h")
    assert proc.returncode == 0 and "--json" in proc.stdout


# --- errors, help, version ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["gen", "-u", "2"], "invalid choice: '2'"),
        (["gen", "-u", "4", "-N", "x"], "takes no -n/--namespace or -N/--name"),
        (["gen", "-u", "5", "-N", "x"], "needs both -n/--namespace and -N/--name"),
        (["gen", "-u", "3", "-n", "@dns"], "needs both"),
        (["gen", "-C", "-1"], "--count must be 0 or more"),
        (["gen", "-C", "lots"], "invalid int value: 'lots'"),
        (["gen", "-u", "5", "-n", "@nope", "-N", "x"], "@dns"),
        (["gen", "-u", "8", "-n", "@dns", "-N", "x", "--algorithm", "md5"], "md5"),
        (["gen", "-f", "json"], "invalid choice: 'json'"),
        (["gen", "-f", "ulid", "--prefix", "user"], "--prefix is for -f typeid"),
        (["gen", "--prefix", "User"], 'invalid TypeID prefix "User"'),
        (["gen", "-u", "4", "--at", "2020-01-01"], "--at is for uuid1, uuid6 and uuid7"),
        (["gen", "-u", "7", "--at", "yesterday"], "invalid time 'yesterday'"),
        (["gen", "-u", "7", "--at", "1969-12-31"], "before 1970"),
        (["gen", "-u", "7", "--at", "-5"], "before 1970"),
        (["gen", "-u", "1", "--at", "1969-12-31"], "refuse a clock that reads before 1970"),
        (["gen", "-u", "7", "--at", "3000-01-01"], "after 2554-07-21T23:34:33.709551615Z"),
        (["gen", "-u", "6", "--at", str(1 << 64)], "latest time a generator's clock can read"),
        (["gen", "-u", "5", "-n", "@dns", "-N", "x", "--at", "2020-01-01"], "--at is for"),
        (["inspect", "--from", "base36", V7], "invalid choice: 'base36'"),
        (["convert", "-f", "upper", V7], "invalid choice: 'upper'"),
        (["bounds"], "START"),
        (["bounds", "2026-02-01", "2026-01-01"], "END '2026-01-01' is before START"),
        (["bounds", "2026-13-01"], "invalid time '2026-13-01'"),
        (["bounds", "1969-01-01"], "out of range for a version 7 UUID"),
        (["bounds", "99999-01-01"], "invalid time"),
        (["bounds", "2026-01-01", "--form", "nope"], "invalid choice"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], fragment: str) -> None:
    proc = run(*args)
    message = one_line_error(proc, 2)
    assert proc.stdout == ""
    assert fragment in message, message


@pytest.mark.parametrize("command", ["gen", "inspect", "convert", "bounds"])
def test_help_of_each_command(command: str) -> None:
    proc = run(command, "-h")
    assert proc.returncode == 0 and proc.stdout.startswith(f"usage: {PROG} {command}")


# --- what a newcomer mistypes ------------------------------------------------------------------


def suggestion(option: str, value: str, closest: str) -> str:
    """Python 3.14's words for a mistyped choice (``suggest_on_error``), said on every Python."""
    return (
        f"argument {option}: invalid choice: {value!r}, maybe you meant {closest!r}? (choose from "
    )


@pytest.mark.parametrize(
    ("typed", "meant"), [("inspct", "inspect"), ("bonds", "bounds"), ("conver", "convert"),
                         ("gne", "gen"), ("generate", "gen"), ("Generate", "gen"),
                         ("inspection", "inspect"), ("bound", "bounds")],
)  # fmt: skip
def test_a_mistyped_command_suggests_the_right_one(typed: str, meant: str) -> None:
    proc = run(typed, V7)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    usage, error = proc.stderr.splitlines()[0], proc.stderr.splitlines()[-1]
    assert usage.startswith("usage: ")
    assert error.startswith(f"{PROG}: error: {suggestion('COMMAND', typed, meant)}")
    # The choices quoted (3.11's argparse) or as written (3.13.2's, and later ones).
    listed = error.rsplit("(choose from ", 1)[1].rstrip(")").split(", ")
    assert [choice.strip("'") for choice in listed] == ["gen", "inspect", "convert", "bounds"]


def test_an_argument_like_no_command_is_the_stdlibs_error() -> None:
    """Far from every command, a word is what ``python -m uuid`` calls it: unrecognized."""
    proc = run("frobnicate")
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-1].endswith("error: unrecognized arguments: frobnicate")


@pytest.mark.parametrize(
    ("args", "option", "typed", "meant"),
    [
        (["gen", "-f", "bas58"], "-f/--form", "bas58", "base58"),
        (["gen", "-u", "uuid77"], "-u/--uuid", "uuid77", "uuid7"),
        (["gen", "-u", "8", "-n", "@dns", "-N", "x", "--algorithm", "sha265"], "--algorithm",
         "sha265", "sha256"),
        (["inspect", "--from", "ulld", V7], "--from", "ulld", "ulid"),
        (["convert", "--form", "typid", V7], "-f/--form", "typid", "typeid"),
        (["bounds", "2026-01-01", "-f", "hexx"], "-f/--form", "hexx", "hex"),
        (["-u", "uuid77"], "-u/--uuid", "uuid77", "uuid7"),
    ],
)  # fmt: skip
def test_a_mistyped_choice_suggests_the_closest(
    args: list[str], option: str, typed: str, meant: str
) -> None:
    proc = run(*args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert suggestion(option, typed, meant) in proc.stderr.splitlines()[-1], proc.stderr


@pytest.mark.skipif(sys.version_info < (3, 14), reason="argparse suggests from 3.14")
def test_the_suggestions_are_argparses_own_words() -> None:
    import argparse

    options: dict[str, Any] = {"suggest_on_error": True}  # an argument from 3.14
    parser = argparse.ArgumentParser(prog="p", exit_on_error=False, **options)
    parser.add_argument("-f", "--form", choices=["hex", "base58"])
    with pytest.raises(argparse.ArgumentError) as caught:
        parser.parse_args(["-f", "bas58"])
    assert str(caught.value).startswith(suggestion("-f/--form", "bas58", "base58"))


@pytest.mark.parametrize(
    "args",
    [["-u", "7"], ["--uuid=7"], ["-u", "uuid7"], ["gen", "-u", "7"], ["gen", "--uuid", "uuid7"]],
)
def test_u_7_means_uuid7_everywhere(args: list[str]) -> None:
    lines = lines_of(run(*args, "-C", "3"))
    made = [uuid.UUID(line) for line in lines]
    assert len(made) == 3 and all(u.version == 7 for u in made) and made == sorted(made)


def test_u_takes_every_digit_the_stdlib_has_a_function_for() -> None:
    for version in (1, 3, 4, 5, 6, 7, 8):
        name_args = ["-n", "@dns", "-N", "x"] if version in (3, 5) else []
        for args in (["-u", str(version), *name_args], ["gen", "-u", str(version), *name_args]):
            (line,) = lines_of(run(*args))
            assert uuid.UUID(line).version == version
    for digit in ("2", "9", "0"):
        proc = run("-u", digit)
        assert proc.returncode == 2 and f"invalid choice: '{digit}' (choose from" in proc.stderr


def test_help_lists_each_command_in_one_line() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    help_lines = proc.stdout.splitlines()
    start = help_lines.index("commands:")
    listed = help_lines[start + 1 : start + 5]
    assert [line.split()[0] for line in listed] == ["gen", "inspect", "convert", "bounds"]
    assert all(line.startswith("  ") and len(line) <= 78 for line in listed), listed
    for line in listed:
        first = run(line.split()[0], "-h").stdout.split("\n\n")[1]
        assert " ".join(first.split()).startswith(" ".join(line.split()[1:])), (line, first)
    for option in ("-u", "--uuid", "-n", "--namespace", "-N", "--name", "-C", "--count"):
        assert option in proc.stdout
    assert "-u 7" in " ".join(proc.stdout.split())


def run_bytes(
    *args: Union[str, bytes], code: Optional[str] = None
) -> subprocess.CompletedProcess[bytes]:
    head = ["-c", code, "prog"] if code else ["-m", "uuidx"]
    return subprocess.run(
        [sys.executable, *head, *args], capture_output=True, timeout=60, check=False
    )


@pytest.mark.skipif(WINDOWS, reason="Windows: argv are Unicode, never bytes that are not UTF-8")
def test_a_name_that_is_not_utf8_is_hashed_as_the_bytes_given() -> None:
    import hashlib

    name = b"caf\xe9"  # Latin-1, not UTF-8
    cases: list[list[Union[str, bytes]]] = [
        ["gen", "-u", "5", "-n", "@dns", "-N", name],
        ["-u", "uuid5", "-n", "@dns", "-N", name],
    ]
    for args in cases:
        proc = run_bytes(*args)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == b""
        expected = uuidx.uuid5(uuidx.NAMESPACE_DNS, name)
        digest = hashlib.sha1(uuid.NAMESPACE_DNS.bytes + name).digest()[:16]
        assert expected.bytes[:6] == digest[:6]
        assert proc.stdout.decode().strip() == str(expected)
    code = "import sys, uuidx; sys.argv[1:] = sys.argv[2:]; uuidx.main()"
    stdlib_style = run_bytes("-u", "uuid3", "-n", "@dns", "-N", name, code=code)
    assert stdlib_style.returncode == 0, stdlib_style.stderr
    assert stdlib_style.stdout.decode().strip() == str(uuidx.uuid3(uuidx.NAMESPACE_DNS, name))


@pytest.mark.skipif(WINDOWS, reason="Windows: argv are Unicode, never bytes that are not UTF-8")
def test_an_argument_that_is_not_utf8_is_one_line() -> None:
    proc = run_bytes("inspect", b"\xff" * 36)
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert proc.stderr.count(b"\n") == 1 and b"argument 1: not valid UTF-8" in proc.stderr


# --- streaming ------------------------------------------------------------------------------

HUGE = str(10**12)


@pytest.mark.skipif(WINDOWS, reason="Windows has no SIGPIPE (status 141 is a POSIX shell's)")
@pytest.mark.parametrize(
    "args",
    [
        ["-m", "uuidx", "gen", "-u", "7", "-C", HUGE],
        ["-m", "uuidx", "gen", "-u", "4", "-C", HUGE, "-f", "base58"],
        ["-m", "uuidx", "gen", "-u", "7", "--at", "2020-01-01", "-C", HUGE, "--prefix", "x"],
        ["-m", "uuidx", "gen", "-u", "5", "-n", "@dns", "-N", "x", "-C", HUGE],
        ["-m", "uuidx", "gen", "-u", "7", "-C", HUGE, "--json", "-f", "ulid"],
        ["-m", "uuidx", "-u", "uuid7", "-C", HUGE],
        ["-m", "uuidx", "-u", "uuid1", "-C", HUGE],
        ["-m", "uuidx", "inspect", *[V7] * 5000],
        ["-m", "uuidx", "convert", "-f", "ulid", *[V7] * 5000],
        ["-m", "uuidx", "convert", "--json", *[V7] * 5000],
        ["-c", f"import sys, uuidx; sys.argv[1:] = ['-C', '{HUGE}']; uuidx.main()"],
    ],
    ids=[
        "gen",
        "gen-base58",
        "gen-at",
        "gen-v5",
        "gen-json",
        "stdlib-options",
        "stdlib-uuid1",
        "inspect",
        "convert",
        "convert-json",
        "uuidx.main",
    ],
)
def test_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    """``python -m uuidx ... | head -1``: the reader goes away; no traceback, the status of a
    Unix tool stopped by SIGPIPE. A trillion UUIDs: only a stream can get there at once."""
    proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    status = proc.wait(timeout=60)
    assert first.strip()
    assert err == b"", err.decode()[-2000:]
    assert status == 141


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux; not Windows)")
@pytest.mark.parametrize(
    "args",
    [["gen", "-C", "100000"], ["inspect", V7], ["--version"]],
    ids=["gen", "inspect", "version"],
)
def test_a_full_disk_is_a_one_line_error(args: list[str]) -> None:
    """Output that cannot be written (``> /dev/full``: ENOSPC) is reported in one line with
    status 1, not a traceback, and Python's flush at exit does not fail a second time."""
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "uuidx", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    err = proc.stderr.decode()
    assert proc.returncode == 1, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert len(err.splitlines()) == 1, err
    assert "cannot write the output: No space left on device" in err


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="ru_maxrss in KiB on Linux (Windows: no resource)"
)
@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["gen", "-u", "7", "-f", "base62"], id="gen-base62"),
        pytest.param(
            ["gen", "-u", "4"],
            id="gen-v4",
            marks=pytest.mark.skipif(
                PYPY, reason="PyPy: its GC lets garbage grow with the heap before it collects"
            ),
        ),
        pytest.param(["-u", "uuid6"], id="stdlib-options"),
    ],
)
def test_memory_does_not_grow_with_the_count(args: list[str]) -> None:
    """Peak memory for 2 million UUIDs is that for 50 thousand (as a list of str, 2 million
    would take over 150 MB; under qemu-user, ``platform_facts.work``, half a million, over
    35 MB, still well above the 20 MB allowed)."""
    code = (
        "import resource, subprocess, sys;"
        "subprocess.run([sys.executable, '-m', 'uuidx', *sys.argv[1:]], check=True,"
        " stdout=subprocess.DEVNULL);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )

    def peak_kib(count: int) -> int:
        option = "-C"
        proc = subprocess.run(
            [sys.executable, "-c", code, *args, option, str(count)],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        return int(proc.stdout)

    small, large = peak_kib(50_000), peak_kib(work(2_000_000, least=500_000))
    assert large - small < 20_000, (small, large)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs os.openpty, which Windows lacks")
@pytest.mark.parametrize("command", ["inspect", "convert"])
def test_reading_a_terminal_says_so(command: str) -> None:
    """With no UUID argument and a terminal on standard input, the command says that it reads
    standard input and how to end it, rather than wait in silence; then reads what is typed."""
    primary, secondary = os.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uuidx", command],
            stdin=secondary, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        os.close(secondary)
        secondary = -1
        # A line, then end of input typed at the start of a line (the terminal's EOF, ^D).
        os.write(primary, f"{V7}\n".encode() + b"\x04")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(primary)
        if secondary != -1:
            os.close(secondary)
    assert proc.returncode == 0, err
    assert err.decode().startswith("reading UUIDs from standard input, one a line (Ctrl-D to end")
    assert str(uuid.UUID(V7)) in out.decode()


def test_reading_a_pipe_says_nothing() -> None:
    proc = run("inspect", stdin=f"{V7}\n")
    assert proc.returncode == 0 and proc.stderr == ""

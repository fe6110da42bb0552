"""``python -m uuidx``, run as a subprocess."""

from __future__ import annotations

import subprocess
import sys
import uuid
from typing import Any

import pytest

import uuidx
from uuidx import layout


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "uuidx", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def lines_of(proc: subprocess.CompletedProcess[str]) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout.splitlines()


def vector(vectors: dict[str, Any], version: int, key: str = "uuid") -> Any:
    found = [v for v in vectors["vectors"] if v["version"] == version and key in v]
    assert found, (version, key)
    return found[0]


@pytest.mark.parametrize("version", [1, 4, 6, 7, 8])
def test_gen_each_version(version: int) -> None:
    lines = lines_of(run("gen", "-v", str(version), "-n", "5"))
    assert len(lines) == 5
    parsed = [uuidx.parse(line) for line in lines]
    assert all(u.version == version and u.variant == uuid.RFC_4122 for u in parsed)
    assert all(line == str(u) for line, u in zip(lines, parsed))
    assert len(set(parsed)) == 5
    if version in (6, 7):
        assert parsed == sorted(parsed)


def test_default_is_one_v4() -> None:
    lines = lines_of(run())
    assert len(lines) == 1
    assert uuidx.parse(lines[0]).version == 4
    # Options without the command mean 'gen'.
    lines = lines_of(run("-v", "7", "-n", "2"))
    assert [uuidx.parse(line).version for line in lines] == [7, 7]


def test_count_zero_prints_nothing() -> None:
    assert lines_of(run("gen", "-n", "0")) == []


def test_name_based_match_the_rfc_vectors(vectors: dict[str, Any]) -> None:
    for version in (3, 5, 8):
        expected = vector(vectors, version, "name")
        lines = lines_of(
            run("gen", "-v", str(version), "--namespace", "@dns", "--name", expected["name"])
        )
        assert lines == [expected["uuid"]]
    # A namespace given as a UUID works the same.
    lines = lines_of(
        run("gen", "-v", "5", "--namespace", str(uuidx.NAMESPACE_DNS), "--name", "www.example.com")
    )
    assert lines == [vector(vectors, 5, "name")["uuid"]]


@pytest.mark.parametrize("ns", ["@dns", "@url", "@oid", "@x500"])
@pytest.mark.parametrize(
    "algorithm", ["sha256", "sha512", "sha3_256", "sha3_512", "shake_128", "shake_256"]
)
def test_name_based_v8_algorithms(ns: str, algorithm: str) -> None:
    namespaces = {
        "@dns": uuidx.NAMESPACE_DNS,
        "@url": uuidx.NAMESPACE_URL,
        "@oid": uuidx.NAMESPACE_OID,
        "@x500": uuidx.NAMESPACE_X500,
    }
    lines = lines_of(
        run("gen", "-v", "8", "--namespace", ns, "--name", "h\u00e9llo", "--algorithm", algorithm)
    )
    expected = uuidx.uuid8_name(namespaces[ns], "h\u00e9llo", algorithm)  # type: ignore[arg-type]
    assert lines == [str(expected)]


@pytest.mark.parametrize(
    ("fmt", "check"),
    [
        ("hyphenated", lambda s, u: s == str(u)),
        ("hex", lambda s, u: s == u.hex and len(s) == 32),
        ("urn", lambda s, u: s == u.urn and s.startswith("urn:uuid:")),
        ("braced", lambda s, u: s == "{" + str(u) + "}"),
        ("upper", lambda s, u: s == str(u).upper() and s != str(u)),
    ],
)
def test_formats(fmt: str, check: Any) -> None:
    lines = lines_of(run("gen", "-v", "7", "-n", "3", "-f", fmt))
    assert len(lines) == 3
    for line in lines:
        u = uuidx.parse(line)
        assert u.version == 7
        assert check(line, u), (fmt, line)
    # The same name gives the same UUID in every form.
    named = lines_of(
        run("gen", "-v", "5", "--namespace", "@dns", "--name", "www.example.com", "--format", fmt)
    )
    assert uuidx.parse(named[0]) == uuid.uuid5(uuid.NAMESPACE_DNS, "www.example.com")


def test_inspect_v7_vector(vectors: dict[str, Any]) -> None:
    v = vector(vectors, 7)
    out = "\n".join(lines_of(run("inspect", v["uuid"])))
    assert v["uuid"] in out
    assert "version:   7" in out
    assert "layout:    v7" in out
    for name in ("unix_ts_ms", "ver", "rand_a", "var", "rand_b"):
        assert name + ":" in out
    assert str(v["unix_ts_ms"]) in out
    assert str(v["rand_a"]) in out
    assert str(v["rand_b"]) in out
    assert f"unix_ns:   {v['unix_ts_ms'] * 1_000_000}" in out
    assert "2022-02-22T19:22:22+00:00" in out


def test_inspect_several_and_other_forms(vectors: dict[str, Any]) -> None:
    v1 = vector(vectors, 1)
    v4 = vector(vectors, 4)
    out = run(
        "inspect", v1["uuid"].upper(), "urn:uuid:" + v4["uuid"], "00000000000000000000000000000001"
    )
    text = "\n".join(lines_of(out))
    assert text.count("uuid:      ") == 3
    assert f"node:        {v1['node']}" in text
    assert f"clock_seq:   {v1['clock_seq']}" in text
    assert "layout:    v4" in text
    assert "not an RFC 9562 layout" in text
    fields = layout.fields(uuidx.parse(v4["uuid"]))
    assert isinstance(fields, layout.V4Fields)
    assert f"random_a:    {fields.random_a}" in text


def test_inspect_beyond_datetime_range() -> None:
    u = layout.v7((1 << 48) - 1, 0, 0)
    text = "\n".join(lines_of(run("inspect", str(u))))
    assert "layout:    v7" in text
    assert "time:" in text and "outside datetime's range" in text


@pytest.mark.parametrize(
    "bad",
    ["nope", "f81d4fae-7dec-11d0-a765-00a0c91e6bfg", "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6"],
)
def test_inspect_bad_uuid(bad: str) -> None:
    proc = run("inspect", bad)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "invalid UUID string" in proc.stderr
    assert bad in proc.stderr


def test_name_based_needs_namespace_and_name() -> None:
    for args in (["-v", "3"], ["-v", "5", "--name", "x"], ["-v", "3", "--namespace", "@dns"]):
        proc = run("gen", *args)
        assert proc.returncode == 2, args
        assert proc.stdout == ""
        assert "--namespace and --name" in proc.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["gen", "-v", "2"], "invalid choice"),
        (["gen", "-v", "4", "--name", "x"], "takes no --namespace"),
        (["gen", "-n", "-1"], "--count"),
        (["gen", "-v", "5", "--namespace", "@nope", "--name", "x"], "@dns"),
        (["gen", "-v", "8", "--namespace", "@dns", "--name", "x", "--algorithm", "md5"], "md5"),
        (["gen", "-f", "json"], "json"),
        (["inspect"], "UUID"),
    ],
)
def test_usage_errors(args: list[str], fragment: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert fragment in proc.stderr


def test_help() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    assert "gen" in proc.stdout and "inspect" in proc.stdout


def run_stdlib_main(*args: str) -> "subprocess.CompletedProcess[str]":
    code = "import sys, uuidx; sys.argv[1:] = sys.argv[2:]; uuidx.main()"
    return subprocess.run(
        [sys.executable, "-c", code, "prog", *args],
        capture_output=True, text=True, timeout=60,
    )


def test_stdlib_main_mirrors_python_314() -> None:
    out = run_stdlib_main("-u", "uuid7", "-C", "3")
    assert out.returncode == 0, out.stderr
    made = [uuid.UUID(line) for line in out.stdout.split()]
    assert len(made) == 3 and all(u.version == 7 for u in made) and made == sorted(made)
    named = run_stdlib_main("-u", "uuid5", "-n", "@dns", "-N", "www.example.com")
    assert named.stdout.strip() == "2ed6657d-e927-568b-95e1-2665a8aea6a2"
    explicit = run_stdlib_main("-u", "uuid3", "-n", str(uuid.NAMESPACE_DNS), "-N", "www.example.com")
    assert explicit.stdout.strip() == "5df41881-3aed-3515-88a7-2f4a814cf09e"
    default = run_stdlib_main()
    assert uuid.UUID(default.stdout.strip()).version == 4
    missing = run_stdlib_main("-u", "uuid3", "-n", "@dns")
    assert missing.returncode == 2 and "requires a namespace and a name" in missing.stderr


def test_stdlib_main_bad_namespace_is_a_usage_error_like_python_314() -> None:
    # 3.14: parser.error(f"{exc}: {args.namespace!r}") for a namespace uuid.UUID() rejects.
    bad = run_stdlib_main("-u", "uuid5", "-n", "not-a-uuid", "-N", "x")
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.splitlines()[-1].endswith(
        "error: badly formed hexadecimal UUID string: 'not-a-uuid'"
    )
    assert "Traceback" not in bad.stderr


def run_bytes(*args: "str | bytes") -> "subprocess.CompletedProcess[bytes]":
    return subprocess.run(
        [sys.executable, "-m", "uuidx", *args], capture_output=True, timeout=60, check=False
    )


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX argv are bytes")
def test_a_name_that_is_not_utf8_is_hashed_as_the_bytes_given() -> None:
    import hashlib

    name = b"caf\xe9"  # Latin-1, not UTF-8
    proc = run_bytes("gen", "-v", "5", "--namespace", "@dns", "--name", name)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    expected = uuidx.uuid5(uuidx.NAMESPACE_DNS, name)
    digest = hashlib.sha1(uuid.NAMESPACE_DNS.bytes + name).digest()[:16]
    assert expected.bytes[:6] == digest[:6]
    assert proc.stdout.decode().strip() == str(expected)
    code = "import sys, uuidx; sys.argv[1:] = sys.argv[2:]; uuidx.main()"
    stdlib_style = subprocess.run(
        [sys.executable, "-c", code, "prog", "-u", "uuid3", "-n", "@dns", "-N", name],
        capture_output=True, timeout=60, check=False,
    )
    assert stdlib_style.returncode == 0, stdlib_style.stderr
    assert stdlib_style.stdout.decode().strip() == str(uuidx.uuid3(uuidx.NAMESPACE_DNS, name))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
@pytest.mark.parametrize(
    "args",
    [
        ["-m", "uuidx", "gen", "-v", "7", "-n", "2000000"],
        ["-m", "uuidx", "inspect", *["017f22e2-79b0-7cc3-98c4-dc0c0c07398f"] * 5000],
        ["-c", "import sys, uuidx; sys.argv[1:] = ['-C', '2000000']; uuidx.main()"],
    ],
    ids=["gen", "inspect", "stdlib-main"],
)
def test_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    """``python -m uuidx ... | head -1``: the reader goes away; no traceback, the status of a
    Unix tool stopped by SIGPIPE."""
    proc = subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    status = proc.wait(timeout=60)
    assert first.strip()
    assert err == b"", err.decode()[-2000:]
    assert status == 141

"""What a release publishes, how each file is built, and the checks a set of files must pass.

This module is the one description of the release: ``.github/workflows/release.yml`` asks it
for its build matrix and calls it to build and to check, and so do ``make wheels``, the
platform scripts (``ci/platform-*``) and ``make release-rehearsal`` here::

    python ci/release.py matrix builds|tests|tests-musl|tests-emulated|here
        release.yml's build or test jobs as JSON, for its matrices (``here``: the platforms this
        machine builds, one per line).
    python ci/release.py select PLATFORM DIST [--interpreter X.Y]
        Run by the interpreter under test: the file of DIST it installs (its wheel of PLATFORM,
        or the sdist); ``--interpreter``: that interpreter's wheel (an emulated one's).
    python ci/release.py expected [PLATFORM...]
        The exact file names the release publishes (or those of PLATFORMs), one per line.
    python ci/release.py build PLATFORM --out DIR [--interpreters X.Y ...] [--profile P]
        Build PLATFORM's files (all its interpreters, or those named) into DIR with maturin.
    python ci/release.py check DIR [--platform P ...] [--interpreters X.Y ...] [--not-here]
        Check the files in DIR: exactly the expected names (of the PLATFORMs and interpreters
        given; ``--not-here`` leaves out the platforms this machine cannot build, naming them),
        ``twine check --strict``, tags, ABI, platform policy (auditwheel; for musllinux, which
        auditwheel cannot read on a glibc machine, NEEDED and symbol versions), licences, the SBOM,
        the stub, stripped extensions, RECORD hashes; the sdist's contents.
    python ci/release.py interpreters PLATFORM [--here]
        PLATFORM's interpreters ("3.9 ... 3.14t"; ``--here``: those this machine can build).
    python ci/release.py pypy ABI release|suite
        The PyPy release of a PyPy ABI (pp73: 7.3.19), or the Debian suite that packages it.
    python ci/release.py target PLATFORM
        PLATFORM's Rust target triple (nothing for the sdist).
    python ci/release.py plan
        release.yml's plan: its build and test matrices, as ``name=json`` lines for
        ``$GITHUB_OUTPUT``.
    python ci/release.py version [TAG | --github-ref]
        The package version, checked against Cargo.toml, CHANGELOG.md's newest release heading
        and, when given (or read from GITHUB_REF on a tag push), the git tag (``vX.Y.Z``), whose
        release must then have a date in CHANGELOG.md.

PLATFORMs: ``manylinux-x86_64``, ``manylinux-aarch64``, ``musllinux-x86_64``,
``manylinux-armv7l``, ``manylinux-i686``, ``manylinux-ppc64le``, ``manylinux-s390x``,
``musllinux-aarch64``, ``pypy-manylinux-x86_64``, ``macos-x86_64``, ``macos-arm64``,
``windows-x64``, ``windows-arm64``, ``sdist``.
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[1]
NAME = "uuidx"
LICENSES = ("LICENSE-APACHE", "LICENSE-MIT")
EXPRESSION = "MIT OR Apache-2.0"
REQUIRES_PYTHON = ">=3.9"
# The spec's test vectors, which the sdist must carry for its tests (tests/spec_data.py).
SPEC_DATA = "rust/uuidx-core/tests/data"
SPEC_FILES = (
    "rfc9562-vectors.json",
    "typeid-invalid.json",
    "typeid-valid.json",
    "uuidv47-vectors.json",
)

# The CPython versions every binary platform gets a wheel for, and the free-threaded builds
# (pyo3 supports free-threading from 3.14 on), which need a free-threaded interpreter at build
# time: the hosted runners have one (setup-python), this machine has none.
CPYTHON = ("3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15")
FREE_THREADED = ("3.14t", "3.15t")
# PyPy 3.11: a wheel per PyPy release line, whose ABIs differ (a PyPy 8.0 refuses a pypy311_pp73
# wheel, a 7.3 a pp80 one), each built and tested with a real interpreter of the line: the ABI,
# the PyPy release (setup-python's "pypy3.11-v<release>" on the hosted runners) and the Debian
# suite that packages that release (this machine's roots, ci/chroot-python).
PYPY = {"pp73": ("7.3.19", "trixie"), "pp80": ("8.0.1", "sid")}


@dataclass(frozen=True)
class Platform:
    """One build job of the release: a target, its interpreters and how its wheels are made."""

    name: str
    runner: str  # the hosted runner release.yml builds it on
    target: str  # the Rust target triple
    tag: str  # the platform tag(s) maturin writes into the file name
    interpreters: tuple[str, ...]  # "3.11", "3.14t", "pp73"
    zig: bool = False  # linked by zig (PyPI's ziglang) for an old glibc or for musl
    compatibility: Optional[str] = None  # maturin --compatibility
    # Why this machine cannot build it ("" when it can).
    not_here: str = ""
    # The interpreters that only the hosted runners can build (no such interpreter here).
    hosted_only: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()

    @property
    def strip(self) -> bool:
        return not self.target.endswith("windows-msvc")


FT_HERE = "no free-threaded interpreter can be had here"
PLATFORMS = (
    Platform(
        "manylinux-x86_64",
        "ubuntu-24.04",
        "x86_64-unknown-linux-gnu",
        "manylinux2014_x86_64.manylinux_2_17_x86_64",
        CPYTHON + FREE_THREADED,
        zig=True,
        compatibility="manylinux2014",
        hosted_only=FREE_THREADED,
    ),
    Platform(
        "manylinux-aarch64",
        "ubuntu-24.04-arm",
        "aarch64-unknown-linux-gnu",
        "manylinux2014_aarch64.manylinux_2_17_aarch64",
        CPYTHON + FREE_THREADED,
        zig=True,
        compatibility="manylinux2014",
        hosted_only=FREE_THREADED,
    ),
    # musl: cross-compiled from a glibc runner, where maturin takes each interpreter's
    # configuration from its bundled sysconfig data, which has no free-threaded build.
    Platform(
        "musllinux-x86_64",
        "ubuntu-24.04",
        "x86_64-unknown-linux-musl",
        "musllinux_1_2_x86_64",
        CPYTHON,
        zig=True,
        compatibility="musllinux_1_2",
    ),
    # Linux on ARMv7, x86 (32-bit), POWER (little-endian) and IBM Z (big-endian), and musl on
    # aarch64: cross-compiled by zig from an x86_64 runner (musl aarch64 from the arm64 runner,
    # whose Alpine containers test it), from maturin's bundled sysconfig data, which has no
    # free-threaded build.
    Platform(
        "manylinux-armv7l",
        "ubuntu-24.04",
        "armv7-unknown-linux-gnueabihf",
        "manylinux2014_armv7l.manylinux_2_17_armv7l",
        CPYTHON,
        zig=True,
        compatibility="manylinux2014",
    ),
    Platform(
        "manylinux-i686",
        "ubuntu-24.04",
        "i686-unknown-linux-gnu",
        "manylinux2014_i686.manylinux_2_17_i686",
        CPYTHON,
        zig=True,
        compatibility="manylinux2014",
    ),
    # zig's oldest glibc for POWER little-endian is 2.19 (glibc's own port came in 2.19; 2.17's
    # was RHEL 7's backport), and Rust's standard library then needs GLIBC_2.18: auditwheel's
    # first policy above 2.17 that holds it is manylinux_2_24.
    Platform(
        "manylinux-ppc64le",
        "ubuntu-24.04",
        "powerpc64le-unknown-linux-gnu",
        "manylinux_2_24_ppc64le",
        CPYTHON,
        zig=True,
        compatibility="manylinux_2_24",
    ),
    Platform(
        "manylinux-s390x",
        "ubuntu-24.04",
        "s390x-unknown-linux-gnu",
        "manylinux2014_s390x.manylinux_2_17_s390x",
        CPYTHON,
        zig=True,
        compatibility="manylinux2014",
    ),
    Platform(
        "musllinux-aarch64",
        "ubuntu-24.04-arm",
        "aarch64-unknown-linux-musl",
        "musllinux_1_2_aarch64",
        CPYTHON,
        zig=True,
        compatibility="musllinux_1_2",
    ),
    Platform(
        "pypy-manylinux-x86_64",
        "ubuntu-24.04",
        "x86_64-unknown-linux-gnu",
        "manylinux2014_x86_64.manylinux_2_17_x86_64",
        tuple(PYPY),
        zig=True,
        compatibility="manylinux2014",
    ),
    Platform(
        "macos-x86_64",
        "macos-15-intel",
        "x86_64-apple-darwin",
        "macosx_10_12_x86_64",
        CPYTHON + FREE_THREADED,
        not_here="no Apple linker or SDK here",
        env=(("MACOSX_DEPLOYMENT_TARGET", "10.12"),),
    ),
    Platform(
        "macos-arm64",
        "macos-15",
        "aarch64-apple-darwin",
        "macosx_11_0_arm64",
        CPYTHON + FREE_THREADED,
        not_here="no Apple linker or SDK here",
        env=(("MACOSX_DEPLOYMENT_TARGET", "11.0"),),
    ),
    Platform(
        "windows-x64",
        "windows-2025",
        "x86_64-pc-windows-msvc",
        "win_amd64",
        CPYTHON + FREE_THREADED,
        not_here="no MSVC linker here (make test-windows builds the same code with mingw-w64)",
    ),
    # Windows on ARM: python.org's first ARM64 build is CPython 3.11 (setup-python has none
    # older), so 3.9 and 3.10 have no interpreter to build with, to test on, or to install into.
    Platform(
        "windows-arm64",
        "windows-11-arm",
        "aarch64-pc-windows-msvc",
        "win_arm64",
        tuple(i for i in CPYTHON if i not in ("3.9", "3.10")) + FREE_THREADED,
        not_here="no MSVC linker here (make wheel-windows-arm64 links the same code with zig's "
        "llvm-mingw for aarch64-pc-windows-gnullvm)",
    ),
)
BY_NAME = {p.name: p for p in PLATFORMS}

# How each wheel of the release is tested, in one of four words: on this machine natively, on
# this machine under emulation, compile-checked here only, or on the hosted runners only (whose
# workflows have not run yet). ``python ci/platform_status.py`` writes the tables of
# docs/platforms.md and of the README from this list; a test checks that every wheel of
# PLATFORMS has exactly one row, and that both tables are up to date.
NATIVE, EMULATED, COMPILED, HOSTED = (
    "tested here, natively",
    "tested here, emulated",
    "compile-checked here",
    "hosted CI only (not run yet)",
)


@dataclass(frozen=True)
class Testing:
    platform: str
    interpreters: tuple[str, ...]
    status: str
    how: str


#: The platforms tested here that take turns in .ci/run, one a run, picked by the commit count
#: (``CI_TURN=<turn>`` picks one): the four other CPUs' manylinux wheels (make test-<cpu>), the
#: musllinux x86_64 wheel (make test-musl) and the two PyPy wheels (make test-pypy), interleaved.
#: Every run tests manylinux x86_64 on CPython 3.9-3.15, s390x's whole suite and Windows; all of
#: these every run would take CI past its hour. ``python ci/release.py ci-turns`` lists them.
CI_TURNS = ("aarch64", "pp73", "armv7l", "musl", "i686", "pp80", "ppc64le")
IN_TURN = f"in .ci/run one run in {len(CI_TURNS)}, in turn"

_CP = tuple(i for i in CPYTHON if i != "3.11")
TESTING = (
    Testing(
        "manylinux-x86_64",
        CPYTHON,
        NATIVE,
        "the whole suite on each interpreter (3.14, 3.15: Debian sid's, in a root), from "
        "release.yml's test jobs (make test-wheels; in .ci/run one of them a run, in turn, a "
        "subset on the others, and 3.11's in make test, its extension tests three ways)",
    ),
    Testing(
        "manylinux-x86_64",
        FREE_THREADED,
        COMPILED,
        "clippy of the bindings for 3.14t (make lint-free-threaded): no free-threaded "
        "interpreter here; built and tested on the hosted runner",
    ),
    Testing(
        "manylinux-aarch64",
        ("3.11",),
        EMULATED,
        "qemu-user, Debian bookworm's arm64 CPython 3.11: a named subset, on both 128-bit CAS "
        f"paths (make test-aarch64; {IN_TURN}); real ARM on the hosted arm64 runner",
    ),
    Testing("manylinux-aarch64", _CP + FREE_THREADED, HOSTED, "the hosted arm64 runner"),
    Testing(
        "musllinux-x86_64",
        ("3.11",),
        NATIVE,
        f"the whole suite on a musl CPython 3.11 built here (make test-musl; {IN_TURN})",
    ),
    Testing("musllinux-x86_64", _CP, HOSTED, "CPython's Alpine images on the hosted runner"),
    Testing(
        "manylinux-armv7l",
        ("3.11",),
        EMULATED,
        "qemu-user, Debian bookworm's armhf CPython 3.11: a named subset (make test-armv7l; "
        f"{IN_TURN})",
    ),
    Testing(
        "manylinux-armv7l",
        _CP,
        HOSTED,
        "an import and a named subset in CPython's Debian image for linux/arm/v7 under "
        "qemu-user on the hosted x86_64 runner (ci/test-emulated)",
    ),
    Testing(
        "manylinux-i686",
        ("3.11",),
        NATIVE,
        "Debian bookworm's i386 CPython 3.11, a 32-bit process on the x86_64 kernel (no "
        f"emulation): a named subset (make test-i686; {IN_TURN})",
    ),
    Testing(
        "manylinux-i686",
        _CP,
        HOSTED,
        "an import and a named subset in CPython's Debian image for linux/386 on the hosted "
        "x86_64 runner (ci/test-emulated)",
    ),
    Testing(
        "manylinux-ppc64le",
        ("3.11",),
        EMULATED,
        "qemu-user 10.0 (Debian trixie's), Debian bookworm's ppc64el CPython 3.11: a named "
        f"subset (make test-ppc64le; {IN_TURN})",
    ),
    Testing(
        "manylinux-ppc64le",
        _CP,
        HOSTED,
        "an import and a named subset in CPython's Debian image for linux/ppc64le under "
        "qemu-user on the hosted x86_64 runner (ci/test-emulated)",
    ),
    Testing(
        "manylinux-s390x",
        ("3.11",),
        EMULATED,
        "qemu-user, Debian bookworm's s390x CPython 3.11 (big-endian): the whole suite "
        "(make test-s390x), in .ci/run too",
    ),
    Testing(
        "manylinux-s390x",
        _CP,
        HOSTED,
        "an import and a named subset in CPython's Debian image for linux/s390x under "
        "qemu-user on the hosted x86_64 runner (ci/test-emulated)",
    ),
    Testing(
        "musllinux-aarch64",
        ("3.11",),
        EMULATED,
        "qemu-user, a musl CPython 3.11 cross-built here by zig, run by musl 1.2.5: a named "
        "subset (make test-musl-aarch64); built here by zig (make wheel-musl-aarch64), "
        "policy-checked (NEEDED, no versioned symbol)",
    ),
    Testing(
        "musllinux-aarch64",
        _CP,
        HOSTED,
        "the whole suite in CPython's Alpine images on the hosted arm64 runner (ci/test-emulated)",
    ),
    Testing(
        "pypy-manylinux-x86_64",
        ("pp73",),
        NATIVE,
        f"the whole suite on Debian trixie's PyPy 7.3.19 (make test-pypy; {IN_TURN})",
    ),
    Testing(
        "pypy-manylinux-x86_64",
        ("pp80",),
        NATIVE,
        f"the whole suite on Debian sid's PyPy 8.0.1 (make test-pypy; {IN_TURN})",
    ),
    Testing(
        "macos-x86_64",
        CPYTHON + FREE_THREADED,
        COMPILED,
        "clippy for x86_64-apple-darwin (make lint-targets); built and tested on the hosted runner",
    ),
    Testing(
        "macos-arm64",
        CPYTHON + FREE_THREADED,
        COMPILED,
        "clippy for aarch64-apple-darwin (make lint-targets); built and tested on the hosted runner",
    ),
    Testing(
        "windows-x64",
        CPYTHON + FREE_THREADED,
        COMPILED,
        "clippy for x86_64-pc-windows-msvc (make lint-targets); the same code built with "
        "mingw-w64 runs a named subset under Wine (make test-windows), which is not the MSVC "
        "wheel; built and tested on the hosted runner",
    ),
    Testing(
        "windows-arm64",
        tuple(i for i in CPYTHON if i not in ("3.9", "3.10")) + FREE_THREADED,
        COMPILED,
        "the same code linked here for aarch64-pc-windows-gnullvm by zig's clang and lld "
        "(llvm-mingw's ABI; make wheel-windows-arm64), which is not the MSVC wheel and is not "
        "run; built and tested on the hosted windows-11-arm runner",
    ),
)
ALL_NAMES = [p.name for p in PLATFORMS] + ["sdist"]


def crate_version() -> str:
    """The workspace version in Cargo.toml, which maturin writes into the metadata."""
    text = (REPO / "Cargo.toml").read_text(encoding="utf-8")
    m = re.search(r'^\[workspace\.package\]\s*\n(?:.*\n)*?version\s*=\s*"([^"]+)"', text, re.M)
    if not m:
        raise SystemExit("ci/release.py: no version in Cargo.toml's [workspace.package]")
    return m.group(1)


def abi_tags(interpreter: str) -> tuple[str, str]:
    """(python tag, ABI tag) of an interpreter of the release: "3.14t" -> (cp314, cp314t)."""
    if interpreter.startswith("pp"):
        return "pp311", f"pypy311_{interpreter}"
    m = re.fullmatch(r"3\.(\d+)(t?)", interpreter)
    if not m:
        raise ValueError(f"not an interpreter of the release: {interpreter!r}")
    return f"cp3{m.group(1)}", f"cp3{m.group(1)}{m.group(2)}"


def wheel_name(platform: Platform, interpreter: str, version: str) -> str:
    python, abi = abi_tags(interpreter)
    return f"{NAME}-{version}-{python}-{abi}-{platform.tag}.whl"


def sdist_name(version: str) -> str:
    return f"{NAME}-{version}.tar.gz"


def expected(
    platforms: list[str], version: str, interpreters: Optional[list[str]] = None
) -> list[str]:
    """The file names of ``platforms`` (all their interpreters, or only ``interpreters``)."""
    names = []
    for name in platforms:
        if name == "sdist":
            names.append(sdist_name(version))
            continue
        platform = BY_NAME[name]
        for interpreter in platform.interpreters:
            if interpreters is None or interpreter in interpreters:
                names.append(wheel_name(platform, interpreter, version))
    return sorted(names)


# --- build ------------------------------------------------------------------------------------


def maturin_interpreter(platform: Platform, interpreter: str) -> str:
    """What maturin's ``-i`` gets for an interpreter: an executable this machine has (found by
    ci/find-python), else its name, which maturin resolves from its bundled sysconfig data when
    it cross-compiles (zig)."""
    if interpreter.startswith("pp"):
        return pypy_executable(interpreter)
    if platform.target.endswith("windows-msvc"):
        return interpreter  # the py launcher's "3.14t"
    name = f"python{interpreter}"
    if platform.target.startswith("x86_64-unknown-linux-gnu") or not platform.zig:
        found = subprocess.run(
            [str(REPO / "ci/find-python"), name], capture_output=True, text=True, check=False
        ).stdout.strip()
        if found:
            return found
    return name


def pypy_executable(abi: str) -> str:
    """A PyPy 3.11 on PATH whose ABI is ``abi`` (pp73, pp80): maturin must build with a real
    interpreter of that release line (its bundled sysconfig data knows one PyPy ABI only, and a
    PyPy on PATH of another line would be taken instead)."""
    seen = []
    for name in ("pypy3.11", "pypy3", "pypy"):
        exe = shutil.which(name)
        if exe is None:
            continue
        soabi = subprocess.run(
            [exe, "-c", "import sysconfig; print(sysconfig.get_config_var('SOABI'))"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        if soabi == f"pypy311-{abi}":
            return exe
        seen.append(f"{exe} ({soabi or 'no SOABI'})")
    release, suite = PYPY[abi]
    raise SystemExit(
        f"ci/release.py build: no PyPy 3.11 of ABI {abi} (PyPy {release}: setup-python's "
        f"pypy3.11-v{release}, Debian {suite}'s pypy3) on PATH; found: {', '.join(seen) or 'none'}"
    )


def build(platform_name: str, out: Path, interpreters: Optional[list[str]], profile: str) -> int:
    """maturin build (or sdist) for one platform into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    maturin = shutil.which("maturin")
    if maturin is None:
        raise SystemExit("ci/release.py build: no maturin on PATH (ci/tools puts it there)")
    if platform_name == "sdist":
        return subprocess.call([maturin, "sdist", "--out", str(out)], cwd=REPO)
    platform = BY_NAME[platform_name]
    chosen = list(platform.interpreters if interpreters is None else interpreters)
    unknown = [i for i in chosen if i not in platform.interpreters]
    if unknown:
        raise SystemExit(f"ci/release.py build: {platform.name} has no interpreter {unknown}")
    cmd = [maturin, "build", "--out", str(out), "--target", platform.target]
    cmd += ["--release"] if profile == "release" else ["--profile", profile]
    if platform.strip:
        cmd.append("--strip")
    if platform.zig:
        cmd.append("--zig")
    if platform.compatibility:
        cmd += ["--compatibility", platform.compatibility]
    cmd += ["-i", *[maturin_interpreter(platform, i) for i in chosen]]
    env = dict(os.environ, **dict(platform.env))
    print("ci/release.py build:", " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=REPO, env=env)


# --- checks -----------------------------------------------------------------------------------


class Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, what: str) -> None:
        self.items.append(f"{where}: {what}")


def check_metadata(where: str, text: str, version: str, problems: Problems) -> None:
    meta = HeaderParser().parsestr(text)
    wanted = {
        "Name": NAME,
        "Version": version,
        "License-Expression": EXPRESSION,
        "Requires-Python": REQUIRES_PYTHON,
    }
    for key, value in wanted.items():
        if meta[key] != value:
            problems.add(where, f"{key} is {meta[key]!r}, expected {value!r}")
    if sorted(meta.get_all("License-File") or []) != list(LICENSES):
        problems.add(where, f"License-File {meta.get_all('License-File')}, expected {LICENSES}")
    if float(meta["Metadata-Version"] or 0) < 2.4:
        problems.add(where, f"Metadata-Version {meta['Metadata-Version']} (PEP 639 needs 2.4)")
    if meta["License"] is not None:
        problems.add(where, "a License field beside License-Expression")
    if meta.get_all("Requires-Dist"):
        problems.add(where, f"runtime dependencies {meta.get_all('Requires-Dist')}: uuidx has none")


def elf_sections(data: bytes) -> list[str]:
    """Section names of an ELF file (32 or 64 bit, either byte order)."""
    if data[:4] != b"\x7fELF":
        raise ValueError("not an ELF file")
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    if wide:
        shoff = struct.unpack_from(order + "Q", data, 0x28)[0]
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x3A)
        fmt = order + "IIQQQQ"
    else:
        shoff = struct.unpack_from(order + "I", data, 0x20)[0]
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x2E)
        fmt = order + "IIIIII"
    headers = [struct.unpack_from(fmt, data, shoff + i * shentsize) for i in range(shnum)]
    offset, size = headers[shstrndx][4], headers[shstrndx][5]
    strtab = data[offset : offset + size]
    return [strtab[h[0] : strtab.index(b"\0", h[0])].decode() for h in headers]


def extension_name(platform: Platform, interpreter: str) -> str:
    """The file name of the extension module inside a wheel."""
    python, abi = abi_tags(interpreter)
    if interpreter.startswith("pp"):
        return f"_core.pypy311-{interpreter}-x86_64-linux-gnu.so"
    digits = abi[2:]  # "314t"
    if platform.target.endswith("windows-msvc"):
        return f"_core.cp{digits}-{platform.tag}.pyd"
    if platform.target.endswith("apple-darwin"):
        return f"_core.cpython-{digits}-darwin.so"
    arch, _, rest = platform.target.partition("-unknown-")
    # CPython names the C library in its extension suffix from 3.11 on (bpo-43112): a musl
    # CPython 3.9 or 3.10 loads `-linux-gnu.so` files.
    minor = int(digits.rstrip("t")[1:])  # "310" -> 10
    libc = "linux-musl" if rest.endswith("musl") and minor >= 11 else "linux-gnu"
    # Debian's multiarch triplet, which CPython's configure names the extension suffix after
    # (`arm-linux-gnueabihf`, `i386-linux-gnu`).
    if arch == "armv7":
        arch, libc = "arm", "linux-gnueabihf"
    elif arch == "i686":
        arch = "i386"
    return f"_core.cpython-{digits}-{arch}-{libc}.so"


def auditwheel_policy(wheel: Path) -> str:
    """The platform tag ``auditwheel show`` finds the wheel consistent with."""
    proc = subprocess.run(
        [sys.executable, "-m", "auditwheel", "show", str(wheel)],
        capture_output=True,
        text=True,
        check=False,
    )
    tag = auditwheel_tag(proc.stdout)
    if proc.returncode != 0 or tag is None:
        raise ValueError(f"auditwheel show failed: {proc.stdout}{proc.stderr}".strip())
    return tag


def auditwheel_tag(report: str) -> Optional[str]:
    """The tag of ``auditwheel show``'s report, whose sentence it wraps wherever the wheel's
    name ends ("is consistent with\\nthe following platform tag")."""
    m = re.search(r'consistent\s+with\s+the\s+following\s+platform\s+tag:\s+"([^"]+)"', report)
    return m.group(1) if m else None


# The ELF machines of the musllinux wheels, by their platform tag's name.
ELF_MACHINES = {"EM_X86_64": "x86_64", "EM_AARCH64": "aarch64"}


def musl_policy(wheel: Path, extension: str, compatibility: str) -> str:
    """The musllinux check that auditwheel cannot make on a glibc machine: the extension needs
    only the C library (musl's loader maps ``libc.so`` to itself) and no versioned symbol (musl
    has none: a version would be glibc's). Returns the tag it is consistent with:
    ``compatibility`` (``musllinux_1_2``) and the extension's own machine."""
    from elftools.elf.dynamic import DynamicSection
    from elftools.elf.elffile import ELFFile
    from elftools.elf.gnuversions import GNUVerNeedSection

    with zipfile.ZipFile(wheel) as zf:
        elf = ELFFile(io.BytesIO(zf.read(extension)))
        machine = elf["e_machine"]
        needed = sorted(
            tag.needed
            for section in elf.iter_sections()
            if isinstance(section, DynamicSection)
            for tag in section.iter_tags()
            if tag.entry.d_tag == "DT_NEEDED"
        )
        versioned = [
            aux.name
            for section in elf.iter_sections()
            if isinstance(section, GNUVerNeedSection)
            for _, auxes in section.iter_versions()
            for aux in auxes
        ]
    if machine not in ELF_MACHINES:
        raise ValueError(f"{extension} is built for {machine}, no musllinux machine")
    arch = ELF_MACHINES[machine]
    if needed != ["libc.so"]:
        raise ValueError(f"{extension} needs {needed}, not libc.so alone")
    if versioned:
        raise ValueError(f"{extension} asks for versioned symbols {versioned[:5]}")
    return f"{compatibility}_{arch}"


def record_problems(zf: zipfile.ZipFile, record: str) -> list[str]:
    """Entries of RECORD whose hash or size does not match the file, and files not listed."""
    bad = []
    listed = set()
    for row in csv.reader(io.StringIO(zf.read(record).decode())):
        if not row:
            continue
        path, digest, size = row[0], row[1], row[2]
        listed.add(path)
        if path == record:
            continue
        data = zf.read(path)
        algo, _, value = digest.partition("=")
        actual = base64.urlsafe_b64encode(hashlib.new(algo, data).digest()).rstrip(b"=").decode()
        if actual != value or int(size) != len(data):
            bad.append(f"RECORD's hash or size of {path} does not match")
    bad += [
        f"{n} is not in RECORD" for n in zf.namelist() if n not in listed and not n.endswith("/")
    ]
    return bad


def check_sbom(where: str, zf: zipfile.ZipFile, dist_info: str, problems: Problems) -> None:
    """A CycloneDX SBOM of the Rust crates under .dist-info/sboms/, naming uuidx-core."""
    sboms = [
        n for n in zf.namelist() if n.startswith(f"{dist_info}/sboms/") and n.endswith(".json")
    ]
    if not sboms:
        problems.add(where, f"no SBOM under {dist_info}/sboms/")
        return
    names = set()
    for sbom in sboms:
        doc = json.loads(zf.read(sbom))
        if doc.get("bomFormat") != "CycloneDX":
            problems.add(where, f"{sbom} is not a CycloneDX document")
        names |= {c.get("name") for c in doc.get("components", [])}
        names.add(doc.get("metadata", {}).get("component", {}).get("name"))
    for crate in ("uuidx-core", "pyo3"):
        if crate not in names:
            problems.add(where, f"the SBOM does not name the crate {crate}")


def check_wheel(
    path: Path, platform: Platform, interpreter: str, version: str, problems: Problems
) -> str:
    """Check one wheel; returns a one-line description."""
    from packaging.utils import parse_wheel_filename

    where = path.name
    python, abi = abi_tags(interpreter)
    _, _, _, tags = parse_wheel_filename(path.name)
    wanted_tags = {f"{python}-{abi}-{t}" for t in platform.tag.split(".")}
    if {str(t) for t in tags} != wanted_tags:
        problems.add(where, f"tags {sorted(map(str, tags))}, expected {sorted(wanted_tags)}")
    dist_info = f"{NAME}-{version}.dist-info"
    policy = "-"
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        check_metadata(where, zf.read(f"{dist_info}/METADATA").decode(), version, problems)
        wheel_meta = HeaderParser().parsestr(zf.read(f"{dist_info}/WHEEL").decode())
        if sorted(wheel_meta.get_all("Tag") or []) != sorted(wanted_tags):
            problems.add(where, f"WHEEL's Tag lines {wheel_meta.get_all('Tag')}")
        if wheel_meta["Root-Is-Purelib"] != "false":
            problems.add(where, "WHEEL says Root-Is-Purelib is not false")
        for lic in LICENSES:
            if f"{dist_info}/licenses/{lic}" not in names:
                problems.add(where, f"no {dist_info}/licenses/{lic}")
        for required in ("uuidx/__init__.py", "uuidx/py.typed", "uuidx/_core.pyi"):
            if required not in names:
                problems.add(where, f"no {required}")
        extensions = [n for n in names if n.startswith("uuidx/_core") and not n.endswith(".pyi")]
        ext = f"uuidx/{extension_name(platform, interpreter)}"
        if extensions != [ext]:
            problems.add(where, f"extension modules {extensions}, expected [{ext!r}]")
        elif platform.strip and ext.endswith(".so") and "linux" in ext:
            sections = elf_sections(zf.read(ext))
            if ".symtab" in sections or any(s.startswith(".debug_") for s in sections):
                problems.add(where, f"{ext} is not stripped")
        for item in record_problems(zf, f"{dist_info}/RECORD"):
            problems.add(where, item)
        check_sbom(where, zf, dist_info, problems)
    if platform.compatibility:
        try:
            if platform.compatibility.startswith("musllinux"):
                policy = musl_policy(path, ext, platform.compatibility)
            else:
                policy = auditwheel_policy(path)
        except ValueError as exc:
            problems.add(where, str(exc))
        else:
            if policy not in platform.tag.split("."):
                problems.add(
                    where, f"auditwheel: consistent with {policy}, the name says {platform.tag}"
                )
    return f"{where}: tags, metadata, licences, stub, extension, RECORD, SBOM; policy {policy}"


def check_sdist(path: Path, version: str, problems: Problems) -> str:
    where = path.name
    top = f"{NAME}-{version}"
    with tarfile.open(path) as tar:
        names = set(tar.getnames())
        member = tar.extractfile(f"{top}/PKG-INFO")
        pkg_info = member.read().decode() if member else ""
    check_metadata(where, pkg_info, version, problems)
    required = [*LICENSES, "Cargo.lock", "pyproject.toml", "README.md", "tests/conftest.py"]
    # The spec vectors, in the core crate, where tests/spec_data.py finds them.
    required += ["tests/spec_data.py", *(f"{SPEC_DATA}/{name}" for name in SPEC_FILES)]
    for file in required:
        if f"{top}/{file}" not in names:
            problems.add(where, f"no {file}")
    tests = sorted(n for n in names if re.fullmatch(rf"{top}/tests/(\w+/)?test_\w+\.py", n))
    if not tests:
        problems.add(where, "no tests/test_*.py or tests/*/test_*.py")
    stray = sorted(n for n in names if "/target/" in n or "/.venv/" in n or "__pycache__" in n)
    if stray:
        problems.add(where, f"build products in the sdist: {stray[:5]}")
    return f"{where}: metadata, licences, Cargo.lock, {len(tests)} test files, {len(SPEC_FILES)} vector files"


def twine_check(files: list[Path], problems: Problems) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        problems.add("twine check --strict", (proc.stdout + proc.stderr).strip())


def check(
    dist: Path, platforms: list[str], interpreters: Optional[list[str]], not_here: bool
) -> int:
    version = crate_version()
    problems = Problems()
    skipped = []
    if not_here:
        skipped = [p for p in platforms if p != "sdist" and BY_NAME[p].not_here]
        platforms = [p for p in platforms if p not in skipped]
    want = expected(platforms, version, interpreters)
    hosted_only = []
    if not_here:  # the free-threaded builds: named, not built
        for name in platforms:
            if name == "sdist":
                continue
            platform = BY_NAME[name]
            for interpreter in platform.hosted_only:
                if interpreters is None or interpreter in interpreters:
                    hosted_only.append(wheel_name(platform, interpreter, version))
        want = [n for n in want if n not in hosted_only]
    have = sorted(p.name for p in dist.iterdir() if p.suffix in (".whl", ".gz"))
    for name in sorted(set(want) - set(have)):
        problems.add(name, "expected, missing")
    for name in sorted(set(have) - set(want)):
        problems.add(name, "not expected (a stray file, or a name the release does not make)")
    lines = []
    by_file = {
        wheel_name(BY_NAME[p], i, version): (BY_NAME[p], i)
        for p in platforms
        if p != "sdist"
        for i in BY_NAME[p].interpreters
    }
    for name in sorted(set(want) & set(have)):
        if name.endswith(".tar.gz"):
            lines.append(check_sdist(dist / name, version, problems))
        else:
            platform, interpreter = by_file[name]
            lines.append(check_wheel(dist / name, platform, interpreter, version, problems))
    twine_check([dist / n for n in sorted(set(want) & set(have))], problems)
    for line in lines:
        print(f"release check: {line}")
    for name in skipped:
        for file in expected([name], version, interpreters):
            print(f"release check: {file}: not built here ({BY_NAME[name].not_here})")
    for file in hosted_only:
        print(f"release check: {file}: not built here ({FT_HERE}): hosted runners only")
    for item in problems.items:
        print(f"release check: ERROR: {item}", file=sys.stderr)
    checked = len(set(want) & set(have))
    print(
        f"release check: {checked} files checked, twine check --strict, "
        + (f"{len(problems.items)} problems" if problems.items else "all passed")
        + (
            f"; {len(skipped)} platforms and {len(hosted_only)} free-threaded wheels not built here"
            if not_here
            else ""
        )
    )
    return 1 if problems.items else 0


# --- version ----------------------------------------------------------------------------------


def changelog_release() -> tuple[str, str]:
    """(version, date) of CHANGELOG.md's newest release heading, ``## X.Y.Z - YYYY-MM-DD``;
    an ``## Unreleased`` heading above it must have no entries."""
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = list(re.finditer(r"^## (.+)$", text, re.M))
    if not headings:
        raise SystemExit("CHANGELOG.md: no ## headings")
    first = headings[0]
    if first.group(1).strip() == "Unreleased":
        body = text[first.end() : headings[1].start() if len(headings) > 1 else len(text)]
        if body.strip():
            raise SystemExit(
                "CHANGELOG.md: the Unreleased section has entries (move them into a release)"
            )
        headings = headings[1:]
    m = re.fullmatch(
        r"(\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?) - (\d{4}-\d{2}-\d{2}|unreleased)",
        headings[0].group(1).strip(),
    )
    if not m:
        raise SystemExit(f"CHANGELOG.md: {headings[0].group(0)!r} is not '## X.Y.Z - YYYY-MM-DD'")
    return m.group(1), m.group(2)


def version_check(tag: Optional[str]) -> int:
    version = crate_version()
    changelog, date = changelog_release()
    problems = []
    if changelog != version:
        problems.append(f"CHANGELOG.md's newest release is {changelog}, Cargo.toml says {version}")
    if tag is not None:
        if tag != f"v{version}":
            problems.append(f"the tag is {tag}, the package version {version} (tag v{version})")
        if date == "unreleased":
            problems.append(f"CHANGELOG.md's {changelog} has no date: give it the release's")
    for p in problems:
        print(f"release version: ERROR: {p}", file=sys.stderr)
    print(
        f"release version: {version} (Cargo.toml), CHANGELOG.md {changelog} - {date}"
        + (f", tag {tag}" if tag else "")
    )
    return 1 if problems else 0


# --- test selection ---------------------------------------------------------------------------


def running_interpreter() -> str:
    """The release's name of the running interpreter: "3.11", "3.14t", "pp73"."""
    import sysconfig

    if sys.implementation.name == "pypy":
        soabi = str(sysconfig.get_config_var("SOABI") or "")
        return soabi.rpartition("-")[2]  # "pypy311-pp73" -> "pp73"
    threaded = "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""
    return f"{sys.version_info[0]}.{sys.version_info[1]}{threaded}"


def select(platform_name: str, dist: Path, interpreter: Optional[str] = None) -> int:
    """Print the file of ``dist`` that the running interpreter (or ``interpreter``: "3.12")
    installs for ``platform_name``: its wheel, or the sdist."""
    version = crate_version()
    if platform_name == "sdist":
        name = sdist_name(version)
    else:
        platform = BY_NAME[platform_name]
        interpreter = interpreter or running_interpreter()
        if interpreter not in platform.interpreters:
            print(
                f"ci/release.py select: {platform.name} has no wheel for {interpreter}",
                file=sys.stderr,
            )
            return 1
        name = wheel_name(platform, interpreter, version)
    path = dist / name
    if not path.is_file():
        have = (
            ", ".join(sorted(p.name for p in dist.iterdir())) if dist.is_dir() else "no such folder"
        )
        print(f"ci/release.py select: no {name} in {dist} ({have})", file=sys.stderr)
        return 1
    print(path)
    return 0


# --- command line -----------------------------------------------------------------------------


def setup_python(versions: tuple[str, ...]) -> str:
    return "\n".join(f"pypy3.11-v{PYPY[v][0]}" if v in PYPY else v for v in versions)


def build_jobs() -> list[dict[str, str]]:
    """release.yml's build jobs: per platform, one for CPython with the GIL, one for the
    free-threaded builds (the python.org installers share a layout between the two on Windows:
    python/cpython#127294, so they never share a setup-python call), one per PyPy ABI, and the
    sdist. ``setup-python`` is empty where maturin needs no interpreter (zig, bundled data)."""
    jobs = []
    for p in PLATFORMS:
        groups = [
            ("CPython", tuple(i for i in p.interpreters if i in CPYTHON)),
            ("free-threaded", tuple(i for i in p.interpreters if i in FREE_THREADED)),
            *[(f"PyPy {PYPY[i][0]}", (i,)) for i in p.interpreters if i in PYPY],
        ]
        for label, interpreters in groups:
            if not interpreters:
                continue
            # zig builds CPython wheels from maturin's bundled sysconfig data where the runner
            # has no such interpreter: only the free-threaded builds and PyPy need a real one.
            bundled = p.zig and label == "CPython"
            jobs.append(
                {
                    "name": f"{p.name} ({label})",
                    "platform": p.name,
                    "runner": p.runner,
                    "interpreters": " ".join(interpreters),
                    "setup-python": "" if bundled else setup_python(interpreters),
                    "artifact": "dist-"
                    + p.name
                    + "-"
                    + re.sub(r"\W+", "-", label.lower()).strip("-"),
                }
            )
    jobs.append(
        {
            "name": "sdist",
            "platform": "sdist",
            "runner": "ubuntu-24.04",
            "interpreters": "",
            "setup-python": "",
            "artifact": "dist-sdist",
        }
    )
    return jobs


# The musllinux wheels are tested in the official Alpine images of CPython (a container job).
MIMALLOC = "3.13"
MUSL_IMAGE = "python:{}-alpine"


# The Linux wheels tested by ``ci/test-emulated`` (release.yml's test-emulated job), by its ARCH:
# those of CPUs the hosted runners do not have, on the x86_64 runner under qemu-user (i686
# without it: a 32-bit process on the x86_64 kernel), CPython 3.11's by ``ci/platform-linux ARCH``;
# and the musllinux aarch64 ones, in CPython's Alpine images on the arm64 runner, which the script
# starts itself (that runner cannot run JavaScript actions in an Alpine job container:
# actions/runner#801). The harness needs a CPython of the runner's own (HARNESS_PYTHON).
EMULATED_ARCH = {
    "manylinux-armv7l": "armv7l",
    "manylinux-i686": "i686",
    "manylinux-ppc64le": "ppc64le",
    "manylinux-s390x": "s390x",
    "musllinux-aarch64": "musl-aarch64",
}
HARNESS_PYTHON = "3.11"


def test_jobs() -> list[dict[str, str]]:
    """release.yml's test jobs: every wheel on an interpreter of its own ABI, on its own
    platform (the musllinux wheels in an Alpine container; the EMULATED_ARCH ones under
    qemu-user, ``arch`` set), and the sdist built from source."""
    jobs = []
    for p in PLATFORMS:
        for interpreter in p.interpreters:
            job = {"name": f"{p.name} {interpreter}", "platform": p.name, "runner": p.runner}
            job["interpreter"] = interpreter
            if p.name in EMULATED_ARCH:
                job.update(python=HARNESS_PYTHON, pythonmalloc="", container="")
                job["arch"] = EMULATED_ARCH[p.name]
                jobs.append(job)
                continue
            job["python"] = setup_python((interpreter,))
            # CPython 3.13's tests run under mimalloc, the allocator of the free-threaded builds.
            job["pythonmalloc"] = "mimalloc" if interpreter == MIMALLOC else ""
            job["container"] = MUSL_IMAGE.format(interpreter) if "musl" in p.target else ""
            jobs.append(job)
    jobs.append(
        {
            "name": "sdist",
            "platform": "sdist",
            "runner": "ubuntu-24.04",
            "python": "3.13",
            "container": "",
            "interpreter": "3.13",
        }
    )
    return jobs


def plan() -> None:
    """release.yml's plan job: its outputs, one ``name=json`` line each (``$GITHUB_OUTPUT``)."""
    tests = test_jobs()
    print("builds=" + json.dumps({"include": build_jobs()}))
    for kind in ("tests", "tests-musl", "tests-emulated"):
        print(f"{kind}=" + json.dumps({"include": test_matrix(kind, tests)}))


def test_matrix(kind: str, tests: list[dict[str, str]]) -> list[dict[str, str]]:
    """The test jobs of one of release.yml's test matrices: ``tests`` (on the runner's own
    interpreter), ``tests-musl`` (in a container), ``tests-emulated`` (under qemu-user)."""
    if kind == "tests-musl":
        return [j for j in tests if j["container"]]
    if kind == "tests-emulated":
        return [j for j in tests if "arch" in j]
    return [j for j in tests if not j["container"] and "arch" not in j]


def matrix(kind: str) -> None:
    if kind == "here":
        print("\n".join(p.name for p in PLATFORMS if not p.not_here))
        return
    jobs = build_jobs() if kind == "builds" else test_matrix(kind, test_jobs())
    print(json.dumps({"include": jobs}))


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("matrix")
    m.add_argument("kind", choices=["builds", "tests", "tests-musl", "tests-emulated", "here"])
    sub.add_parser("plan")
    se = sub.add_parser("select")
    se.add_argument("platform", choices=ALL_NAMES)
    se.add_argument("dist", type=Path)
    se.add_argument("--interpreter", help="that interpreter's file (3.12), not the running one's")
    e = sub.add_parser("expected")
    e.add_argument("platforms", nargs="*", choices=ALL_NAMES + [[]], default=[])
    b = sub.add_parser("build")
    b.add_argument("platform", choices=ALL_NAMES)
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--interpreters", nargs="+")
    b.add_argument("--profile", default="release")
    c = sub.add_parser("check")
    c.add_argument("dist", type=Path)
    c.add_argument("--platform", action="append", choices=ALL_NAMES, dest="platforms")
    c.add_argument("--interpreters", nargs="+")
    c.add_argument("--not-here", action="store_true")
    t = sub.add_parser("target")
    t.add_argument("platform", choices=ALL_NAMES)
    pp = sub.add_parser("pypy")
    pp.add_argument("abi", choices=list(PYPY))
    pp.add_argument("field", choices=["release", "suite"])
    sub.add_parser("ci-turns")
    i = sub.add_parser("interpreters")
    i.add_argument("platform", choices=ALL_NAMES)
    i.add_argument("--here", action="store_true")
    v = sub.add_parser("version")
    v.add_argument("tag", nargs="?")
    v.add_argument(
        "--github-ref", action="store_true", help="the tag from GITHUB_REF (refs/tags/...)"
    )
    args = parser.parse_args(argv)
    if args.command == "matrix":
        matrix(args.kind)
        return 0
    if args.command == "pypy":
        release, suite = PYPY[args.abi]
        print(release if args.field == "release" else suite)
        return 0
    if args.command == "ci-turns":
        print(" ".join(CI_TURNS))
        return 0
    if args.command == "interpreters":
        platform = BY_NAME[args.platform]
        hosted = platform.hosted_only if args.here else ()
        print(" ".join(i for i in platform.interpreters if i not in hosted))
        return 0
    if args.command == "target":
        print("" if args.platform == "sdist" else BY_NAME[args.platform].target)
        return 0
    if args.command == "plan":
        plan()
        return 0
    if args.command == "select":
        return select(args.platform, args.dist, args.interpreter)
    if args.command == "expected":
        print("\n".join(expected(args.platforms or ALL_NAMES, crate_version())))
        return 0
    if args.command == "build":
        return build(args.platform, args.out, args.interpreters, args.profile)
    if args.command == "check":
        return check(args.dist, args.platforms or ALL_NAMES, args.interpreters, args.not_here)
    tag = args.tag
    if args.github_ref:
        ref = os.environ.get("GITHUB_REF", "")
        tag = ref.removeprefix("refs/tags/") if ref.startswith("refs/tags/") else None
    return version_check(tag)


if __name__ == "__main__":
    sys.exit(main())

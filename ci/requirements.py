"""The test dependencies of one interpreter, read from ``requirements-dev.txt``.

Which libraries an interpreter gets is said in that file once: environment markers for what pip
can tell apart (the Python version; ``implementation_name != "pypy"`` for the libraries with no
PyPy wheel), and a ``# gil-only`` comment for the libraries with no wheel for a free-threaded
interpreter (cp314t, cp315t), which no environment marker can express yet (PEP 780's
``sys_abi_features`` is a draft). Every script and workflow step that installs the test
dependencies goes through ``install``; the tests learn what must be there from ``required``::

    python ci/requirements.py install [FILE]
        The lines pip installs on the running interpreter: FILE (default requirements-dev.txt)
        without its ``# gil-only`` lines when the interpreter is free-threaded, markers kept for
        pip to evaluate. Runs on a bare interpreter (the standard library only).

    python ci/requirements.py required [FILE]
        The distributions FILE installs on the running interpreter (markers evaluated, gil-only
        lines dropped on a free-threaded one), space-separated: the value of UUIDX_REQUIRE, with
        which a test that needs one of them fails instead of skipping (tests/optional.py). Needs
        ``packaging`` (pytest depends on it).

    python ci/requirements.py check-wheels PYTHON... [--platform TAG]...
        For each target (``3.14t``, ``3.15``, ``pypy3.11``), resolve ``install``'s lines for it
        with pip, binary wheels only, for each platform, and check that every file chosen is a
        wheel that target's pip would install (pip's ``--abi`` also admits ``abi3`` wheels,
        which a free-threaded interpreter refuses). Needs the network (PyPI) and ``packaging``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO / "requirements-dev.txt"
GIL_ONLY = re.compile(r"#.*\bgil-only\b")


# The platform tags the hosted runners' pip accepts (Ubuntu 24.04's glibc is 2.39; the
# manylinux2014/2010/1 aliases are older names of 2_17, 2_12 and 2_5), for the jobs that install
# the test dependencies.
def _manylinux(arch: str) -> list[str]:
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(39, 16, -1)]
    tags.append(f"manylinux2014_{arch}")
    if arch == "x86_64":
        tags += [f"manylinux_2_{minor}_{arch}" for minor in range(16, 4, -1)]
        tags += [f"manylinux2010_{arch}", f"manylinux1_{arch}"]
    return tags


PLATFORMS = {
    "linux-x86_64": _manylinux("x86_64"),
    "linux-aarch64": _manylinux("aarch64"),
    "macos-arm64": [
        f"macosx_{v}_0_{a}" for v in range(15, 10, -1) for a in ("arm64", "universal2")
    ],
    "windows-x64": ["win_amd64"],
}


def free_threaded() -> bool:
    return bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


def install_lines(path: Path, threaded: bool) -> list[str]:
    """The requirement lines (comments stripped) that an interpreter installs."""
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if threaded and GIL_ONLY.search(raw):
            continue
        lines.append(line)
    return lines


def required(path: Path) -> list[str]:
    """The canonical names of the distributions ``path`` installs on the running interpreter."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    names: list[str] = []
    for line in install_lines(path, free_threaded()):
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate():
            names.append(canonicalize_name(req.name))
    return names


def target_environment(target: str) -> dict[str, str]:
    """PEP 508 marker variables of a target interpreter: ``3.14t``, ``3.15``, ``pypy3.11``."""
    m = re.fullmatch(r"(pypy)?(3\.\d+)(t?)", target)
    if not m:
        raise SystemExit(f"ci/requirements.py: not a target: {target!r} (3.14t, 3.15, pypy3.11)")
    pypy = bool(m.group(1))
    return {
        "python_version": m.group(2),
        "python_full_version": m.group(2) + ".0",
        "implementation_name": "pypy" if pypy else "cpython",
        "platform_python_implementation": "PyPy" if pypy else "CPython",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "platform_machine": "x86_64",
        "free_threaded": "1" if m.group(3) else "0",
    }


def check_wheels(targets: list[str], platforms: list[str]) -> int:
    """pip's resolution of each target's lines, binary wheels only, checked tag by tag."""
    from packaging.tags import Tag, compatible_tags, cpython_tags
    from packaging.utils import parse_wheel_filename

    problems = 0
    for target in targets:
        env = target_environment(target)
        if env["implementation_name"] == "pypy":
            raise SystemExit("ci/requirements.py check-wheels: PyPy's tags depend on its release")
        major, minor = (int(x) for x in env["python_version"].split("."))
        abi = f"cp{major}{minor}" + ("t" if env["free_threaded"] == "1" else "")
        lines = [
            line
            for line in install_lines(DEFAULT, env["free_threaded"] == "1")
            if required_line(line, env)
        ]
        for platform in platforms:
            tags = PLATFORMS[platform]
            supported: set[Tag] = set(cpython_tags((major, minor), [abi], tags))
            supported |= set(compatible_tags((major, minor), f"cp{major}{minor}", tags))
            with tempfile.TemporaryDirectory() as tmp:
                report = Path(tmp) / "report.json"
                reqs = Path(tmp) / "requirements.txt"
                reqs.write_text("\n".join(lines) + "\n", encoding="utf-8")
                cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet"]
                cmd += ["--ignore-installed", "--only-binary", ":all:", "--report", str(report)]
                cmd += ["--target", str(Path(tmp) / "target"), "--implementation", "cp"]
                cmd += ["--python-version", f"{major}.{minor}", "--abi", abi, "--abi", "none"]
                for tag in tags:
                    cmd += ["--platform", tag]
                cmd += ["-r", str(reqs)]
                proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
                if proc.returncode != 0:
                    print(f"{target} {platform}: pip cannot resolve with wheels only:")
                    print(proc.stderr.strip()[-2000:])
                    problems += 1
                    continue
                files = [
                    item["download_info"]["url"].rsplit("/", 1)[1]
                    for item in json.loads(report.read_text())["install"]
                ]
            bad = [f for f in files if not (parse_wheel_filename(f)[3] & supported)]
            for name in bad:
                print(f"{target} {platform}: {name} is not a wheel {abi} installs")
            problems += len(bad)
            print(
                f"{target} {platform}: {len(files) - len(bad)} of {len(files)} wheels install "
                f"({len(lines)} requirement lines)"
            )
    return 1 if problems else 0


def required_line(line: str, env: dict[str, str]) -> bool:
    from packaging.requirements import Requirement

    req = Requirement(line)
    marker_env = {k: v for k, v in env.items() if k != "free_threaded"}
    return req.marker is None or req.marker.evaluate(marker_env)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("install", "required", "check-wheels"):
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "check-wheels":
        platforms = [rest[i + 1] for i, a in enumerate(rest) if a == "--platform"]
        targets = [
            a
            for i, a in enumerate(rest)
            if a != "--platform" and (i == 0 or rest[i - 1] != "--platform")
        ]
        return check_wheels(targets or ["3.14t", "3.15t"], platforms or list(PLATFORMS))
    path = Path(rest[0]) if rest else DEFAULT
    if command == "install":
        print("\n".join(install_lines(path, free_threaded())))
    else:
        print(" ".join(required(path)))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    sys.exit(main(sys.argv[1:]))

"""Check what ``make wheels`` put into ``dist/``: ``python ci/check_dist.py dist``.

- one wheel per CPython 3.9 to 3.15, tagged ``manylinux_2_17_x86_64`` (manylinux2014), that
  ``auditwheel show`` finds consistent with glibc 2.17 or older;
- its extension module built for that interpreter and stripped (no ``.symtab``);
- PEP 639 metadata: ``License-Expression: MIT OR Apache-2.0``, a ``License-File`` for each
  license text, the texts under ``.dist-info/licenses/``;
- the sdist: the same license metadata and texts, ``Cargo.lock``, and the test suite with its
  data (the spec vectors in the core crate, ``rust/uuidx-core/tests/data/*.json``, where
  ``tests/spec_data.py`` looks for them), so it can be built and tested on its own.
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import tarfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path

VERSIONS = ("3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15")
LICENSES = ["LICENSE-APACHE", "LICENSE-MIT"]
EXPRESSION = "MIT OR Apache-2.0"
DATA_DIR = "rust/uuidx-core/tests/data"
DATA = ["rfc9562-vectors.json", "typeid-invalid.json", "typeid-valid.json", "uuidv47-vectors.json"]
REPO = Path(__file__).resolve().parents[1]


def crate_version() -> str:
    """The workspace version in Cargo.toml (what maturin writes into the metadata)."""
    text = (REPO / "Cargo.toml").read_text(encoding="utf-8")
    m = re.search(r'^\[workspace\.package\]\s*\n(?:.*\n)*?version\s*=\s*"([^"]+)"', text, re.M)
    if not m:
        raise SystemExit("check_dist: no version in Cargo.toml's [workspace.package]")
    return m.group(1)


def elf_section_names(data: bytes) -> list[str]:
    """Section names of a 64-bit little-endian ELF file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab_offset, strtab_size = headers[shstrndx][4], headers[shstrndx][5]
    strtab = data[strtab_offset : strtab_offset + strtab_size]
    return [strtab[h[0] : strtab.index(b"\0", h[0])].decode() for h in headers]


def check_metadata(what: str, text: str, version: str, errors: list[str]) -> None:
    meta = HeaderParser().parsestr(text)
    expected = {
        "Name": "uuidx",
        "Version": version,
        "License-Expression": EXPRESSION,
        "Requires-Python": ">=3.9",
    }
    for key, value in expected.items():
        if meta[key] != value:
            errors.append(f"{what}: {key} is {meta[key]!r}, expected {value!r}")
    if sorted(meta.get_all("License-File") or []) != LICENSES:
        errors.append(f"{what}: License-File {meta.get_all('License-File')}, expected {LICENSES}")
    if float(meta["Metadata-Version"] or 0) < 2.4:
        errors.append(f"{what}: Metadata-Version {meta['Metadata-Version']} (PEP 639 needs 2.4)")
    if meta["License"] is not None:
        errors.append(f"{what}: a License field beside License-Expression")


def auditwheel_tag(wheel: Path) -> str:
    """The policy ``auditwheel show`` finds the wheel consistent with."""
    proc = subprocess.run(
        [sys.executable, "-m", "auditwheel", "show", str(wheel)],
        capture_output=True,
        text=True,
        check=False,
    )
    m = re.search(r'consistent with the\s+following platform tag:\s+"([^"]+)"', proc.stdout)
    if proc.returncode != 0 or not m:
        raise ValueError(f"auditwheel show failed: {proc.stdout}{proc.stderr}")
    return m.group(1)


def check_wheel(wheel: Path, py: str, version: str, errors: list[str]) -> None:
    cp = "cp3" + py.split(".")[1]
    if not wheel.name.startswith(f"uuidx-{version}-{cp}-{cp}-"):
        errors.append(f"{wheel.name}: not a {cp} wheel of uuidx {version}")
    if "manylinux_2_17_x86_64" not in wheel.name:
        errors.append(f"{wheel.name}: not tagged manylinux_2_17_x86_64")
    try:
        tag = auditwheel_tag(wheel)
        m = re.fullmatch(r"manylinux_2_(\d+)_x86_64", tag)
        if not m or int(m.group(1)) > 17:
            errors.append(f"{wheel.name}: auditwheel: consistent with {tag} only")
    except ValueError as exc:
        errors.append(f"{wheel.name}: {exc}")
        tag = "?"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        dist_info = f"uuidx-{version}.dist-info"
        check_metadata(wheel.name, zf.read(f"{dist_info}/METADATA").decode(), version, errors)
        for lic in LICENSES:
            if f"{dist_info}/licenses/{lic}" not in names:
                errors.append(f"{wheel.name}: no {dist_info}/licenses/{lic}")
        so = f"uuidx/_core.cpython-3{py.split('.')[1]}-x86_64-linux-gnu.so"
        if so not in names:
            errors.append(f"{wheel.name}: no {so} (has {[n for n in names if n.endswith('.so')]})")
            return
        sections = elf_section_names(zf.read(so))
        if ".symtab" in sections or any(s.startswith(".debug_") for s in sections):
            errors.append(f"{wheel.name}: {so} is not stripped")
        for required in ("uuidx/__init__.py", "uuidx/py.typed", "uuidx/_core.pyi"):
            if required not in names:
                errors.append(f"{wheel.name}: no {required}")
    print(f"check_dist: {wheel.name}: auditwheel {tag}, stripped, License-Expression {EXPRESSION}")


def check_sdist(sdist: Path, version: str, errors: list[str]) -> None:
    top = f"uuidx-{version}"
    with tarfile.open(sdist) as tar:
        names = set(tar.getnames())
        member = tar.extractfile(f"{top}/PKG-INFO")
        pkg_info = member.read().decode() if member else ""
    check_metadata(sdist.name, pkg_info, version, errors)
    required = [*LICENSES, "Cargo.lock", "pyproject.toml", "tests/conftest.py"]
    required += ["tests/spec_data.py", *(f"{DATA_DIR}/{name}" for name in DATA)]
    for path in required:
        if f"{top}/{path}" not in names:
            errors.append(f"{sdist.name}: no {path}")
    tests = sorted(n for n in names if re.fullmatch(rf"{top}/tests/(\w+/)?test_\w+\.py", n))
    if not tests:
        errors.append(f"{sdist.name}: no tests/test_*.py or tests/*/test_*.py")
    print(
        f"check_dist: {sdist.name}: License-Expression {EXPRESSION}, "
        f"{len(tests)} test files, {DATA_DIR}/ ({len(DATA)} files)"
    )


def main(dist: Path) -> int:
    version = crate_version()
    errors: list[str] = []
    wheels = sorted(dist.glob("*.whl"))
    for py in VERSIONS:
        cp = "cp3" + py.split(".")[1]
        mine = [w for w in wheels if f"-{cp}-{cp}-" in w.name]
        if len(mine) != 1:
            errors.append(f"expected one {cp} wheel in {dist}, found {[w.name for w in mine]}")
            continue
        check_wheel(mine[0], py, version, errors)
    extra = [
        w.name for w in wheels if not any(f"-cp3{p.split('.')[1]}-" in w.name for p in VERSIONS)
    ]
    if extra:
        errors.append(f"unexpected wheels in {dist}: {extra}")
    sdists = sorted(dist.glob("*.tar.gz"))
    if len(sdists) != 1:
        errors.append(f"expected one sdist in {dist}, found {[s.name for s in sdists]}")
    else:
        check_sdist(sdists[0], version, errors)
    for error in errors:
        print(f"check_dist: ERROR: {error}", file=sys.stderr)
    print(
        f"check_dist: {len(wheels)} wheels and {len(sdists)} sdist: "
        + ("all checks passed" if not errors else f"{len(errors)} problems")
    )
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python ci/check_dist.py DIST")
    sys.exit(main(Path(sys.argv[1])))

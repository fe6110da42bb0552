"""Package metadata: ``uuidx.__version__``, ``python -m uuidx --version``, the license."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata

import uuidx


def test_version_is_the_dist_version() -> None:
    # The extension reports its crate's version; maturin writes the same into the dist metadata.
    assert isinstance(uuidx.__version__, str)
    assert uuidx.__version__ == uuidx._core.__version__
    assert uuidx.__version__ == metadata.version("uuidx")


def test_cli_version() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "uuidx", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"uuidx {uuidx.__version__}\n", "")


def test_license_metadata() -> None:
    meta = metadata.metadata("uuidx")
    assert meta["License-Expression"] == "MIT OR Apache-2.0"
    assert sorted(meta.get_all("License-File") or []) == ["LICENSE-APACHE", "LICENSE-MIT"]

"""Optional libraries of the Arrow tests (pyarrow, Polars, DuckDB, pandas, NumPy, PySpark).

A test module that needs one calls :func:`need` at import: without the library the module
skips, saying why, unless ``UUIDX_REQUIRE_ARROW=1``, which turns a missing library into a
failure. ``make test``, ``make test-matrix`` and ``make test-wheels`` set it wherever
``requirements-dev.txt`` installs those libraries for the interpreter (``ci/listed.py``), so they
never skip silently there; on an interpreter the libraries publish no wheels for (3.15) they skip.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

import pytest


def need(module: str, flag: str = "UUIDX_REQUIRE_ARROW") -> Any:
    """The imported module (untyped: ``Any``); a skip when it is missing, a failure when the
    environment variable ``flag`` is ``1`` (``UUIDX_REQUIRE_SPARK`` for PySpark, which only
    ``make test-spark`` installs)."""
    if os.environ.get(flag) == "1":
        return importlib.import_module(module)
    return pytest.importorskip(
        module,
        reason=f"{module} is not installed for this interpreter (make test installs it; "
        f"{flag}=1 turns this skip into a failure)",
    )


def uuid_column(pa: Any, rows: list[Any]) -> Any:
    """A pyarrow ``pa.uuid()`` array of ``rows`` (``uuid.UUID`` or ``None``), built from their
    bytes: pyarrow converts ``uuid.UUID`` objects itself only from version 22 on (the last
    release for Python 3.9 is 21)."""
    storage = pa.array([None if u is None else u.bytes for u in rows], pa.binary(16))
    return pa.ExtensionArray.from_storage(pa.uuid(), storage)


def major_version(module: Any) -> int:
    """The major version of an imported library (``duckdb.__version__`` ``"1.5.6"`` is 1)."""
    return int(str(module.__version__).split(".")[0])

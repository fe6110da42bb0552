"""The one way a test says it needs an optional library: :func:`need`.

Optional libraries are those of the Arrow tests (pyarrow, Polars, DuckDB, pandas, NumPy,
PySpark), the other libraries' UUID objects (uuid_utils, fastuuid), the integration libraries
(Django, psycopg), the independent oracles (typeid-python, uuid-backport) and CPython's own
``_testcapi``. A test module that needs one calls :func:`need` at import (or a fixture, per
test): without the library the module skips, saying why.

Where :data:`FLAGS` names an environment variable for the library, that variable set to ``1``
turns a missing library into a failure: ``UUIDX_REQUIRE_ARROW`` for the Arrow libraries,
``UUIDX_REQUIRE_PEERS`` for uuid_utils and fastuuid, ``UUIDX_REQUIRE_SPARK`` for PySpark (which
only ``make test-spark`` installs). ``make test``, ``make test-matrix`` and ``make test-wheels``
set them wherever ``requirements-dev.txt`` installs those libraries for the interpreter
(``ci/listed.py``), so they never skip silently there; on an interpreter the libraries publish no
wheels for (3.15) they skip.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Optional

import pytest

#: The environment variable that makes each library required (``1``: a failure, not a skip).
FLAGS = {
    "pyarrow": "UUIDX_REQUIRE_ARROW",
    "polars": "UUIDX_REQUIRE_ARROW",
    "duckdb": "UUIDX_REQUIRE_ARROW",
    "pandas": "UUIDX_REQUIRE_ARROW",
    "numpy": "UUIDX_REQUIRE_ARROW",
    "pyspark": "UUIDX_REQUIRE_SPARK",
    "uuid_utils": "UUIDX_REQUIRE_PEERS",
    "fastuuid": "UUIDX_REQUIRE_PEERS",
}


def need(module: str, why: Optional[str] = None) -> Any:
    """The imported module (untyped: ``Any``); a skip when it is missing, saying ``why`` (by
    default, that it is not installed), or a failure when its :data:`FLAGS` variable is ``1``.
    ``module`` may be a submodule (``"uuid_backport._backport"``); its top-level package names
    the flag."""
    flag = FLAGS.get(module.split(".")[0])
    if flag is not None and os.environ.get(flag) == "1":
        return importlib.import_module(module)
    if why is None:
        why = f"{module} is not installed for this interpreter"
        if flag is not None:
            why += f" (make test installs it; {flag}=1 turns this skip into a failure)"
    return pytest.importorskip(module, reason=why)


def uuid_column(pa: Any, rows: list[Any]) -> Any:
    """A pyarrow ``pa.uuid()`` array of ``rows`` (``uuid.UUID`` or ``None``), built from their
    bytes: pyarrow converts ``uuid.UUID`` objects itself only from version 22 on (the last
    release for Python 3.9 is 21)."""
    storage = pa.array([None if u is None else u.bytes for u in rows], pa.binary(16))
    return pa.ExtensionArray.from_storage(pa.uuid(), storage)


def major_version(module: Any) -> int:
    """The major version of an imported library (``duckdb.__version__`` ``"1.5.6"`` is 1)."""
    return int(str(module.__version__).split(".")[0])

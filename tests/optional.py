"""The one way a test says it needs an optional library: :func:`need`.

Optional libraries are those of the Arrow tests (pyarrow, Polars, DuckDB, pandas, NumPy,
PySpark), the other libraries' UUID objects (uuid_utils, fastuuid), the integration libraries
(pydantic, orjson, Django, psycopg), the independent oracles (typeid-python, uuid-backport) and CPython's
own ``_testcapi``. A test module that needs one calls :func:`need` at import (or a fixture, per
test): without the library the module skips, saying why.

``UUIDX_REQUIRE`` names the distributions that must be there (space-separated): a test that
needs one of them fails instead of skipping when it is missing. Every target that installs the
test dependencies sets it to what the requirements install on that interpreter
(``ci/requirements.py required``: markers evaluated, the ``# gil-only`` libraries left out on a
free-threaded interpreter), so nothing the requirements promise skips silently, and a library
that publishes no wheel for the interpreter (pyarrow on 3.15, orjson on PyPy or 3.14t) skips,
saying so.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Optional

import pytest

#: The distribution that provides each optional top-level module, as ``UUIDX_REQUIRE`` names it
#: (canonical names: lower case, ``-`` for ``_``).
DISTRIBUTIONS = {
    "pyarrow": "pyarrow",
    "polars": "polars",
    "duckdb": "duckdb",
    "pandas": "pandas",
    "numpy": "numpy",
    "pyspark": "pyspark",
    "uuid_utils": "uuid-utils",
    "fastuuid": "fastuuid",
    "orjson": "orjson",
    "pydantic": "pydantic",
    "django": "django",
    "psycopg": "psycopg",
    "typeid": "typeid-python",
    "uuid_backport": "uuid-backport",
}


def required() -> set[str]:
    """The distributions ``UUIDX_REQUIRE`` says must be installed."""
    return set(os.environ.get("UUIDX_REQUIRE", "").split())


def need(module: str, why: Optional[str] = None) -> Any:
    """The imported module (untyped: ``Any``); a skip when it is missing, saying ``why`` (by
    default, that it is not installed), or a failure when ``UUIDX_REQUIRE`` names its
    distribution. ``module`` may be a submodule (``"uuid_backport._backport"``); its top-level
    package names the distribution."""
    distribution = DISTRIBUTIONS.get(module.split(".")[0])
    if distribution is not None and distribution in required():
        return importlib.import_module(module)
    if why is None:
        why = f"{module} is not installed for this interpreter"
        if distribution is not None:
            why += f" (UUIDX_REQUIRE naming {distribution} turns this skip into a failure)"
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

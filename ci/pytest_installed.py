"""pytest plugin for ``make test-wheels`` (``-p pytest_installed``, with ``ci/`` on PYTHONPATH).

Stops the run before any test unless ``uuidx`` and its extension ``uuidx._core`` are imported
from the running virtualenv's site-packages, i.e. from the wheel or sdist under test and not from
the source tree; the header of the run names what was tested.
"""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

import pytest


def _installed_location() -> str:
    import uuidx
    import uuidx._core

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    if sys.prefix == sys.base_prefix:
        raise pytest.UsageError(f"not in a virtualenv: {sys.prefix}")
    for module in (uuidx, uuidx._core):
        where = Path(str(module.__file__)).resolve()
        if site not in where.parents:
            raise pytest.UsageError(f"{module.__name__} is {where}, not from {site}")
    return f"uuidx {uuidx.__version__} from {Path(str(uuidx._core.__file__)).resolve()}"


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_LOCATION] = _installed_location()


def pytest_report_header(config: pytest.Config) -> str:
    return config.stash[_LOCATION]


_LOCATION = pytest.StashKey[str]()

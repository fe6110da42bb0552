"""Print the name of the virtualenv folder for the running interpreter (under ``.venv/``).

``cpython3.12``, ``cpython3.14t`` (free-threaded), ``pypy3.10``: one per implementation, version
and ABI, so that ``make test PYTHON=python3.12`` and ``make test`` never share a virtualenv.
"""

from __future__ import annotations

import sys
import sysconfig


def venv_tag() -> str:
    """``<implementation><major>.<minor>[t]`` for the running interpreter."""
    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    major, minor = sys.version_info[:2]
    return f"{sys.implementation.name}{major}.{minor}{'t' if free_threaded else ''}"


if __name__ == "__main__":
    print(venv_tag())

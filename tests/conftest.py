"""Shared fixtures: the RFC 9562 test vectors, forking, and a PostgreSQL 18 server.

The vectors are read from ``rfc9562-vectors.json`` in ``spec_data.SPEC_DATA``, the repository's
byte-identical copy of ``../shared/spec/`` (``tests/packaging/test_data.py`` checks it;
``UUIDX_VECTORS`` overrides the path), so a plain clone and the sdist run the tests too.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from pg_server import ChrootPostgresServer, postgres18
from platform_facts import FORK, NO_FORK
from spec_data import SPEC_DATA

# No per-example deadline: a 2-core CI machine running threads and subprocesses is too noisy
# for one, and no test here is about speed.
settings.register_profile("uuidx", deadline=None)
# A tenth of the examples of each property test (platform_facts.examples), every test still
# run: "emulated" under qemu-user (ci/platform-linux.sh sets it), "quick" in CI's subsets of the
# release wheels (ci/matrix.py's TURN_SUBSET sets it; each of those wheels runs the whole suite
# with every example in its own turn).
for fewer in ("emulated", "quick"):
    settings.register_profile(fewer, deadline=None, max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "uuidx"))

DEFAULT_VECTORS = SPEC_DATA / "rfc9562-vectors.json"


def vectors_path() -> Path:
    """Where the vectors JSON is: ``$UUIDX_VECTORS`` or ``SPEC_DATA``."""
    return Path(os.environ.get("UUIDX_VECTORS", DEFAULT_VECTORS))


@cache
def load_vectors() -> dict[str, Any]:
    """The parsed vectors file (read once)."""
    with vectors_path().open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def _vector_id(vector: dict[str, Any]) -> str:
    kind = str(vector.get("kind", "")).split(" ")[0]
    return f"v{vector['version']}" + (f"-{kind}" if kind else "")


@pytest.fixture(scope="session")
def vectors() -> dict[str, Any]:
    """The whole vectors file: ``format_example``, ``nil``, ``max``, ``namespaces``, ``vectors``."""
    return load_vectors()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrizes any test that takes a ``vector`` argument with every entry of ``vectors``."""
    if "vector" in metafunc.fixturenames:
        entries: list[dict[str, Any]] = load_vectors()["vectors"]
        metafunc.parametrize("vector", entries, ids=[_vector_id(v) for v in entries])


ForkJson = Callable[[Callable[[], object]], Callable[[], Any]]


def _fork_json(child: Callable[[], object]) -> Callable[[], Any]:
    """Forks for real: the child runs ``child`` and sends its JSON result through a pipe, then
    leaves with ``os._exit``. Returns ``wait()``, which the parent calls (after doing work of
    its own, if it likes) to get the child's result; a failed child fails the test."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: always leave through os._exit
        code = 1
        try:
            os.close(r)
            payload = child()
            with os.fdopen(w, "w") as f:
                json.dump(payload, f)
            code = 0
        finally:
            os._exit(code)
    os.close(w)

    def wait() -> Any:
        with os.fdopen(r) as f:
            data = f.read()
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, "the forked child failed"
        return json.loads(data)

    return wait


@pytest.fixture
def fork_json() -> ForkJson:
    """:func:`_fork_json`, for tests that fork (POSIX only: skip them elsewhere)."""
    if not FORK:
        pytest.skip(NO_FORK)
    return _fork_json


@pytest.fixture(scope="session")
def postgres18_server() -> Iterator[ChrootPostgresServer]:
    """A PostgreSQL 18 server from the Debian sid root of ``ci/chroot-python``
    (``tests/pg_server.py``), started once per pytest session (about half a second) and
    stopped and deleted at its end. Skips without one, or fails when
    ``UUIDX_REQUIRE_POSTGRES18=1`` (``make test``)."""
    with postgres18() as server:
        yield server

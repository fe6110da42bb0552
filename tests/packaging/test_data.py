"""The core crate's ``tests/data/`` is a byte-identical copy of the spec data, ``../shared/spec/``.

The tests read the RFC 9562 vectors (and the TypeID and UUIDv47 cases) from
``rust/uuidx-core/tests/data/`` (``spec_data.SPEC_DATA``) so that a plain clone, the sdist and
the published crate can run them; these tests make sure the copy never drifts from the
specification folder whenever that folder is there (``UUIDX_SHARED_SPEC`` overrides where).
``ci/check-spec-data`` (part of ``make lint``) runs the same check.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from spec_data import SPEC_DATA

SPEC = Path(
    os.environ.get("UUIDX_SHARED_SPEC", Path(__file__).resolve().parents[3] / "shared" / "spec")
)
FILES = (
    "rfc9562-vectors.json",
    "typeid-valid.json",
    "typeid-invalid.json",
    "uuidv47-vectors.json",
)
no_spec = pytest.mark.skipif(
    not SPEC.is_dir(),
    reason=f"no spec folder at {SPEC} (a clone or sdist without ../shared): nothing to compare",
)


@pytest.mark.parametrize("name", FILES)
def test_data_file_is_json(name: str) -> None:
    json.loads((SPEC_DATA / name).read_text(encoding="utf-8"))


@no_spec
@pytest.mark.parametrize("name", FILES)
def test_data_file_is_byte_identical_to_spec(name: str) -> None:
    copy, original = SPEC_DATA / name, SPEC / name
    assert copy.read_bytes() == original.read_bytes(), f"{copy} differs: cp {original} {copy}"


@no_spec
def test_every_spec_json_is_copied() -> None:
    missing = sorted(p.name for p in SPEC.glob("*.json") if not (SPEC_DATA / p.name).exists())
    assert not missing, f"copy these from {SPEC} to {SPEC_DATA}: {missing}"

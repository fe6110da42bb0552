"""Where the tests find the specification's vectors: :data:`SPEC_DATA` and :func:`spec_json`.

The RFC 9562, TypeID and UUIDv47 vectors (byte-identical copies of ``../shared/spec/``, which
``ci/check-spec-data`` and ``packaging/test_data.py`` check) live in the core crate,
``rust/uuidx-core/tests/data/``: its own tests read them there, and a published crate carries
nothing from outside its folder. There is one copy in the repository, and the pytest suite reads
it too. The path is the same in an unpacked sdist, which keeps the workspace's layout (maturin
packages the crate's files, its ``tests/data/`` among them, under ``rust/uuidx-core/``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The folder of the vector files: the core crate's test data.
SPEC_DATA = Path(__file__).resolve().parents[1] / "rust" / "uuidx-core" / "tests" / "data"


def spec_json(name: str) -> Any:
    """The parsed JSON of the vector file ``name`` (``"rfc9562-vectors.json"``, ...)."""
    return json.loads((SPEC_DATA / name).read_text(encoding="utf-8"))

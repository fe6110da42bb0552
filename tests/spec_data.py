"""Where the tests find the specification's vectors: :data:`SPEC_DATA` and :func:`spec_json`.

The RFC 9562, TypeID and UUIDv47 vectors (byte-identical copies of ``../shared/spec/``, which
``ci/check-spec-data`` and ``packaging/test_data.py`` check) are read from here by every test
that needs them, so that where they live is written once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The folder of the vector files.
SPEC_DATA = Path(__file__).resolve().parent / "data"


def spec_json(name: str) -> Any:
    """The parsed JSON of the vector file ``name`` (``"rfc9562-vectors.json"``, ...)."""
    return json.loads((SPEC_DATA / name).read_text(encoding="utf-8"))

"""The README's Apache Spark recipe (``examples/spark_uuid5.py``), run for real: PySpark in
local mode, ``uuidx.arrow.uuid5`` inside ``mapInArrow``, checked row by row against the
stdlib's ``uuid.uuid5``.

Needs PySpark and pyarrow (a failure where ``UUIDX_REQUIRE`` names them, a skip otherwise) and a
Java runtime (``make java`` installs one as root; a failure under ``UUIDX_REQUIRE_JAVA=1``,
which ``make test`` sets when there is one, a skip otherwise).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from optional import need

need("pyspark")
need("pyarrow")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spark_uuid5.py"


def test_spark_recipe_keys_equal_the_stdlib() -> None:
    java_required = os.environ.get("UUIDX_REQUIRE_JAVA") == "1"
    if shutil.which("java") is None and "JAVA_HOME" not in os.environ and not java_required:
        pytest.skip("no Java runtime for Spark (make java installs one)")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYTHONWARNINGS="ignore")
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == 10_001
    for row in rows:
        email = row["email"]
        expected = None if email is None else uuid.uuid5(uuid.NAMESPACE_URL, email)
        assert row["id"] == (None if expected is None else str(expected)), row
        assert row["key"] == (None if expected is None else expected.bytes.hex()), row

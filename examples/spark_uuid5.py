"""Deterministic UUID keys in Apache Spark, a column at a time: ``uuidx.arrow.uuid5`` inside
``DataFrame.mapInArrow``.

Spark hands each Python worker its partition as Arrow record batches; ``uuidx.arrow`` reads an
Arrow column directly and hashes every name in Rust with the GIL released, so the key column
costs one call per batch instead of one Python call per row (a ``udf`` with ``uuid.uuid5``).
Spark has no UUID type: the keys travel as their canonical strings (``to_str``, column ``id``)
or as their 16 bytes (``pa.array(ids).cast(pa.binary())``, column ``key``); keep the one you
need.

Run it with ``python examples/spark_uuid5.py`` (needs ``pyspark``, ``pyarrow`` and Java 17+;
``make test`` runs it through ``tests/columns/test_spark.py``). ``--json`` prints every row as JSON.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from typing import Any

import uuidx
import uuidx.arrow

#: The namespace of the keys: any UUID of your own (here the RFC 9562 URL namespace).
NAMESPACE = uuidx.NAMESPACE_URL


def add_keys(batches: Iterator[Any]) -> Iterator[Any]:
    """The ``mapInArrow`` function: appends the v5 UUID of ``email`` (null for a null email)
    to each ``pyarrow.RecordBatch``, as text (``id``) and as 16 bytes (``key``)."""
    import pyarrow as pa

    for batch in batches:
        ids = uuidx.arrow.uuid5(NAMESPACE, batch.column("email"))
        batch = batch.append_column("id", pa.array(uuidx.arrow.to_str(ids)))
        yield batch.append_column("key", pa.array(ids).cast(pa.binary()))


def main() -> None:
    from pyspark.sql import SparkSession

    # The workers must run this interpreter, the one where uuidx is installed.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("uuidx-spark-recipe")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        emails = [(f"user{i}@example.com",) for i in range(10_000)] + [(None,)]
        people = spark.createDataFrame(emails, "email string").repartition(4)
        keyed = people.mapInArrow(add_keys, "email string, id string, key binary")
        if "--json" in sys.argv:
            for row in keyed.collect():
                key = None if row.key is None else bytes(row.key).hex()
                print(json.dumps({"email": row.email, "id": row.id, "key": key}))
        else:
            keyed.orderBy("email").show(5, truncate=False)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()

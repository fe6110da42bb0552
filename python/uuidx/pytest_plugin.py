"""uuidx's pytest plugin, registered as the ``uuidx`` entry point of ``pytest11``.

It adds one fixture and changes nothing until a test asks for it:

``uuidx_python_clock``
    For the test's duration, uuidx's process-wide time-based functions read
    ``time.time_ns()`` through Python (:func:`uuidx.testing.follow_python_clock`), so
    freezegun's ``freeze_time`` and time-machine's ``travel`` move them:

    ```python
    import datetime

    import uuidx
    from freezegun import freeze_time


    @freeze_time("2024-02-29 12:00:00")
    def test_order_ids_carry_the_frozen_time(uuidx_python_clock):
        assert uuidx.to_datetime(uuidx.uuid7()) == datetime.datetime(
            2024, 2, 29, 12, tzinfo=datetime.timezone.utc
        )
    ```

    Use it for every test of a module with ``pytestmark = pytest.mark.usefixtures(
    "uuidx_python_clock")``, or for a whole suite from a ``conftest.py``. Run pytest with
    ``-p no:uuidx`` to leave the plugin out.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

__all__ = ["uuidx_python_clock"]


@pytest.fixture
def uuidx_python_clock() -> Iterator[None]:
    """uuidx's process-wide time-based functions read ``time.time_ns()`` during the test."""
    from uuidx.testing import follow_python_clock

    with follow_python_clock():
        yield

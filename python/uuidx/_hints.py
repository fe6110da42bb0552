"""The types uuidx's annotations name that are not importable at no cost, for the tools that
evaluate type hints at run time (``typing.get_type_hints``, pydantic, FastAPI,
sphinx-autodoc-typehints).

``import uuidx`` does not import this module (nor ``typing`` nor ``datetime``): uuidx binds the
names its annotations use to forward references into it, which those tools resolve in the
function's module when they evaluate a hint. Type checkers read the same names.
"""

from __future__ import annotations

import datetime
import sys
from typing import Literal, Union

from ._catalog import FORMS

__all__ = ["Buffer", "Form", "Instant"]

TYPE_CHECKING = False

Instant = Union[datetime.datetime, int]
"""An aware ``datetime`` or an int of nanoseconds since the Unix epoch."""

if TYPE_CHECKING:
    from typing_extensions import Buffer

    from ._core import _Form as Form
else:
    Form = Literal[FORMS]
    if sys.version_info >= (3, 12):
        from collections.abc import Buffer
    else:
        import abc

        class Buffer(abc.ABC):  # noqa: B024 (a virtual base: types register with it)
            """An object that exports the buffer protocol: before 3.12, ``bytes``,
            ``bytearray`` and ``memoryview``, as ``typing_extensions.Buffer`` registers
            them."""

            __slots__ = ()

        Buffer.register(bytes)
        Buffer.register(bytearray)
        Buffer.register(memoryview)

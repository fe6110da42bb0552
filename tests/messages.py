"""Checks on error messages shared by the suites: does a message name the bad value."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

import uuidx


def raises_naming(
    exc: type[BaseException], bad: object, func: Callable[..., object], *args: Any, **kwargs: Any
) -> str:
    """Calls ``func``, expects ``exc``, and checks that the message names ``bad``."""
    with pytest.raises(exc) as info:
        func(*args, **kwargs)
    message = str(info.value)
    kind = type(info.value).__name__
    assert names(message, bad), f"{kind} message {message!r} does not name {bad!r}"
    return message


def names(message: str, bad: object) -> bool:
    """Whether ``message`` shows ``bad``: its repr (Python's quotes or Rust's double quotes
    for text), a UUID's str, or for numbers their digits as a whole number."""
    if bad is None:
        return re.search(r"\bNone\b(?!Type)", message) is not None
    if repr(bad) in message or uuidx._core._short_repr(bad) in message:
        return True
    if isinstance(bad, str):
        return f'"{bad}"' in message
    if isinstance(bad, uuid.UUID):
        return str(bad) in message
    if isinstance(bad, (int, float, Decimal)) and not isinstance(bad, bool):
        return re.search(rf"(?<![\d.]){re.escape(str(bad))}(?![\d.])", message) is not None
    return False

"""The API reference of the built site lists every public name of uuidx.

mkdocstrings writes an inventory of every object it documented (``site/objects.inv``, the
format Sphinx's intersphinx reads); every name of ``uuidx.__all__`` and of the ``__all__`` of
``uuidx.layout``, ``uuidx.arrow``, ``uuidx.testing`` and ``uuidx.typing`` must be in it, with a
page and an anchor that exist. ``make test-docs`` builds the site first (``make docs``).
"""

from __future__ import annotations

import re
import zlib
from html import unescape
from pathlib import Path
from types import FunctionType

import pytest

import uuidx
import uuidx.arrow
import uuidx.layout
import uuidx.testing
import uuidx.typing

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
#: Names that griffe cannot document (the standard library assigns them by unpacking a list),
#: listed in a table of the reference page under an anchor of their own instead.
ANCHORED = {
    "uuidx.RESERVED_NCS": "reference/uuidx/#uuidx.RESERVED_NCS",
    "uuidx.RFC_4122": "reference/uuidx/#uuidx.RFC_4122",
    "uuidx.RESERVED_MICROSOFT": "reference/uuidx/#uuidx.RESERVED_MICROSOFT",
    "uuidx.RESERVED_FUTURE": "reference/uuidx/#uuidx.RESERVED_FUTURE",
}


def inventory() -> dict[str, str]:
    """``{name: uri}`` of the Python objects in ``site/objects.inv`` (format version 2)."""
    path = SITE / "objects.inv"
    if not path.exists():
        pytest.fail(f"{path} does not exist: build the site first (make docs)")
    data = path.read_bytes()
    header_end = 0
    for _ in range(4):  # four header lines, then the zlib stream
        header_end = data.index(b"\n", header_end) + 1
    assert data.startswith(b"# Sphinx inventory version 2"), data[:40]
    entries: dict[str, str] = {}
    for line in zlib.decompress(data[header_end:]).decode("utf-8").splitlines():
        m = re.fullmatch(r"(\S+)\s+(py:\w+)\s+(-?\d+)\s+(\S*)\s+(.*)", line)
        if m:
            name, uri = m.group(1), m.group(4)
            entries[name] = uri.replace("$", name) if uri.endswith("$") else uri
    return entries


def public_names() -> list[str]:
    names = [f"uuidx.{n}" for n in uuidx.__all__]
    for module in (uuidx.layout, uuidx.arrow, uuidx.testing, uuidx.typing):
        names += [f"{module.__name__}.{n}" for n in module.__all__]
    return names


def test_every_public_name_is_in_the_reference() -> None:
    documented = inventory()
    missing = [n for n in public_names() if n not in documented and n not in ANCHORED]
    assert not missing, f"not in the API reference: {missing}"
    assert not set(ANCHORED) & set(documented), "documented by mkdocstrings now: drop from ANCHORED"


def test_every_reference_entry_resolves() -> None:
    """Each public name's page exists and carries the anchor the inventory gives."""
    documented = {**inventory(), **ANCHORED}
    for name in public_names():
        uri = documented[name]
        page, _, anchor = uri.partition("#")
        html = SITE / page / "index.html" if not page.endswith(".html") else SITE / page
        assert html.exists(), f"{name}: {uri}: no page {html}"
        if anchor:
            assert f'id="{anchor}"' in html.read_text(encoding="utf-8"), f"{name}: no #{anchor}"


def test_the_inventory_is_read_correctly() -> None:
    """A name that is not public must not be found: the parser above does not accept
    everything."""
    documented = inventory()
    assert "uuidx.uuid7" in documented
    assert "uuidx._core" not in documented
    assert "uuidx.no_such_name" not in documented


def _text(html: str) -> str:
    """The words of a piece of the site, without markup."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_docstrings_written_once_are_shown_for_the_facade() -> None:
    """A facade function that reuses the docstring of the ``uuidx._core`` function it wraps
    (``f.__doc__ = _core.g.__doc__``, which static analysis does not run) shows that docstring,
    parsed into its sections (``docs/ext/core_docs.py``)."""
    core_docs = {f.__doc__ for f in vars(uuidx._core).values() if callable(f) and f.__doc__}
    shown = []
    for module in (uuidx.arrow, uuidx.layout):
        page = SITE / "reference" / module.__name__.rpartition(".")[2] / "index.html"
        html = page.read_text(encoding="utf-8")
        for name in module.__all__:
            doc = getattr(module, name).__doc__
            if not isinstance(getattr(module, name), FunctionType) or doc not in core_docs:
                continue
            start = html.index(f'id="{module.__name__}.{name}"')
            end = html.find('class="doc doc-heading"', html.index("</h", start))
            section = _text(html[start:end])
            opening = " ".join(re.sub(r":\w+:|`", "", doc).split()[:6])
            assert opening.replace(" ", "") in section.replace(" ", ""), name
            assert "Raises:" in section and "Args:" not in section, name
            shown.append(f"{module.__name__}.{name}")
    assert "uuidx.arrow.decode" in shown and "uuidx.layout.v1" in shown

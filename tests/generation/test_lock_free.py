"""Which generators are lock-free on the machine under the suite: the table of
docs/platforms.md, checked against ``lock_free`` and ``_core._lock_free()``. The layouts kept in
one 64-bit word (v7's default, Method 3 with up to 10 counter bits, Method 1 with up to 22) are
lock-free everywhere; the others, v1 and v6, only with a 128-bit compare-and-swap.
"""

from __future__ import annotations

from typing import Optional, Union

import pytest
from platform_facts import compare_and_swap_128

import uuidx
from uuidx import _core
from uuidx.typing import V7Method, V7Preset

#: ``(method, bits, node_bits)`` of each v7 layout and whether its state is the 64-bit word.
V7_LAYOUTS: list[tuple[Union[V7Method, V7Preset], Optional[int], Optional[int], bool]] = [
    ("submillisecond", None, None, True),
    ("submillisecond", None, 8, True),
    ("postgresql", None, None, True),
    ("submillisecond", 11, None, False),
    ("counter", 22, None, True),
    ("counter", 23, None, False),
    ("counter", None, None, False),
    ("monotonic_random", None, None, False),
    ("cpython", None, None, False),
]


def _v7(
    method: Union[V7Method, V7Preset], bits: Optional[int], node_bits: Optional[int]
) -> uuidx.V7Generator:
    if node_bits is None:
        return uuidx.V7Generator(method, bits)
    return uuidx.V7Generator(method, bits, node=1, node_bits=node_bits)


def _table() -> tuple[bool, str]:
    row = compare_and_swap_128()
    if row is None:
        pytest.skip("docs/platforms.md has no row for this processor")
    return row


@pytest.mark.parametrize(("method", "bits", "node_bits", "on_the_word"), V7_LAYOUTS)
def test_v7_generator_lock_free_matches_the_table(
    method: Union[V7Method, V7Preset],
    bits: Optional[int],
    node_bits: Optional[int],
    on_the_word: bool,
) -> None:
    wide, why = _table()
    g = _v7(method, bits, node_bits)
    assert g.lock_free is (on_the_word or wide), why


@pytest.mark.parametrize("cls", [uuidx.V6Generator, uuidx.V1Generator])
def test_gregorian_generator_lock_free_matches_the_table(
    cls: Union[type[uuidx.V6Generator], type[uuidx.V1Generator]],
) -> None:
    wide, why = _table()
    assert cls().lock_free is wide, why


def test_process_wide_generators_match_the_table() -> None:
    wide, why = _table()
    assert _core._lock_free() == (("uuid7", True), ("uuid6", wide), ("uuid1", wide)), why


def test_the_64_bit_word_is_lock_free_everywhere() -> None:
    for method, bits, node_bits, on_the_word in V7_LAYOUTS:
        if on_the_word:
            assert _v7(method, bits, node_bits).lock_free is True, (method, bits, node_bits)
    assert dict(_core._lock_free())["uuid7"] is True


def test_custom_sources_do_not_change_the_answer() -> None:
    # The answer is the state's: a Python clock does not move a layout off its word.
    g = uuidx.V7Generator(clock=lambda: 1_700_000_000_000_000_000)
    assert g.lock_free is uuidx.V7Generator().lock_free is True
    wide = uuidx.V7Generator("counter", clock=lambda: 1_700_000_000_000_000_000)
    assert wide.lock_free is uuidx.V7Generator("counter").lock_free

"""Generators in reference cycles are freed: each class reports the Python callables it holds
(``clock=``, ``random=``) to the cycle collector and lets it clear them, so a service object that
keeps a generator whose clock is one of its own methods is collected like any other object.

Not on PyPy, whose C-API emulation (cpyext) never collects a cycle through an extension's
objects: that is pinned here as docs/generators.md states it, with the way out it gives."""

from __future__ import annotations

import gc
import os
import time
import weakref
from typing import Any

import pytest
from platform_facts import PYPY, PYPY_NO_REFCOUNTS

import uuidx

#: Why the cycle tests skip on PyPy (pinned by test_on_pypy_a_cycle_is_freed_once_broken).
PYPY_CYCLES = "PyPy: cpyext never collects a cycle through an extension's objects"

CLASSES = [uuidx.V7Generator, uuidx.V6Generator, uuidx.V1Generator]
SOURCES = ["clock", "random", "both"]


class Service:
    """Keeps a generator whose sources are its own bound methods: a reference cycle."""

    def __init__(self, cls: Any, which: str) -> None:
        kwargs: dict[str, Any] = {}
        if which in ("clock", "both"):
            kwargs["clock"] = self.now
        if which in ("random", "both"):
            kwargs["random"] = self.entropy
        self.generator = cls(**kwargs)

    def now(self) -> int:
        return time.time_ns()

    def entropy(self, n: int) -> bytes:
        return os.urandom(n)


@pytest.mark.skipif(PYPY, reason=PYPY_CYCLES)
@pytest.mark.parametrize("which", SOURCES)
@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_a_generator_in_a_cycle_is_collected(cls: Any, which: str) -> None:
    service = Service(cls, which)
    u = service.generator.generate()
    assert isinstance(u, uuidx.UUID)
    gone = weakref.ref(service)
    generator = weakref.ref(service.generator)
    del service
    gc.collect()
    assert gone() is None
    assert generator() is None


@pytest.mark.skipif(not PYPY, reason="PyPy's behaviour; CPython collects the cycle (above)")
@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_on_pypy_a_cycle_is_freed_once_broken(cls: Any) -> None:
    """What docs/generators.md says of PyPy: the cycle outlives collections, and deleting the
    generator from its owner frees both."""
    service = Service(cls, "both")
    service.generator.generate()
    gone = weakref.ref(service)
    del service
    for _ in range(3):
        gc.collect()
    kept = gone()
    assert kept is not None, "PyPy collected the cycle: update docs/generators.md"
    del kept.generator, kept
    for _ in range(3):
        gc.collect()
    assert gone() is None


@pytest.mark.skipif(PYPY, reason=PYPY_NO_REFCOUNTS)
@pytest.mark.parametrize("which", SOURCES)
@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_the_callables_are_reported_to_the_collector(cls: Any, which: str) -> None:
    def now() -> int:
        return time.time_ns()

    def entropy(n: int) -> bytes:
        return os.urandom(n)

    kwargs: dict[str, Any] = {}
    if which in ("clock", "both"):
        kwargs["clock"] = now
    if which in ("random", "both"):
        kwargs["random"] = entropy
    g = cls(**kwargs)
    assert gc.is_tracked(g)
    referents = gc.get_referents(g)
    assert (now in referents) is (which in ("clock", "both"))
    assert (entropy in referents) is (which in ("random", "both"))


@pytest.mark.skipif(PYPY, reason=PYPY_CYCLES)
@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_a_generator_that_refers_to_itself_is_collected(cls: Any) -> None:
    """The clock closes over the generator: the cycle has no Python object but the closure."""

    def make() -> weakref.ref[Any]:
        box: list[Any] = []

        def now() -> int:
            assert box[0] is not None
            return time.time_ns()

        g = cls(clock=now)
        box.append(g)
        g.generate()
        return weakref.ref(g)

    gone = make()
    assert gone() is not None  # only the cycle keeps it
    gc.collect()
    assert gone() is None


@pytest.mark.skipif(PYPY, reason=PYPY_NO_REFCOUNTS)
@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_generators_without_callables_are_freed_by_reference_counting(cls: Any) -> None:
    for kwargs in ({}, {"random": 7}):
        g = cls(**kwargs)
        g.generate()
        assert gc.get_referents(g) == [type(g)] or gc.get_referents(g) == []
        gone = weakref.ref(g)
        del g
        assert gone() is None  # reference counting alone


def test_a_collected_generator_keeps_working_in_other_hands() -> None:
    """Collecting one service does not touch a generator another object still holds (the
    collector clears only what it frees)."""
    service = Service(uuidx.V7Generator, "both")
    kept = service.generator
    del service
    gc.collect()
    a, b = kept.generate(), kept.generate()
    assert a < b

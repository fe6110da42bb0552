"""Generators under the caller's control: injected clocks and randomness, the deterministic
test mode, CPython 3.14's exact v7 algorithm, node bits, and v7 masking (UUIDv47)."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import textwrap
import threading
import uuid
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import need
from platform_facts import examples
from spec_data import spec_json

import uuidx
from uuidx import layout
from uuidx.testing import DEFAULT_START_NS, deterministic

#: The ``fork_json`` fixture of conftest.py.
ForkJson = Callable[[Callable[[], object]], Callable[[], Any]]

RFC_INSTANT_NS = 1_645_557_742_000_000_000  # 2022-02-22 19:22:22 UTC, RFC 9562 Appendix A


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, ns: int) -> None:
        self.ns = ns
        self.reads = 0

    def __call__(self) -> int:
        self.reads += 1
        return self.ns


class Script:
    """A random source that answers from a byte script and records each request's size."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0
        self.requests: list[int] = []

    def __call__(self, n: int) -> bytes:
        self.requests.append(n)
        out = self.data[self.at : self.at + n]
        self.at += n
        assert len(out) == n, "the script ran out"
        return out


def v7_int(ms: int, rand_a: int, rand_b: int) -> int:
    """RFC 9562 §5.7's layout, written out here independently of uuidx."""
    return (ms << 80) | (0x7 << 76) | (rand_a << 64) | (0b10 << 62) | rand_b


# --- injected clock and randomness --------------------------------------------------------


def test_rfc_vectors_from_injected_sources() -> None:
    # Appendix A.5 (v6) and A.1 (v1): 2022-02-22 19:22:22 UTC, clock sequence 0x33C8, node
    # 0x9F6BDECED846. The clock sequence comes from the first 8 random bytes.
    seq = (0x33C8).to_bytes(8, "big")
    v6 = uuidx.V6Generator(0x9F6BDECED846, clock=lambda: RFC_INSTANT_NS, random=Script(seq))
    assert str(v6.generate()) == "1ec9414c-232a-6b00-b3c8-9f6bdeced846"
    v1 = uuidx.V1Generator(0x9F6BDECED846, clock=lambda: RFC_INSTANT_NS, random=Script(seq))
    assert str(v1.generate()) == "c232ab00-9414-11ec-b3c8-9f6bdeced846"
    # Appendix A.6 (v7): Method 3 without a counter, 797_608 ns into the millisecond gives
    # rand_a 0xCC3; rand_b is the low 62 bits of the 8 random bytes.
    tail = (0x18C4DC0C0C07398F).to_bytes(8, "big")
    g = uuidx.V7Generator(
        "submillisecond", 0, clock=lambda: RFC_INSTANT_NS + 797_608, random=Script(tail)
    )
    assert str(g.generate()) == "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"


def test_counter_method_with_injected_sources_is_fully_predictable() -> None:
    # Method 1, 12 bits: each UUID draws 16 bytes; the seed is the 11 bits above the 62 random
    # bits that end the draw (the counter's top bit is the rollover guard, left clear).
    word = 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF
    clock = Clock(RFC_INSTANT_NS)
    script = Script(word.to_bytes(16, "big") * 3)
    g = uuidx.V7Generator("counter", 12, clock=clock, random=script)
    seed = (word >> 62) & 0x7FF
    ms = RFC_INSTANT_NS // 1_000_000
    expected = [v7_int(ms, seed + i, word & ((1 << 62) - 1)) for i in range(3)]
    assert [u.int for u in (g.generate(), g.generate(), g.generate())] == expected
    assert clock.reads == 3
    assert script.requests == [16, 16, 16]


@pytest.mark.parametrize("cls", [uuidx.V7Generator, uuidx.V6Generator, uuidx.V1Generator])
def test_an_exception_from_a_source_propagates_unchanged(cls: Any) -> None:
    error = KeyError("the clock is down")

    def broken_clock() -> int:
        raise error

    with pytest.raises(KeyError) as info:
        cls(clock=broken_clock).generate()
    assert info.value is error

    def broken_random(n: int) -> bytes:
        raise error

    with pytest.raises(KeyError) as info:
        cls(random=broken_random).generate()
    assert info.value is error


@pytest.mark.parametrize("cls", [uuidx.V7Generator, uuidx.V6Generator, uuidx.V1Generator])
def test_bad_source_results_are_named(cls: Any) -> None:
    with pytest.raises(TypeError, match="clock .* must return an int.*float: 1.5"):
        cls(clock=lambda: 1.5).generate()
    with pytest.raises(TypeError, match="clock .* must return an int.*str"):
        cls(clock=lambda: "now").generate()
    with pytest.raises(ValueError, match="returned 18446744073709551616"):
        cls(clock=lambda: 1 << 64).generate()
    with pytest.raises(TypeError, match="clock .* must return an int.*bool: True"):
        cls(clock=lambda: True).generate()
    with pytest.raises(TypeError, match="random .* must return bytes, got int: 5"):
        cls(random=lambda n: 5).generate()
    with pytest.raises(ValueError, match=r"returned 3 bytes: expected \d+"):
        cls(random=lambda n: b"abc").generate()
    with pytest.raises(TypeError, match="clock must be a callable"):
        cls(clock=5)
    with pytest.raises(TypeError, match="random must be a callable"):
        cls(random="seed")
    with pytest.raises(TypeError, match="random must be a callable"):
        cls(random=True)
    with pytest.raises(ValueError, match="random seed -1 is out of range"):
        cls(random=-1)
    with pytest.raises(ValueError, match="out of range"):
        cls(random=1 << 256)


@pytest.mark.parametrize("cls", [uuidx.V7Generator, uuidx.V6Generator, uuidx.V1Generator])
def test_a_clock_before_1970_is_a_clock_error(cls: Any) -> None:
    with pytest.raises(uuidx.ClockError, match="5000 ns before 1970"):
        cls(clock=lambda: -5000).generate()
    assert not issubclass(uuidx.ClockError, ValueError)
    assert issubclass(uuidx.ClockRollbackError, uuidx.ClockError)


def test_a_failed_call_leaves_the_generator_as_it_was() -> None:
    clock = Clock(RFC_INSTANT_NS)
    calls = {"n": 0}

    def flaky(n: int) -> bytes:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("once")
        return bytes(n)

    g = uuidx.V7Generator("counter", 12, clock=clock, random=flaky)
    first = g.generate()
    with pytest.raises(RuntimeError):
        g.generate()
    # The next counter value (rand_a + 1), not two on.
    assert g.generate().int == first.int + (1 << 64)


def test_seeded_random_is_reproducible_across_processes() -> None:
    script = textwrap.dedent(
        """
        import uuidx
        g = uuidx.V7Generator(clock=lambda: 1_700_000_000_000_000_000, random=12345)
        h = uuidx.V6Generator(7, clock=lambda: 1_700_000_000_000_000_000, random=12345)
        print(g.generate(), g.generate(), h.generate())
        """
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    }
    assert len(runs) == 1
    here = uuidx.V7Generator(clock=lambda: 1_700_000_000_000_000_000, random=12345)
    assert runs.pop().split()[0] == str(here.generate())
    other = uuidx.V7Generator(clock=lambda: 1_700_000_000_000_000_000, random=12346)
    assert (
        other.generate()
        != uuidx.V7Generator(clock=lambda: 1_700_000_000_000_000_000, random=12345).generate()
    )


def test_many_uses_the_injected_sources() -> None:
    clock = Clock(RFC_INSTANT_NS)
    g = uuidx.V7Generator("counter", 12, clock=clock, random=99)
    batch = g.many(3000)
    assert [u.int for u in batch] == sorted(u.int for u in batch)
    assert len(set(batch)) == 3000
    # 3000 UUIDs from a frozen clock, with 2**11 or more counter values a millisecond: they
    # carry into the next milliseconds, ahead of the clock.
    assert {layout.fields(u).unix_ts_ms for u in batch} >= {RFC_INSTANT_NS // 1_000_000}  # type: ignore[union-attr]


# --- rollback, overflow and fork, from Python -----------------------------------------------


@pytest.mark.parametrize("cls", [uuidx.V7Generator, uuidx.V6Generator, uuidx.V1Generator])
def test_rollback_within_and_beyond_the_allowance(cls: Any) -> None:
    clock = Clock(RFC_INSTANT_NS)
    g = cls(clock=clock, random=1, rollback_allowance_ns=1_000_000_000, rollback_policy="error")
    first = g.generate()
    clock.ns -= 500_000_000  # within the allowance: still increasing
    second = g.generate()
    assert uuidx.timestamp_ns(second) >= uuidx.timestamp_ns(first)
    if cls is not uuidx.V1Generator:
        assert second > first
    clock.ns -= 1_000_000_000  # 1.5 s behind the last new tick
    with pytest.raises(uuidx.ClockRollbackError, match="1500000000 ns"):
        g.generate()
    clock.ns += 2_000_000_000
    assert uuidx.timestamp_ns(g.generate()) > uuidx.timestamp_ns(second)

    reset = cls(clock=clock, random=1, rollback_allowance_ns=1_000_000_000)
    before = reset.generate()
    clock.ns -= 5_000_000_000
    after = reset.generate()
    # "reset" follows the clock back, by design.
    assert uuidx.timestamp_ns(after) < uuidx.timestamp_ns(before)
    if cls is not uuidx.V7Generator:
        assert after.clock_seq != before.clock_seq  # a new clock sequence after a reset


def test_counter_overflow_moves_into_the_next_millisecond() -> None:
    # Random bytes of 0xFF seed the 12-bit counter at 0x7FF (guard bit clear): 2048 more
    # UUIDs fill the millisecond, the next one carries into the timestamp.
    ms = RFC_INSTANT_NS // 1_000_000
    g = uuidx.V7Generator("counter", 12, clock=lambda: RFC_INSTANT_NS, random=lambda n: b"\xff" * n)
    values = [g.generate() for _ in range(2050)]
    stamps = [layout.fields(u).unix_ts_ms for u in values]  # type: ignore[union-attr]
    assert stamps[:2049] == [ms] * 2049
    assert stamps[2049] == ms + 1
    assert [u.int for u in values] == sorted(u.int for u in values)


def test_the_fork_notice_survives_a_failed_first_call_in_the_child(fork_json: ForkJson) -> None:
    """A real os.fork(): the child's first v1 call fails (its clock went back beyond the
    allowance, policy "error"); its first successful call must draw a new clock sequence, not
    keep the parent's."""
    clock = Clock(RFC_INSTANT_NS)
    g = uuidx.V1Generator(
        7, clock=clock, rollback_allowance_ns=1_000_000_000, rollback_policy="error"
    )
    parent_seq = g.generate().clock_seq

    def child() -> dict[str, object]:
        clock.ns -= 5_000_000_000
        try:
            g.generate()
            failed = False
        except uuidx.ClockRollbackError:
            failed = True
        clock.ns += 10_000_000_000
        return {"failed": failed, "seqs": [g.generate().clock_seq for _ in range(3)]}

    result = fork_json(child)()
    assert result["failed"]
    first, *rest = result["seqs"]
    assert first != parent_seq, "the child kept its parent's clock sequence"
    assert rest == [first, first]
    assert g.generate().clock_seq == parent_seq  # the parent keeps its own


# --- the deterministic test mode ------------------------------------------------------------


def sample() -> list[str]:
    """One of every process-wide function deterministic() covers."""
    return [
        str(uuidx.uuid7()),
        str(uuidx.uuid4()),
        str(uuidx.uuid6()),
        str(uuidx.uuid1()),
        str(uuidx.uuid8()),
        uuidx.uuid7_str(),
        uuidx.uuid4_str(),
        *map(str, uuidx.uuid7_many(2)),
        *map(str, uuidx.uuid4_many(2)),
        *uuidx.uuid7_str_many(2),
        *uuidx.uuid4_str_many(2),
        uuidx.uuid7_bytes(2).hex(),
        uuidx.uuid4_bytes(2).hex(),
        # uuidx.arrow's generated columns (no Arrow library needed to make and read them).
        *map(str, uuidx.arrow.uuid7(2).to_pylist()),
        *map(str, uuidx.arrow.uuid4(2).to_pylist()),
    ]


def test_deterministic_repeats_within_a_process_and_restores() -> None:
    with deterministic(seed=7):
        a = sample()
    with deterministic(seed=7):
        b = sample()
    with deterministic(seed=8):
        c = sample()
    assert a == b
    assert all(x != y for x, y in zip(a, c))
    # Given node and clock sequence, a v6 depends on the clock alone: any seed, same start.
    with deterministic(seed=8):
        fixed = uuidx.uuid6(node=5, clock_seq=9)
    with deterministic(seed=9):
        assert uuidx.uuid6(node=5, clock_seq=9) == fixed
    assert uuidx.timestamp_ns(fixed) == DEFAULT_START_NS
    outside = sample()
    assert all(x != y for x, y in zip(a, outside))


def test_deterministic_is_the_same_in_every_process() -> None:
    script = textwrap.dedent(
        """
        import json, uuidx
        from uuidx.testing import deterministic
        """
    )
    script += inspect.getsource(sample)
    script += 'with deterministic(seed="process"):\n    print(json.dumps(sample()))\n'
    outs = [
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for _ in range(2)
    ]
    assert outs[0] == outs[1]
    with deterministic(seed="process"):
        assert json.loads(outs[0]) == sample()


def test_deterministic_sequences_are_ordered_and_start_where_asked() -> None:
    with deterministic(seed=1):
        v7 = [uuidx.uuid7() for _ in range(100)] + uuidx.uuid7_many(1000)
        v6 = [uuidx.uuid6() for _ in range(100)]
        v1 = [uuidx.uuid1() for _ in range(100)]
    assert v7 == sorted(v7) and len(set(v7)) == 1100
    assert v6 == sorted(v6)
    stamps = [uuidx.timestamp_ns(u) for u in v1]
    assert stamps == sorted(stamps) and len(set(stamps)) == 100
    assert uuidx.timestamp_ns(v7[0]) == DEFAULT_START_NS
    assert uuidx.timestamp_ns(v6[0]) == DEFAULT_START_NS
    # Each reading moves the clock by step_ns: v6 timestamps 1 ms apart.
    assert uuidx.timestamp_ns(v6[1]) - uuidx.timestamp_ns(v6[0]) == 1_000_000
    with deterministic(seed=1, start=RFC_INSTANT_NS, step_ns=0):
        frozen = [uuidx.uuid7() for _ in range(10)]
    assert {uuidx.timestamp_ns(u) for u in frozen} == {RFC_INSTANT_NS}
    assert frozen == sorted(frozen)
    # v1/v6 nodes come from the seed (multicast bit set), not from the process.
    with deterministic(seed=1):
        node = uuidx.uuid6().node
    assert node != uuidx.process_node() and node >> 40 & 1 == 1


def test_deterministic_kinds_do_not_disturb_each_other() -> None:
    with deterministic(seed=3):
        alone = uuidx.uuid7()
    with deterministic(seed=3):
        uuidx.uuid4()
        uuidx.uuid1()
        after_others = uuidx.uuid7()
    assert alone == after_others


def test_deterministic_restores_when_the_block_raises_and_nests() -> None:
    with pytest.raises(ZeroDivisionError):
        with deterministic(seed=1):
            inside = uuidx.uuid4()
            raise ZeroDivisionError
    with deterministic(seed=1):
        assert uuidx.uuid4() == inside
        with deterministic(seed=2):
            inner = uuidx.uuid4()
        assert uuidx.uuid4() != inner  # the outer stream continues
    assert uuidx.uuid4() not in (inside, inner)


def test_deterministic_in_a_forked_child_continues_the_parents_sequence(
    fork_json: ForkJson,
) -> None:
    """A real os.fork() inside the block: the child returns what the parent returns next (the
    documented behaviour; workers take their own seed)."""
    with deterministic(seed="fork"):
        uuidx.uuid7()

        def child() -> list[str]:
            return [str(uuidx.uuid7()), str(uuidx.uuid4()), str(uuidx.uuid1())]

        in_child = fork_json(child)()
        assert in_child == [str(uuidx.uuid7()), str(uuidx.uuid4()), str(uuidx.uuid1())]


def test_deterministic_clocks_stop_at_their_end_instead_of_wrapping() -> None:
    with deterministic(seed=1, step_ns=1 << 62):
        for make in (uuidx.uuid6, uuidx.uuid7, uuidx.uuid1):
            values = [make() for _ in range(8)]
            stamps = [uuidx.timestamp_ns(u) for u in values]
            assert stamps == sorted(stamps), make
            if make is not uuidx.uuid1:
                assert values == sorted(values), make


def test_deterministic_as_a_decorator() -> None:
    @deterministic(seed=5)
    def make() -> uuid.UUID:
        return uuidx.uuid7()

    first = make()
    assert make() == first  # each call runs in a block of its own, from the start
    with deterministic(seed=5):
        assert uuidx.uuid7() == first


@pytest.fixture
def fixed_uuids() -> Iterator[None]:
    """The fixture the README and ``uuidx.testing`` document."""
    with deterministic(seed=99):
        yield


def test_the_documented_fixture(fixed_uuids: None) -> None:
    first = uuidx.uuid4()
    with deterministic(seed=99):  # a fresh block of the same seed starts the same stream
        assert uuidx.uuid4() == first
    assert uuidx.uuid4() != first  # the fixture's stream went on


def test_deterministic_is_seen_by_other_threads() -> None:
    got: list[uuid.UUID] = []
    with deterministic(seed=11):
        t = threading.Thread(target=lambda: got.append(uuidx.uuid4()))
        t.start()
        t.join()
    with deterministic(seed=11):
        assert got == [uuidx.uuid4()]


def test_independent_generators_are_not_affected() -> None:
    with deterministic(seed=1):
        a = uuidx.V7Generator(clock=lambda: RFC_INSTANT_NS).generate()
    with deterministic(seed=1):
        b = uuidx.V7Generator(clock=lambda: RFC_INSTANT_NS).generate()
    assert a != b  # their own CSPRNG, not the seeded one


def test_deterministic_argument_errors() -> None:
    with pytest.raises(TypeError, match="seed must be an int, a str or bytes, got float"):
        with deterministic(seed=1.5):  # type: ignore[arg-type]
            pass
    with pytest.raises(ValueError, match="before 1970"):
        with deterministic(start=-1):
            pass
    with pytest.raises(ValueError, match="step_ns must be 0 or more"):
        with deterministic(step_ns=-1):
            pass
    with pytest.raises(TypeError, match="step_ns must be an int"):
        with deterministic(step_ns=1.0):  # type: ignore[arg-type]
            pass
    assert uuidx.testing.deterministic is deterministic


# --- CPython 3.14's algorithm, exactly ------------------------------------------------------


def reference_module() -> Any:
    """CPython's own uuid module on 3.14+, else uuid-backport's copy of its uuid7() (typed
    ``Any``: the test patches the module's private globals)."""
    if sys.version_info >= (3, 14):
        return uuid
    return need("uuid_backport._backport")


def drive_reference(
    readings: list[int], data: bytes, state: tuple[Optional[int], int] = (None, 0)
) -> tuple[list[uuid.UUID], list[int]]:
    """Runs the reference uuid7() on these clock readings and random bytes, from ``state``
    (its ``_last_timestamp_v7`` and ``_last_counter_v7``; the default is a fresh module)."""
    module = reference_module()
    script = Script(data)
    clock = iter(readings)
    saved = module.time, module.os, module._last_timestamp_v7, module._last_counter_v7
    module.time = SimpleNamespace(time_ns=lambda: next(clock))
    module.os = SimpleNamespace(urandom=script)
    module._last_timestamp_v7, module._last_counter_v7 = state
    try:
        out = [module.uuid7() for _ in readings]
    finally:
        module.time, module.os, module._last_timestamp_v7, module._last_counter_v7 = saved
    return out, script.requests


def clock_script(draws: list[int]) -> list[int]:
    """Clock readings in ns with repeats, small steps and jumps back."""
    t = RFC_INSTANT_NS
    out = []
    for d in draws:
        t = max(0, t + d)
        out.append(t)
    return out


@settings(max_examples=examples(200))
@given(
    st.lists(
        st.sampled_from([0, 0, 0, 1, 999_999, 1_000_000, 3_000_000, -1_000_000, -5_000_000_000]),
        min_size=1,
        max_size=60,
    ),
    st.binary(min_size=600, max_size=600),
)
def test_cpython_method_matches_python_314(steps: list[int], data: bytes) -> None:
    readings = clock_script(steps)
    expected, expected_requests = drive_reference(readings, data)
    clock = iter(readings)
    ours = Script(data)
    g = uuidx.V7Generator("cpython", clock=lambda: next(clock), random=ours)
    got = [g.generate() for _ in readings]
    assert got == expected
    assert ours.requests == expected_requests  # 10 bytes on a new millisecond, 4 otherwise


@settings(max_examples=examples(100))
@given(
    st.integers(0, 3),
    st.lists(
        st.sampled_from([0, 0, 1, 999_999, 1_000_000, 3_000_000, -1_000_000, -5_000_000_000]),
        min_size=1,
        max_size=12,
    ),
    st.binary(min_size=120, max_size=120),
)
def test_cpython_method_matches_python_314_at_counter_overflow(
    below_top: int, steps: list[int], data: bytes
) -> None:
    """The 42-bit counter's overflow (a new seed, the timestamp moved on by one), which no
    input reaches in either implementation: both start from the same state, the counter
    ``below_top`` under its last value, the clock around that millisecond."""
    readings = clock_script(steps)
    last_ms = RFC_INSTANT_NS // 1_000_000
    counter = (1 << 42) - 1 - below_top
    expected, expected_requests = drive_reference(readings, data, (last_ms, counter))
    clock = iter(readings)
    ours = Script(data)
    g = uuidx.V7Generator("cpython", clock=lambda: next(clock), random=ours)
    g._resume_cpython(last_ms, counter)
    got = [g.generate() for _ in readings]
    assert got == expected
    assert ours.requests == expected_requests
    if len(readings) > below_top:  # the overflow happened: a new 10-byte seed
        assert 10 in ours.requests


def test_resume_cpython_is_checked() -> None:
    with pytest.raises(ValueError, match="cpython"):
        uuidx.V7Generator("counter")._resume_cpython(0, 0)
    with pytest.raises(ValueError, match="counter"):
        uuidx.V7Generator("cpython")._resume_cpython(0, 1 << 42)
    # 48 bits of milliseconds, as in the UUID (the state would otherwise hold a wider key).
    g = uuidx.V7Generator("cpython")
    g._resume_cpython((1 << 48) - 1, 0)
    with pytest.raises(ValueError, match="timestamp_ms"):
        g._resume_cpython(1 << 48, 0)
    # From the last millisecond with the counter at its top, the next step would pass the
    # year 10889: an error (3.14 wraps to 1970), and the state is kept.
    g._resume_cpython((1 << 48) - 1, (1 << 42) - 1)
    for _ in range(2):
        with pytest.raises(ValueError, match="48-bit milliseconds"):
            g.generate()


def test_cpython_method_options() -> None:
    g = uuidx.V7Generator("cpython")
    assert (g.method, g.bits, g.rollback_allowance_ns, g.rollback_policy) == (
        "cpython", 42, None, None,
    )  # fmt: skip
    assert repr(g) == "V7Generator(method='cpython', bits=42)"
    assert eval(repr(g), {"V7Generator": uuidx.V7Generator}).method == "cpython"
    values = [g.generate() for _ in range(1000)]
    assert values == sorted(values)
    with pytest.raises(ValueError, match="42"):
        uuidx.V7Generator("cpython", 12)
    with pytest.raises(ValueError, match="no rollback_allowance_ns or rollback_policy"):
        uuidx.V7Generator("cpython", rollback_policy="error")
    with pytest.raises(ValueError, match="cpython"):
        uuidx.V7Generator("cpython", node=1, node_bits=4)


# --- node bits ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "bits"),
    [("submillisecond", 10), ("submillisecond", 14), ("counter", 12), ("counter", 42)],
)
@pytest.mark.parametrize("node_bits", [1, 8, 32])
def test_node_bits_keep_order_and_separate_nodes(method: Any, bits: int, node_bits: int) -> None:
    nodes = [0, 1, (1 << node_bits) - 1]
    made: dict[int, list[uuid.UUID]] = {}
    for node in nodes:
        g = uuidx.V7Generator(
            method, bits, node=node, node_bits=node_bits,
            clock=lambda: RFC_INSTANT_NS, random=7,  # the same clock and random stream
        )  # fmt: skip
        assert (g.node, g.node_bits) == (node, node_bits)
        made[node] = [g.generate() for _ in range(200)] + g.many(300)
        assert made[node] == sorted(made[node])
        for u in made[node][::17]:
            f = layout.fields(u, method=method, bits=bits, node_bits=node_bits)
            assert f.node == node
            assert f == layout.V7GeneratorFields(*g.fields(u))
            assert f.unix_ts_ms >= RFC_INSTANT_NS // 1_000_000
    # Same clock, same random stream: only the node keeps them apart.
    everything = [u for us in made.values() for u in us]
    assert len(set(everything)) == len(everything)


def test_node_bits_are_validated() -> None:
    with pytest.raises(ValueError, match="node bits 0: expected 1 to 32"):
        uuidx.V7Generator(node=0, node_bits=0)
    with pytest.raises(ValueError, match="node bits 33"):
        uuidx.V7Generator(node=0, node_bits=33)
    with pytest.raises(ValueError, match="node out of range: 256 does not fit in 8 bits"):
        uuidx.V7Generator(node=256, node_bits=8)
    with pytest.raises(ValueError, match="node out of range"):
        uuidx.V7Generator(node=-1, node_bits=8)
    with pytest.raises(ValueError, match="node and node_bits go together"):
        uuidx.V7Generator(node=1)
    with pytest.raises(ValueError, match="monotonic_random"):
        uuidx.V7Generator("monotonic_random", node=1, node_bits=4)
    with pytest.raises(TypeError):
        uuidx.V7Generator(node="1", node_bits=4)  # type: ignore[arg-type]


def test_generator_fields_of_the_rfc_vector() -> None:
    u = uuid.UUID("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
    f = layout.fields(u, method="submillisecond", bits=0)
    assert f == layout.V7GeneratorFields(0x017F22E279B0, 0xCC3, 0, 0, 0x18C4DC0C0C07398F)
    c = layout.fields(u, method="counter", bits=12)
    assert (c.fraction, c.counter, c.random) == (0, 0xCC3, 0x18C4DC0C0C07398F)
    with pytest.raises(ValueError, match="no RFC 9562 field layout"):
        layout.fields(uuid.UUID(int=5), method="counter")
    with pytest.raises(ValueError):
        layout.fields(u, method="nope")  # type: ignore[call-overload]


# --- v7 masking (UUIDv47) -------------------------------------------------------------------


def uuidv47_vectors() -> list[dict[str, Any]]:
    data: dict[str, Any] = spec_json("uuidv47-vectors.json")
    vectors: list[dict[str, Any]] = data["vectors"]
    return vectors


def key_of(vector: dict[str, Any]) -> bytes:
    return int(vector["k0"], 16).to_bytes(8, "little") + int(vector["k1"], 16).to_bytes(8, "little")


@pytest.mark.parametrize("v47", uuidv47_vectors(), ids=lambda v: str(v["v7"]))
def test_every_uuidv47_vector(v47: dict[str, Any]) -> None:
    v7, facade, key = uuid.UUID(v47["v7"]), uuid.UUID(v47["facade"]), key_of(v47)
    masked = uuidx.mask_v7(v7, key)
    assert type(masked) is uuid.UUID and masked == facade
    assert uuidx.unmask_v7(facade, key) == v7
    assert uuidx.unmask_v7(facade, bytearray(key)) == v7


@settings(max_examples=examples(300))
@given(st.binary(min_size=16, max_size=16), st.integers(0, (1 << 48) - 1), st.integers(0, 4095),
       st.integers(0, (1 << 62) - 1))  # fmt: skip
def test_masking_round_trips_and_hides_only_the_time(
    key: bytes, ms: int, rand_a: int, rand_b: int
) -> None:
    v7 = layout.v7(ms, rand_a, rand_b)
    facade = uuidx.mask_v7(v7, key)
    assert facade.version == 4 and facade.variant == uuid.RFC_4122
    assert uuidx.unmask_v7(facade, key) == v7
    # What masking does not hide: the 74 random bits are shown as they are.
    assert facade.int & ((1 << 76) - 1) & ~(0x3 << 62) == v7.int & ((1 << 76) - 1) & ~(0x3 << 62)
    assert (facade.int >> 64) & 0xFFF == rand_a


def test_masking_errors_name_the_value() -> None:
    key = bytes(16)
    v4 = uuidx.uuid4()
    with pytest.raises(ValueError, match=f"{v4} is not a version 7 UUID to mask"):
        uuidx.mask_v7(v4, key)
    v7 = uuidx.uuid7()
    with pytest.raises(ValueError, match=f"{v7} is not a version 4 facade to unmask"):
        uuidx.unmask_v7(v7, key)
    with pytest.raises(ValueError, match="key must be 16 bytes long, got 15"):
        uuidx.mask_v7(v7, bytes(15))
    with pytest.raises(TypeError, match="key must be 16 bytes, got str"):
        uuidx.mask_v7(v7, "0123456789abcdef")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="u must be a uuid.UUID"):
        uuidx.mask_v7(str(v7), key)  # type: ignore[arg-type]

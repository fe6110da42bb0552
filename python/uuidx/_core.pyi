"""Type stubs for ``uuidx._core``, the Rust extension module (hand-written; checked against the
built module by ``python -m mypy.stubtest uuidx._core``)."""

import datetime
import sys
from typing import Literal, Optional, Union, final
from uuid import UUID

from typing_extensions import Buffer

from .typing import Algorithm, Clock, Form, IntLike, Name, RandomSource, V7Method, V7Preset

__all__ = [
    "__version__",
    "ArrowArray",
    "UUIDArray",
    "arrow_decode",
    "arrow_encode",
    "arrow_mask_v7",
    "arrow_parse",
    "arrow_timestamp_ns",
    "arrow_to_str",
    "arrow_unmask_v7",
    "arrow_uuid3",
    "arrow_uuid4",
    "arrow_uuid5",
    "arrow_uuid7",
    "arrow_uuid8_name",
    "arrow_uuids",
    "uuid7_bytes",
    "uuid4_bytes",
    "uuid7_str_many",
    "uuid4_str_many",
    "uuid7_many",
    "uuid4_many",
    "uuid7_str",
    "uuid4_str",
    "to_str",
    "encode",
    "decode",
    "typeid",
    "parse_typeid",
    "ClockError",
    "ClockRollbackError",
    "NamespaceTypeError",
    "V1Generator",
    "V6Generator",
    "V7Generator",
    "_after_fork_in_child",
    "_algorithms",
    "_detect",
    "_forms",
    "_layouts",
    "_v7_methods",
    "_v7_presets",
    "_stand_in_install_python_clock",
    "_stand_in_install_seeded",
    "_stand_in_uninstall",
    "_debug_build",
    "_fast_calls",
    "_lock_free",
    "_short_repr",
    "_uses_gc_new",
    "_uses_int_digits",
    "_uses_slot_stores",
    "fields",
    "layout_v1",
    "layout_v2",
    "layout_v4",
    "layout_v6",
    "layout_v7",
    "layout_v8",
    "mask_v7",
    "max_uuid7_ns",
    "min_uuid7_ns",
    "parse",
    "process_node",
    "timestamp_ns",
    "uuid1",
    "uuid3",
    "uuid4",
    "uuid5",
    "uuid6",
    "uuid7",
    "uuid7_at_ns",
    "uuid8",
    "uuid8_name",
    "unmask_v7",
    "v1_to_v6",
    "v7_generator_fields",
    "v6_to_v1",
]

__version__: str  # the crate's version (CARGO_PKG_VERSION), as in the dist metadata

class ClockError(RuntimeError):
    """The clock cannot give a time-based UUID a timestamp: it reads before 1970, or (the
    subclass ClockRollbackError) it went back further than a generator allows."""

class ClockRollbackError(ClockError):
    """The clock went back further than a generator's rollback allowance and its policy is
    'error'."""

class NamespaceTypeError(TypeError, AttributeError):
    """A namespace that is not a UUID: both a TypeError and, as in the stdlib, an AttributeError."""

def uuid1(node: Optional[IntLike] = None, clock_seq: Optional[IntLike] = None) -> UUID:
    """A version 1 UUID (RFC 9562 §5.1) from the process-wide lock-free generator.

    Like Python 3.14's ``uuid.uuid1``: ``node`` must be below 2**48 (``ValueError``
    otherwise) and ``clock_seq`` keeps its low 14 bits. Without ``node``, a random
    48-bit node with the multicast bit set, drawn once per process (RFC 9562 §6.10); no MAC
    address is read.
    """

def uuid3(namespace: UUID, name: Name) -> UUID:
    """A version 3 UUID (RFC 9562 §5.3): MD5 of the namespace and the name (``str`` as
    UTF-8, or bytes).
    """

def uuid4() -> UUID:
    """A version 4 UUID (RFC 9562 §5.4) from a per-thread ChaCha12 CSPRNG seeded by the OS."""

def uuid5(namespace: UUID, name: Name) -> UUID:
    """A version 5 UUID (RFC 9562 §5.5): SHA-1 of the namespace and the name (``str`` as
    UTF-8, or bytes), truncated to 128 bits.
    """

def uuid6(node: Optional[IntLike] = None, clock_seq: Optional[IntLike] = None) -> UUID:
    """A version 6 UUID (RFC 9562 §5.6) from the process-wide lock-free generator.

    Like Python 3.14's ``uuid.uuid6``: ``node`` and ``clock_seq`` keep their low 48 and
    14 bits. Without ``node``, the process's random multicast node (RFC 9562 §6.10).
    """

def uuid7(*, shift: Optional[Union[datetime.timedelta, int]] = None) -> UUID:
    """A version 7 UUID (RFC 9562 §5.7) from the process-wide lock-free monotonic generator:
    each call returns a UUID greater than every earlier one in this process.

    ``shift`` (a ``datetime.timedelta`` or an int of nanoseconds) moves the UUID's time (its
    millisecond and sub-millisecond fraction, to 1/4096 ms) by that much, as PostgreSQL 18's
    ``uuidv7(interval)`` does: the UUID is still the next of the process-wide sequence, so UUIDs
    made with the same shift are distinct and increasing.
    """

def uuid8(
    a: Optional[IntLike] = None, b: Optional[IntLike] = None, c: Optional[IntLike] = None
) -> UUID:
    """A version 8 UUID (RFC 9562 §5.8) from 48, 12 and 62 bits of custom data.

    Like Python 3.14's ``uuid.uuid8``: each part keeps its low 48, 12 and 62 bits; a
    missing part is random (from the CSPRNG).
    """

def uuid8_name(
    namespace: UUID,
    name: Name,
    algorithm: Optional[Algorithm] = ...,
) -> UUID:
    """A name-based version 8 UUID (RFC 9562 §5.8, Appendix B.2): the leftmost 128 bits of
    ``algorithm`` over the namespace and the name. ``algorithm`` is one of hashlib's names
    ``sha256``, ``sha512``, ``sha3_256``, ``sha3_512``, ``shake_128``, ``shake_256``.
    """

def parse(s: str) -> UUID:
    """The UUID written in ``s``: hyphenated (RFC 9562 §4), 32 hex digits, ``{braced}`` or
    ``urn:uuid:`` (prefix in any case), hex digits in any case. ``ValueError`` naming the
    text and the position of the first problem otherwise; ``TypeError`` for a non-str.
    """

def layout_v1(time_100ns: IntLike, clock_seq: IntLike, node: IntLike) -> UUID:
    """Version 1 from a 60-bit timestamp (100-ns intervals since 1582-10-15), a 14-bit
    clock sequence and a 48-bit node (RFC 9562 §5.1).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """

def layout_v2(
    local_domain: IntLike, local_id: IntLike, time_100ns: IntLike, clock_seq: IntLike, node: IntLike
) -> UUID:
    """Version 2, DCE Security: an 8-bit local domain (0 person, 1 group, 2 org), a 32-bit
    local id (a POSIX UID/GID), a 60-bit timestamp of which the high 28 bits are kept, a
    6-bit clock sequence and a 48-bit node (RFC 9562 §5.2; DCE 1.1).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """

def layout_v4(random: Buffer) -> UUID:
    """Version 4 from 16 random bytes; the version and variant bits are overwritten
    (RFC 9562 §5.4).

    Raises:
        TypeError: ``random`` is not bytes-like.
        ValueError: ``random`` is not 16 bytes long.
    """

def layout_v6(time_100ns: IntLike, clock_seq: IntLike, node: IntLike) -> UUID:
    """Version 6 from a 60-bit timestamp (100-ns intervals since 1582-10-15), a 14-bit
    clock sequence and a 48-bit node (RFC 9562 §5.6).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """

def layout_v7(unix_ts_ms: IntLike, rand_a: IntLike, rand_b: IntLike) -> UUID:
    """Version 7 from a 48-bit Unix millisecond timestamp, 12 bits of ``rand_a`` and 62 bits
    of ``rand_b`` (RFC 9562 §5.7).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """

def layout_v8(custom_a: IntLike, custom_b: IntLike, custom_c: IntLike) -> UUID:
    """Version 8 from 48, 12 and 62 bits of custom data (RFC 9562 §5.8).

    Raises:
        TypeError: a field is not an int.
        ValueError: a field does not fit its width.
    """

def fields(u: UUID) -> tuple[str, tuple[str, ...], tuple[int, ...]]:
    """``(layout, names, values)`` of a UUID's RFC 9562 fields, ``layout`` being ``"v1"`` to
    ``"v8"``, ``"nil"`` or ``"max"``; ``ValueError`` for UUIDs without an RFC layout.
    """

def timestamp_ns(u: UUID) -> int:
    """Nanoseconds since the Unix epoch of the timestamp in a version 1, 6 or 7 UUID
    (negative before 1970); ``ValueError`` for any other UUID.
    """

def v1_to_v6(u: UUID) -> UUID:
    """The version 6 UUID with the timestamp, clock sequence and node of version 1 UUID ``u``
    (RFC 9562 §5.6).
    """

def v6_to_v1(u: UUID) -> UUID:
    """The version 1 UUID with the timestamp, clock sequence and node of version 6 UUID ``u``."""

def process_node() -> int:
    """The random 48-bit multicast node this process uses for v1 and v6 (RFC 9562 §6.10)."""

def uuid7_at_ns(unix_ns: int) -> UUID:
    """A version 7 UUID for ``unix_ns`` (nanoseconds since 1970): its millisecond, the
    sub-millisecond fraction in ``rand_a`` and 62 random bits. Not part of the monotonic
    sequence of ``uuid7()``.
    """

def min_uuid7_ns(unix_ns: int) -> UUID:
    """The smallest version 7 UUID of the millisecond containing ``unix_ns`` (nanoseconds
    since 1970): ``unix_ts_ms`` of that millisecond, every other bit but the version and variant
    0 (RFC 9562 §5.7, §6.13). ``ValueError`` before 1970 or after the year 10889.
    """

def max_uuid7_ns(unix_ns: int) -> UUID:
    """The largest version 7 UUID of the millisecond containing ``unix_ns`` (nanoseconds
    since 1970): ``unix_ts_ms`` of that millisecond, every other bit but the version and variant
    1 (RFC 9562 §5.7, §6.13). ``ValueError`` before 1970 or after the year 10889.
    """

def to_str(u: UUID) -> str:
    """The canonical string of ``u`` (``str(u)``, RFC 9562 §4), computed in Rust."""

def uuid4_str() -> str:
    """``str(uuid4())`` without making the ``UUID`` object."""

def uuid7_str() -> str:
    """``str(uuid7())`` without making the ``UUID`` object; part of the same monotonic sequence."""

def uuid4_many(n: int) -> list[UUID]:
    """``n`` version 4 UUIDs as a list."""

def uuid7_many(n: int) -> list[UUID]:
    """``n`` version 7 UUIDs of the process-wide sequence as a list: strictly increasing, and
    greater than every UUID of the sequence returned before the call (another thread's
    ``uuid7()`` during the call may fall between them).
    """

def uuid4_str_many(n: int) -> list[str]:
    """``n`` version 4 UUIDs as a list of canonical strings."""

def uuid7_str_many(n: int) -> list[str]:
    """``n`` version 7 UUIDs of the process-wide sequence as a list of canonical strings:
    strictly increasing, and greater than every UUID of the sequence returned before the call
    (another thread's ``uuid7()`` during the call may fall between them).
    """

def uuid4_bytes(n: int) -> bytes:
    """``n`` version 4 UUIDs as one ``bytes`` of ``16 * n`` bytes (each UUID's 16 octets in
    network order), generated with the GIL released.
    """

def uuid7_bytes(n: int) -> bytes:
    """``n`` version 7 UUIDs of the process-wide sequence as one ``bytes`` of ``16 * n`` bytes,
    generated with the GIL released: strictly increasing, and greater than every UUID of the
    sequence returned before the call (another thread's ``uuid7()`` during the call may fall
    between them).
    """

def encode(u: UUID, form: Form) -> str:
    """``u`` as text in the encoding ``form``.

    Args:
        u: A ``uuid.UUID`` (a subclass or look-alike is read through its ``.int``).
        form: ``"hex"``, ``"hyphenated"``, ``"urn"`` or ``"braced"`` (RFC 9562 §4);
            ``"base32"`` (Crockford's base32 of ``u.int``, lower case: a TypeID suffix) or
            ``"ulid"`` (the same digits in upper case: the ULID text form); ``"base32hex"``
            (RFC 4648 §7, the 16 octets, upper case, unpadded); ``"base58"`` (Bitcoin
            alphabet) or ``"base62"`` (``0-9A-Za-z``) of ``u.int``; ``"base64url"``
            (RFC 4648 §5, the 16 octets, unpadded). Every form has a fixed length, and all
            but ``base64url`` sort as the UUIDs do.

    Returns:
        The text, ASCII.

    Raises:
        TypeError: ``u`` is not a ``uuid.UUID`` or ``form`` not a str.
        ValueError: ``form`` is not one of the names above.
    """

def decode(s: str, form: Form) -> UUID:
    """The UUID written in ``s`` in the encoding ``form`` (see :func:`encode`).

    Exactly the form's fixed length, nothing around it. ``hex``, ``hyphenated``, ``urn`` and
    ``braced`` read hex digits in either case (and the URN prefix in any case); ``base32``
    reads Crockford's base32 in either case with his aliases (``I``, ``L`` for 1, ``O`` for
    0); ``ulid`` reads either case without aliases (the ULID specification); ``base32hex``
    reads either case; ``base58``, ``base62`` and ``base64url`` are case-sensitive.

    Args:
        s: The text.
        form: The encoding's name, as for :func:`encode`.

    Returns:
        An exact ``uuid.UUID``.

    Raises:
        TypeError: ``s`` or ``form`` is not a str.
        ValueError: ``form`` is unknown, or ``s`` is not a UUID in that form: the message
            names ``s`` (shortened) and the first problem (length, or the character and its
            position, or a value above 2**128 - 1, or non-zero bits after the 128th).
    """

def typeid(prefix: str, u: UUID) -> str:
    """The TypeID of ``u`` with type ``prefix`` (jetify-com/typeid, specification v0.3):
    ``prefix_`` followed by the 26-character ``base32`` form of ``u``, or that form alone for
    an empty prefix.

    Args:
        prefix: At most 63 lowercase ASCII letters and underscores, not starting or ending
            with an underscore; may be empty.
        u: A ``uuid.UUID`` (any version; the specification recommends v7).

    Returns:
        The TypeID, such as ``"user_01h455vb4pex5vsknk084sn02q"``.

    Raises:
        TypeError: ``prefix`` is not a str or ``u`` not a ``uuid.UUID``.
        ValueError: the prefix breaks the rules (the message names it and the position).
    """

def parse_typeid(s: str) -> tuple[str, UUID]:
    """The prefix and UUID of a TypeID (jetify-com/typeid, specification v0.3).

    The TypeID splits at its last underscore; the suffix must be 26 lower case Crockford
    base32 digits of at most 128 bits (no aliases, no upper case), the prefix as for
    :func:`typeid`. Without an underscore the text is the suffix alone and the prefix ``""``.

    Args:
        s: The TypeID.

    Returns:
        ``(prefix, uuid)``, ``uuid`` an exact ``uuid.UUID``.

    Raises:
        TypeError: ``s`` is not a str.
        ValueError: ``s`` is not a TypeID: the message names it (shortened) and the first
            problem with its position.
    """

def _after_fork_in_child() -> None: ...
def _stand_in_install_seeded(seed: Buffer, start_ns: int, step_ns: int) -> int: ...
def _stand_in_install_python_clock() -> int: ...
def _stand_in_uninstall(token: int) -> bool: ...
def mask_v7(u: UUID, key: Buffer) -> UUID:
    """The v4-looking facade of version 7 UUID ``u`` under the 16-byte ``key`` (UUIDv47): the
    timestamp XOR-ed with a keyed SipHash-2-4 of the random bits, the version set to 4.
    ``ValueError`` unless ``u`` is version 7 and ``key`` 16 bytes.
    """

def unmask_v7(u: UUID, key: Buffer) -> UUID:
    """The version 7 UUID behind the facade ``u`` under the 16-byte ``key`` (UUIDv47).
    ``ValueError`` unless ``u`` is version 4 and ``key`` 16 bytes.
    """

def v7_generator_fields(
    u: UUID,
    method: Union[V7Method, V7Preset],
    bits: Optional[int] = None,
    node_bits: Optional[int] = None,
) -> tuple[int, int, int, int, int]:
    """The fields of a version 7 UUID as a generator with ``method``, ``bits`` and
    ``node_bits`` lays them out: ``(unix_ts_ms, fraction, counter, node, random)``.
    """

def _uses_slot_stores() -> bool: ...
def _uses_int_digits() -> bool: ...
def _uses_gc_new() -> bool: ...
def _short_repr(obj: object) -> str: ...
def _debug_build() -> bool: ...
def _fast_calls() -> Optional[int]: ...
def _lock_free() -> tuple[tuple[str, bool], ...]:
    """Whether the process-wide generators take no lock on this machine, by the function each
    serves: ``(("uuid7", ...), ("uuid6", ...), ("uuid1", ...))`` (see ``V7Generator.lock_free``).
    """

def _forms() -> tuple[tuple[str, int, str, Literal["lower", "upper", "sensitive"], bool], ...]:
    """The forms of :func:`encode` and :func:`decode`, in their order:
    ``(name, length, alphabet, case, sorts)`` each. ``alphabet`` lists the digits in the order
    of their values; ``case`` is ``"lower"`` or ``"upper"`` (written so, read in either case)
    or ``"sensitive"``; ``sorts`` says whether the texts sort as the UUIDs do."""

def _algorithms() -> tuple[str, ...]:
    """The hash algorithms of :func:`uuid8_name`, by their ``hashlib`` names."""

def _v7_methods() -> tuple[str, ...]:
    """The methods of :class:`V7Generator`, the default first."""

def _v7_presets() -> tuple[tuple[str, str, int], ...]:
    """The preset names :class:`V7Generator` takes besides the methods' own, with the method
    and width each stands for: ``(name, method, bits)``."""

def _layouts() -> tuple[tuple[str, Optional[int], str, tuple[tuple[str, int, int], ...]], ...]:
    """The field layouts of RFC 9562 §5, by version, then Nil and Max:
    ``(name, version, title, fields)`` each, ``version`` ``None`` for Nil and Max, ``fields``
    ``(name, bits, offset)`` left to right (``ver`` and ``var`` included), ``offset`` the first
    bit counted from the most significant one, as the RFC's figures number them."""

def _detect(text: str) -> tuple[tuple[str, UUID, str], ...]:
    """Every reading of ``text`` as a UUID in any form, recognised by its length and alphabet:
    ``(form, uuid, typeid_prefix)`` each, ``form`` a name of :func:`encode` or ``"typeid"``.
    One reading, or several when the text is ambiguous: when the forms of its length that
    decode it (``base32``/``ulid`` and ``base32hex``; ``base58``, ``base62`` and ``base64url``)
    give different UUIDs. Readings that agree are one. ``ValueError`` naming the text and the
    problem when it is in no form."""

@final
class V7Generator:
    """A monotonic version 7 generator with its own state (RFC 9562 §5.7, §6.2).

    ``method`` is ``"submillisecond"`` (Method 3: 12 bits of sub-millisecond time, then
    ``bits`` counter bits, default 10; the process-wide default), ``"counter"`` (Method 1:
    a ``bits``-bit counter, 12 to 42, default 42, CPython 3.14's layout),
    ``"monotonic_random"`` (Method 2: random increments of up to ``bits`` bits, default 32)
    or ``"cpython"`` (CPython 3.14's ``uuid.uuid7()`` algorithm, step for step, including
    how it asks for random bytes and how it handles a clock that goes back).
    Within ``rollback_allowance_ns`` of clock rollback the generator stays monotonic; beyond
    it ``rollback_policy`` ``"reset"`` follows the clock and ``"error"`` raises
    ``ClockRollbackError`` (the ``"cpython"`` method has neither).
    ``clock`` (a callable returning nanoseconds since 1970) and ``random`` (a callable
    ``random(n) -> bytes``, or an int seed for a reproducible stream) replace the system clock
    and the CSPRNG, for tests. ``node`` with ``node_bits`` (1 to 32) places a fixed node id
    after the counter (RFC 9562 §6.4). ``shift`` (a ``datetime.timedelta`` or an int of
    nanoseconds) moves every clock reading by that much, as PostgreSQL 18's
    ``uuidv7(interval)`` does. ``V7Generator("postgresql")`` is PostgreSQL 18's ``uuidv7()``
    layout (``"submillisecond"`` with no counter bits). Thread-safe and, with the default
    sources, lock-free where ``lock_free`` says so.
    """
    def __new__(
        cls,
        method: Union[V7Method, V7Preset] = "submillisecond",
        bits: Optional[int] = None,
        *,
        rollback_allowance_ns: Optional[int] = 10_000_000_000,
        rollback_policy: Optional[Literal["reset", "error"]] = "reset",
        clock: Optional[Clock] = None,
        random: Optional[RandomSource] = None,
        node: Optional[int] = None,
        node_bits: Optional[int] = None,
        shift: Optional[Union[datetime.timedelta, int]] = None,
    ) -> V7Generator: ...
    def generate(self) -> UUID:
        """The next UUID, greater than every UUID this generator returned before."""

    def many(self, n: int) -> list[UUID]:
        """``n`` UUIDs of this generator's sequence, as a list: strictly increasing, and greater
        than every UUID it returned before the call (another thread's call on it during this
        one may fall between them).
        """

    def fields(self, u: UUID) -> tuple[int, int, int, int, int]:
        """The fields of ``u`` as this generator lays them out: ``(unix_ts_ms, fraction,
        counter, node, random)`` (see ``uuidx.layout.fields``).
        """

    def _resume_cpython(self, timestamp_ms: int, counter: int) -> None: ...
    @property
    def method(self) -> str:
        """``"counter"``, ``"monotonic_random"``, ``"submillisecond"`` or ``"cpython"``."""

    @property
    def bits(self) -> int:
        """Counter bits (Methods 1 and 3, ``cpython``) or increment bits (Method 2)."""

    @property
    def rollback_allowance_ns(self) -> Optional[int]:
        """How far the clock may go back, in nanoseconds, before the policy applies (``None``
        for the ``"cpython"`` method, which has no allowance).
        """

    @property
    def rollback_policy(self) -> Optional[str]:
        """``"reset"`` or ``"error"`` (``None`` for the ``"cpython"`` method)."""

    @property
    def node(self) -> Optional[int]:
        """The fixed node id, or ``None``."""

    @property
    def node_bits(self) -> int:
        """The node id's width in bits, 0 without one."""

    @property
    def shift_ns(self) -> int:
        """How far every clock reading is moved, in nanoseconds (0 without a shift)."""

    @property
    def lock_free(self) -> bool:
        """Whether the generator's state takes no lock on this machine: ``True`` for the layouts
        kept in one 64-bit word on every platform, and for the others where the processor has a
        128-bit compare-and-swap (x86-64 with ``cmpxchg16b``, ARM64, ppc64le, s390x); ``False``
        on 32-bit platforms, where a lock inside portable-atomic guards them. ``clock`` and
        ``random`` callables are Python code, which this does not cover.
        """

@final
class V6Generator:
    """A monotonic version 6 generator with its own state (RFC 9562 §5.6, §6.1).

    Timestamps are 100-ns ticks kept strictly increasing; the clock sequence is random
    at start and drawn again after a rollback beyond ``rollback_allowance_ns`` (policy
    ``"reset"``; ``"error"`` raises ``ClockRollbackError``) and in a forked child.
    ``node`` defaults to the process's random multicast node (RFC 9562 §6.10).
    ``clock`` and ``random`` replace the system clock and the CSPRNG, for tests (see
    ``V7Generator``).
    """
    def __new__(
        cls,
        node: Optional[IntLike] = None,
        *,
        rollback_allowance_ns: int = 10_000_000_000,
        rollback_policy: Literal["reset", "error"] = "reset",
        clock: Optional[Clock] = None,
        random: Optional[RandomSource] = None,
    ) -> V6Generator: ...
    def generate(self) -> UUID:
        """The next UUID; its timestamp is later than every earlier one of this generator."""

    @property
    def node(self) -> int:
        """The 48-bit node in use."""

    @property
    def rollback_allowance_ns(self) -> int:
        """How far the clock may go back, in nanoseconds, before the policy applies."""

    @property
    def rollback_policy(self) -> str:
        """``"reset"`` or ``"error"``."""

    @property
    def lock_free(self) -> bool:
        """Whether the generator's 128-bit state takes no lock on this machine: ``True``
        where the processor has a 128-bit compare-and-swap (x86-64 with
        ``cmpxchg16b``, ARM64, ppc64le, s390x), ``False`` on 32-bit platforms, where a
        lock inside portable-atomic guards it.
        """

@final
class V1Generator:
    """A monotonic version 1 generator with its own state (RFC 9562 §5.1, §6.1).

    Timestamps are 100-ns ticks kept strictly increasing; the clock sequence is random
    at start and drawn again after a rollback beyond ``rollback_allowance_ns`` (policy
    ``"reset"``; ``"error"`` raises ``ClockRollbackError``) and in a forked child.
    ``node`` defaults to the process's random multicast node (RFC 9562 §6.10).
    ``clock`` and ``random`` replace the system clock and the CSPRNG, for tests (see
    ``V7Generator``).
    """
    def __new__(
        cls,
        node: Optional[IntLike] = None,
        *,
        rollback_allowance_ns: int = 10_000_000_000,
        rollback_policy: Literal["reset", "error"] = "reset",
        clock: Optional[Clock] = None,
        random: Optional[RandomSource] = None,
    ) -> V1Generator: ...
    def generate(self) -> UUID:
        """The next UUID; its timestamp is later than every earlier one of this generator."""

    @property
    def node(self) -> int:
        """The 48-bit node in use."""

    @property
    def rollback_allowance_ns(self) -> int:
        """How far the clock may go back, in nanoseconds, before the policy applies."""

    @property
    def rollback_policy(self) -> str:
        """``"reset"`` or ``"error"``."""

    @property
    def lock_free(self) -> bool:
        """Whether the generator's 128-bit state takes no lock on this machine: ``True``
        where the processor has a 128-bit compare-and-swap (x86-64 with
        ``cmpxchg16b``, ARM64, ppc64le, s390x), ``False`` on 32-bit platforms, where a
        lock inside portable-atomic guards it.
        """

# uuidx.arrow (typed more precisely in uuidx/arrow.py)

@final
class UUIDArray(Buffer):
    """A column of UUIDs: Arrow FixedSizeBinary(16), each value a UUID's 16 octets in network
    order (RFC 9562 §4), tagged with the canonical extension type ``arrow.uuid`` unless made
    with ``extension=False``.

    Exported through the Arrow PyCapsule interface (``__arrow_c_array__``,
    ``__arrow_c_schema__``), so pyarrow, Polars, DuckDB and pandas read it without a copy, and
    through the buffer protocol as ``16 * len`` read-only bytes (the null rows of the columns
    uuidx makes are zero bytes).
    """
    def __len__(self) -> int: ...
    if sys.version_info >= (3, 12):
        def __buffer__(self, flags: int, /) -> memoryview: ...

    @property
    def extension(self) -> bool:
        """``True`` when the column is tagged ``arrow.uuid``, ``False`` for plain
        FixedSizeBinary(16).
        """

    @property
    def null_count(self) -> int:
        """The number of null rows."""

    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_array__(
        self, requested_schema: object | None = None
    ) -> tuple[object, object]: ...
    def to_pylist(self) -> list[Optional[UUID]]:
        """The UUIDs as a list of exact ``uuid.UUID`` objects, ``None`` for null rows."""

@final
class ArrowArray:
    """A column that is not made of UUIDs (the strings of ``to_str``, the timestamps of
    ``timestamp_ns``), exported through the Arrow PyCapsule interface.
    """
    def __len__(self) -> int: ...
    @property
    def null_count(self) -> int:
        """The number of null rows."""

    @property
    def type(self) -> str:
        """The Arrow type, as pyarrow writes it: ``"string"``, ``"large_string"`` or
        ``"timestamp[ns, tz=UTC]"``.
        """

    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_array__(
        self, requested_schema: object | None = None
    ) -> tuple[object, object]: ...
    def to_pylist(self) -> list[Union[str, int, None]]:
        """The values as a list: ``str`` for strings, ``int`` nanoseconds since 1970 for
        timestamps (what ``uuidx.timestamp_ns`` returns for one UUID), ``None`` for nulls.
        """

def arrow_uuid4(n: int, extension: bool = True) -> UUIDArray:
    """``n`` random version 4 UUIDs (RFC 9562 §5.4) from the per-thread CSPRNG (§6.9).

    Args:
        n: How many.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain
            ``FixedSizeBinary(16)``.

    Raises:
        TypeError: ``n`` is not an int.
        ValueError: ``n`` is negative.
        MemoryError: ``16 * n`` bytes could never fit in this machine's memory, or memory ran
            out.
    """

def arrow_uuid7(n: int, extension: bool = True) -> UUIDArray:
    """``n`` version 7 UUIDs (RFC 9562 §5.7, §6.2) of the process-wide sequence.

    The column is strictly increasing and continues the sequence of :func:`uuidx.uuid7`: every
    UUID in it is greater than every v7 this process made before the call, and smaller than
    every one it makes after the call returns; a v7 that another thread makes during the call
    may fall between its values. Sorting by these keys (bytes, or ``ORDER BY`` on a UUID column) is generation
    order.

    Args:
        n: How many.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        TypeError: ``n`` is not an int.
        ValueError: ``n`` is negative.
        MemoryError: ``16 * n`` bytes could never fit in this machine's memory, or memory ran
            out.
        uuidx.ClockError: the clock reads before 1970.
    """

def arrow_uuid3(namespace: UUID, names: object, extension: bool = True) -> UUIDArray:
    """Version 3 UUIDs (RFC 9562 §5.3, MD5) of ``namespace`` and each name, row by row equal to
    :func:`uuidx.uuid3`; a null name gives a null UUID.

    Args:
        namespace: A ``uuid.UUID``, read as :func:`uuidx.uuid3` reads it.
        names: Text (hashed as UTF-8) or binary names: see :mod:`uuidx.arrow`.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        uuidx.NamespaceTypeError: ``namespace`` is not a UUID.
        TypeError: ``names`` is not a column of names (the message names what it is).
    """

def arrow_uuid5(namespace: UUID, names: object, extension: bool = True) -> UUIDArray:
    """Version 5 UUIDs (RFC 9562 §5.5, SHA-1) of ``namespace`` and each name, row by row
    equal to :func:`uuidx.uuid5`; a null name gives a null UUID. Deterministic keys from
    natural keys, a column at a time.

    Args:
        namespace: A ``uuid.UUID``, read as :func:`uuidx.uuid5` reads it.
        names: Text (hashed as UTF-8) or binary names: see :mod:`uuidx.arrow`.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        uuidx.NamespaceTypeError: ``namespace`` is not a UUID.
        TypeError: ``names`` is not a column of names (the message names what it is).
    """

def arrow_uuid8_name(
    namespace: UUID, names: object, algorithm: Optional[str] = ..., extension: bool = True
) -> UUIDArray:
    """Name-based version 8 UUIDs (RFC 9562 §5.8, Appendix B.2) of ``namespace`` and each
    name, row by row equal to :func:`uuidx.uuid8_name`; a null name gives a null UUID.

    Args:
        namespace: A ``uuid.UUID``.
        names: Text (hashed as UTF-8) or binary names: see :mod:`uuidx.arrow`.
        algorithm: One of hashlib's ``sha256``, ``sha512``, ``sha3_256``, ``sha3_512``,
            ``shake_128``, ``shake_256``.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        uuidx.NamespaceTypeError: ``namespace`` is not a UUID.
        TypeError: ``names`` is not a column of names, or ``algorithm`` is not a str.
        ValueError: ``algorithm`` is not one of the six.
    """

def arrow_parse(strings: object, errors: Optional[str] = ..., extension: bool = True) -> UUIDArray:
    """The UUID in each row of text, in the forms :func:`uuidx.parse` accepts (RFC 9562 §4:
    hyphenated, 32 hex digits, ``{braced}``, ``urn:uuid:``; any case), so DuckDB's and
    PostgreSQL's text forms parse as they come.

    Args:
        strings: A column of text: see :mod:`uuidx.arrow`.
        errors: ``"raise"`` (default): the first bad row raises; ``"null"``: bad rows become
            null. Null rows stay null either way.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        ValueError: a row is not a UUID (the message names its index, the text, shortened,
            and the first problem), or ``errors`` is neither ``"raise"`` nor ``"null"``.
        TypeError: ``strings`` is not a column of text, or an item of a sequence is not a
            ``str`` or ``None``.
    """

def arrow_uuids(uuids: object, extension: bool = True) -> UUIDArray:
    """A :class:`UUIDArray` of ``uuids``: a sequence of ``uuid.UUID`` (``None`` for a null
    row), or any Arrow ``FixedSizeBinary(16)`` array or stream (the chunks of a stream are
    joined). A ``UUIDArray`` or a single Arrow array is shared, not copied.

    Args:
        uuids: A column of UUIDs: see :mod:`uuidx.arrow`.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        TypeError: ``uuids`` is not a column of UUIDs (wrong Arrow type or width, or neither
            Arrow nor a sequence), or an item of a sequence is not a ``uuid.UUID`` or ``None``.
    """

def arrow_to_str(uuids: object) -> ArrowArray:
    """The hyphenated lower-case text of each UUID (``str(u)``, RFC 9562 §4) as an Arrow
    ``string`` column (``large_string`` when the text exceeds 2**31 - 1 bytes, that is beyond
    59,652,323 rows); null rows stay null.

    Args:
        uuids: A column of UUIDs: see :mod:`uuidx.arrow`.

    Raises:
        TypeError: ``uuids`` is not a column of UUIDs.
    """

def arrow_encode(uuids: object, form: Form) -> ArrowArray:
    """Each UUID in the text encoding ``form``, row by row equal to :func:`uuidx.encode`, as
    an Arrow ``string`` column (``large_string`` when the text exceeds 2**31 - 1 bytes); null
    rows stay null.

    Args:
        uuids: A column of UUIDs: see :mod:`uuidx.arrow`.
        form: ``"hex"``, ``"hyphenated"``, ``"urn"``, ``"braced"``, ``"base32"``, ``"ulid"``,
            ``"base32hex"``, ``"base58"``, ``"base62"`` or ``"base64url"`` (see
            :func:`uuidx.encode`).

    Raises:
        TypeError: ``uuids`` is not a column of UUIDs, or ``form`` is not a str.
        ValueError: ``form`` is not one of the names above.
    """

def arrow_decode(
    strings: object, form: Form, errors: Optional[str] = ..., extension: bool = True
) -> UUIDArray:
    """The UUID in each row of text written in the encoding ``form``, row by row equal to
    :func:`uuidx.decode` (the same lengths, alphabets and case rules).

    Args:
        strings: A column of text: see :mod:`uuidx.arrow`.
        form: One of the names :func:`encode` takes.
        errors: ``"raise"`` (default): the first bad row raises; ``"null"``: bad rows become
            null. Null rows stay null either way.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        ValueError: a row is not a UUID in ``form`` (the message names its index, the text,
            shortened, and the first problem with its position), ``form`` is unknown, or
            ``errors`` is neither ``"raise"`` nor ``"null"``.
        TypeError: ``strings`` is not a column of text, an item of a sequence is not a
            ``str`` or ``None``, or ``form`` is not a str.
    """

def arrow_mask_v7(
    uuids: object, key: Buffer, errors: Optional[str] = ..., extension: bool = True
) -> UUIDArray:
    """The UUIDv47 facade of each version 7 UUID under ``key``, row by row equal to
    :func:`uuidx.mask_v7`: what to show outside while the database keeps the v7 keys.

    Args:
        uuids: A column of version 7 UUIDs: see :mod:`uuidx.arrow`.
        key: 16 bytes, kept secret.
        errors: ``"raise"`` (default): a row that is not a version 7 UUID raises; ``"null"``:
            such rows become null. Null rows stay null either way.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        ValueError: a row is not a version 7 UUID (the message names its index and the
            UUID), ``key`` is not 16 bytes long, or ``errors`` is unknown.
        TypeError: ``uuids`` is not a column of UUIDs, or ``key`` is not bytes-like.
    """

def arrow_unmask_v7(
    uuids: object, key: Buffer, errors: Optional[str] = ..., extension: bool = True
) -> UUIDArray:
    """The version 7 UUID behind each UUIDv47 facade under ``key``, row by row equal to
    :func:`uuidx.unmask_v7`.

    Args:
        uuids: A column of facades (version 4 UUIDs): see :mod:`uuidx.arrow`.
        key: The 16 bytes :func:`mask_v7` used.
        errors: ``"raise"`` (default): a row that is not a version 4 UUID raises; ``"null"``:
            such rows become null. Null rows stay null either way.
        extension: Tag the column ``arrow.uuid`` (default) or leave it plain.

    Raises:
        ValueError: a row is not a version 4 UUID (the message names its index and the
            UUID), ``key`` is not 16 bytes long, or ``errors`` is unknown.
        TypeError: ``uuids`` is not a column of UUIDs, or ``key`` is not bytes-like.
    """

def arrow_timestamp_ns(uuids: object, errors: Optional[str] = ...) -> ArrowArray:
    """The time in each version 1, 6 and 7 UUID (RFC 9562 §5.1, §5.6, §5.7, §6.1) as an Arrow
    ``timestamp[ns, tz=UTC]`` column; rows of other versions (and Nil, Max, other variants)
    and null rows are null. ``ArrowArray.to_pylist()`` gives ints, the values
    :func:`uuidx.timestamp_ns` returns.

    Nanoseconds in an ``int64`` reach from 1677-09-21 to 2262-04-11; a v1 or v6 timestamp can
    lie from 1582 to 5236 and a v7 one up to the year 10889. Such a row raises by default,
    rather than being confused with a row that has no timestamp.

    Args:
        uuids: A column of UUIDs: see :mod:`uuidx.arrow`.
        errors: ``"raise"`` (default): a timestamp outside the ``int64`` range raises;
            ``"null"``: such rows become null.

    Raises:
        ValueError: a timestamp outside the range (the message names the row, the
            nanoseconds and the UUID), or ``errors`` is neither ``"raise"`` nor ``"null"``.
        TypeError: ``uuids`` is not a column of UUIDs.
    """

"""Type stubs for ``uuidx._core``, the Rust extension module (hand-written; checked against the
built module by ``python -m mypy.stubtest uuidx._core``)."""

from typing import Callable, Literal, Optional, SupportsIndex, Union, final
from uuid import UUID

from typing_extensions import Buffer

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
    "_deterministic_install",
    "_deterministic_uninstall",
    "_debug_build",
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

_Name = Union[str, bytes, bytearray, memoryview, Buffer]
_Int = SupportsIndex
_Clock = Callable[[], int]
"""Returns the time in nanoseconds since 1970."""
_Random = Union[Callable[[int], Buffer], int]
"""``random(n)`` returns ``n`` random bytes; an int is a seed for a reproducible stream."""
_V7Method = Literal["submillisecond", "counter", "monotonic_random", "cpython"]
_Form = Literal[
    "hex",
    "hyphenated",
    "urn",
    "braced",
    "base32",
    "ulid",
    "base32hex",
    "base58",
    "base62",
    "base64url",
]
"""The names of the text encodings of :func:`encode` and :func:`decode`."""

class ClockError(RuntimeError):
    """The clock cannot give a time-based UUID a timestamp: it reads before 1970, or (the
    subclass ClockRollbackError) it went back further than a generator allows."""

class ClockRollbackError(ClockError):
    """The clock went back further than a generator's rollback allowance and its policy is
    'error'."""

class NamespaceTypeError(TypeError, AttributeError): ...

def uuid1(node: Optional[_Int] = None, clock_seq: Optional[_Int] = None) -> UUID: ...
def uuid3(namespace: UUID, name: _Name) -> UUID: ...
def uuid4() -> UUID: ...
def uuid5(namespace: UUID, name: _Name) -> UUID: ...
def uuid6(node: Optional[_Int] = None, clock_seq: Optional[_Int] = None) -> UUID: ...
def uuid7() -> UUID: ...
def uuid8(a: Optional[_Int] = None, b: Optional[_Int] = None, c: Optional[_Int] = None) -> UUID: ...
def uuid8_name(
    namespace: UUID,
    name: _Name,
    algorithm: Optional[
        Literal["sha256", "sha512", "sha3_256", "sha3_512", "shake_128", "shake_256"]
    ] = ...,
) -> UUID: ...
def parse(s: str) -> UUID: ...
def layout_v1(time_100ns: _Int, clock_seq: _Int, node: _Int) -> UUID: ...
def layout_v2(
    local_domain: _Int, local_id: _Int, time_100ns: _Int, clock_seq: _Int, node: _Int
) -> UUID: ...
def layout_v4(random: Buffer) -> UUID: ...
def layout_v6(time_100ns: _Int, clock_seq: _Int, node: _Int) -> UUID: ...
def layout_v7(unix_ts_ms: _Int, rand_a: _Int, rand_b: _Int) -> UUID: ...
def layout_v8(custom_a: _Int, custom_b: _Int, custom_c: _Int) -> UUID: ...
def fields(u: UUID) -> tuple[str, tuple[str, ...], tuple[int, ...]]: ...
def timestamp_ns(u: UUID) -> int: ...
def v1_to_v6(u: UUID) -> UUID: ...
def v6_to_v1(u: UUID) -> UUID: ...
def process_node() -> int: ...
def uuid7_at_ns(unix_ns: int) -> UUID: ...
def min_uuid7_ns(unix_ns: int) -> UUID: ...
def max_uuid7_ns(unix_ns: int) -> UUID: ...
def to_str(u: UUID) -> str: ...
def uuid4_str() -> str: ...
def uuid7_str() -> str: ...
def uuid4_many(n: int) -> list[UUID]: ...
def uuid7_many(n: int) -> list[UUID]: ...
def uuid4_str_many(n: int) -> list[str]: ...
def uuid7_str_many(n: int) -> list[str]: ...
def uuid4_bytes(n: int) -> bytes: ...
def uuid7_bytes(n: int) -> bytes: ...
def encode(u: UUID, form: _Form) -> str:
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

def decode(s: str, form: _Form) -> UUID:
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
    """The TypeID of ``u`` with type ``prefix`` (jetify-com/typeid, specification v0.3).

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
def _deterministic_install(seed: Buffer, start_ns: int, step_ns: int) -> int: ...
def _deterministic_uninstall(token: int) -> bool: ...
def mask_v7(u: UUID, key: Buffer) -> UUID:
    """The v4-looking facade of version 7 UUID ``u`` under the 16-byte ``key`` (UUIDv47)."""

def unmask_v7(u: UUID, key: Buffer) -> UUID:
    """The version 7 UUID behind the facade ``u`` under the 16-byte ``key`` (UUIDv47)."""

def v7_generator_fields(
    u: UUID, method: _V7Method, bits: Optional[int] = None, node_bits: Optional[int] = None
) -> tuple[int, int, int, int, int]: ...
def _uses_slot_stores() -> bool: ...
def _uses_int_digits() -> bool: ...
def _uses_gc_new() -> bool: ...
def _short_repr(obj: object) -> str: ...
def _debug_build() -> bool: ...

@final
class V7Generator:
    def __new__(
        cls,
        method: _V7Method = "submillisecond",
        bits: Optional[int] = None,
        *,
        rollback_allowance_ns: Optional[int] = 10_000_000_000,
        rollback_policy: Optional[Literal["reset", "error"]] = "reset",
        clock: Optional[_Clock] = None,
        random: Optional[_Random] = None,
        node: Optional[int] = None,
        node_bits: Optional[int] = None,
    ) -> V7Generator: ...
    def generate(self) -> UUID: ...
    def many(self, n: int) -> list[UUID]: ...
    def fields(self, u: UUID) -> tuple[int, int, int, int, int]: ...
    @property
    def method(self) -> str: ...
    @property
    def bits(self) -> int: ...
    @property
    def rollback_allowance_ns(self) -> Optional[int]: ...
    @property
    def rollback_policy(self) -> Optional[str]: ...
    @property
    def node(self) -> Optional[int]: ...
    @property
    def node_bits(self) -> int: ...

@final
class V6Generator:
    def __new__(
        cls,
        node: Optional[_Int] = None,
        *,
        rollback_allowance_ns: int = 10_000_000_000,
        rollback_policy: Literal["reset", "error"] = "reset",
        clock: Optional[_Clock] = None,
        random: Optional[_Random] = None,
    ) -> V6Generator: ...
    def generate(self) -> UUID: ...
    @property
    def node(self) -> int: ...
    @property
    def rollback_allowance_ns(self) -> int: ...
    @property
    def rollback_policy(self) -> str: ...

@final
class V1Generator:
    def __new__(
        cls,
        node: Optional[_Int] = None,
        *,
        rollback_allowance_ns: int = 10_000_000_000,
        rollback_policy: Literal["reset", "error"] = "reset",
        clock: Optional[_Clock] = None,
        random: Optional[_Random] = None,
    ) -> V1Generator: ...
    def generate(self) -> UUID: ...
    @property
    def node(self) -> int: ...
    @property
    def rollback_allowance_ns(self) -> int: ...
    @property
    def rollback_policy(self) -> str: ...

# uuidx.arrow (typed more precisely in uuidx/arrow.py)

class _ReadOnlyBytes:
    def __buffer__(self, flags: int, /) -> memoryview: ...
    def __release_buffer__(self, buffer: memoryview, /) -> None: ...

@final
class UUIDArray(_ReadOnlyBytes):
    def __len__(self) -> int: ...
    @property
    def extension(self) -> bool: ...
    @property
    def null_count(self) -> int: ...
    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...
    def to_pylist(self) -> list[Optional[UUID]]: ...

@final
class ArrowArray:
    def __len__(self) -> int: ...
    @property
    def null_count(self) -> int: ...
    @property
    def type(self) -> str: ...
    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...
    def to_pylist(self) -> list[Union[str, int, None]]: ...

def arrow_uuid4(n: int, extension: bool = True) -> UUIDArray: ...
def arrow_uuid7(n: int, extension: bool = True) -> UUIDArray: ...
def arrow_uuid3(namespace: UUID, names: object, extension: bool = True) -> UUIDArray: ...
def arrow_uuid5(namespace: UUID, names: object, extension: bool = True) -> UUIDArray: ...
def arrow_uuid8_name(
    namespace: UUID, names: object, algorithm: Optional[str] = ..., extension: bool = True
) -> UUIDArray: ...
def arrow_parse(strings: object, errors: Optional[str] = ..., extension: bool = True) -> UUIDArray: ...
def arrow_uuids(uuids: object, extension: bool = True) -> UUIDArray: ...
def arrow_to_str(uuids: object) -> ArrowArray: ...
def arrow_encode(uuids: object, form: _Form) -> ArrowArray: ...
def arrow_decode(
    strings: object, form: _Form, errors: Optional[str] = ..., extension: bool = True
) -> UUIDArray: ...
def arrow_mask_v7(
    uuids: object, key: Buffer, errors: Optional[str] = ..., extension: bool = True
) -> UUIDArray: ...
def arrow_unmask_v7(
    uuids: object, key: Buffer, errors: Optional[str] = ..., extension: bool = True
) -> UUIDArray: ...
def arrow_timestamp_ns(uuids: object, errors: Optional[str] = ...) -> ArrowArray: ...

//! The lock-free monotonic version 7 generator ([RFC 9562 §5.7](https://www.rfc-editor.org/rfc/rfc9562#section-5.7), [§6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2) Methods 1-3).
//!
//! A version 7 UUID has 74 bits after its 48-bit millisecond timestamp. The generator splits
//! them, left to right, into `F` bits of sub-millisecond time (Method 3), `C` counter bits
//! (Method 1; Method 2 makes all 74 a randomly incremented counter) and `R` fresh random bits:
//!
//! ```text
//! unix_ts_ms (48) | fraction (F) | counter (C) | random (R)     with F + C + R = 74
//! ```
//!
//! The *key* `unix_ts_ms | fraction | counter` is the generator's whole state. When it fits
//! 64 bits (Method 3 with up to 10 counter bits, the default; Method 1 with up to 22) it is one
//! `AtomicU64` advanced by `fetch_add` (the `word` module); otherwise one `AtomicU128` advanced
//! by compare-and-swap (the `engine` module), which also takes over a word's layout for
//! readings past 2109, where 42 bits of milliseconds end. A new tick seeds the counter randomly with
//! its top bit clear (the rollover guard); the same tick (or a clock within the rollback
//! allowance behind it) increments the last key. Because the key is one integer, a counter
//! that overflows carries into the fraction and the timestamp, moving them ahead of the clock
//! as [§6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2) allows, and never repeats a value. The random bits are drawn fresh for each UUID
//! and are not part of the state.

use super::engine::{Engine, Geometry, Step, Tick, TimeBase};
use super::word::{Outcome, Rules, Shape, Word};
use super::{out_of_range, RollbackPolicy};
use crate::clock::{Clock, SystemClock};
use crate::fork::{ForkSource, ProcessFork};
use crate::layout::low_bits;
use crate::random::{RandomSource, ThreadRandom};
use crate::{Error, ErrorKind, Result, Uuid};

/// How the 74 bits after the timestamp are used ([RFC 9562 §6.2](https://www.rfc-editor.org/rfc/rfc9562#section-6.2)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum V7Method {
    /// Method 1, fixed bit-length dedicated counter: `bits` (12 to 42) counter bits after the
    /// timestamp, seeded randomly each millisecond with the top bit clear as a rollover guard,
    /// then `74 - bits` fresh random bits. `Counter { bits: 42 }` is CPython 3.14's layout.
    Counter {
        /// Counter width, 12 to 42.
        bits: u32,
    },
    /// Method 2, monotonic random: all 74 bits are a counter seeded randomly each
    /// millisecond (top bit clear) and incremented by a random amount from 1 to
    /// `2**increment_bits` (1 to 32).
    MonotonicRandom {
        /// Width of the random increment, 1 to 32.
        increment_bits: u32,
    },
    /// Method 3, increased clock precision: `rand_a` holds the fraction of the millisecond in
    /// 1/4096 ms (about 244 ns), then `counter_bits` (0 to 30) of counter seeded randomly each
    /// tick, then fresh random bits. With no counter bits, a repeated tick advances by one
    /// 1/4096 ms step, as PostgreSQL 18 does.
    SubMillisecond {
        /// Counter width after the fraction, 0 to 30.
        counter_bits: u32,
    },
    /// CPython 3.14's `uuid.uuid7()`, step for step: Method 1 with a 42-bit counter seeded
    /// (top bit clear) from 10 random bytes on a new millisecond, then incremented with 4 fresh
    /// random bytes for the 32-bit tail; a clock that went back continues one millisecond after
    /// the last timestamp, and a counter overflow moves to the next millisecond with a new
    /// seed. Fed the same clock readings and random bytes it returns exactly what 3.14 returns;
    /// it has no rollback allowance or policy of its own.
    CPython,
}

impl V7Method {
    /// uuidx's default: Method 3 followed by a 10-bit counter. Sub-millisecond ordering across
    /// processes, 52 fresh random bits in every UUID, at least 512 UUIDs per 244 ns tick before
    /// the counter carries into the clock (over 2 billion a second), and a key (timestamp,
    /// fraction, counter) of 64 bits: the state is one word advanced by `fetch_add`.
    pub const DEFAULT: Self = Self::SubMillisecond { counter_bits: 10 };

    /// PostgreSQL 18's `uuidv7()` layout: Method 3 with no counter, so the 12-bit fraction is
    /// followed by 62 fresh random bits, and a call within the last UUID's 1/4096 ms tick moves
    /// one tick ahead (PostgreSQL moves its clock reading at least 245 ns ahead). Named
    /// `postgresql` by [`V7Method::from_name`].
    pub const POSTGRESQL: Self = Self::SubMillisecond { counter_bits: 0 };

    /// Names for the layouts of other systems, each a method with a fixed width:
    /// [`V7Method::from_name`] takes them as it takes the methods' own names.
    pub const PRESETS: [(&'static str, Self); 1] = [("postgresql", Self::POSTGRESQL)];

    /// Every method with its default width, the default first.
    pub const ALL: [Self; 4] = [
        Self::DEFAULT,
        Self::Counter { bits: 42 },
        Self::MonotonicRandom { increment_bits: 32 },
        Self::CPython,
    ];

    /// The method's name: `counter` (Method 1), `monotonic_random` (Method 2),
    /// `submillisecond` (Method 3) or `cpython` (CPython 3.14's algorithm).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Counter { .. } => "counter",
            Self::MonotonicRandom { .. } => "monotonic_random",
            Self::SubMillisecond { .. } => "submillisecond",
            Self::CPython => "cpython",
        }
    }

    /// The method's width parameter: counter bits for Methods 1 and 3, increment bits for
    /// Method 2.
    pub const fn bits(self) -> u32 {
        match self {
            Self::Counter { bits } => bits,
            Self::MonotonicRandom { increment_bits } => increment_bits,
            Self::SubMillisecond { counter_bits } => counter_bits,
            Self::CPython => CPYTHON_COUNTER_BITS,
        }
    }

    /// The method named `name` (see [`V7Method::name`]) with width `bits`, or its default
    /// width: 42 counter bits for `counter` (CPython 3.14's layout), 32 increment bits for
    /// `monotonic_random`, 10 counter bits for `submillisecond`; `cpython` has a fixed 42.
    /// `postgresql` names the preset [`V7Method::POSTGRESQL`] (`submillisecond` with no
    /// counter bits), whose width is fixed too.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for an unknown name or a width outside the method's range.
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::generator::V7Method;
    /// assert_eq!(V7Method::from_name("counter", None).unwrap(), V7Method::Counter { bits: 42 });
    /// assert!(V7Method::from_name("counter", Some(8)).is_err());
    /// assert_eq!(V7Method::from_name("postgresql", None).unwrap(), V7Method::POSTGRESQL);
    /// ```
    pub fn from_name(name: &str, bits: Option<u32>) -> Result<Self> {
        if let Some(&(_, method)) = Self::PRESETS.iter().find(|(n, _)| *n == name) {
            return match bits {
                None => Ok(method),
                Some(b) if b == method.bits() => Ok(method),
                Some(other) => Err(Error::new(ErrorKind::InvalidOption {
                    option: "bits",
                    value: other.to_string(),
                    expected: "none, or the preset's own width (a preset fixes its widths)",
                })),
            };
        }
        let method = match name {
            "counter" => Self::Counter {
                bits: bits.unwrap_or(42),
            },
            "monotonic_random" => Self::MonotonicRandom {
                increment_bits: bits.unwrap_or(32),
            },
            "submillisecond" => Self::SubMillisecond {
                counter_bits: bits.unwrap_or(10),
            },
            "cpython" => match bits {
                None | Some(CPYTHON_COUNTER_BITS) => Self::CPython,
                Some(other) => {
                    return Err(Error::new(ErrorKind::InvalidOption {
                        option: "counter bits",
                        value: other.to_string(),
                        expected: "42, the fixed width of the cpython method (or none)",
                    }))
                }
            },
            _ => {
                return Err(Error::new(ErrorKind::InvalidOption {
                    option: "method",
                    value: format!("{:?}", crate::error::shorten(name)),
                    expected:
                        "'counter', 'monotonic_random', 'submillisecond', 'cpython' or 'postgresql'",
                }))
            }
        };
        method.validate()
    }

    /// The bit widths `(fraction, counter, random)` this method gives the 74 bits after the
    /// timestamp, in that order.
    pub const fn widths(self) -> (u32, u32, u32) {
        match self {
            Self::Counter { bits } => (0, bits, 74 - bits),
            Self::MonotonicRandom { .. } => (0, 74, 0),
            Self::SubMillisecond { counter_bits } => (12, counter_bits, 62 - counter_bits),
            Self::CPython => (0, CPYTHON_COUNTER_BITS, 74 - CPYTHON_COUNTER_BITS),
        }
    }

    fn validate(self) -> Result<Self> {
        let (option, value, ok, expected) = match self {
            Self::Counter { bits } => ("counter bits", bits, (12..=42).contains(&bits), "12 to 42"),
            Self::MonotonicRandom { increment_bits } => (
                "increment bits",
                increment_bits,
                (1..=32).contains(&increment_bits),
                "1 to 32",
            ),
            Self::SubMillisecond { counter_bits } => {
                ("counter bits", counter_bits, counter_bits <= 30, "0 to 30")
            }
            Self::CPython => return Ok(self),
        };
        if ok {
            Ok(self)
        } else {
            Err(Error::new(ErrorKind::InvalidOption {
                option,
                value: value.to_string(),
                expected,
            }))
        }
    }
}

/// The counter width of CPython 3.14's `uuid7()`.
const CPYTHON_COUNTER_BITS: u32 = 42;
/// The largest value of its counter.
const CPYTHON_COUNTER_MAX: u128 = (1 << CPYTHON_COUNTER_BITS) - 1;

/// A monotonic version 7 generator (see the module documentation). Share one between
/// threads by reference; it is `Sync` and lock-free.
///
/// It is 64-byte aligned so that its state has a cache line of its own: keep it in a
/// `static`, on the stack or in a `Box`, which honour the alignment (an allocator that does
/// not, such as a Python object's, must hold it boxed).
///
/// # Examples
/// ```
/// use uuidx_core::generator::{V7Generator, V7Method, RollbackPolicy};
/// let g = V7Generator::new(V7Method::Counter { bits: 42 }, 10_000_000_000, RollbackPolicy::Error).unwrap();
/// let (a, b) = (g.generate().unwrap(), g.generate().unwrap());
/// assert!(a < b);
/// assert_eq!(b.version_number(), Some(7));
/// ```
#[derive(Debug)]
#[repr(C, align(64))]
pub struct V7Generator<C = SystemClock, R = ThreadRandom, F = ProcessFork> {
    /// First, so that the wait-free state opens the cache line.
    word: Word,
    /// The 128-bit state: every layout's past the word's window, and the whole of the
    /// layouts whose key does not fit a word.
    engine: Engine<C, F>,
    /// Which path [`V7Generator::generate`] takes: the word's unless the key does not fit it.
    lane: Lane,
    /// The word's shape and rollback rules (unused on the `CPython` and `Wide` lanes).
    word_rules: Rules,
    method: V7Method,
    /// The method's widths, as the 128-bit engine uses them.
    wide: WideLayout,
    /// The `Wide` lane's step, compiled for this method and width.
    wide_step: fn(&Self) -> Result<Uuid>,
    /// A fixed node id of `node_bits` bits at the top of the random part ([RFC 9562 §6.4](https://www.rfc-editor.org/rfc/rfc9562#section-6.4)).
    node: u64,
    node_bits: u32,
    random: R,
}

impl V7Generator<SystemClock, ThreadRandom> {
    /// The default generator on the system clock and the thread CSPRNG, usable in a `static`.
    pub const fn const_default() -> Self {
        Self::build(
            V7Method::DEFAULT,
            super::DEFAULT_ROLLBACK_ALLOWANCE_NS,
            RollbackPolicy::Reset,
            SystemClock,
            ThreadRandom,
            ProcessFork,
        )
    }

    /// A generator on the system clock and the thread CSPRNG.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for a method parameter outside its range.
    pub fn new(method: V7Method, allowance_ns: u64, policy: RollbackPolicy) -> Result<Self> {
        Self::with_sources(method, allowance_ns, policy, SystemClock, ThreadRandom)
    }
}

impl<C: Clock, R: RandomSource> V7Generator<C, R> {
    /// A generator on the given clock and random source.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for a method parameter outside its range.
    pub fn with_sources(
        method: V7Method,
        allowance_ns: u64,
        policy: RollbackPolicy,
        clock: C,
        random: R,
    ) -> Result<Self> {
        Ok(Self::build(
            method.validate()?,
            allowance_ns,
            policy,
            clock,
            random,
            ProcessFork,
        ))
    }
}

impl<C: Clock, R: RandomSource, F: ForkSource> V7Generator<C, R, F> {
    const fn build(
        method: V7Method,
        allowance_ns: u64,
        policy: RollbackPolicy,
        clock: C,
        random: R,
        fork: F,
    ) -> Self {
        let (fraction_bits, counter_bits, _) = method.widths();
        let wide = WideLayout::of(method);
        // CPython's algorithm has no allowance: it never fails and never follows the clock back.
        let (allowance_ns, policy) = match method {
            V7Method::CPython => (u64::MAX, RollbackPolicy::Reset),
            _ => (allowance_ns, policy),
        };
        let shape = match method {
            V7Method::Counter { .. } | V7Method::SubMillisecond { .. } => {
                Shape::fitting(fraction_bits, counter_bits)
            }
            V7Method::MonotonicRandom { .. } | V7Method::CPython => None,
        };
        let lane = match (method, shape) {
            (V7Method::CPython, _) => Lane::CPython,
            (_, None) => Lane::Wide,
            (V7Method::DEFAULT, Some(_)) => Lane::Default,
            (_, Some(_)) => Lane::Word,
        };
        let shape = match shape {
            Some(shape) => shape,
            None => DEFAULT_SHAPE,
        };
        Self {
            word: Word::new(),
            lane,
            word_rules: Rules {
                shape,
                allowance_ns,
                allowance_ticks: shape.ticks_in(allowance_ns),
                policy,
            },
            engine: Engine::new(wide.geometry, allowance_ns, policy, clock, fork),
            method,
            wide,
            wide_step: Self::wide_step(method),
            node: 0,
            node_bits: 0,
            random,
        }
    }

    /// The same generator with a fixed `node_bits`-bit node id (1 to 32) right after the
    /// counter, in the top bits of the random part ([RFC 9562 §6.4](https://www.rfc-editor.org/rfc/rfc9562#section-6.4), "distributed UUID
    /// generation"): generators with different node ids never make the same UUID, and each
    /// stays monotonic. The random part keeps `random_bits - node_bits` fresh bits.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for `node_bits` outside 1 to 32, more node bits than the
    /// method leaves random (Method 2 leaves none), or the `cpython` method (whose layout is
    /// CPython's); [`ErrorKind::FieldOutOfRange`] for a node that does not fit.
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::generator::{V7Generator, V7Method, RollbackPolicy};
    /// let g = V7Generator::new(V7Method::DEFAULT, 10_000_000_000, RollbackPolicy::Reset)
    ///     .unwrap()
    ///     .with_node(0xAB, 8)
    ///     .unwrap();
    /// // 12 + 10 bits of fraction and counter come first, then the node.
    /// let u = g.generate().unwrap();
    /// let f = uuidx_core::layout::v7::GeneratorFields::of(u, 12, 10, 8).unwrap();
    /// assert_eq!(f.node, 0xAB);
    /// ```
    pub fn with_node(mut self, node: u64, node_bits: u32) -> Result<Self> {
        let invalid = |expected: &'static str| {
            Error::new(ErrorKind::InvalidOption {
                option: "node bits",
                value: node_bits.to_string(),
                expected,
            })
        };
        if !(1..=32).contains(&node_bits) {
            return Err(invalid("1 to 32"));
        }
        if self.method == V7Method::CPython {
            return Err(invalid(
                "none with the cpython method, whose layout is CPython's",
            ));
        }
        if node_bits > self.wide.random_bits {
            return Err(invalid(
                "at most the random bits the method leaves (none with monotonic_random)",
            ));
        }
        crate::layout::check_field("node", node, node_bits)?;
        self.node = node;
        self.node_bits = node_bits;
        if self.lane == Lane::Default {
            self.lane = Lane::Word;
        }
        Ok(self)
    }

    /// The same generator watching `fork` for forks instead of the process (for tests that
    /// simulate a fork).
    pub fn with_fork_source<G: ForkSource>(self, fork: G) -> V7Generator<C, R, G> {
        V7Generator {
            word: Word::new(),
            lane: self.lane,
            word_rules: self.word_rules,
            engine: self.engine.with_fork(fork),
            method: self.method,
            wide: self.wide,
            wide_step: V7Generator::wide_step(self.method),
            node: self.node,
            node_bits: self.node_bits,
            random: self.random,
        }
    }

    /// The width of the generator's state: 64 for the layouts whose key fits one word
    /// advanced by `fetch_add` (the default, Method 3 with up to 10 counter bits, Method 1
    /// with up to 22), 128 for the others (a compare-and-swap on a 128-bit word).
    pub fn state_bits(&self) -> u32 {
        if self.lane.on_the_word() {
            64
        } else {
            128
        }
    }

    /// Whether [`V7Generator::generate`] takes no lock on this machine: whether the atomics of
    /// the state its layout uses do ([`V7Generator::state_bits`]). The 64-bit word is lock-free
    /// wherever the crate builds. The 128-bit word is lock-free where the processor has a
    /// 128-bit compare-and-swap (x86-64 with `cmpxchg16b`, detected at run time; AArch64;
    /// powerpc64le; s390x); elsewhere (32-bit ARM and x86) portable-atomic guards it with one of
    /// its global seqlocks, and generation stays correct but can wait for another thread.
    ///
    /// A layout on the word moves to the 128-bit word for clock readings from 2109-05-15, past
    /// its window; this answer is for readings before. It covers the state only: the default
    /// clock and random source take no lock, a caller's own may.
    ///
    /// # Examples
    /// ```
    /// use uuidx_core::generator::{V7Generator, V7Method, RollbackPolicy};
    /// let g = V7Generator::new(V7Method::DEFAULT, 10_000_000_000, RollbackPolicy::Reset).unwrap();
    /// assert!(g.is_lock_free()); // the 64-bit word
    /// ```
    pub fn is_lock_free(&self) -> bool {
        if self.lane.on_the_word() {
            Word::is_lock_free()
        } else {
            Engine::<C, F>::is_lock_free()
        }
    }

    /// The node id and its width in bits (0 without one).
    pub fn node(&self) -> (u64, u32) {
        (self.node, self.node_bits)
    }

    /// The method in use.
    pub fn method(&self) -> V7Method {
        self.method
    }

    /// The rollback allowance in nanoseconds.
    pub fn rollback_allowance_ns(&self) -> u64 {
        self.engine.allowance_ns()
    }

    /// The rollback policy.
    pub fn policy(&self) -> RollbackPolicy {
        self.engine.policy()
    }

    /// The clock it reads.
    pub fn clock(&self) -> &C {
        self.engine.clock()
    }

    /// The random source it draws from.
    pub fn random(&self) -> &R {
        &self.random
    }

    /// The fork source it watches.
    pub fn fork_source(&self) -> &F {
        self.engine.fork_source()
    }

    /// The next UUID, greater than every UUID this generator returned before.
    ///
    /// # Errors
    /// [`ErrorKind::ClockRollback`] under [`RollbackPolicy::Error`]; a clock or random source
    /// error; a timestamp error after the year 10889.
    #[inline]
    pub fn generate(&self) -> Result<Uuid> {
        match self.lane {
            // The default layout, without a node: its widths are constants, so no shift or
            // mask is by a width read from memory.
            Lane::Default => self.generate_word(
                Rules {
                    shape: DEFAULT_SHAPE,
                    ..self.word_rules
                },
                DEFAULT_RANDOM_BITS,
                false,
            ),
            Lane::Word => self.generate_word(self.word_rules, self.wide.random_bits, true),
            Lane::CPython => self.generate_cpython(),
            Lane::Wide => (self.wide_step)(self),
        }
    }

    /// The `Wide` lane's step for `method`: compiled for each method and width whose key does
    /// not fit the word (Method 1 with 23 to 42 counter bits, Method 2 with every increment,
    /// Method 3 with 11 to 30 counter bits), so that every shift and mask of the step is by a
    /// constant; the others (on the word, or `cpython`) never take it and get the step on the
    /// generator's own widths.
    const fn wide_step(method: V7Method) -> fn(&Self) -> Result<Uuid> {
        macro_rules! compiled {
            ($kind:ident, $bits:expr, $($b:literal)*) => {
                match $bits {
                    $($b => Self::generate_wide_as::<$kind, $b> as fn(&Self) -> Result<Uuid>,)*
                    _ => Self::generate_wide,
                }
            };
        }
        match method {
            V7Method::Counter { bits } => compiled!(
                COUNTER, bits,
                23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42
            ),
            V7Method::MonotonicRandom { increment_bits } => compiled!(
                MONOTONIC_RANDOM, increment_bits,
                1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            ),
            V7Method::SubMillisecond { counter_bits } => compiled!(
                SUBMILLISECOND, counter_bits,
                11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
            ),
            V7Method::CPython => Self::generate_wide,
        }
    }

    /// One UUID on the 128-bit engine, for the method numbered `KIND` with width `BITS`: the
    /// step with its widths as constants.
    fn generate_wide_as<const KIND: u8, const BITS: u32>(&self) -> Result<Uuid> {
        self.generate_wide_in(const { WideLayout::of(wide_method(KIND, BITS)) })
    }

    /// One UUID on the 128-bit engine with the generator's own widths.
    fn generate_wide(&self) -> Result<Uuid> {
        self.generate_wide_in(self.wide)
    }

    /// One UUID on the 128-bit engine with the widths `w` (the generator's).
    #[inline(always)]
    fn generate_wide_in(&self, w: WideLayout) -> Result<Uuid> {
        let entropy = self.draw(w.entropy_bits)?;
        let key = self.reserve_in(w, 1, entropy)?;
        Ok(pack(
            key,
            entropy as u64,
            w.random_bits,
            self.node,
            self.node_bits,
        ))
    }

    /// One UUID of a layout whose key fits the word, with `random_bits` after the key (the
    /// generator's own, passed as a constant on the default path) and the node if `node`.
    #[inline(always)]
    fn generate_word(&self, rules: Rules, random_bits: u32, node: bool) -> Result<Uuid> {
        let c = rules.shape.counter_bits;
        let entropy = self.draw(random_bits + c.saturating_sub(1))?;
        match self.word.reserve(
            rules,
            1,
            seed_of(entropy, random_bits, c),
            self.engine.clock(),
            self.engine.fork_source(),
            || self.fork_jump(c),
        )? {
            Outcome::Keys(key) if !node => {
                Ok(pack(u128::from(key), entropy as u64, random_bits, 0, 0))
            }
            Outcome::Keys(key) => Ok(self.compose(u128::from(key), entropy as u64)),
            Outcome::Wide => {
                let key = self.reserve_wide(1, entropy)?;
                Ok(self.compose(key, entropy as u64))
            }
        }
    }

    /// At least `bits` random bits: one 64-bit draw when that is enough.
    #[inline(always)]
    fn draw(&self, bits: u32) -> Result<u128> {
        if bits <= 64 {
            Ok(u128::from(self.random.next_u64()?))
        } else {
            self.random.next_u128()
        }
    }

    /// The keys a forked child skips on its first step: a random count below `2^(c-1)` (at
    /// most `2^32`), so that it and its parent, which continue from one state, are unlikely to
    /// step through the same counter values.
    fn fork_jump(&self, c: u32) -> Result<u64> {
        Ok(if c > 1 {
            self.random.next_u64()? & ((1 << (c - 1).min(32)) - 1)
        } else {
            0
        })
    }

    /// Fills `out` with consecutive UUIDs of this generator's sequence: each greater than the
    /// one before and than everything generated before the call. Methods 1 and 3 reserve the
    /// run with one compare-and-swap per 1024 UUIDs.
    ///
    /// # Errors
    /// As [`V7Generator::generate`]; `out` is then partly filled.
    pub fn fill(&self, out: &mut [Uuid]) -> Result<()> {
        self.fill_with(out.len(), |i, u| out[i] = u)
    }

    /// Writes `out.len() / 16` consecutive UUIDs of the sequence into `out` as 16-byte
    /// big-endian records (see [`V7Generator::fill`]).
    ///
    /// # Errors
    /// As [`V7Generator::generate`]; [`ErrorKind::InvalidLength`] unless `out.len()` is a
    /// multiple of 16.
    pub fn fill_bytes(&self, out: &mut [u8]) -> Result<()> {
        if !out.len().is_multiple_of(16) {
            return Err(Error::invalid_length(
                "a buffer of UUIDs (a multiple of 16)",
                out.len().next_multiple_of(16),
                out.len(),
            ));
        }
        self.fill_with(out.len() / 16, |i, u| {
            out[16 * i..16 * i + 16].copy_from_slice(&u.to_bytes());
        })
    }

    /// Generates `n` consecutive UUIDs of the sequence, handing each to `sink` with its index.
    ///
    /// # Errors
    /// As [`V7Generator::generate`].
    pub fn fill_with(&self, n: usize, mut sink: impl FnMut(usize, Uuid)) -> Result<()> {
        const CHUNK: usize = 1024;
        if let V7Method::MonotonicRandom { .. } | V7Method::CPython = self.method {
            for i in 0..n {
                sink(i, self.generate()?);
            }
            return Ok(());
        }
        let mut tails = [0u8; 8 * CHUNK];
        let mut start = 0;
        while start < n {
            let len = CHUNK.min(n - start);
            let first = self.reserve(len as u64, self.random.next_u128()?)?;
            self.random.fill(&mut tails[..8 * len])?;
            for (i, tail) in tails[..8 * len].chunks_exact(8).enumerate() {
                let mut word = [0u8; 8];
                word.copy_from_slice(tail);
                let tail = u64::from_ne_bytes(word);
                sink(start + i, self.compose(first + i as u128, tail));
            }
            start += len;
        }
        Ok(())
    }

    /// Reserves `count` consecutive keys and returns the first. `entropy` supplies the counter
    /// seed; its low `random_bits` are left for the UUID.
    fn reserve(&self, count: u64, entropy: u128) -> Result<u128> {
        if self.lane.on_the_word() {
            let rules = self.word_rules;
            let c = rules.shape.counter_bits;
            if let Outcome::Keys(key) = self.word.reserve(
                rules,
                count.max(1),
                seed_of(entropy, self.wide.random_bits, c),
                self.engine.clock(),
                self.engine.fork_source(),
                || self.fork_jump(c),
            )? {
                return Ok(u128::from(key));
            }
        }
        self.reserve_wide(count, entropy)
    }

    /// [`V7Generator::reserve`] on the 128-bit engine, with the generator's own widths.
    fn reserve_wide(&self, count: u64, entropy: u128) -> Result<u128> {
        self.reserve_in(self.wide, count, entropy)
    }

    /// [`V7Generator::reserve`] on the 128-bit engine with the widths `w` (the generator's,
    /// possibly as constants). `entropy` supplies the counter seed and, for Method 2, the
    /// increment; its low `random_bits` are left for the UUID.
    #[inline(always)]
    fn reserve_in(&self, w: WideLayout, count: u64, entropy: u128) -> Result<u128> {
        let c = w.counter_bits;
        let above_random = entropy >> w.random_bits;
        let (seed, step) = if w.increment_bits > 0 {
            let step = (above_random & ((1 << w.increment_bits) - 1)) + 1;
            (
                (above_random >> w.increment_bits) & ((1 << (c - 1)) - 1),
                step,
            )
        } else {
            (u128::from(seed_of(entropy, w.random_bits, c)), 1)
        };
        let span = u128::from(count.max(1)) - 1;
        let key_bits = w.geometry.key_bits();
        let mut jump = None;
        self.engine.advance_in(w.geometry, |s: &Step| {
            let first = match s.tick {
                Tick::Behind { last, .. } | Tick::Overtaken { last } => {
                    // A forked child jumps ahead by a random amount, so that it and its
                    // parent, which continue from the same state, are unlikely to step
                    // through the same counter values.
                    let jump = if s.forked {
                        match jump {
                            Some(j) => j,
                            None => *jump.insert(u128::from(self.fork_jump(c)?)),
                        }
                    } else {
                        0
                    };
                    last + step + jump
                }
                Tick::First { now } | Tick::New { now, .. } | Tick::Reset { now, .. } => {
                    (u128::from(now.ticks()) << c) | seed
                }
            };
            let end = first + span;
            if end >> key_bits != 0 {
                return Err(ms_out_of_range(end >> (key_bits - 48)));
            }
            Ok((end, first))
        })
    }

    /// Puts a generator of the `cpython` method in the state CPython 3.14's module is in after
    /// a `uuid7()` that used `timestamp_ms` and `counter` (its `_last_timestamp_v7` and
    /// `_last_counter_v7`), so that the next UUID is the one 3.14's next call makes from there.
    ///
    /// For tests only: no input reaches the 42-bit counter's overflow in either implementation
    /// (the seed's top bit is clear, so it takes 2**41 calls within one clock millisecond), and
    /// the tests that compare the overflow with 3.14's own module start both from one state.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for another method; [`ErrorKind::FieldOutOfRange`] for a
    /// timestamp of 2**48 ms or more or a counter of more than 42 bits.
    #[doc(hidden)]
    pub fn resume_cpython(&self, timestamp_ms: u64, counter: u64) -> Result<()> {
        if self.method != V7Method::CPython {
            return Err(Error::new(ErrorKind::InvalidOption {
                option: "method",
                value: self.method.name().to_owned(),
                expected: "cpython",
            }));
        }
        crate::layout::check_field("timestamp_ms", timestamp_ms, 48)?;
        crate::layout::check_field("counter", counter, CPYTHON_COUNTER_BITS)?;
        self.engine
            .restore((u128::from(timestamp_ms) << CPYTHON_COUNTER_BITS) | u128::from(counter))
    }

    /// CPython 3.14's `uuid7()` step (see [`V7Method::CPython`]). Kept out of line, so that
    /// it does not weigh on [`V7Generator::generate`]'s other methods. The key is
    /// `timestamp << 42 | counter`; the random source is asked for 10 bytes on a new
    /// millisecond or a counter overflow, 4 bytes otherwise, as 3.14 asks `os.urandom`.
    #[inline(never)]
    fn generate_cpython(&self) -> Result<Uuid> {
        let draw_seed = || -> Result<(u128, u64)> {
            let mut bytes = [0u8; 16];
            self.random.fill(&mut bytes[6..])?;
            let rand = u128::from_be_bytes(bytes);
            Ok((
                (rand >> 32) & (CPYTHON_COUNTER_MAX >> 1),
                rand as u32 as u64,
            ))
        };
        let (timestamp, counter, tail) = self.engine.advance(|s: &Step| {
            let (timestamp, counter, tail) =
                cpython_step(s.tick, CPYTHON_COUNTER_BITS, draw_seed, || {
                    let mut tail = [0u8; 4];
                    self.random.fill(&mut tail)?;
                    Ok(u64::from(u32::from_be_bytes(tail)))
                })?;
            // 3.14 would wrap (`timestamp_ms & 0xffff_ffff_ffff`) in the year 10889; this
            // generator refuses, as every other method does.
            if timestamp > crate::time::MAX_UNIX_TS_MS {
                return Err(ms_out_of_range(timestamp));
            }
            let key = (u128::from(timestamp) << CPYTHON_COUNTER_BITS) | counter;
            Ok((key, (timestamp, counter, tail)))
        })?;
        Ok(crate::layout::join(
            7,
            timestamp,
            (counter >> 30) as u16,
            (((counter as u64) & 0x3FFF_FFFF) << 32) | tail,
        ))
    }

    /// The UUID for `key` with the node and the low random bits of `random` after it.
    #[inline]
    fn compose(&self, key: u128, random: u64) -> Uuid {
        pack(
            key,
            random,
            self.wide.random_bits,
            self.node,
            self.node_bits,
        )
    }
}

/// The UUID for `key` followed by `random_bits` bits: the `node_bits`-bit `node` first, then
/// the low bits of `random`.
#[inline(always)]
fn pack(key: u128, random: u64, random_bits: u32, node: u64, node_bits: u32) -> Uuid {
    let fresh = random_bits - node_bits;
    let packed = (key << random_bits)
        | (u128::from(node) << fresh)
        | u128::from(low_bits(random, fresh.min(63)));
    crate::layout::join(
        7,
        (packed >> 74) as u64,
        ((packed >> 62) & 0xFFF) as u16,
        packed as u64,
    )
}

/// A counter seed of `c` bits with its top bit clear, from the bits of `entropy` above the
/// UUID's `random_bits`.
#[inline(always)]
const fn seed_of(entropy: u128, random_bits: u32, c: u32) -> u64 {
    if c == 0 {
        0
    } else {
        ((entropy >> random_bits) as u64) & ((1 << (c - 1)) - 1)
    }
}

impl Lane {
    /// Whether the state is the 64-bit word.
    const fn on_the_word(self) -> bool {
        matches!(self, Self::Default | Self::Word)
    }
}

/// Which path a generator's `generate` takes, fixed when it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lane {
    /// [`V7Method::DEFAULT`] without a node, on the word, with constant widths.
    Default,
    /// Another layout whose key fits the word.
    Word,
    /// [`V7Method::CPython`].
    CPython,
    /// The 128-bit engine.
    Wide,
}

/// A layout's widths as the 128-bit engine uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WideLayout {
    /// The key (timestamp, fraction and counter) in the state.
    geometry: Geometry,
    counter_bits: u32,
    /// The random bits after the key.
    random_bits: u32,
    /// Method 2's increment width; 0 for the other methods, whose increment is one.
    increment_bits: u32,
    /// Random bits one call needs: the tail, the counter seed and the increment.
    entropy_bits: u32,
}

impl WideLayout {
    const fn of(method: V7Method) -> Self {
        let (fraction_bits, counter_bits, random_bits) = method.widths();
        let increment_bits = match method {
            V7Method::MonotonicRandom { increment_bits } => increment_bits,
            _ => 0,
        };
        Self {
            geometry: Geometry::native(
                TimeBase::Unix { fraction_bits },
                48 + fraction_bits + counter_bits,
                counter_bits,
            ),
            counter_bits,
            random_bits,
            increment_bits,
            entropy_bits: random_bits + counter_bits.saturating_sub(1) + increment_bits,
        }
    }
}

/// The methods with a width, numbered for [`V7Generator::generate_wide_as`].
const COUNTER: u8 = 1;
const MONOTONIC_RANDOM: u8 = 2;
const SUBMILLISECOND: u8 = 3;

/// The method numbered `kind` with width `bits`.
const fn wide_method(kind: u8, bits: u32) -> V7Method {
    match kind {
        COUNTER => V7Method::Counter { bits },
        MONOTONIC_RANDOM => V7Method::MonotonicRandom {
            increment_bits: bits,
        },
        _ => V7Method::SubMillisecond { counter_bits: bits },
    }
}

/// The random bits after [`V7Method::DEFAULT`]'s key.
const DEFAULT_RANDOM_BITS: u32 = V7Method::DEFAULT.widths().2;

/// The shape of [`V7Method::DEFAULT`]'s key.
const DEFAULT_SHAPE: Shape = match V7Method::DEFAULT {
    V7Method::SubMillisecond { counter_bits } => Shape {
        fraction_bits: 12,
        counter_bits,
    },
    _ => panic!("the default is Method 3"),
};

/// The error for a millisecond count past what a version 7 UUID holds (the year 10889).
fn ms_out_of_range(ms: impl core::fmt::Display) -> Error {
    out_of_range(crate::time::V7_TIMESTAMP, format_args!("{ms} ms"))
}

/// CPython 3.14's `uuid7()` step on a counter of `counter_bits` bits (42 in 3.14; fewer in
/// the loom model, to reach the overflow): `(timestamp_ms, counter, tail)` from this step's
/// [`Tick`]. `seed` draws a new counter (top bit clear) and tail, `tail` a tail alone.
///
/// 3.14 compares its reading with the last timestamp and, if the clock is behind, continues
/// one millisecond after it: only a fresh reading (`Tick::Behind`) may be compared so; a step
/// overtaken by another thread counts on in the last key's millisecond.
pub(crate) fn cpython_step(
    tick: Tick,
    counter_bits: u32,
    seed: impl FnOnce() -> Result<(u128, u64)>,
    tail: impl FnOnce() -> Result<u64>,
) -> Result<(u64, u128, u64)> {
    let max = (1u128 << counter_bits) - 1;
    let last_ms = |last: u128| (last >> counter_bits) as u64;
    let (last, timestamp) = match tick {
        // The allowance is infinite: every fresh reading at or behind the last timestamp is
        // `Behind`, never `Reset`. 3.14: `if timestamp_ms < _last_timestamp_v7:
        // timestamp_ms = _last_timestamp_v7 + 1`.
        Tick::Behind { now, last } => {
            (last, last_ms(last) + u64::from(now.ticks() < last_ms(last)))
        }
        // A reading older than the state is no clock that went back: linearised after the
        // step that overtook it, this step reads that step's millisecond.
        Tick::Overtaken { last } => (last, last_ms(last)),
        Tick::First { now } | Tick::New { now, .. } | Tick::Reset { now, .. } => {
            let (counter, tail) = seed()?;
            return Ok((now.ticks(), counter, tail));
        }
    };
    let counter = (last & max) + 1;
    if counter > max {
        let (counter, tail) = seed()?;
        Ok((timestamp + 1, counter, tail))
    } else {
        Ok((timestamp, counter, tail()?))
    }
}

#[cfg(test)]
mod tests;

//! Threads stopped at the worst moment, and threads on the real clock: what the engine's
//! ordering argument (see the `engine` module) promises, tested on the generators themselves.

use super::{GregorianGenerator, RollbackPolicy, V7Generator, V7Method};
use crate::clock::{Clock, ManualClock, SystemClock};
use crate::random::{ScriptedRandom, ThreadRandom};
use crate::Result;
use std::cell::Cell;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;

const START_NS: u64 = 1_645_557_742_000_000_000;
const ALLOWANCE_NS: u64 = 10_000_000;

thread_local! {
    /// Set in the one thread whose clock readings are delayed.
    static DELAYED: Cell<bool> = const { Cell::new(false) };
}

/// Where the delayed thread stops in each clock call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Delay {
    /// After reading the time: it returns a reading as old as the test likes.
    AfterReading,
    /// Before reading it (the state it loaded ages instead).
    BeforeReading,
}

/// What the delayed thread tells the test.
enum Event {
    /// It is stopped in its clock call (where, its `Delay` says).
    Stopped,
    /// Its call returned this ordering key.
    Returned(Result<u128>),
}

/// A manual clock that stops the delayed thread in every reading until the test lets it go.
struct DelayingClock {
    time: ManualClock,
    delay: Delay,
    events: Mutex<Sender<Event>>,
    resume: Mutex<Receiver<()>>,
}

impl DelayingClock {
    fn stop(&self) {
        self.events.lock().unwrap().send(Event::Stopped).unwrap();
        self.resume.lock().unwrap().recv().unwrap();
    }
}

impl Clock for DelayingClock {
    fn now_unix_ns(&self) -> Result<u64> {
        if !DELAYED.with(Cell::get) {
            return self.time.now_unix_ns();
        }
        if self.delay == Delay::BeforeReading {
            self.stop();
        }
        let now = self.time.now_unix_ns();
        if self.delay == Delay::AfterReading {
            self.stop();
        }
        now
    }
}

/// How the other thread moves the clock while the delayed one is stopped.
#[derive(Clone, Copy, Debug)]
enum Meanwhile {
    /// Forward by 30 ms, three times the allowance: no rollback at all.
    Forward,
    /// Back by 50 ms, beyond the allowance: one real rollback.
    Back,
}

/// One generator under test: its version and how to make it on a clock.
#[derive(Clone, Copy, Debug)]
enum Kind {
    V1,
    V6,
    V7(V7Method),
}

impl Kind {
    /// Whether the generator keeps its state in the 64-bit word (whose cold path may read the
    /// clock a second time).
    fn on_the_word(self) -> bool {
        match self {
            Kind::V7(method) => {
                let (fraction, counter, _) = method.widths();
                matches!(
                    method,
                    V7Method::Counter { .. } | V7Method::SubMillisecond { .. }
                ) && 42 + fraction + counter <= 64
            }
            Kind::V1 | Kind::V6 => false,
        }
    }
}

/// A generator of `kind` whose ordering key is the timestamp for v1 (whose UUIDs do not sort
/// by it) and the UUID for v6 and v7.
fn generator<'c>(
    kind: Kind,
    policy: RollbackPolicy,
    clock: &'c DelayingClock,
) -> Box<dyn Fn() -> Result<u128> + Sync + 'c> {
    let random = || ScriptedRandom::new(vec![0x0123_4567_89AB_CDEF, 0x5555_0000_AAAA_FFFF, 7]);
    match kind {
        Kind::V1 | Kind::V6 => {
            let version = if let Kind::V1 = kind { 1 } else { 6 };
            let g = GregorianGenerator::with_sources(
                version,
                Some(1),
                ALLOWANCE_NS,
                policy,
                clock,
                random(),
            )
            .unwrap();
            if version == 1 {
                Box::new(move || g.next_timestamp().map(|(ts, _)| u128::from(ts)))
            } else {
                Box::new(move || g.generate().map(crate::Uuid::as_u128))
            }
        }
        Kind::V7(method) => {
            let g =
                V7Generator::with_sources(method, ALLOWANCE_NS, policy, clock, random()).unwrap();
            Box::new(move || g.generate().map(crate::Uuid::as_u128))
        }
    }
}

/// One thread makes a UUID with its clock call stopped (at `delay`) for as long as the other
/// thread takes to move the clock (`meanwhile`) and make three UUIDs, at every reading it
/// takes. Returns the other thread's keys before the delayed call returned, that call's
/// result, how many readings it took, and the next key after it.
fn delayed_call(
    kind: Kind,
    policy: RollbackPolicy,
    delay: Delay,
    meanwhile: Meanwhile,
) -> (Vec<Result<u128>>, Result<u128>, usize, u128) {
    let (events_tx, events) = channel();
    let (resume, resume_rx) = channel();
    let clock = DelayingClock {
        time: ManualClock::new(START_NS),
        delay,
        events: Mutex::new(events_tx.clone()),
        resume: Mutex::new(resume_rx),
    };
    let generate = generator(kind, policy, &clock);
    let mut others = vec![generate()];
    let mut stops = 0;
    let delayed = std::thread::scope(|s| {
        s.spawn(|| {
            DELAYED.with(|d| d.set(true));
            events_tx.send(Event::Returned(generate())).unwrap();
        });
        loop {
            match events.recv().unwrap() {
                Event::Stopped => {
                    stops += 1;
                    assert!(stops < 10, "the delayed call keeps reading the clock");
                    match meanwhile {
                        Meanwhile::Forward => clock.time.advance(3 * ALLOWANCE_NS),
                        Meanwhile::Back => clock.time.rewind(5 * ALLOWANCE_NS),
                    }
                    others.extend((0..3).map(|_| generate()));
                    resume.send(()).unwrap();
                }
                Event::Returned(result) => break result,
            }
        }
    });
    clock.time.advance(100 * ALLOWANCE_NS);
    let after = generate().unwrap();
    (others, delayed, stops, after)
}

/// The other thread's calls that ended before the delayed call took its key: the one before
/// it, and the three made while it was stopped at its first reading.
const SETTLED: usize = 4;

const KINDS: [Kind; 7] = [
    Kind::V1,
    Kind::V6,
    Kind::V7(V7Method::DEFAULT),
    Kind::V7(V7Method::Counter { bits: 42 }),
    Kind::V7(V7Method::SubMillisecond { counter_bits: 0 }),
    Kind::V7(V7Method::MonotonicRandom { increment_bits: 32 }),
    Kind::V7(V7Method::CPython),
];

#[test]
fn a_delayed_thread_never_fakes_a_rollback() {
    // The clock only moves forward; one thread's readings are 30 ms old by the time it uses
    // them, and the other thread's state moved on meanwhile. No error, no reset, no UUID
    // below one already handed out: under both policies, wherever the delay falls.
    for kind in KINDS {
        for policy in [RollbackPolicy::Error, RollbackPolicy::Reset] {
            for delay in [Delay::AfterReading, Delay::BeforeReading] {
                let case = format!("{kind:?} {policy:?} {delay:?}");
                let (others, delayed, stops, after) =
                    delayed_call(kind, policy, delay, Meanwhile::Forward);
                let others: Vec<u128> = others
                    .into_iter()
                    .map(|r| r.unwrap_or_else(|e| panic!("{case}: other thread: {e}")))
                    .collect();
                assert!(others.windows(2).all(|w| w[0] < w[1]), "{case}");
                let delayed = delayed.unwrap_or_else(|e| panic!("{case}: {e}"));
                // The calls made while the delayed call was stopped at its first reading ended
                // before it took its key; those made while it was stopped at a second reading
                // (the word's cold path) ran at the same time as it.
                assert!(
                    others[..SETTLED].iter().all(|&o| o < delayed),
                    "{case}: the delayed call went below a UUID handed out before it"
                );
                assert!(delayed < after, "{case}");
                assert!(
                    stops == 1 || (stops == 2 && kind.on_the_word()),
                    "{case}: {stops} clock readings in one call"
                );
                if let Kind::V7(_) = kind {
                    // The clock when the delayed call returned: its old reading, taken for
                    // the clock, must not have moved the timestamp past it.
                    let clock_ms = (START_NS + 3 * ALLOWANCE_NS * stops as u64) / 1_000_000;
                    let ms = (delayed >> 80) as u64;
                    assert!(ms <= clock_ms, "{case}: {} ms ahead", ms - clock_ms);
                }
            }
        }
    }
}

#[test]
fn a_thread_delayed_across_a_real_rollback_does_not_undo_it() {
    // The clock really goes back 50 ms while one thread holds a reading from before. Under
    // "reset" the other thread follows the clock back once; the delayed reading neither
    // resets again nor lifts the sequence back above the reset. Under "error" the other
    // thread's calls fail, and the delayed call, which compares its old reading with the
    // state it loaded before it, succeeds.
    // The cpython method has no allowance or policy: it never resets or fails (its rule
    // behind the clock is tested in the v7 tests).
    for kind in KINDS
        .into_iter()
        .filter(|k| !matches!(k, Kind::V7(V7Method::CPython)))
    {
        for delay in [Delay::AfterReading, Delay::BeforeReading] {
            let case = format!("{kind:?} {delay:?}");
            let (others, delayed, stops, after) =
                delayed_call(kind, RollbackPolicy::Reset, delay, Meanwhile::Back);
            let others: Vec<u128> = others.into_iter().map(Result::unwrap).collect();
            let descents = others.windows(2).filter(|w| w[1] < w[0]).count();
            // Each stop of the delayed call's clock sends the clock back once more (the word's
            // cold path reads the clock a second time).
            assert_eq!(descents, stops, "{case}: one reset for each rollback");
            let delayed = delayed.unwrap();
            assert!(delayed > others[SETTLED - 1], "{case}");
            if delay == Delay::AfterReading {
                assert!(delayed < others[0], "{case}: lifted back above the reset");
            }
            assert!(delayed < after, "{case}");

            let (others, delayed, _, _) =
                delayed_call(kind, RollbackPolicy::Error, delay, Meanwhile::Back);
            assert!(others[0].is_ok(), "{case}");
            assert!(
                others[1..]
                    .iter()
                    .all(|r| r.as_ref().is_err_and(crate::Error::is_clock_rollback)),
                "{case}"
            );
            if delay == Delay::AfterReading {
                assert!(
                    delayed.unwrap() > others[0].as_ref().copied().unwrap(),
                    "{case}"
                );
            }
        }
    }
}

/// Calls per thread in the real-clock stress test.
const STRESS_CALLS: usize = if cfg!(miri) { 50 } else { 50_000 };

#[test]
fn four_threads_on_the_real_clock_see_no_rollback() {
    // The system clock does not go back in this test; the threads are preempted and
    // delayed between their readings and their steps as the machine pleases. Under "error"
    // no call may fail, even with no allowance at all, and each thread's sequence increases.
    for allowance_ns in [0, 100_000, 1_000_000, 10_000_000] {
        let v7 = V7Generator::new(
            V7Method::Counter { bits: 42 },
            allowance_ns,
            RollbackPolicy::Error,
        )
        .unwrap();
        let v7_default =
            V7Generator::new(V7Method::DEFAULT, allowance_ns, RollbackPolicy::Error).unwrap();
        let v6 = GregorianGenerator::with_sources(
            6,
            None,
            allowance_ns,
            RollbackPolicy::Error,
            SystemClock,
            ThreadRandom,
        )
        .unwrap();
        let generators: [(&str, &(dyn Fn() -> Result<u128> + Sync)); 3] = [
            ("v7 counter 42", &|| v7.generate().map(crate::Uuid::as_u128)),
            ("v7 default", &|| {
                v7_default.generate().map(crate::Uuid::as_u128)
            }),
            ("v6", &|| v6.generate().map(crate::Uuid::as_u128)),
        ];
        for (name, generate) in generators {
            let errors: usize = std::thread::scope(|s| {
                let threads: Vec<_> = (0..4)
                    .map(|_| {
                        s.spawn(|| {
                            let mut last = 0;
                            let mut errors = 0;
                            for _ in 0..STRESS_CALLS {
                                match generate() {
                                    Ok(u) => {
                                        assert!(u > last, "{name}: a thread's sequence fell");
                                        last = u;
                                    }
                                    Err(_) => errors += 1,
                                }
                            }
                            errors
                        })
                    })
                    .collect();
                threads.into_iter().map(|t| t.join().unwrap()).sum()
            });
            assert_eq!(errors, 0, "{name}, allowance {allowance_ns} ns");
        }
    }
}

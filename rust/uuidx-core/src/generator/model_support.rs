//! What the `loom` models of the two engines share (`engine/model.rs`, `word/model.rs`): a
//! clock and a fork epoch in loom atomics, and the model's time constants.

use crate::clock::Clock;
use crate::fork::ForkSource;
use crate::Result;
use loom::sync::atomic::{AtomicU64, Ordering};

pub(crate) const MS: u64 = 1_000_000;
pub(crate) const ALLOWANCE_NS: u64 = 10 * MS;
pub(crate) const START_NS: u64 = 1_000 * MS;

/// Nanoseconds since 1970 in one atomic: its modification order is real time (a reading that
/// happens after another cannot return an older value).
#[derive(Debug)]
pub(crate) struct ModelClock(pub(crate) AtomicU64);

impl Clock for ModelClock {
    fn now_unix_ns(&self) -> Result<u64> {
        Ok(self.0.load(Ordering::SeqCst))
    }
}

/// A fork epoch in one atomic.
#[derive(Debug)]
pub(crate) struct ModelFork(pub(crate) AtomicU64);

impl ForkSource for ModelFork {
    fn epoch(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

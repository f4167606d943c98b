//! What a table hands over to the caller: its finished sets (`SetDone`), in batches whose
//! size and timing keep the caller's thread from taking the tables' cores.

use super::facts::SetFacts;
use crate::record::GameRecord;
use std::time::Duration;

/// A finished set: how many games and faults it had; its games' records with
/// [`RunSpec::keep_records`]; their lines with [`RunSpec::record_lines`]; with
/// [`RunSpec::set_facts`], what the statistics need of it; its [`RunSpec::set_value`].
pub(super) struct SetDone {
    pub(super) index: u64,
    pub(super) games: u32,
    pub(super) faults: u32,
    pub(super) value: Option<[f64; 2]>,
    pub(super) records: Vec<GameRecord>,
    pub(super) lines: Vec<u8>,
    pub(super) facts: Option<SetFacts>,
}

/// A table's message to the caller.
pub(super) enum Msg {
    /// Finished sets, from the worker with this index, and the names its facts use that it
    /// had not sent before.
    Done(usize, Vec<SetDone>, Vec<String>),
    Failed(String),
}

/// A worker hands a set that took [`BATCH_WAIT`]/20 or more over at once; faster sets go in
/// batches of up to [`BATCH_SETS`] (of [`BATCH_FACTS`] when their records stay on the table,
/// see [`RunSpec::keep_records`]), handed over when the first of them has waited
/// [`BATCH_WAIT`]. A message per set woke the caller's thread once per game of a fast match (a
/// futex wake-up and a cross-core interrupt each), which took a fifth of the two cores from
/// two tables of random bots. A batch with records is kept short: they are most of a match's
/// memory.
pub(super) const BATCH_SETS: usize = 64;
pub(super) const BATCH_FACTS: usize = 256;
pub(super) const BATCH_WAIT: Duration = Duration::from_millis(20);

/// A table takes up to this many sets from the shared queue at once while its sets are fast
/// (under [`BATCH_WAIT`]/20 each), one at a time otherwise: taking the queue's lock for every
/// set of a fast match moved its cache lines from core to core several times per game.
pub(super) const TAKE_FAST: usize = 16;

/// Whether a worker hands its finished sets over now: the last one took `took`, `batched`
/// are waiting (the last one included), the first of them for `waited`; a batch holds up to
/// `most` sets.
pub(super) fn hand_over_now(took: Duration, batched: usize, most: usize, waited: Duration) -> bool {
    took >= BATCH_WAIT / 20 || batched >= most || waited >= BATCH_WAIT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_sets_go_at_once_fast_ones_in_batches() {
        let ms = Duration::from_millis;
        let fast = Duration::from_micros(20);
        for most in [BATCH_SETS, BATCH_FACTS] {
            // A set that took a while (a process bot's game) is not held back for the next one.
            assert!(hand_over_now(ms(5), 1, most, ms(0)));
            assert!(hand_over_now(BATCH_WAIT / 20, 1, most, ms(0)));
            // Fast sets wait for company, but not for long and not in large numbers.
            assert!(!hand_over_now(fast, 1, most, ms(0)));
            assert!(!hand_over_now(fast, most - 1, most, BATCH_WAIT / 2));
            assert!(hand_over_now(fast, most, most, ms(0)));
            assert!(hand_over_now(fast, 2, most, BATCH_WAIT));
        }
        // Sets whose records are handed over go in the shorter batches.
        assert!(hand_over_now(fast, BATCH_SETS, BATCH_SETS, ms(0)));
        assert!(!hand_over_now(fast, BATCH_SETS, BATCH_FACTS, ms(0)));
    }
}

//! What a run plays with ([`RunSpec`]): the game and its options, the table's players and
//! settings, the run seed, and what the caller wants of each finished set.

use crate::options::Options;
use crate::record::GameRecord;
use crate::referee::{Config, SeatSpec};
use serde_json::Value;
use std::collections::BTreeMap;

/// What a run plays with.
pub struct RunSpec {
    pub game: String,
    pub options: Options,
    /// The table's players (one process or in-process bot each), indexed by `Job::seat_of`.
    pub players: Vec<SeatSpec>,
    pub config: Config,
    /// The run seed: game `i`'s cards come from `derive(seed, Game, i)`.
    pub seed: u64,
    /// Tags written into every record line (the match fingerprint and the like). Records
    /// handed over without lines (no [`RunSpec::record_lines`]) carry only the tags of their
    /// set: `set`, `job` and `bots`; copying these into every game was a tenth of a table's
    /// work in a match of random bots that records nothing.
    pub tags: BTreeMap<String, Value>,
    pub concurrency: usize,
    /// Whether the caller writes the records: each set's record lines are then made on its
    /// table's thread, and the caller only writes them (serializing on the caller's thread
    /// bounded a recorded match of fast bots to one core, whatever its tables).
    pub record_lines: bool,
    /// Whether the caller folds the sets into statistics ([`Finished::add_to`](super::runner::Finished::add_to)): each set's
    /// facts are then made on its table's thread.
    pub set_facts: bool,
    /// Whether the caller reads the records themselves ([`Finished::records`](super::runner::Finished::records)). Without it, a
    /// table drops each set's records once their lines, facts and value are made, and hands
    /// over up to 256 sets at a time (`BATCH_FACTS`): the caller's thread then wakes once per
    /// 256 sets of a fast match instead of once per 64. Each wake-up took a core from a table;
    /// in all they took a twentieth of two tables of random bots.
    pub keep_records: bool,
    /// Two numbers the caller wants of each set (`compare`: the paired difference and the
    /// largest score), worked out on its table's thread from the set's records
    /// ([`Finished::value`](super::runner::Finished::value)).
    pub set_value: Option<SetValue>,
}

/// See [`RunSpec::set_value`].
pub type SetValue = Box<dyn Fn(&[GameRecord]) -> [f64; 2] + Send + Sync>;

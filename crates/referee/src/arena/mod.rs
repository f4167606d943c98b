//! Many games between bots: matches with duplicate deals, the compare gate, statistics.
//!
//! A run is a list of *sets*. A set is one deal seed (game index `i`) played as one or more
//! games with the same cards and different seatings (the rotations of a duplicate match, or
//! the candidate/baseline games of `compare`). Sets are independent: their cards depend only on
//! the run seed and `i`, so results do not depend on the order, the concurrency or sharding.
//! [`run()`] plays sets on worker threads, each with its own table of bot processes (spawned
//! once per table), and hands every finished set to the caller, who writes all of its records
//! at once: a record never appears while another game of its set is still being played.
//! Sets are made as the tables take them (a few at a time for fast ones), and finished sets
//! wait in a short queue for the caller: a run's memory does not grow with its number of sets.
//! What the caller needs of a set (its record lines, the statistics' facts, `compare`'s paired
//! difference) is made on its table's thread; the records themselves go over only to a caller
//! that reads them. So two tables of fast bots keep both cores: the caller's thread wakes a few
//! times per thousand sets and folds small facts.

pub mod accumulator;
pub mod batch;
pub mod facts;
pub mod report;
pub mod runner;
pub mod sets;
pub mod spec;
pub mod tournament;
pub mod worker;

pub use runner::{run, Control, Finished};
pub use sets::{fingerprint, game_seed, parse_shard, rotations, Job, Set};
pub use spec::{RunSpec, SetValue};

//! `croupier stats`: the `match` table of record files, one table per group of records that
//! belong together (shards and resumed runs of a match, more runs of the same bots).

mod chunked;
mod group;
mod keys;
mod read;
mod run;

pub use run::{run, StatsArgs};

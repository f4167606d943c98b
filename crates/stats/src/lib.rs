//! croupier's verdicts, apart from any game: [`stats`] (summaries of per-deal values and the
//! intervals of `match`, `stats` and `compare --no-test`), [`sequential`] (compare's
//! sequential test, by betting), [`ratings`] (one scale for many bots from tournament tables).
//! Every interval here is checked on the games' real score distributions (BENCHMARKS.md).

pub mod ratings;
pub mod sequential;
pub mod stats;

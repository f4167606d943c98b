//! Chance: seeds, the explicit ChaCha random generator, and deals (random, given or recorded).
//!
//! Every random choice of a game goes through a [`Chance`], so a seed fixes every deal and a
//! record can re-create them. Seeds are derived with ChaCha20 keyed by (seed, purpose, index);
//! the shuffle and bounded draws are implemented here on raw 64-bit outputs, so the deals of a
//! seed do not depend on the version of the `rand` crate.
//!
//! [`Rng`] and the seeds are in `rng.rs`, what a deal is and asks for in `deal.rs`, the
//! [`Chance`] of a game in `source.rs`, the deal files in `deal_file.rs`.

mod deal;
mod deal_file;
mod log;
mod rng;
mod source;

pub use deal::{Deal, DealRequest, DealSpec};
pub use deal_file::{parse_deal_file, parse_seat, DealGame};
pub use log::DealLog;
pub use rng::{derive, format_seed, parse_seed, Purpose, Rng};
pub use source::Chance;

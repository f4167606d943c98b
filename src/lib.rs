//! croupier: a headless referee for card-game bots.
//!
//! Layout: [`cards`] (notation), [`engine`] (the typed rules-engine trait
//! that search uses), [`game`] (its string interface, and visible events),
//! [`options`] (named variants), [`chance`] (seeds and deals), [`games`] (one engine per
//! game), [`protocol`] (the line protocol), [`process`] (bot processes with deadlines),
//! [`bots`] (built-in bots), [`referee`] (runs a game between seats), [`arena`] (matches, the
//! compare gate and their statistics over many games), [`interrupt`] (Ctrl-C and SIGTERM),
//! [`record`] (JSON Lines records), [`replay`] (re-runs a record through the engine), [`stats`] (intervals for comparing
//! bots), [`sequential`] (compare's sequential test, by betting), [`ratings`] (one scale for many bots from tournament tables), [`cli`] (the
//! command line).

pub mod arena;
pub mod bots;
pub mod cli;
pub mod interrupt;
pub mod process;
pub mod protocol;
pub mod ratings;
pub mod record;
pub mod referee;
pub mod replay;
pub mod sequential;
pub mod stats;

// The rules engines are the crate below (crates/games); their modules keep their paths here
// (`croupier::game`, `croupier::games::rikken`, …), and so do the event macros.
pub use croupier_games::{action_arg, args};
pub use croupier_games::{cards, chance, engine, few, game, games, notation, options};

// For the `args!` macro (an event's arguments are a `SmallVec`).
#[doc(hidden)]
pub use smallvec;

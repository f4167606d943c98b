//! croupier's referee and what runs around it: [`process`] (bot processes with deadlines and
//! limits), [`protocol`] (the line protocol), [`bots`] (built-in bots and the seat trait),
//! [`referee`] (runs a game between seats), [`record`] (JSON Lines records), [`replay`]
//! (re-runs a record through the engine), [`arena`] (matches and tournaments over many
//! games, and their reports), [`interrupt`] (Ctrl-C and SIGTERM).

pub mod arena;
pub mod bots;
pub mod interrupt;
pub mod process;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod replay;

// The layers below keep their paths here (`crate::game`, `crate::stats`, …), as in the
// command-line crate above.
pub use croupier_games::{action_arg, args};
pub use croupier_games::{cards, chance, engine, few, game, games, notation, options, playout};
pub use croupier_stats::{ratings, sequential, stats};

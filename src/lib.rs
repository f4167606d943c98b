//! croupier: a headless referee for card-game bots. This crate is the command line ([`cli`]) and
//! its HTML pages; the layers below are crates of their own (README, "Layout"):
//! `croupier-games` (the rules engines), `croupier-stats` (intervals, the sequential test,
//! ratings) and `croupier-referee` (bot processes, the protocol, the referee, bots, records,
//! replay, matches and tournaments). Their modules keep their paths here (`croupier::game`,
//! `croupier::referee`, `croupier::stats`, …).

pub mod cli;

pub use croupier_games::{action_arg, args};
pub use croupier_games::{cards, chance, engine, few, game, games, notation, options, playout};
pub use croupier_referee::{arena, bots, interrupt, process, protocol, record, referee, replay};
pub use croupier_stats::{ratings, sequential, stats};

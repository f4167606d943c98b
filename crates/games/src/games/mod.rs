//! One rules engine per game. A game is a folder (or file) here plus its entry in [`all`].

mod card_play;
pub mod kul;
pub mod race;
pub mod rikken;
pub mod schwimmen;
pub mod skwitz;
pub mod svangknack;
mod tokens;
pub mod zwikken;

use crate::game::GameSpec;

/// Every game croupier knows.
pub fn all() -> Vec<GameSpec> {
    SPECS.iter().map(|spec| spec()).collect()
}

/// Every game's spec, in the order `croupier games` lists them.
const SPECS: [fn() -> GameSpec; 6] = [
    rikken::spec,
    zwikken::spec,
    svangknack::spec,
    kul::spec,
    skwitz::spec,
    schwimmen::spec,
];

/// A game by name (without building the list of every game).
pub fn find(name: &str) -> Option<GameSpec> {
    SPECS.iter().map(|spec| spec()).find(|g| g.name == name)
}

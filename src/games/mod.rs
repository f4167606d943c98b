//! One rules engine per game. A game is a folder (or file) here plus its entry in [`all`].

pub mod kul;
pub mod race;
pub mod rikken;
pub mod schwimmen;
pub mod skwitz;
pub mod svangknack;
pub mod zwikken;

use crate::game::GameSpec;

/// Every game croupier knows.
pub fn all() -> Vec<GameSpec> {
    vec![
        rikken::spec(),
        zwikken::spec(),
        svangknack::spec(),
        kul::spec(),
        skwitz::spec(),
        schwimmen::spec(),
    ]
}

/// A game by name.
pub fn find(name: &str) -> Option<GameSpec> {
    all().into_iter().find(|g| g.name == name)
}

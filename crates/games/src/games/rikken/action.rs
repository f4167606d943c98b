//! A Rikken action and its protocol token.

use super::bids::Contract;
use crate::cards::{Card, Suit};
use std::fmt;

/// A Rikken action. `Display` writes its protocol token; [`Rikken::parse`](crate::engine::Engine::parse)
/// reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RikkenAction {
    Pass,
    /// Joins the standing bid (`misere_join`, …).
    Join(Contract),
    Bid(Contract),
    Trump(Suit),
    Call(Card),
    Play(Card),
}

impl RikkenAction {
    /// The token where it is a string of the program's (all but bids, whose tokens are made).
    pub(super) fn fixed_token(&self) -> Option<&'static str> {
        match self {
            RikkenAction::Pass => Some("pass"),
            RikkenAction::Trump(s) => Some(s.token()),
            RikkenAction::Call(c) | RikkenAction::Play(c) => Some(c.token()),
            RikkenAction::Join(_) | RikkenAction::Bid(_) => None,
        }
    }
}

impl fmt::Display for RikkenAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RikkenAction::Join(c) => f.write_str(&c.join_token()),
            RikkenAction::Bid(c) => f.write_str(&c.token()),
            other => f.write_str(other.fixed_token().unwrap_or_default()),
        }
    }
}

crate::action_arg!(RikkenAction, RikkenAction::Play, RikkenAction::Call);

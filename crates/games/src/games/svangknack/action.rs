//! A Svängknack action, its protocol token and its word in the events.

use crate::cards::{Card, Suit};
use crate::game::Arg;
use std::fmt;

/// A Svängknack action. `Display` writes its protocol token; [`Svangknack::parse`](crate::engine::Engine::parse)
/// reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SvangknackAction {
    /// `swing`: the swinger plays.
    Swing,
    /// `handover`: the swing passes left.
    Handover,
    /// `handover_last`: a hand-over with "sista man" (`last_man=true`).
    HandoverLast,
    /// `redeal`: the swinger proposes a redeal (once a round).
    Redeal,
    /// `agree` to a redeal.
    Agree,
    /// `refuse` a redeal.
    Refuse,
    /// The trump suit, from the turned cards (its letter).
    Trump(Suit),
    /// `knock`: take part.
    Knock,
    /// `fold`.
    Fold,
    /// A card to the trick.
    Play(Card),
    /// `farg`: "Färg", keep one's cards.
    Farg,
}

impl fmt::Display for SvangknackAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

crate::action_arg!(SvangknackAction, SvangknackAction::Play);

impl SvangknackAction {
    /// The token of an action that is not a card, as a fixed word (an event argument that
    /// makes no text); `None` for a card.
    pub fn word(self) -> Option<&'static str> {
        use SvangknackAction::*;
        Some(match self {
            Swing => "swing",
            Handover => "handover",
            HandoverLast => "handover_last",
            Redeal => "redeal",
            Agree => "agree",
            Refuse => "refuse",
            Trump(s) => s.token(),
            Knock => "knock",
            Fold => "fold",
            Play(_) => return None,
            Farg => "farg",
        })
    }

    /// The action's token (every one is a string of the program's).
    pub fn token(self) -> &'static str {
        match (self, self.word()) {
            (_, Some(w)) => w,
            (SvangknackAction::Play(c), None) => c.token(),
            (_, None) => unreachable!("only a card has no word"),
        }
    }

    /// The action as an event argument: a card, or its fixed word.
    pub(super) fn arg(self) -> Arg {
        match (self, self.word()) {
            (_, Some(w)) => Arg::Word(w),
            (a, None) => Arg::from(a),
        }
    }
}

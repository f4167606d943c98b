//! A Skwitz action, its protocol token and its event argument.

use crate::cards::{Card, CardSet};
use crate::game::Arg;
use std::fmt;

/// A Skwitz action: `out`, a card to trail (`7H`), or a card and the table cards it captures
/// (`TD:4S,6H`, the captured cards in notation order). `Display` writes the token;
/// [`Skwitz::parse`](crate::engine::Engine::parse) reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkwitzAction {
    Out,
    Trail(Card),
    Capture(Card, CardSet),
}

impl SkwitzAction {
    /// The token where it is a string of the program's (all but a capture's).
    pub(super) fn fixed_token(self) -> Option<&'static str> {
        match self {
            SkwitzAction::Out => Some("out"),
            SkwitzAction::Trail(c) => Some(c.token()),
            SkwitzAction::Capture(..) => None,
        }
    }
}

impl fmt::Display for SkwitzAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkwitzAction::Out | SkwitzAction::Trail(_) => f.write_str(self.fixed_token().unwrap_or_default()),
            SkwitzAction::Capture(c, taken) => {
                // The token in one write: `C:` and three bytes per taken card (a whole deck at
                // most), the last comma left out. CardSet iterates in index order, which is
                // the notation order of Card's Ord.
                let mut buf = [0u8; 3 + 3 * 52];
                let card = |c: Card| [c.rank.letter() as u8, c.suit.letter() as u8];
                buf[..2].copy_from_slice(&card(*c));
                buf[2] = b':';
                let mut len = 3;
                for t in taken.iter() {
                    buf[len..len + 2].copy_from_slice(&card(t));
                    buf[len + 2] = b',';
                    len += 3;
                }
                if !taken.is_empty() {
                    len -= 1;
                }
                f.write_str(std::str::from_utf8(&buf[..len]).map_err(|_| fmt::Error)?)
            }
        }
    }
}

/// An action as an event argument: a trail is its card, a capture a number (the card's index,
/// then the captured cards' set above it: `capture_of_code`) that writes its token where a
/// line is made, `out` a fixed word.
impl From<SkwitzAction> for Arg {
    fn from(a: SkwitzAction) -> Arg {
        match a {
            SkwitzAction::Out => Arg::Word("out"),
            SkwitzAction::Trail(c) => Arg::Card(c),
            SkwitzAction::Capture(c, taken) => Arg::Action {
                code: c.index() as u64 | taken.0 << 6,
                write: |code, f| fmt::Display::fmt(&capture_of_code(code).ok_or(fmt::Error)?, f),
            },
        }
    }
}

/// The capture an [`Arg::Action`] of this game stands for.
pub(super) fn capture_of_code(code: u64) -> Option<SkwitzAction> {
    let c = (code & 63) as usize;
    (c < 52).then(|| SkwitzAction::Capture(Card::from_index(c), CardSet(code >> 6)))
}

//! A Schwimmen action, its protocol token and its event argument.

use crate::cards::Card;
use crate::game::Arg;
use std::fmt;

/// A Schwimmen action. `Display` writes its protocol token; [`Schwimmen::parse`](crate::engine::Engine::parse)
/// reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchwimmenAction {
    /// The dealer keeps the packet he has seen (`keep_seen`).
    KeepSeen,
    /// The dealer takes the unseen packet (`take_unseen`).
    TakeUnseen,
    /// Lays down a card of the hand and takes one of the middle (`swap_<hand>_<middle>`).
    Swap(Card, Card),
    SwapAll,
    Knock,
    Pass,
}

impl SchwimmenAction {
    /// The action's protocol token: every one is a fixed string (swaps' made at compile time;
    /// tokens are written for every record and every process bot).
    pub fn token(&self) -> &'static str {
        match self {
            SchwimmenAction::KeepSeen => "keep_seen",
            SchwimmenAction::TakeUnseen => "take_unseen",
            SchwimmenAction::Swap(h, m) => swap_token(h.index() * 52 + m.index()),
            SchwimmenAction::SwapAll => "swap_all",
            SchwimmenAction::Knock => "knock",
            SchwimmenAction::Pass => "pass",
        }
    }
}

impl fmt::Display for SchwimmenAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// Every swap token `swap_XX_YY`, ten bytes each, by swap code `hand * 52 + middle` (card
/// indexes, as `Card::index`), made at compile time.
const SWAP_TOKENS: &str = {
    use crate::cards::index_letters as letters;
    // Read only here, at compile time, to make the `&str`: the one copy is the string's.
    #[allow(clippy::large_const_arrays)]
    const BYTES: [u8; 52 * 52 * 10] = {
        let mut b = [0u8; 52 * 52 * 10];
        let mut code = 0;
        while code < 52 * 52 {
            let (h, m) = (letters(code / 52), letters(code % 52));
            let token = [b's', b'w', b'a', b'p', b'_', h[0], h[1], b'_', m[0], m[1]];
            let mut k = 0;
            while k < 10 {
                b[code * 10 + k] = token[k];
                k += 1;
            }
            code += 1;
        }
        b
    };
    match std::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("swap tokens are ASCII"),
    }
};

/// The token of the swap with code `code` (below 52 * 52).
fn swap_token(code: usize) -> &'static str {
    &SWAP_TOKENS[code * 10..code * 10 + 10]
}

/// An action as an event argument: a fixed word, or a swap as a number (`hand * 52 + middle`,
/// card indexes: `swap_of_code`) that writes its token where a line is made.
impl From<SchwimmenAction> for Arg {
    fn from(a: SchwimmenAction) -> Arg {
        match a {
            SchwimmenAction::KeepSeen => Arg::Word("keep_seen"),
            SchwimmenAction::TakeUnseen => Arg::Word("take_unseen"),
            SchwimmenAction::Swap(h, m) => Arg::Action {
                code: (h.index() * 52 + m.index()) as u64,
                write: |code, f| {
                    if code < 52 * 52 {
                        f.write_str(swap_token(code as usize))
                    } else {
                        Err(fmt::Error)
                    }
                },
            },
            SchwimmenAction::SwapAll => Arg::Word("swap_all"),
            SchwimmenAction::Knock => Arg::Word("knock"),
            SchwimmenAction::Pass => Arg::Word("pass"),
        }
    }
}

/// The swap an [`Arg::Action`] of this game stands for.
pub(super) fn swap_of_code(code: u64) -> Option<SchwimmenAction> {
    let (h, m) = ((code / 52) as usize, (code % 52) as usize);
    (h < 52).then(|| SchwimmenAction::Swap(Card::from_index(h), Card::from_index(m)))
}

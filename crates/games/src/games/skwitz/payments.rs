//! Skwitz payments (skwitz.md Sec. 4): chips between the purses of the seats and the pot, and
//! the points a seat scores.

use super::state::Skwitz;
use crate::args;
use crate::game::{Arg, Seat};

/// Where chips go to or come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Purse {
    Seat(Seat),
    Pot,
}

/// A purse as an event argument: its seat number, or `pot`.
impl From<Purse> for Arg {
    fn from(p: Purse) -> Arg {
        match p {
            Purse::Seat(s) => Arg::from(s),
            Purse::Pot => Arg::Word("pot"),
        }
    }
}

impl Skwitz {
    pub(super) fn pay(&mut self, from: Purse, to: Purse, amount: i64, reason: &'static str) {
        if amount == 0 {
            return;
        }
        for (p, d) in [(from, -amount), (to, amount)] {
            match p {
                Purse::Seat(s) => self.chips[s] += d,
                Purse::Pot => self.pot += d,
            }
        }
        self.ev.emit(self.everyone(), "pay", || args![from, to, amount, reason]);
    }

    pub(super) fn score(&mut self, seat: Seat, reason: &'static str) {
        let side = self.side(seat);
        self.points[side] += 1;
        self.ev
            .emit(self.everyone(), "point", || args![seat, reason, self.points[side]]);
    }

    /// Every other player (the other team) pays S/2 to `s` and S/2 to the pot.
    pub(super) fn bonus_payments(&mut self, s: Seat, reason: &'static str) {
        let half = self.stake / 2;
        for o in self.opponents(s) {
            self.pay(Purse::Seat(o), Purse::Seat(s), half, reason);
            self.pay(Purse::Seat(o), Purse::Pot, half, reason);
        }
    }
}

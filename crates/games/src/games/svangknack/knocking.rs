//! Knocking to join the round (svangknack.md Sec. 2.4).

use super::state::{RoundSummary, Svangknack};
use crate::args;
use crate::engine::Events;

impl Svangknack {
    pub(super) fn apply_knock(&mut self, knock: bool, ev: &mut impl Events) {
        let p = self.turn;
        if knock {
            self.participants |= 1 << p;
        }
        let token = if knock { "knock" } else { "fold" };
        ev.emit(self.all(), "move", || args![p, token, "knock"]);
        if self.queue.is_empty() {
            self.after_knocks(ev);
        } else {
            self.turn = self.queue.remove_first();
        }
    }

    pub(super) fn after_knocks(&mut self, ev: &mut impl Events) {
        if self.participants.count_ones() > 1 {
            self.start_play(ev);
            return;
        }
        if self.last_man_called {
            self.participants |= 1 << self.forehand;
            ev.emit(self.all(), "lastman", || args![self.forehand]);
            self.start_play(ev);
            return;
        }
        // Nobody knocked: the swinger takes the pot without showing his cards.
        let s = self.swinger;
        self.chips[s] += self.pot;
        ev.emit(self.all(), "lone", || args![s, self.pot]);
        let summary = RoundSummary::Lone {
            round: self.round_no,
            seat: s,
            pot: self.pot,
        };
        self.end_round(summary, ev);
    }
}

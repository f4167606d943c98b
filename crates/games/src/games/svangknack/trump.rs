//! The Svängknack turn-up and trump (svangknack.md Sec. 2.3).

use super::state::{Phase, Svangknack};
use crate::args;
use crate::cards::Suit;
use crate::engine::Events;
use crate::game::Arg;

impl Svangknack {
    pub(super) fn turn_up(&mut self, ev: &mut impl Events) -> Result<(), String> {
        let k = if self.one_card { 1 } else { 2 };
        self.turnup.clear();
        for i in self.stock_pos..self.stock_pos + k {
            let c = self.stock()[i];
            self.turnup.push(c);
        }
        self.stock_pos += k;
        let turnup = self.turnup;
        ev.emit(self.all(), "turnup", || {
            turnup.as_slice().iter().map(|&c| Arg::Card(c)).collect()
        });
        let s0 = self.turnup.as_slice()[0].suit;
        if self.turnup.as_slice().iter().all(|c| c.suit == s0) {
            self.set_trump(s0, ev);
        } else {
            self.phase = Phase::Trump;
            self.turn = self.swinger;
        }
        Ok(())
    }

    pub(super) fn trump_tokens(&self) -> String {
        self.turnup
            .as_slice()
            .iter()
            .map(|c| c.suit.letter().to_string())
            .collect::<Vec<_>>()
            .join(" or ")
    }

    pub(super) fn set_trump(&mut self, s: Suit, ev: &mut impl Events) {
        self.trump = Some(s);
        ev.emit(self.all(), "trump", || args![s.token()]);
        self.participants = 1 << self.swinger;
        let t = self.turnup.as_slice();
        let same_suit = t.len() == 2 && t[0].suit == t[1].suit;
        let force = self.forced_round
            || (self.r.same_suit_forces_all
                && same_suit
                && (self.r.force_pot_limit == 0 || self.pot <= self.r.force_pot_limit));
        if force {
            for s in 0..self.n {
                if !(self.handed_over && s == self.forehand) {
                    self.participants |= 1 << s;
                }
            }
            let why = if self.forced_round {
                "participation"
            } else {
                "same_suit"
            };
            ev.emit(self.all(), "forced", || args![why]);
            self.start_play(ev);
            return;
        }
        // Sec. 2.4: clockwise from the swinger's left to the dealer.
        self.queue.clear();
        let mut s = self.left(self.swinger);
        loop {
            if !(self.handed_over && s == self.forehand) {
                self.queue.push(s);
            }
            if s == self.dealer {
                break;
            }
            s = self.left(s);
        }
        if self.queue.is_empty() {
            self.after_knocks(ev);
        } else {
            self.phase = Phase::Knock;
            self.turn = self.queue.remove_first();
        }
    }
}

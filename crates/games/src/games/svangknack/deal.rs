//! The Svängknack pot and deal (svangknack.md Sec. 2.0-2.1): the start of a round, dealing
//! the cards and showing the hands.

use super::rules::{ForcedParticipation, DECK, MAX_PLAYERS};
use super::state::{Phase, Svangknack};
use super::tricks::TrickState;
use crate::args;
use crate::cards::CardSet;
use crate::engine::Events;
use crate::game::{Arg, Audience};
use std::sync::Arc;

impl Svangknack {
    pub(super) fn start_round(&mut self, ev: &mut impl Events) -> Result<(), String> {
        self.round_no += 1;
        self.forehand = self.left(self.dealer);
        self.swinger = self.forehand;
        let a = self.r.stake;
        let new_pot = self.carried == 0;
        ev.emit(self.all(), "round", || args![self.round_no, self.dealer, self.forehand]);
        if self.round_no == 1 && self.r.first_round_dealer_only {
            self.chips[self.dealer] -= a;
            self.pot = a;
            ev.emit(self.all(), "ante", || args![a, self.dealer]);
        } else if new_pot {
            for c in &mut self.chips[..self.n] {
                *c -= a;
            }
            self.pot = a * self.n as i64;
            ev.emit(self.all(), "ante", || args![a, "all"]);
        } else {
            self.chips[self.dealer] -= a;
            self.pot = self.carried + a;
            self.carried = 0;
            ev.emit(self.all(), "ante", || args![a, self.dealer]);
        }
        ev.emit(self.all(), "pot", || args![self.pot, self.pot / 3]);
        self.forced_round = match self.r.forced_participation {
            ForcedParticipation::SessionFirstRound => self.round_no == 1,
            ForcedParticipation::EveryNewPot => new_pot,
            ForcedParticipation::Off => false,
        };
        self.one_card = self.forced_round || (self.round_no == 1 && self.r.first_round_dealer_only);
        self.redeal_available = true;
        self.handed_over = false;
        self.last_man_called = false;
        self.turnup.clear();
        self.trump = None;
        self.participants = 0;
        self.won = [0; MAX_PLAYERS];
        self.trick = TrickState::default();
        self.deal_cards(ev)?;
        self.phase = Phase::Swing;
        self.turn = self.swinger;
        Ok(())
    }

    /// A fresh shuffle: 3 cards each, all at once, clockwise from the dealer's left; the rest is
    /// the stock (in order).
    pub(super) fn deal_cards(&mut self, ev: &mut impl Events) -> Result<(), String> {
        // The request is kept (the deck made once): only the dealer changes.
        let req = Arc::make_mut(&mut self.deal_request);
        req.dealer = self.dealer;
        req.first = (self.dealer + 1) % self.n;
        let deal = self.chance.deal(&self.deal_request)?;
        self.deal_no += 1;
        let stock = deal.piles.get("stock").map_or(&[][..], Vec::as_slice);
        let kept = stock.len().min(DECK);
        self.stock[..kept].copy_from_slice(&stock[..kept]);
        self.stock_len = kept;
        if stock.len() < 2 {
            return Err(format!(
                "deal {}: the stock must hold at least 2 cards (the turn-up)",
                self.deal_no
            ));
        }
        self.stock_pos = 0;
        for s in 0..self.n {
            self.hands[s] = CardSet::from_cards(&deal.hands[s]);
        }
        ev.emit(self.all(), "deal", || args![self.deal_no, self.dealer]);
        self.send_hands(ev);
        Ok(())
    }

    pub(super) fn send_hands(&mut self, ev: &mut impl Events) {
        for s in 0..self.n {
            let hand = self.hands[s];
            ev.emit(Audience::seat(s), "hand", || {
                CardSet::iter(hand).map(Arg::Card).collect()
            });
        }
    }
}

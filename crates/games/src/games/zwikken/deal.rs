//! The Zwikken deal (zwikken.md §2): eliminations, the dealer, the ante and the cards.

use super::state::{Zwikken, DECK, MAX_PLAYERS};
use crate::args;
use crate::cards::CardSet;
use crate::engine::Events;
use crate::game::{Arg, Audience};
use std::sync::Arc;

impl Zwikken {
    /// Starts the next deal: eliminations (bankroll), the dealer, the ante, the cards.
    pub(super) fn start_deal(&mut self, ev: &mut impl Events) -> Result<(), String> {
        if self.bankroll() {
            for s in 0..self.n {
                if self.active[s] && self.balance[s] <= 0 {
                    self.active[s] = false;
                    ev.emit(self.all(), "out", || args![s]);
                }
            }
            if self.playing() <= 1 {
                self.finish("one_left", ev);
                return Ok(());
            }
        }
        if self.deal_no > 0 || !self.active[self.dealer] {
            self.dealer = self.next_active(self.dealer);
        }
        self.deal_no += 1;
        self.deal_start = (self.balance, self.pot);
        ev.emit(self.all(), "deal", || args![self.deal_no, self.dealer]);
        if self.pot == 0 || self.rules.ante_every_deal {
            self.everyone_pays(1, "ante", ev);
        }
        // The request is kept (the deck made once): the dealer, the first seat and the hands
        // of the seats still in change.
        let first = self.next_active(self.dealer);
        let req = Arc::make_mut(&mut self.deal_request);
        req.dealer = self.dealer;
        req.first = first;
        for (size, &active) in req.hand_sizes.iter_mut().zip(&self.active) {
            *size = if active { 3 } else { 0 };
        }
        let deal = self.chance.deal(&self.deal_request)?;
        let turned = deal.piles.get("turned").map_or(&[][..], Vec::as_slice);
        if turned.len() != 1 {
            return Err(format!("deal {}: the turned pile must hold one card", self.deal_no));
        }
        for s in 0..self.n {
            self.hands[s] = CardSet::from_cards(&deal.hands[s]);
        }
        let stock = deal.piles.get("stock").map_or(&[][..], Vec::as_slice);
        let dealt = deal.hands.iter().map(Vec::len).sum::<usize>() + 1 + stock.len();
        if dealt != DECK {
            return Err(format!(
                "deal {}: the stock must hold the {} cards left after the hands and the turned card, not {}",
                self.deal_no,
                DECK + stock.len() - dealt,
                stock.len()
            ));
        }
        self.stock[..stock.len()].copy_from_slice(stock);
        self.stock_lo = 0;
        self.stock_hi = stock.len();
        self.turned.clear();
        self.turned.push(turned[0]);
        self.trump = turned[0].suit;
        self.repeat = false;
        self.period = 1;
        self.seeks = 0;
        self.waits.clear();
        self.exchanged = 0;
        self.trick.clear();
        self.trick_no = 0;
        self.taken = [0; MAX_PLAYERS];
        for s in 0..self.n {
            if self.active[s] {
                let hand = self.hands[s];
                ev.emit(Audience::seat(s), "hand", || {
                    CardSet::iter(hand).map(Arg::Card).collect()
                });
            }
        }
        ev.emit(self.all(), "turn", || args![self.turned.as_slice()[0]]);
        self.start_bidding();
        Ok(())
    }

    /// Every active player pays `amount` into the pot.
    pub(super) fn everyone_pays(&mut self, amount: i64, why: &'static str, ev: &mut impl Events) {
        if amount <= 0 {
            return;
        }
        for s in 0..self.n {
            if self.active[s] {
                self.balance[s] -= amount;
                self.pot += amount;
                ev.emit(self.all(), "pay", || args![s, amount, why]);
            }
        }
        ev.emit(self.all(), "pot", || args![self.pot]);
    }
}

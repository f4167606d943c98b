//! The Schwimmen deal (schwimmen.md Sec. 2.1) and the dealer's choice of packet (Sec. 2.2,
//! 2.3).

use super::scoring;
use super::state::{End, Phase, Schwimmen};
use crate::args;
use crate::chance::DealRequest;
use crate::game::Audience;

impl Schwimmen {
    pub(super) fn start_round(&mut self) -> Result<(), String> {
        self.round += 1;
        let n = self.n;
        let req = DealRequest {
            dealer: self.dealer,
            // Lent to the request and taken back (no copy of the deck per round).
            deck: std::mem::take(&mut self.deck),
            hand_sizes: (0..n).map(|s| if self.active[s] { 3 } else { 0 }).collect(),
            piles: vec![("unseen", 3), ("stock", usize::MAX)],
            first: self.right_active(self.dealer),
            clockwise: false,
            packets: vec![],
            cut_from: None,
        };
        let dealt = self.chance.deal(&req);
        self.deck = req.deck;
        // Copied into the buffers of the last round (the deal stays in the chance's log).
        let deal = dealt?;
        for s in 0..n {
            if self.active[s] && s != self.dealer {
                self.hands[s].clone_from(&deal.hands[s]);
            } else {
                self.hands[s].clear();
            }
        }
        self.seen.clone_from(&deal.hands[self.dealer]);
        self.unseen.clear();
        self.stock.clear();
        for (name, cards) in &deal.piles {
            match name.as_str() {
                "unseen" => self.unseen.clone_from(cards),
                "stock" => self.stock.clone_from(cards),
                _ => {}
            }
        }
        self.middle.clear();
        self.discard.clear();
        self.knocker = None;
        self.final_left = 0;
        self.turns = 0;
        self.passes = 0;
        self.struck.clear();
        let all = self.all();
        self.ev.emit(all, "deal", || args![self.round, self.dealer]);
        for s in 0..n {
            if self.active[s] && s != self.dealer {
                self.ev
                    .emit(Audience::seat(s), "hand", || Self::hand_args(&self.hands[s]));
            }
        }
        self.ev
            .emit(Audience::seat(self.dealer), "packet", || Self::card_args(&self.seen));
        self.phase = Phase::Choose;
        self.turn = self.dealer;
        Ok(())
    }

    pub(super) fn apply_choice(&mut self, keep: bool) {
        let token = if keep { "keep_seen" } else { "take_unseen" };
        let d = self.dealer;
        let (hand, middle) = if keep {
            (std::mem::take(&mut self.seen), std::mem::take(&mut self.unseen))
        } else {
            (std::mem::take(&mut self.unseen), std::mem::take(&mut self.seen))
        };
        self.hands[d] = hand;
        self.middle = middle;
        let all = self.all();
        self.ev.emit(all, "move", || args![d, token, "choose"]);
        self.ev
            .emit(Audience::seat(d), "hand", || Self::hand_args(&self.hands[d]));
        self.ev.emit(all, "middle", || Self::card_args(&self.middle));
        // The initial check: three aces first, then 31, in turn order from the dealer's right.
        let aces = self
            .turn_order_iter(d)
            .find(|&s| scoring::is_three_aces(&self.hands[s]));
        let thirty_one = self.turn_order_iter(d).find(|&s| scoring::is_31(&self.hands[s]));
        if let Some(s) = aces {
            self.end_round(End::ThreeAces(s));
        } else if let Some(s) = thirty_one {
            self.end_round(End::ThirtyOne(s));
        } else {
            self.phase = Phase::Turn;
            self.turn = self.right_active(d);
        }
    }
}

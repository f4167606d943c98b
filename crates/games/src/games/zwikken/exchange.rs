//! The Zwikken trump-ten exchange: which turned cards a seat may take for its ten, making the
//! exchange, and why one is refused.

use super::rules::ExchangeTargets;
use super::state::{ten_of, Phase, Targets, Zwikken};
use crate::args;
use crate::cards::{format_cards, Card};
use crate::engine::Events;
use crate::few::Few;
use crate::game::Seat;

impl Zwikken {
    /// The exchanges `p` may make now: (turned card to take, ten to lay in its place).
    pub(super) fn targets(&self, p: Seat) -> Targets {
        let h = self.hands[p];
        let mut v = Few::new((self.turned.as_slice()[0], self.turned.as_slice()[0]));
        match self.rules.exchange_targets {
            ExchangeTargets::SuitMatched => {
                for &c in self.turned.iter() {
                    if h.contains(ten_of(c.suit)) && self.exchanged & (1 << c.suit.index()) == 0 {
                        v.push((c, ten_of(c.suit)));
                    }
                }
            }
            mode => {
                let ten = ten_of(self.trump);
                if self.exchanged != 0 || !h.contains(ten) {
                    return v;
                }
                for &c in self.turned.iter() {
                    if mode == ExchangeTargets::AnyTurned || c.suit == self.trump {
                        v.push((c, ten));
                    }
                }
            }
        }
        v
    }

    /// The ten that `p` lays down for the turned card `take`.
    pub(super) fn ten_for(&self, p: Seat, take: Card) -> Card {
        self.targets(p)
            .iter()
            .find(|(c, _)| *c == take)
            .map(|&(_, t)| t)
            .expect("a legal target")
    }

    pub(super) fn do_exchange(&mut self, p: Seat, take: Card, ten: Card, ev: &mut impl Events) {
        self.hands[p].remove(ten);
        self.hands[p].insert(take);
        if let Some(slot) = self.turned.as_mut_slice().iter_mut().find(|c| **c == take) {
            *slot = ten;
        }
        self.exchanged |= 1 << ten.suit.index();
        ev.emit(self.all(), "exchange", || args![p, take, ten]);
    }

    pub(super) fn end_bidding(&mut self, ev: &mut impl Events) {
        let mut q = self.order();
        q.retain(|s| !self.targets(s).is_empty());
        self.ex_queue = q;
        self.next_exchange(ev);
    }

    pub(super) fn next_exchange(&mut self, ev: &mut impl Events) {
        while let Some(&s) = self.ex_queue.first() {
            if self.targets(s).is_empty() {
                self.ex_queue.remove_first();
                continue;
            }
            self.phase = Phase::Exchange;
            self.turn = s;
            return;
        }
        self.showdown(ev);
    }

    pub(super) fn exchange_refusal(&self, p: Seat, target: Card) -> String {
        if !self.turned.iter().any(|&c| c == target) {
            return format!(
                "{target} is not a face-up turned card (turned: {})",
                format_cards(self.turned.as_slice())
            );
        }
        match self.rules.exchange_targets {
            ExchangeTargets::CurrentSuitOnly if target.suit != self.trump => format!(
                "{target} is not of the trump suit {}: exchange_targets=current_suit_only",
                self.trump
            ),
            ExchangeTargets::SuitMatched => {
                format!("seat {p} does not hold the ten of {}, or it was exchanged", target.suit)
            }
            _ => format!("seat {p} may not exchange {target} now"),
        }
    }
}

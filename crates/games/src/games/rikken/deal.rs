//! The Rikken deal: dealing (again, after an all-pass), showing the hands,
//! and the special deals that skip the auction.

use super::bids::Contract;
use super::state::{left, Phase, Rikken, N};
use crate::args;
use crate::cards::{Card, CardSet};
use crate::chance::DealRequest;
use crate::game::Audience;

impl Rikken {
    /// Deals (again, after an all-pass) and starts the auction or the special deal.
    pub(super) fn start_deal(&mut self) -> Result<(), String> {
        self.deal_no += 1;
        let deck = crate::cards::full_deck();
        let mut req = DealRequest::hands(self.dealer, deck, N, 13);
        req.packets = match self.o.get("deal_packets") {
            "7+6" => vec![7, 6],
            "6+7" => vec![6, 7],
            _ => vec![],
        };
        if self.o.flag("cut_only") {
            if let Some(prev) = self.chance.deals().last() {
                // Gather the previous hands from the dealer's left and cut once.
                let order: Vec<Card> = (1..=N)
                    .flat_map(|k| prev.hands[(prev.dealer + k) % N].clone())
                    .collect();
                req.cut_from = Some(order);
            }
        }
        let deal = self.chance.deal(&req)?;
        for s in 0..N {
            self.hands[s] = CardSet::from_cards(&deal.hands[s]);
        }
        self.passed = [false; N];
        self.standing = None;
        self.declarers.clear();
        self.consecutive = 0;
        self.passes_without_bid = 0;
        self.rik_bid = false;
        self.ev.emit(Self::all(), "deal", || args![self.deal_no, self.dealer]);
        match self.o.get("special") {
            "op_voorhand" => {
                let rikker = left(self.dealer);
                if self.contract.is_none() {
                    // The rik is declared before the cards are seen: withhold the hands.
                    self.hands_withheld = true;
                    self.contract = Some(Contract::OpVoorhand);
                    self.declarers.clear();
                    self.declarers.push(rikker);
                    self.ev.emit(Self::all(), "contract", || args!["op_voorhand", rikker]);
                    self.phase = Phase::Trump;
                    self.turn = rikker;
                } else {
                    // A redeal after a void deal: the declarations stand.
                    self.declarers.clear();
                    self.declarers.push(rikker);
                    self.send_hands();
                    self.op_voorhand_substitute()?;
                }
            }
            "open_piek_totaal" => {
                self.send_hands();
                self.contract = Some(Contract::OpenPiekTotaal);
                self.declarers.clear();
                (0..N).for_each(|s| self.declarers.push(s));
                self.ev
                    .emit(Self::all(), "contract", || args!["open_piek_totaal", "0,1,2,3"]);
                self.ev.emit(Self::all(), "trump", || args!["none"]);
                self.start_play();
            }
            _ => {
                self.send_hands();
                self.phase = Phase::Bidding;
                self.turn = left(self.dealer);
                self.prompt();
            }
        }
        Ok(())
    }

    pub(super) fn send_hands(&mut self) {
        self.hands_withheld = false;
        for s in 0..N {
            self.ev.emit(Audience::seat(s), "hand", || {
                self.hands[s].iter().map(crate::game::Arg::Card).collect()
            });
        }
    }
}

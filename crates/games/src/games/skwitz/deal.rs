//! The Skwitz deal (skwitz.md Sec. 2): the ante, the shuffle with the matador bottom check, the
//! layout and the draws.

use super::captures::is_matador;
use super::payments::Purse;
use super::state::{Skwitz, DECK};
use crate::args;
use crate::cards::{full_deck, Card, CardSet};
use crate::chance::DealRequest;
use crate::game::{Arg, Args, Audience};

impl Skwitz {
    /// The bottom card of a deal: the last card of the stock, or of the dealer's first draw when
    /// the first draw takes the whole stock.
    fn bottom(&self, hands: &[Vec<Card>], stock: &[Card]) -> Option<Card> {
        stock.last().or_else(|| hands[self.dealer].last()).copied()
    }

    /// Antes, shuffles until the bottom card is no matador, lays out the table and makes the first draw.
    pub(super) fn start_deal(&mut self) -> Result<(), String> {
        self.deal_no += 1;
        self.deals_in_game += 1;
        let (t, h, _) = self.layout;
        self.ev
            .emit(self.everyone(), "deal", || args![self.deal_no, self.dealer]);
        if self.rules.ante_per_deal || self.deals_in_game == 1 {
            for s in 0..self.n {
                self.pay(Purse::Seat(s), Purse::Pot, self.stake, "ante");
            }
        }
        let forehand = self.right(self.dealer);
        let req = DealRequest {
            dealer: self.dealer,
            deck: full_deck(),
            hand_sizes: vec![h; self.n],
            piles: vec![("table", t), ("stock", usize::MAX)],
            first: forehand,
            clockwise: false,
            packets: vec![],
            cut_from: None,
        };
        let mut attempts = 0;
        let deal = loop {
            let d = self.chance.deal(&req)?.clone();
            let table = d.piles.get("table").cloned().unwrap_or_default();
            let stock = d.piles.get("stock").cloned().unwrap_or_default();
            if table.len() != t {
                return Err(format!(
                    "deal {}: the table pile has {} cards, this game lays out {t}",
                    self.deal_no,
                    table.len()
                ));
            }
            let total = d.hands.iter().map(Vec::len).sum::<usize>() + table.len() + stock.len();
            if total != 52 {
                return Err(format!(
                    "deal {}: the deal holds {total} cards, not 52 (the stock pile must hold the rest)",
                    self.deal_no
                ));
            }
            attempts += 1;
            match self.bottom(&d.hands, &stock) {
                Some(b) if is_matador(b) && attempts < 1000 => {
                    self.ev.emit(self.everyone(), "reshuffle", || args![]);
                }
                _ => break (d, table, stock),
            }
        };
        let (d, table, stock) = deal;
        let bottom = self.bottom(&d.hands, &stock).expect("a deal has a bottom card");
        self.ev.emit(Audience::seat(self.dealer), "bottom", || args![bottom]);
        // Room for every card, so that no play grows them.
        self.table.clear();
        self.table.reserve(DECK);
        self.table.extend(table);
        self.face_up = CardSet::from_cards(&self.table);
        self.stock = stock;
        for pile in &mut self.piles {
            pile.clear();
            pile.reserve(DECK);
        }
        self.removed.clear();
        self.removed.reserve(DECK);
        self.last_captor = None;
        self.draws = 0;
        self.ev.emit(self.everyone(), "table", || {
            let mut cards: Args = self.table.iter().map(|&c| Arg::Card(c)).collect();
            if cards.is_empty() {
                cards.push(Arg::Word("-"));
            }
            cards
        });
        self.hands = d.hands;
        for hand in &mut self.hands {
            // Room for a draw of h cards.
            hand.reserve(h.saturating_sub(hand.len()));
        }
        self.announce_draw();
        Ok(())
    }

    /// Announces a draw (the hands are already in `self.hands`); forehand plays first.
    fn announce_draw(&mut self) {
        self.draws += 1;
        self.ev
            .emit(self.everyone(), "draw", || args![self.draws, self.stock.len()]);
        for s in 0..self.n {
            self.hands[s].sort_unstable();
            self.ev.emit(Audience::seat(s), "hand", || {
                self.hands[s].iter().map(|&c| crate::game::Arg::Card(c)).collect()
            });
        }
        self.turn = self.right(self.dealer);
    }

    /// Draws h cards each from the top of the stock, forehand first, anticlockwise.
    pub(super) fn draw(&mut self) {
        let h = self.layout.1;
        let mut s = self.right(self.dealer);
        for _ in 0..self.n {
            let k = h.min(self.stock.len());
            self.hands[s].clear();
            self.hands[s].extend(self.stock.drain(..k));
            s = self.right(s);
        }
        self.announce_draw();
    }
}

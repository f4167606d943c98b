//! Zwikken trick play: the legal plays (with an exchange before the first card), playing a
//! card, why a card is refused, and counting the points after trick 3.

use super::action::ZwikkenAction;
use super::state::Zwikken;
use super::tricks::{card_points, legal_plays, trick_winner};
use crate::args;
use crate::cards::{Card, CardSet};
use crate::engine::Events;
use crate::game::{Arg, Seat};

impl Zwikken {
    pub(super) fn legal_play(&self, out: &mut Vec<ZwikkenAction>) {
        let p = self.turn;
        let (trick, trump, classic) = (self.trick.as_slice(), self.trump, self.rules.classic);
        out.extend(CardSet::iter(legal_plays(self.hands[p], trick, trump, classic)).map(ZwikkenAction::Play));
        if self.trick_no == 1 {
            for &(take, ten) in self.targets(p).iter() {
                let mut h = self.hands[p];
                h.remove(ten);
                h.insert(take);
                out.extend(
                    CardSet::iter(legal_plays(h, trick, trump, classic)).map(|c| ZwikkenAction::ExchangePlay(take, c)),
                );
            }
        }
    }

    pub(super) fn play(&mut self, card: Card, ev: &mut impl Events) {
        let p = self.turn;
        self.hands[p].remove(card);
        self.trick.push((p, card));
        if self.trick.len() < self.playing() {
            self.turn = self.next_active(p);
            return;
        }
        let w = trick_winner(self.trick.as_slice(), self.trump);
        self.taken[w] += self.trick.iter().map(|&(_, c)| card_points(c)).sum::<u32>();
        ev.emit(self.all(), "trick", || args![self.trick_no, w]);
        self.trick.clear();
        if self.trick_no < 3 {
            self.trick_no += 1;
            self.leader = w;
            self.turn = w;
            return;
        }
        self.count_points(ev);
    }

    pub(super) fn play_refusal(&self, p: Seat, token: &str) -> String {
        let hand = self.hands[p];
        if let Some(rest) = token.strip_prefix("exchange_") {
            if self.trick_no != 1 {
                return "the trump ten can be exchanged only before one's card in the first trick".into();
            }
            let take = rest.split('_').next().and_then(|c| c.parse::<Card>().ok());
            return match take {
                Some(t) if self.targets(p).iter().any(|(c, _)| *c == t) => {
                    format!("'{token}': that card may not be played after the exchange (follow the trick law)")
                }
                Some(t) => self.exchange_refusal(p, t),
                None => format!("'{token}' is not exchange_<turned card>_<card to play>"),
            };
        }
        let Ok(card) = token.parse::<Card>() else {
            return format!("'{token}' is not a card");
        };
        if !hand.contains(card) {
            return format!("seat {p} does not hold {card}");
        }
        let led = self.trick.as_slice()[0].1.suit;
        if card.suit == self.trump {
            format!("{card} would undertrump; legal: {}", self.legal_tokens())
        } else if hand.has_suit(led) {
            format!("seat {p} must follow {led} (or trump); legal: {}", self.legal_tokens())
        } else {
            format!("seat {p} must trump; legal: {}", self.legal_tokens())
        }
    }

    /// After trick 3: the unique highest total wins if it is an asker's; a passer's best or a
    /// shared top makes every asker lose (zwikken.md §2.8).
    fn count_points(&mut self, ev: &mut impl Events) {
        let taken = &self.taken[..self.n];
        ev.emit(self.all(), "points", || taken.iter().map(|&p| Arg::from(p)).collect());
        let order = self.order();
        let top = order.iter().map(|&s| self.taken[s]).max().unwrap_or(0);
        let mut best = order.iter().copied().filter(|&s| self.taken[s] == top);
        let first = best.next().expect("an active seat");
        if best.next().is_some() {
            self.end("tie", None, ev);
            self.settle(None, ev);
        } else if self.asked[first] {
            self.end("points", Some(first), ev);
            self.settle(Some(first), ev);
        } else {
            self.end("passer", Some(first), ev);
            self.settle(None, ev);
        }
    }
}

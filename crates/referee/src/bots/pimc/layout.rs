//! A world's deal as cards in places, the moves a repair makes on it, and the exchanges that
//! tell where a card the lines show now was dealt.

use super::world::Line;
use crate::cards::Card;
use crate::chance::{DealSpec, Purpose, Rng};
use crate::game::{Arg, DealLines, Seat};
use std::collections::BTreeMap;

/// A place a card is dealt to: a seat's hand or a named pile; or the rest of the deck, which
/// the deal leaves out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Place {
    Hand(Seat),
    Pile(String),
    Undealt,
}

/// A deal as a list of (place, card), in the order the deal lists them.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    pub(super) dealer: Seat,
    pub(super) hands: usize,
    pub(super) cards: Vec<(Place, Card)>,
    /// Deals the rules throw away before this one (a Skwitz reshuffle): each the layout's
    /// cards shuffled by its seed.
    pub(super) rejected: Vec<u64>,
}

impl Layout {
    pub(super) fn of(deal: &crate::chance::Deal) -> Layout {
        let mut cards = Vec::new();
        for (s, h) in deal.hands.iter().enumerate() {
            cards.extend(h.iter().map(|&c| (Place::Hand(s), c)));
        }
        for (name, pile) in &deal.piles {
            cards.extend(pile.iter().map(|&c| (Place::Pile(name.clone()), c)));
        }
        cards.extend(deal.undealt.iter().map(|&c| (Place::Undealt, c)));
        Layout {
            dealer: deal.dealer,
            hands: deal.hands.len(),
            cards,
            rejected: Vec::new(),
        }
    }

    /// The deals to give, in order: the rejected ones, then this one.
    pub(super) fn specs(&self) -> Vec<DealSpec> {
        let mut out: Vec<DealSpec> = self
            .rejected
            .iter()
            .map(|&seed| {
                let mut other = self.clone();
                other.rejected.clear();
                // The deck in a fixed order, shuffled by the seed: the same deal whatever this
                // layout's order, so a sample keeps the tracker's thrown-away deals.
                let mut cards: Vec<Card> = other.cards.iter().map(|&(_, c)| c).collect();
                cards.sort();
                Rng::new(seed, Purpose::Bot, 1).shuffle(&mut cards);
                for (slot, c) in other.cards.iter_mut().zip(cards) {
                    slot.1 = c;
                }
                other.spec()
            })
            .collect();
        out.push(self.spec());
        out
    }

    fn spec(&self) -> DealSpec {
        let mut hands = vec![Vec::new(); self.hands];
        let mut piles: BTreeMap<String, Vec<Card>> = BTreeMap::new();
        for (place, c) in &self.cards {
            match place {
                Place::Hand(s) => hands[*s].push(*c),
                Place::Pile(p) => piles.entry(p.clone()).or_default().push(*c),
                Place::Undealt => {}
            }
        }
        DealSpec {
            dealer: Some(self.dealer),
            hands: hands.into_iter().map(Some).collect(),
            piles,
        }
    }

    pub(super) fn position(&self, c: Card) -> Option<usize> {
        self.cards.iter().position(|&(_, x)| x == c)
    }

    /// Swaps the places of two cards (positions).
    pub(super) fn swap(&mut self, i: usize, j: usize) {
        let (a, b) = (self.cards[i].1, self.cards[j].1);
        self.cards[i].1 = b;
        self.cards[j].1 = a;
    }
}

/// Every card named in a line's arguments (`7H`, or inside a token such as `7H:3D,4C`).
pub(super) fn cards_in(args: &[Arg]) -> Vec<Card> {
    let mut cards = Vec::new();
    for a in args {
        match a {
            Arg::Card(c) => cards.push(*c),
            Arg::Int(_) => {}
            other => cards.extend(
                other
                    .text()
                    .split(|ch: char| !ch.is_ascii_alphanumeric())
                    .filter_map(Card::from_token),
            ),
        }
    }
    cards
}

/// The exchanges of cards since the deal, in order, each with the index of its line: where a
/// card the lines show now was dealt.
#[derive(Default)]
pub(super) struct Trace(Vec<(usize, Card, Card)>);

impl Trace {
    /// Follows the game's exchange lines among `lines` ([`DealLines::exchanges`], and
    /// [`DealLines::exchanges_all`] between the pile's lines before and after), the first of
    /// which is line `offset` of the seat's.
    pub(super) fn of(lines: &[Line], deal_lines: &DealLines, offset: usize) -> Trace {
        let mut pairs = Vec::new();
        // The last line showing each pile, and exchanges of a whole hand waiting for the next.
        let mut piles: BTreeMap<&str, Vec<Card>> = BTreeMap::new();
        let mut waiting: Vec<(usize, &str, Vec<Card>)> = Vec::new();
        for (i, (k, a)) in lines.iter().enumerate() {
            if let Some(&(_, _, pile)) = deal_lines.exchanges_all.iter().find(|e| e.2 == k.as_str()) {
                let shown = cards_in(a);
                waiting.retain(|(at, p, taken)| {
                    if *p != pile {
                        return true;
                    }
                    // The card laid in each slot, for the card taken from it.
                    if taken.len() == shown.len() {
                        pairs.extend(shown.iter().zip(taken).map(|(&x, &y)| (offset + at, x, y)));
                    }
                    false
                });
                piles.insert(pile, shown);
                continue;
            }
            let Some(rest) = a.get(1..).filter(|r| !r.is_empty()) else {
                continue;
            };
            let first = rest[0].text();
            if let Some(&(_, _, pile)) = deal_lines
                .exchanges_all
                .iter()
                .find(|(kind, token, _)| *kind == k.as_str() && first == *token)
            {
                if let Some(taken) = piles.get(pile) {
                    waiting.push((i, pile, taken.clone()));
                }
                continue;
            }
            let Some((_, prefix)) = deal_lines.exchanges.iter().find(|(kind, _)| *kind == k.as_str()) else {
                continue;
            };
            if !first.starts_with(prefix) {
                continue;
            }
            if let [x, y] = cards_in(if prefix.is_empty() { rest } else { &rest[..1] })[..] {
                pairs.push((offset + i, x, y));
            }
        }
        pairs.sort_by_key(|&(i, _, _)| i);
        Trace(pairs)
    }

    /// The exchanges of lines from `from` on: where a card the lines show now was at line `from`.
    pub(super) fn since(&self, from: usize) -> Trace {
        Trace(self.0.iter().copied().filter(|&(i, _, _)| i >= from).collect())
    }

    /// The exchanges of lines before `upto`.
    pub(super) fn before(&self, upto: usize) -> Trace {
        Trace(self.0.iter().copied().filter(|&(i, _, _)| i < upto).collect())
    }

    /// The card dealt to the place where `c` is now (each exchange, latest first, undone).
    pub(super) fn origin(&self, c: Card) -> Card {
        self.0.iter().rev().fold(c, |c, &(_, x, y)| {
            if c == x {
                y
            } else if c == y {
                x
            } else {
                c
            }
        })
    }

    /// Where the layout dealt the card that is now `c`'s place.
    pub(super) fn position(&self, layout: &Layout, c: Card) -> Option<usize> {
        layout.position(self.origin(c))
    }
}

/// Deals the cards that are not `fixed` anew among their places.
pub(super) fn shuffle_free(layout: &mut Layout, fixed: &[Card], rng: &mut Rng) {
    let free: Vec<usize> = (0..layout.cards.len())
        .filter(|&i| !fixed.contains(&layout.cards[i].1))
        .collect();
    let mut cards: Vec<Card> = free.iter().map(|&i| layout.cards[i].1).collect();
    rng.shuffle(&mut cards);
    for (&i, c) in free.iter().zip(cards) {
        layout.cards[i].1 = c;
    }
}

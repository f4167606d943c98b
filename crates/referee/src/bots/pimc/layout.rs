//! A world's deal as cards in places, the moves a repair makes on it, and the exchanges that
//! tell where a card the lines show now was dealt.

use super::world::Line;
use crate::cards::Card;
use crate::chance::{DealSpec, Purpose, Rng};
use crate::game::{Arg, Seat};
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

/// The exchanges of cards since the deal, in order: where a card the lines show now was dealt.
#[derive(Default)]
pub(super) struct Trace(Vec<(Card, Card)>);

impl Trace {
    /// Follows the game's exchange lines ([`DealLines::exchanges`](crate::game::DealLines::exchanges)) among `lines`.
    pub(super) fn of(lines: &[Line], exchanges: &[(&str, &str)]) -> Trace {
        let pairs = lines.iter().filter_map(|(k, a)| {
            let (_, prefix) = exchanges.iter().find(|(kind, _)| kind == k)?;
            let rest = a.get(1..)?;
            if !rest.first()?.text().starts_with(prefix) {
                return None;
            }
            match cards_in(if prefix.is_empty() { rest } else { &rest[..1] })[..] {
                [x, y] => Some((x, y)),
                _ => None,
            }
        });
        Trace(pairs.collect())
    }

    /// The card dealt to the place where `c` is now (each exchange, latest first, undone).
    pub(super) fn origin(&self, c: Card) -> Card {
        self.0.iter().rev().fold(c, |c, &(x, y)| {
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

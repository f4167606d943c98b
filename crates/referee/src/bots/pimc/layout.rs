//! A world's deal as cards in places, the moves a repair makes on it, and the exchanges that
//! tell where a card the lines show now was dealt.

use super::world::Line;
use crate::cards::{Card, CardSet};
use crate::chance::{DealSpec, Purpose, Rng};
use crate::game::{Arg, DealLines, Seat};
use std::collections::BTreeMap;

/// A place a card is dealt to: a seat's hand or a named pile (by its place among the layout's
/// [`piles`](Layout::piles)); or the rest of the deck, which the deal leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    Hand(Seat),
    Pile(usize),
    Undealt,
}

/// A deal as a list of (place, card), in the order the deal lists them.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    pub(super) dealer: Seat,
    pub(super) hands: usize,
    pub(super) cards: Vec<(Place, Card)>,
    /// The names of the deal's piles.
    pub(super) piles: Vec<String>,
    /// Deals the rules throw away before this one (a Skwitz reshuffle): each the layout's
    /// cards shuffled by its seed.
    pub(super) rejected: Vec<u64>,
    /// What repairs learned of the deal from the seat's lines, and whether they learn: a
    /// sampled world's repairs do, the refit of the world followed does not (its local search
    /// moves cards lessons would hold back: Svängknack fell back to `simple` on 3.0 % of its
    /// decisions with them, 2.3 % without, seeds 21-22; a Skwitz world was not followed).
    pub(super) learned: Learned,
    pub(super) learn: bool,
}

/// What repairs learned of a deal from the seat's lines, which [`shuffle_free`] keeps to: the
/// cards a hand was not dealt (the world made the hand play them instead of the card the seat
/// saw: a suit it did not follow, a card it would have had to beat with), and the cards whose
/// places the lines fix (a card a line showed where a world had another, a card a seat played
/// that a world had dealt elsewhere), which stay where the deal has them. A tracker keeps them
/// for every later sample of the deal ([`Tracker::sample`](super::tracker::Tracker)): each
/// sample would otherwise fail where the last one did and be repaired alike.
#[derive(Clone, Debug, Default)]
pub(super) struct Learned {
    pub(super) barred: Vec<(Card, Seat)>,
    pub(super) pinned: Vec<Card>,
}

impl Layout {
    pub(super) fn of(deal: &crate::chance::Deal) -> Layout {
        let mut cards = Vec::new();
        for (s, h) in deal.hands.iter().enumerate() {
            cards.extend(h.iter().map(|&c| (Place::Hand(s), c)));
        }
        for (i, pile) in deal.piles.values().enumerate() {
            cards.extend(pile.iter().map(|&c| (Place::Pile(i), c)));
        }
        cards.extend(deal.undealt.iter().map(|&c| (Place::Undealt, c)));
        Layout {
            dealer: deal.dealer,
            hands: deal.hands.len(),
            cards,
            piles: deal.piles.keys().cloned().collect(),
            rejected: Vec::new(),
            learned: Learned::default(),
            learn: false,
        }
    }

    /// Whether the seat's lines showed that `place` was not dealt `card`.
    pub(super) fn bars(&self, card: Card, place: &Place) -> bool {
        matches!(place, Place::Hand(s) if self.learned.barred.contains(&(card, *s)))
    }

    /// Learns that hand `seat` was not dealt `card` (where the layout [learns](Layout::learn)).
    pub(super) fn bar(&mut self, card: Card, seat: Seat) {
        if self.learn && !self.learned.barred.contains(&(card, seat)) {
            self.learned.barred.push((card, seat));
        }
    }

    /// Learns that the lines fix the place of `card` (where the layout has it now; where the
    /// layout [learns](Layout::learn)).
    pub(super) fn pin(&mut self, card: Card) {
        if self.learn && !self.learned.pinned.contains(&card) {
            self.learned.pinned.push(card);
        }
    }

    /// The cards a shuffle or repair leaves where they are: `fixed` (the lines name their
    /// places) and the [pinned](Layout::pin) ones.
    pub(super) fn kept(&self, fixed: &[Card]) -> CardSet {
        CardSet::from_cards(fixed).union(CardSet::from_cards(&self.learned.pinned))
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
        let mut piles = vec![Vec::new(); self.piles.len()];
        for &(place, c) in &self.cards {
            match place {
                Place::Hand(s) => hands[s].push(c),
                Place::Pile(p) => piles[p].push(c),
                Place::Undealt => {}
            }
        }
        DealSpec {
            dealer: Some(self.dealer),
            hands: hands.into_iter().map(Some).collect(),
            piles: self
                .piles
                .iter()
                .cloned()
                .zip(piles)
                .filter(|(_, c)| !c.is_empty())
                .collect(),
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

/// Deals the cards that are neither `fixed` nor [pinned](Layout::pin) anew among their places;
/// none to a hand the layout [bars](Layout::bars) it from, where a swap with another free card
/// avoids it.
pub(super) fn shuffle_free(layout: &mut Layout, fixed: &[Card], rng: &mut Rng) {
    let kept = layout.kept(fixed);
    let free: Vec<usize> = (0..layout.cards.len())
        .filter(|&i| !kept.contains(layout.cards[i].1))
        .collect();
    let mut cards: Vec<Card> = free.iter().map(|&i| layout.cards[i].1).collect();
    rng.shuffle(&mut cards);
    for (&i, c) in free.iter().zip(cards) {
        layout.cards[i].1 = c;
    }
    if layout.learned.barred.is_empty() {
        return;
    }
    // Each card dealt where it is barred swaps with one drawn among those that may take its
    // place and whose place may take it (the places before stay as they are).
    let mut barred = vec![CardSet::default(); layout.hands];
    for &(c, s) in &layout.learned.barred {
        barred[s].insert(c);
    }
    let bars = |c: Card, p: Place| matches!(p, Place::Hand(s) if barred[s].contains(c));
    let mut swaps = Vec::new();
    for &i in &free {
        let (p, c) = layout.cards[i];
        if !bars(c, p) {
            continue;
        }
        swaps.clear();
        swaps.extend(free.iter().copied().filter(|&j| {
            let (q, d) = layout.cards[j];
            q != p && !bars(d, p) && !bars(c, q)
        }));
        if !swaps.is_empty() {
            let j = swaps[rng.below(swaps.len() as u64) as usize];
            let d = layout.cards[j].1;
            layout.cards[j].1 = c;
            layout.cards[i].1 = d;
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Four hands of three cards and two cards left undealt.
    pub(crate) fn layout() -> Layout {
        let deck: Vec<Card> = [
            "AS", "KS", "QS", "JS", "AH", "KH", "QH", "JH", "AD", "KD", "QD", "JD", "AC", "KC",
        ]
        .iter()
        .map(|t| Card::from_token(t).unwrap())
        .collect();
        let mut cards: Vec<(Place, Card)> = deck[..12]
            .iter()
            .enumerate()
            .map(|(i, &c)| (Place::Hand(i / 3), c))
            .collect();
        cards.extend(deck[12..].iter().map(|&c| (Place::Undealt, c)));
        Layout {
            dealer: 0,
            hands: 4,
            cards,
            piles: Vec::new(),
            rejected: Vec::new(),
            learned: Learned::default(),
            learn: true,
        }
    }

    fn hand(l: &Layout, s: Seat) -> Vec<Card> {
        l.cards
            .iter()
            .filter(|(p, _)| *p == Place::Hand(s))
            .map(|&(_, c)| c)
            .collect()
    }

    #[test]
    fn a_shuffle_leaves_a_pinned_card_where_it_is_and_deals_the_others_anew() {
        let mut l = layout();
        let kd = Card::from_token("KD").unwrap();
        let at = l.position(kd).unwrap();
        // A layout that does not learn (the world followed) keeps nothing.
        let mut quiet = Layout {
            learn: false,
            ..l.clone()
        };
        quiet.pin(kd);
        quiet.bar(kd, 1);
        assert!(quiet.learned.pinned.is_empty() && quiet.learned.barred.is_empty());
        l.pin(kd);
        l.pin(kd);
        assert_eq!(l.learned.pinned, vec![kd]);
        let before = l.cards.clone();
        let mut rng = Rng::new(3, Purpose::Bot, 0);
        let mut moved = 0;
        for _ in 0..50 {
            shuffle_free(&mut l, &[], &mut rng);
            assert_eq!(l.cards[at], before[at]);
            moved += (l.cards != before) as usize;
        }
        assert!(moved >= 45, "{moved}");
    }

    #[test]
    fn a_shuffle_deals_no_card_to_a_hand_barred_from_it_and_every_other_card_anywhere() {
        let card = |t| Card::from_token(t).unwrap();
        let mut l = layout();
        // Hand 1 may not hold a spade (it did not follow), nor the ace of hearts; hand 0's
        // cards stay where they are.
        for t in ["AS", "KS", "QS", "JS", "AH"] {
            l.bar(card(t), 1);
        }
        l.bar(card("AS"), 1);
        assert_eq!(l.learned.barred.len(), 5, "a bar is learned once");
        let fixed = hand(&l, 0);
        let mut rng = Rng::new(7, Purpose::Bot, 0);
        let mut seen_in_1 = Vec::new();
        for _ in 0..500 {
            shuffle_free(&mut l, &fixed, &mut rng);
            assert_eq!(hand(&l, 0), fixed);
            let h1 = hand(&l, 1);
            assert_eq!(h1.len(), 3);
            assert!(h1.iter().all(|c| !l.bars(*c, &Place::Hand(1))), "{h1:?}");
            seen_in_1.extend(h1);
            assert_eq!(l.cards.len(), 14);
        }
        seen_in_1.sort();
        seen_in_1.dedup();
        // Every free card not barred from hand 1 (hearts but the ace, diamonds, clubs) got there.
        assert_eq!(seen_in_1.len(), 3 + 4 + 2, "{seen_in_1:?}");
        // Elsewhere the barred cards still go anywhere: the ace of hearts reached every other
        // free place.
        let ah = card("AH");
        let mut places = Vec::new();
        for _ in 0..300 {
            shuffle_free(&mut l, &fixed, &mut rng);
            places.push(l.cards[l.position(ah).unwrap()].0);
        }
        for p in [Place::Hand(2), Place::Hand(3), Place::Undealt] {
            assert!(places.contains(&p), "{p:?}");
        }
        assert!(!places.contains(&Place::Hand(1)));
    }
}

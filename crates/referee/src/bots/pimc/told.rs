//! What the seat's lines tell of cards they do not name ([`DealLines::tells`]: a Zwikken bid
//! tells whether the bidder holds the trump ten), dealt into a sampled world before it is
//! replayed: otherwise each sample found it out by failing at the bid and being dealt anew.

use super::layout::{Layout, Place};
use super::tracker::Tracker;
use crate::cards::{Card, CardSet};
use crate::chance::Rng;
use crate::game::Seat;

/// A card a seat held when a line was said (`true`), or did not; the card as dealt.
pub(super) type Told = (Seat, Card, bool);

impl Tracker {
    /// What the current deal's lines before `upto` tell of other seats' cards they do not name,
    /// each card as dealt (every exchange before its line undone). Not the next deal's lines.
    pub(super) fn told(&self, upto: usize) -> Vec<Told> {
        let Some(tells) = self.spec.deal_lines.tells else {
            return Vec::new();
        };
        let from = self.deal_lines_from();
        let mut lines = &self.observed[from..upto.max(from)];
        if let Some(next) = lines.iter().skip(1).position(|(k, _)| k == "deal") {
            lines = &lines[..next + 1];
        }
        let trace = self.trace(upto.max(from));
        (0..lines.len())
            .filter_map(|at| {
                let (seat, card, holds) = tells(lines, at)?;
                (seat != self.me).then(|| (seat, trace.before(from + at).origin(card), holds))
            })
            .collect()
    }
}

/// Bars from a hand in `layout` each card `told` says it did not hold, and deals to a hand each
/// card it held (swapped with a card of that hand that neither `fixed` nor a lesson keeps in
/// place), pinned there. The layout must [learn](Layout::learn) (a sample's). A card kept
/// elsewhere (no world agrees with the lines) is left where it is.
pub(super) fn deal_told(layout: &mut Layout, told: &[Told], fixed: &[Card], rng: &mut Rng) {
    for &(seat, card, holds) in told {
        if seat >= layout.hands {
            continue;
        }
        if !holds {
            layout.bar(card, seat);
            continue;
        }
        let Some(i) = layout.position(card) else { continue };
        if layout.cards[i].0 == Place::Hand(seat) {
            layout.pin(card);
            continue;
        }
        let kept = layout.kept(fixed);
        if kept.contains(card) {
            continue;
        }
        let slots: Vec<usize> = (0..layout.cards.len())
            .filter(|&j| layout.cards[j].0 == Place::Hand(seat) && !kept.contains(layout.cards[j].1))
            .collect();
        if slots.is_empty() {
            continue;
        }
        layout.swap(i, slots[rng.below(slots.len() as u64) as usize]);
        layout.pin(card);
    }
}

/// [`deal_told`] for the world the bot follows (a refit's layout, which learns nothing): the
/// cards of `told` put where it says, by swaps with cards `kept` does not hold in place, before
/// each replay of the refit (its other repairs may move them again). A card told held is swapped
/// into its hand; a card told lacked out of it, with a card of another place that may go there.
pub(super) fn agree_told(layout: &mut Layout, told: &[Told], kept: CardSet, rng: &mut Rng) {
    let free = |layout: &Layout, j: usize| !kept.contains(layout.cards[j].1);
    for &(seat, card, holds) in told {
        let (Some(i), true) = (layout.position(card), seat < layout.hands) else {
            continue;
        };
        let hand = Place::Hand(seat);
        if (layout.cards[i].0 == hand) == holds || kept.contains(card) {
            continue;
        }
        // Held: a card of the hand to give; lacked: a card of elsewhere to take, that the lines
        // do not say this hand lacks or another holds.
        let slots: Vec<usize> = (0..layout.cards.len())
            .filter(|&j| free(layout, j) && (layout.cards[j].0 == hand) == holds)
            .filter(|&j| {
                holds
                    || !told.iter().any(|&(s, c, h)| {
                        c == layout.cards[j].1 && ((s == seat && !h) || (h && layout.cards[j].0 == Place::Hand(s)))
                    })
            })
            .collect();
        if !slots.is_empty() {
            layout.swap(i, slots[rng.below(slots.len() as u64) as usize]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::{shuffle_free, tests::layout};
    use super::*;
    use crate::chance::Purpose;

    #[test]
    fn a_card_told_held_is_dealt_to_its_hand_and_one_told_lacked_never() {
        let card = |t: &str| Card::from_token(t).unwrap();
        // Hand 0 (AS KS QS) is the seat's own: fixed. Hand 2 holds the ten, hand 3 lacks KC.
        let fixed: Vec<Card> = ["AS", "KS", "QS"].map(card).to_vec();
        let told = [(2, card("AC"), true), (3, card("KC"), false)];
        let (mut dealt_to, mut kc_places) = (Vec::new(), Vec::new());
        for seed in 0..200 {
            let mut rng = Rng::new(seed, Purpose::Bot, 0);
            let mut l = layout();
            shuffle_free(&mut l, &fixed, &mut rng);
            deal_told(&mut l, &told, &fixed, &mut rng);
            shuffle_free(&mut l, &fixed, &mut rng);
            let place = |l: &Layout, c: &str| l.cards[l.position(card(c)).unwrap()].0;
            assert_eq!(place(&l, "AC"), Place::Hand(2), "seed {seed}");
            assert!(l.learned.pinned.contains(&card("AC")));
            assert_ne!(place(&l, "KC"), Place::Hand(3), "seed {seed}");
            for c in ["AS", "KS", "QS"] {
                assert_eq!(place(&l, c), Place::Hand(0), "seed {seed}: {c}");
            }
            dealt_to.push(l.cards.iter().filter(|(p, _)| *p == Place::Hand(2)).count());
            kc_places.push(place(&l, "KC"));
        }
        // Hand 2 keeps its size; KC still goes to every other free place.
        assert!(dealt_to.iter().all(|&n| n == 3));
        for p in [Place::Hand(1), Place::Hand(2), Place::Undealt] {
            assert!(kc_places.contains(&p), "KC never in {p:?}");
        }
    }

    #[test]
    fn a_refit_puts_each_card_where_the_lines_tell() {
        let card = |t: &str| Card::from_token(t).unwrap();
        // Hand 0 (AS KS QS) is the seat's own. Hand 1 (JS AH KH) lacks KH; hand 2 (QH JH AD)
        // holds AC, which hand 3 (KD QD JD) must not be given.
        let told = [(1, card("KH"), false), (2, card("AC"), true), (3, card("AC"), false)];
        let kept = CardSet::from_cards(&["AS", "KS", "QS"].map(card));
        let mut gave = CardSet::default();
        for seed in 0..100 {
            let mut rng = Rng::new(seed, Purpose::Bot, 0);
            let mut l = layout();
            agree_told(&mut l, &told, kept, &mut rng);
            let place = |c: &str| l.cards[l.position(card(c)).unwrap()].0;
            assert_eq!(place("AC"), Place::Hand(2), "seed {seed}");
            assert_ne!(place("KH"), Place::Hand(1), "seed {seed}");
            for c in ["AS", "KS", "QS"] {
                assert_eq!(place(c), Place::Hand(0), "seed {seed}: {c}");
            }
            // Every hand keeps its size.
            for s in 0..4 {
                assert_eq!(l.cards.iter().filter(|(p, _)| *p == Place::Hand(s)).count(), 3);
            }
            gave.insert(
                l.cards
                    .iter()
                    .find(|(p, c)| *p == Place::Hand(1) && !["JS", "AH"].map(card).contains(c))
                    .unwrap()
                    .1,
            );
        }
        // KH went out for a card of another hand or the undealt ones, never the seat's own.
        assert!(gave.len() >= 3 && !gave.contains(card("AS")), "{gave:?}");
    }
}

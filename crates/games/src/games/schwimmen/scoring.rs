//! Hand values (schwimmen.md Sec. 1 and 3) and the places and payments of Sec. 4.
//!
//! Values are counted in half points so that 30½ is exact: [`value_halves`] of a one-suit 31
//! is 62, of three of a kind 61.

use crate::cards::{Card, Rank};
use crate::game::Seat;
use std::cmp::Reverse;

/// The points of one card: A = 11, K Q J = 10, number cards their number.
pub fn card_points(c: Card) -> u32 {
    /// By rank value (2..=14), looked up (16 entries: the index is masked, which spares the
    /// bounds check).
    const POINTS: [u32; 16] = {
        let mut p = [0u32; 16];
        let mut v = 2;
        while v < 15 {
            p[v] = match v {
                14 => 11,
                11..=13 => 10,
                _ => v as u32,
            };
            v += 1;
        }
        p
    };
    POINTS[usize::from(c.rank.value()) & 15]
}

/// The highest one-suit total of a hand.
pub fn best_suit_total(hand: &[Card]) -> u32 {
    let mut totals = [0u32; 4];
    for &c in hand {
        totals[c.suit.index()] += card_points(c);
    }
    totals.into_iter().max().unwrap_or(0)
}

/// Three cards of the same rank (30½).
pub fn is_trio(hand: &[Card]) -> bool {
    hand.len() == 3 && hand.iter().all(|c| c.rank == hand[0].rank)
}

/// Three aces: the special hand that ends a round at once.
pub fn is_three_aces(hand: &[Card]) -> bool {
    is_trio(hand) && hand[0].rank == Rank::ACE
}

/// A one-suit total of 31.
pub fn is_31(hand: &[Card]) -> bool {
    best_suit_total(hand) == 31
}

/// The value of a hand in half points: the best one-suit total, or 30½ for three of a kind.
pub fn value_halves(hand: &[Card]) -> u32 {
    let suit = 2 * best_suit_total(hand);
    if is_trio(hand) {
        suit.max(61)
    } else {
        suit
    }
}

/// A value in half points as text: `20`, `30.5`.
pub fn value_text(halves: u32) -> String {
    if halves.is_multiple_of(2) {
        (halves / 2).to_string()
    } else {
        format!("{}.5", halves / 2)
    }
}

/// The hand's ranks from high to low: the tie-break key of `lowest_tie=highest_cards_tiebreak`
/// (a lexicographically higher key is the better hand).
pub fn tiebreak_key(hand: &[Card]) -> Vec<u8> {
    let mut v: Vec<u8> = hand.iter().map(|c| c.rank.value()).collect();
    v.sort_by_key(|&r| Reverse(r));
    v
}

/// The seats that take a strike at a showdown: those with the lowest value; with `tiebreak`,
/// among those, only the ones with the lowest [`tiebreak_key`].
pub fn lowest(hands: &[(Seat, Vec<Card>)], tiebreak: bool) -> Vec<Seat> {
    let low = lowest_of(hands.iter().map(|(s, h)| (*s, &h[..])), tiebreak);
    hands.iter().map(|&(s, _)| s).filter(|&s| low & 1 << s != 0).collect()
}

/// [`lowest`] as a set of seats (bit `s`: seat `s`, below 64), for hands given by an iterator
/// that can be gone through again (nothing is allocated without `tiebreak`).
pub fn lowest_of<'a>(hands: impl Iterator<Item = (Seat, &'a [Card])> + Clone, tiebreak: bool) -> u64 {
    // The lowest value and who has it, in one pass (each value is worked out once).
    let (mut min, mut low) = (u32::MAX, 0u64);
    for (s, h) in hands.clone() {
        let v = value_halves(h);
        if v < min {
            (min, low) = (v, 0);
        }
        if v == min {
            low |= 1 << s;
        }
    }
    if !tiebreak || low == 0 {
        return low;
    }
    let low_hands = hands.filter(|&(s, _)| low & 1 << s != 0);
    let key = low_hands
        .clone()
        .map(|(_, h)| tiebreak_key(h))
        .min()
        .unwrap_or_default();
    low_hands
        .filter(|(_, h)| tiebreak_key(h) == key)
        .fold(0u64, |m, (s, _)| m | 1 << s)
}

/// The places of a group of players eliminated in the same round while `remaining` players
/// were still in (the group included): they cover places `remaining-k+1 ..= remaining`.
/// `values` (half points, index as `group`) rank them when given (higher is better, equal
/// values share); otherwise everyone shares. A shared place is the average of the places.
pub fn group_places(group: &[Seat], remaining: usize, values: Option<&[u32]>) -> Vec<(Seat, f64)> {
    let k = group.len();
    let first = remaining + 1 - k;
    let mut idx: Vec<usize> = (0..k).collect();
    let key = |i: usize| values.map(|v| v[i]).unwrap_or(0);
    idx.sort_by_key(|&i| Reverse(key(i)));
    let mut out = Vec::new();
    let mut i = 0;
    while i < k {
        let mut j = i;
        while j + 1 < k && key(idx[j + 1]) == key(idx[i]) {
            j += 1;
        }
        let (lo, hi) = (first + i, first + j);
        let place = (lo + hi) as f64 / 2.0;
        for &x in &idx[i..=j] {
            out.push((group[x], place));
        }
        i = j + 1;
    }
    out.sort_by_key(|&(s, _)| s);
    out
}

/// What a place pays into the kitty: r francs for place r (a shared place pays the average).
pub fn payment(place: f64) -> f64 {
    place
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn v(s: &str) -> u32 {
        value_halves(&parse_cards(s).unwrap())
    }

    #[test]
    fn values_of_the_spec_examples() {
        assert_eq!(v("QC KC AH"), 40);
        assert_eq!(v("QC KC AC"), 62);
        assert_eq!(v("7D 7H 7S"), 61);
        assert_eq!(v("AH AS AC"), 61);
        assert!(is_three_aces(&parse_cards("AH AS AC").unwrap()));
        assert_eq!(v("KD QH JS"), 20, "K Q J of mixed suits is no trio");
        assert_eq!(value_text(61), "30.5");
        assert_eq!(value_text(40), "20");
    }

    #[test]
    fn shared_and_ranked_places() {
        assert_eq!(group_places(&[1, 3], 4, None), vec![(1, 3.5), (3, 3.5)]);
        assert_eq!(group_places(&[2], 3, None), vec![(2, 3.0)]);
        assert_eq!(
            group_places(&[0, 1, 2], 5, Some(&[40, 50, 40])),
            vec![(0, 4.5), (1, 3.0), (2, 4.5)]
        );
    }
}

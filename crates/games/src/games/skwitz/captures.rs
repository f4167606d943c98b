//! Captures (skwitz.md Sec. 2.3 and 3): which sets of table cards a card may take.
//!
//! A captured set must split into disjoint groups, each either one table card of the played
//! card's rank (a match, any rank) or two or more number cards (A = 1, 2..10) adding up to the
//! played card's value (a sum; only a 2..10 sums). Courts have no value and only match.

use crate::cards::{Card, CardSet, Rank, Suit};

/// The matadors: ♠J, ♠10, ♠2.
pub fn is_matador(c: Card) -> bool {
    c.suit == Suit::Spades && (c.rank == Rank::JACK || c.rank == Rank::TEN || c.rank == Rank::TWO)
}

/// The number value: A = 1, 2..10 face value; J, Q, K none.
pub fn value(c: Card) -> Option<u8> {
    match c.rank.value() {
        14 => Some(1),
        v @ 2..=10 => Some(v),
        _ => None,
    }
}

/// The action token of a capture: `CARD:C1,C2,…` with the captured cards in notation order.
pub fn token(card: Card, captured: &[Card]) -> String {
    let mut xs = captured.to_vec();
    xs.sort();
    let list: Vec<String> = xs.iter().map(|c| c.to_string()).collect();
    format!("{card}:{}", list.join(","))
}

/// Every distinct legal capture of `card` on `table`, each as a sorted list of table cards.
/// Ordered by size (largest first), then card by card in notation order (as [`push_captures`]).
pub fn captures(card: Card, table: &[Card]) -> Vec<Vec<Card>> {
    let mut sets = Vec::new();
    push_captures(card, CardSet::from_cards(table), &mut sets, |s| s, |&s| s);
    sets.into_iter().map(CardSet::cards).collect()
}

/// Appends every distinct legal capture of `card` on `table` to `out` (as `wrap(set)`), in the
/// canonical order: by size, largest first, then card by card in notation order. Allocates
/// nothing while `out` has room (for the captures, or twice the sum unions while they are
/// merged); `set_of` reads the set back from an element. Returns how many captures were
/// appended.
///
/// A capture is a union of disjoint sum groups, plus any of the same-rank matches. The unions
/// are built in `out` itself, kept sorted by mask so that each is added once: every group
/// (a subset of the number cards adding up to the value) extends every union so far that it
/// does not meet.
pub fn push_captures<T: Copy>(
    card: Card,
    table: CardSet,
    out: &mut Vec<T>,
    wrap: impl Fn(CardSet) -> T,
    set_of: impl Fn(&T) -> CardSet,
) -> usize {
    let start = out.len();
    let mask = |x: &T| set_of(x).0;
    // The empty union: no sum group.
    out.push(wrap(CardSet::EMPTY));
    // Sums: number cards below the card's value (so a group adding up to it has two or more).
    if let Some(v) = value(card).filter(|&v| v >= 2) {
        sum_groups(table.0 & number_mask_below(v), v, 0, &mut |g| {
            let known = out.len();
            for i in start..known {
                let m = mask(&out[i]);
                // Extending by one group keeps distinct unions distinct: a new union can only
                // repeat a known one.
                if m & g == 0 && out[start..known].binary_search_by_key(&(m | g), mask).is_err() {
                    out.push(wrap(CardSet(m | g)));
                }
            }
            let end = out.len();
            if end > known {
                // Merge the new unions into the known ones: onto the end of `out`, then down.
                out[known..].sort_unstable_by_key(mask);
                let (mut i, mut j) = (start, known);
                while i < known || j < end {
                    if j == end || (i < known && mask(&out[i]) < mask(&out[j])) {
                        out.push(out[i]);
                        i += 1;
                    } else {
                        out.push(out[j]);
                        j += 1;
                    }
                }
                out.drain(start..end);
            }
        });
    }
    // Matches: every subset of the table cards of the card's rank (the card itself too, should
    // it be there), added to every union. They hold no card below the value: no repeats.
    let same = table.0 & rank_mask(card.rank);
    let unions = out.len();
    for i in start..unions {
        let u = mask(&out[i]);
        let mut m = same;
        while m != 0 {
            out.push(wrap(CardSet(u | m)));
            m = (m - 1) & same;
        }
    }
    out[start..].sort_unstable_by_key(|x| std::cmp::Reverse(order_key(set_of(x))));
    // The empty set, last in that order, is no capture.
    out.pop();
    out.len() - start
}

/// The first capture of `card` on `table` in the canonical order (the largest; of equal
/// size, the one with the lowest card), as [`push_captures`] lists it first; `None` when the
/// card captures nothing.
pub fn best_capture(card: Card, table: CardSet) -> Option<CardSet> {
    best_capture_of_rank(card.rank.value(), table)
}

/// [`best_capture`] for a card of rank value `r` (2..=14; the suit changes nothing). Searches
/// the unions of sum groups for the best one instead of listing them all: every match joins
/// any union, so the best capture is the best union plus every table card of the rank.
pub fn best_capture_of_rank(r: u8, table: CardSet) -> Option<CardSet> {
    let same = table.0 & (SUIT_STRIDE << (14 - r));
    let mut best = (0u64, 0u32);
    // A = 1 and the courts only match.
    if (2..=10).contains(&r) {
        let avail = table.0 & number_mask_below(r);
        let n = avail.count_ones();
        if n >= 2 {
            let sum = number_sum(avail);
            if sum >= r {
                best_union(avail, n, sum, r, 0, 0, &mut best);
            }
        }
    }
    let b = best.0 | same;
    (b != 0).then_some(CardSet(b))
}

/// One bit per suit at the same rank: a rank's cards are this shifted to its place.
const SUIT_STRIDE: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;

/// [`value_at`] by index, looked up.
const VALUES: [u8; 52] = {
    let mut v = [0u8; 52];
    let mut i = 0;
    while i < 52 {
        v[i] = value_at(i as u32);
        i += 1;
    }
    v
};

/// The number values of the cards of `mask` (number cards only) added up.
fn number_sum(mask: u64) -> u8 {
    let mut sum = 0;
    let mut m = mask;
    while m != 0 {
        sum += VALUES[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    sum
}

/// Sets `best` (a mask and its size) to the greatest by [`order_key`] of `best` and `acc` plus
/// any union of disjoint groups of `avail` adding up to `v` each (`n`: the cards of `avail`,
/// `sum` their values; `k`: the cards of `acc`). The lowest card of `avail` is either in a
/// group with higher cards or left out; branches that cannot reach the size of `best` stop.
fn best_union(avail: u64, n: u32, sum: u8, v: u8, acc: u64, k: u32, best: &mut (u64, u32)) {
    if k + n < best.1 {
        return;
    }
    if sum < v {
        // No group is left in `avail`.
        if k > best.1 || (k == best.1 && acc.reverse_bits() > best.0.reverse_bits()) {
            *best = (acc, k);
        }
        return;
    }
    let j = avail.trailing_zeros();
    let rest = avail & (avail - 1);
    let x = VALUES[j as usize];
    groups_of(rest, v - x, 1 << j, 1, &mut |g, gk| {
        best_union(rest & !g, n - gk, sum - v, v, acc | g, k + gk, best)
    });
    best_union(rest, n - 1, sum - x, v, acc, k, best);
}

/// [`sum_groups`] with the size of each group: calls `found` with `acc` (of `k` cards) plus
/// every subset of `avail` adding up to `need`, and its size.
fn groups_of(avail: u64, need: u8, acc: u64, k: u32, found: &mut impl FnMut(u64, u32)) {
    if need == 0 {
        found(acc, k);
        return;
    }
    let mut rest = avail;
    while rest != 0 {
        let j = rest.trailing_zeros();
        rest &= rest - 1;
        let x = VALUES[j as usize];
        if x <= need {
            groups_of(rest, need - x, acc | 1 << j, k + 1, found);
        }
    }
}

/// The canonical order of captures as a key, greatest first: the size, then the set with the
/// lowest card (in notation order) where two sets of one size differ. For two sets of equal
/// size, the sorted card lists first differ at the lowest card of their symmetric difference,
/// so the set holding it comes first: the set whose reversed mask is greater.
fn order_key(set: CardSet) -> (u32, u64) {
    (set.0.count_ones(), set.0.reverse_bits())
}

/// The matadors as a mask over `Card::index`.
pub fn matador_mask() -> u64 {
    [Rank::JACK, Rank::TEN, Rank::TWO]
        .iter()
        .fold(0, |m, &r| m | 1 << Card::new(r, Suit::Spades).index())
}

/// The cards of a rank, as a mask over `Card::index`.
pub fn rank_mask(rank: Rank) -> u64 {
    let i = Card::new(rank, Suit::Spades).index() as u64;
    SUIT_STRIDE << i
}

/// The number value of the card of index `i` (A = 1, 2..10; 0 for a court): within a suit,
/// the index runs A, K, Q, J, 10, 9, …, 2.
const fn value_at(i: u32) -> u8 {
    match i % 13 {
        0 => 1,
        1..=3 => 0,
        r => 14 - r as u8,
    }
}

/// The number cards (A = 1, 2..10) of value below `v`, as a mask over `Card::index`.
fn number_mask_below(v: u8) -> u64 {
    /// By `v` (0..=10).
    const BELOW: [u64; 11] = {
        let mut below = [0u64; 11];
        let mut v = 0;
        while v < 11 {
            let mut i = 0;
            while i < 52 {
                let x = value_at(i);
                if x > 0 && x < v {
                    below[v as usize] |= 1 << i;
                }
                i += 1;
            }
            v += 1;
        }
        below
    };
    BELOW[v as usize]
}

/// Calls `found` with `acc` plus every subset of `avail` adding up to `need` (each once).
fn sum_groups(avail: u64, need: u8, acc: u64, found: &mut impl FnMut(u64)) {
    if need == 0 {
        found(acc);
        return;
    }
    let mut rest = avail;
    while rest != 0 {
        let j = rest.trailing_zeros();
        rest &= rest - 1;
        let x = value_at(j);
        if x <= need {
            sum_groups(rest, need - x, acc | 1 << j, found);
        }
    }
}

/// Checks that `captured` (distinct table cards) is a legal capture for `card`; the error
/// says why not.
pub fn check(card: Card, captured: &[Card]) -> Result<(), String> {
    if captured.is_empty() {
        return Err("a capture takes at least one table card".into());
    }
    if captures(card, captured).iter().any(|c| c.len() == captured.len()) {
        return Ok(());
    }
    let others: Vec<String> = captured
        .iter()
        .filter(|c| c.rank != card.rank)
        .map(|c| c.to_string())
        .collect();
    let r = card.rank.letter();
    match value(card) {
        None => Err(format!(
            "a {r} has no number value: it captures only other {r}s by matching, not {}",
            others.join(" ")
        )),
        Some(1) => Err(format!(
            "an ace captures only other aces (an ace cannot capture by summing), not {}",
            others.join(" ")
        )),
        Some(v) => {
            if let Some(c) = captured.iter().find(|c| c.rank != card.rank && value(**c).is_none()) {
                return Err(format!(
                    "{c} is a court card: it has no number value and is taken only by a {}",
                    c.rank.letter()
                ));
            }
            Err(format!(
                "{} cannot be split into groups of two or more number cards adding up to {v} (besides {r}s taken by matching)",
                others.join(" ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{full_deck, parse_cards};
    use crate::chance::{Purpose, Rng};
    use std::collections::BTreeSet;

    /// The enumeration by lists that [`push_captures`] replaced: every capture of `card`, each
    /// a sorted list, ordered by size (largest first), then card by card.
    fn by_lists(card: Card, table: &[Card]) -> Vec<Vec<Card>> {
        let same: Vec<Card> = table.iter().copied().filter(|c| c.rank == card.rank).collect();
        let mut unions: Vec<Vec<Card>> = vec![vec![]];
        if let Some(v) = value(card).filter(|&v| v >= 2) {
            let cands: Vec<Card> = table
                .iter()
                .copied()
                .filter(|&c| value(c).is_some_and(|x| x < v))
                .collect();
            let mut groups: Vec<u64> = Vec::new();
            fn dfs(cands: &[Card], i: usize, sum: u8, mask: u64, v: u8, groups: &mut Vec<u64>) {
                if sum == v {
                    groups.push(mask);
                    return;
                }
                for j in i..cands.len() {
                    let x = value(cands[j]).unwrap();
                    if sum + x <= v {
                        dfs(cands, j + 1, sum + x, mask | (1 << j), v, groups);
                    }
                }
            }
            dfs(&cands, 0, 0, 0, v, &mut groups);
            let mut seen: BTreeSet<u64> = BTreeSet::from([0]);
            let mut masks = vec![0u64];
            for g in groups {
                for m in masks.clone() {
                    if m & g == 0 && seen.insert(m | g) {
                        masks.push(m | g);
                    }
                }
            }
            unions = masks
                .into_iter()
                .map(|m| {
                    let mut cs: Vec<Card> = (0..cands.len())
                        .filter(|&i| m & (1 << i) != 0)
                        .map(|i| cands[i])
                        .collect();
                    cs.sort();
                    cs
                })
                .collect();
        }
        let mut out: Vec<Vec<Card>> = Vec::new();
        for u in &unions {
            for m in 0u32..(1 << same.len()) {
                if u.is_empty() && m == 0 {
                    continue;
                }
                let mut set = u.clone();
                set.extend((0..same.len()).filter(|&i| m & (1 << i) != 0).map(|i| same[i]));
                set.sort();
                out.push(set);
            }
        }
        out.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        out
    }

    #[test]
    fn the_enumeration_by_masks_is_the_enumeration_by_lists() {
        let deck = full_deck();
        let mut rng = Rng::new(12, Purpose::Table, 0);
        for round in 0..2000 {
            // Tables of 0..=14 cards (some of small cards only), any card played, itself
            // possibly on the table (the simple bot probes tables so).
            let size = rng.below(15) as usize;
            let pool: Vec<Card> = if round % 3 == 0 {
                deck.iter()
                    .copied()
                    .filter(|c| value(*c).is_some_and(|v| v <= 5))
                    .collect()
            } else {
                deck.clone()
            };
            let mut table: Vec<Card> = Vec::new();
            while table.len() < size.min(pool.len()) {
                let c = pool[rng.below(pool.len() as u64) as usize];
                if !table.contains(&c) {
                    table.push(c);
                }
            }
            let card = deck[rng.below(52) as usize];
            assert_eq!(captures(card, &table), by_lists(card, &table), "{card} on {table:?}");
        }
    }

    #[test]
    fn the_best_capture_is_the_first_listed() {
        let deck = full_deck();
        let mut rng = Rng::new(13, Purpose::Table, 0);
        for round in 0..20000 {
            let size = rng.below(17) as usize;
            let pool: Vec<Card> = if round % 2 == 0 {
                deck.iter()
                    .copied()
                    .filter(|c| value(*c).is_some_and(|v| v <= 6))
                    .collect()
            } else {
                deck.clone()
            };
            let mut table = CardSet::EMPTY;
            while table.len() < size.min(pool.len()) {
                table.insert(pool[rng.below(pool.len() as u64) as usize]);
            }
            let card = deck[rng.below(52) as usize];
            let mut all = Vec::new();
            push_captures(card, table, &mut all, |s| s, |&s| s);
            assert_eq!(best_capture(card, table), all.first().copied(), "{card} on {table:?}");
        }
    }

    #[test]
    fn pushed_captures_keep_what_was_there() {
        let table = CardSet::from_cards(&parse_cards("TS 7C 3D 4H 6H").unwrap());
        let mut out = vec![CardSet::EMPTY];
        let card: Card = "TH".parse().unwrap();
        let added = push_captures(card, table, &mut out, |s| s, |&s| s);
        assert_eq!(out[0], CardSet::EMPTY);
        assert_eq!(out.len(), 1 + added);
        let listed: Vec<Vec<Card>> = out[1..].iter().map(|s| s.cards()).collect();
        assert_eq!(listed, by_lists(card, &table.cards()));
    }

    #[test]
    fn number_values_by_index_are_the_values_of_the_cards() {
        for i in 0..52u32 {
            assert_eq!(value_at(i), value(Card::from_index(i as usize)).unwrap_or(0));
        }
    }

    fn caps(card: &str, table: &str) -> Vec<String> {
        let c: Card = card.parse().unwrap();
        captures(c, &parse_cards(table).unwrap())
            .iter()
            .map(|x| token(c, x))
            .collect()
    }

    #[test]
    fn matches_sums_and_combinations() {
        assert_eq!(caps("QH", "QS QD 5C"), vec!["QH:QS,QD", "QH:QS", "QH:QD"]);
        assert_eq!(caps("AH", "AS AD 2C"), vec!["AH:AS,AD", "AH:AS", "AH:AD"]);
        assert_eq!(caps("TH", "TS 7C 3D"), vec!["TH:TS,3D,7C", "TH:3D,7C", "TH:TS"]);
        assert!(caps("5H", "KS QD").is_empty());
        assert_eq!(caps("5H", "AS 4D"), vec!["5H:AS,4D"]);
        assert!(caps("5H", "AS 3D").is_empty());
    }
}

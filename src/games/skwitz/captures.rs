//! Captures (skwitz.md Sec. 2.3 and 3): which sets of table cards a card may take.
//!
//! A captured set must split into disjoint groups, each either one table card of the played
//! card's rank (a match, any rank) or two or more number cards (A = 1, 2..10) adding up to the
//! played card's value (a sum; only a 2..10 sums). Courts have no value and only match.

use crate::cards::{Card, Rank, Suit};
use std::collections::BTreeSet;

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
/// Ordered by size (largest first), then card by card in notation order.
pub fn captures(card: Card, table: &[Card]) -> Vec<Vec<Card>> {
    let same: Vec<Card> = table.iter().copied().filter(|c| c.rank == card.rank).collect();
    let unions = sum_unions(card, table);
    let mut out: Vec<Vec<Card>> = Vec::new();
    for u in &unions {
        for m in 0u32..(1 << same.len()) {
            if u.is_empty() && m == 0 {
                continue;
            }
            let mut set = u.clone();
            for (i, c) in same.iter().enumerate() {
                if m & (1 << i) != 0 {
                    set.push(*c);
                }
            }
            set.sort();
            out.push(set);
        }
    }
    out.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    out
}

/// Whether `card` has at least one capture on `table`.
pub fn can_capture(card: Card, table: &[Card]) -> bool {
    if table.iter().any(|c| c.rank == card.rank) {
        return true;
    }
    let Some(v) = value(card).filter(|&v| v >= 2) else {
        return false;
    };
    let vals: Vec<u8> = table.iter().filter_map(|&c| value(c)).filter(|&x| x < v).collect();
    // Is there a subset of two or more (values < v, so any subset summing to v has >= 2) summing to v?
    let mut reach = 1u32; // bit s: sum s reachable
    for x in vals {
        reach |= reach << x;
    }
    reach & (1 << v) != 0
}

/// All distinct unions of disjoint sum groups (including the empty union), as sorted card lists.
fn sum_unions(card: Card, table: &[Card]) -> Vec<Vec<Card>> {
    let mut unions: Vec<Vec<Card>> = vec![vec![]];
    let Some(v) = value(card).filter(|&v| v >= 2) else {
        return unions;
    };
    let cands: Vec<Card> = table
        .iter()
        .copied()
        .filter(|&c| value(c).is_some_and(|x| x < v))
        .collect();
    if cands.len() > 63 {
        return unions;
    }
    // Every group: a subset of candidates summing to v (each value < v, so it has >= 2 cards).
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
    let mut seen: BTreeSet<u64> = BTreeSet::new();
    seen.insert(0);
    let mut masks = vec![0u64];
    for g in groups {
        let current = masks.clone();
        for m in current {
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
    unions
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
    use crate::cards::parse_cards;

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
        assert!(can_capture("5H".parse().unwrap(), &parse_cards("AS 4D").unwrap()));
        assert!(!can_capture("5H".parse().unwrap(), &parse_cards("AS 3D").unwrap()));
    }
}

//! Small questions about cards that the bidding and the card play ask: the legal cards, a
//! suit's cards, the highest and lowest, the cards above or below one.

use crate::cards::{Card, CardSet, Rank, Suit};

pub(super) fn parse_legal_cards(legal: &[String]) -> Vec<Card> {
    legal.iter().filter_map(|t| t.parse().ok()).collect()
}

pub(super) fn of_suit(hand: &[Card], s: Suit) -> Vec<Card> {
    let mut v: Vec<Card> = hand.iter().copied().filter(|c| c.suit == s).collect();
    v.sort_by_key(|c| std::cmp::Reverse(c.rank));
    v
}

pub(super) fn has(hand: &[Card], r: Rank, s: Suit) -> bool {
    hand.contains(&Card::new(r, s))
}

// A suit's cards in a `CardSet` are 13 bits, ace first (`Card::index`): the highest card is the
// lowest set bit.

/// The highest card of `set` (meant for one suit).
pub(super) fn top(set: CardSet) -> Option<Card> {
    (!set.is_empty()).then(|| Card::from_index(set.0.trailing_zeros() as usize))
}

/// The lowest card of `set` (meant for one suit).
pub(super) fn bottom(set: CardSet) -> Option<Card> {
    (!set.is_empty()).then(|| Card::from_index(63 - set.0.leading_zeros() as usize))
}

/// The cards of `set` in `c`'s suit that rank as high as `c` or higher.
pub(super) fn at_or_above(set: CardSet, c: Card) -> CardSet {
    CardSet(set.of_suit(c.suit).0 & ((1u64 << (c.index() + 1)) - 1))
}

/// The cards of `set` in `c`'s suit that rank below `c`.
pub(super) fn below(set: CardSet, c: Card) -> CardSet {
    set.of_suit(c.suit).minus(at_or_above(set, c))
}

pub(super) fn lowest(cs: &[Card]) -> Option<Card> {
    cs.iter()
        .copied()
        .min_by_key(|c| (c.rank, std::cmp::Reverse(c.index())))
}

pub(super) fn highest(cs: &[Card]) -> Option<Card> {
    cs.iter().copied().max_by_key(|c| (c.rank, c.index()))
}

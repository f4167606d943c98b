//! The trick law of Zwikken (zwikken.md §3): the cards a seat may play, the winner of a trick
//! and the points of the cards taken.

use crate::cards::{Card, CardSet, Suit};
use crate::game::Seat;

/// Card points for counting tricks: A 4, K 3, Q 2, J 1, 10 0.
pub fn card_points(c: Card) -> u32 {
    match c.rank.value() {
        14 => 4,
        13 => 3,
        12 => 2,
        11 => 1,
        _ => 0,
    }
}

/// The cards a seat may play to `trick` (zwikken.md §3): `seed` or `classic` law.
pub fn legal_plays(hand: CardSet, trick: &[(Seat, Card)], trump: Suit, classic: bool) -> CardSet {
    let Some(&(_, first)) = trick.first() else {
        return hand;
    };
    let led = first.suit;
    let hl = hand.of_suit(led);
    let ht = hand.of_suit(trump);
    if led == trump {
        return if ht.is_empty() { hand } else { ht };
    }
    let hi = trick.iter().filter(|(_, c)| c.suit == trump).map(|(_, c)| c.rank).max();
    let mut over = ht;
    if let Some(h) = hi {
        for t in CardSet::iter(ht) {
            if t.rank <= h {
                over.remove(t);
            }
        }
    }
    if classic {
        if !hl.is_empty() {
            return hl;
        }
        if !over.is_empty() {
            return over;
        }
        let side = hand.minus(ht);
        return if side.is_empty() { hand } else { side };
    }
    if !hl.is_empty() {
        return hl.union(over);
    }
    let cand = hand.minus(ht).union(over);
    if cand.is_empty() {
        hand
    } else {
        cand
    }
}

/// The seat that wins a complete trick: the highest trump, else the highest card of the led suit.
pub fn trick_winner(trick: &[(Seat, Card)], trump: Suit) -> Seat {
    let led = trick[0].1.suit;
    let mut best = trick[0];
    for &(s, c) in &trick[1..] {
        let b = best.1;
        let better = if c.suit == trump {
            b.suit != trump || c.rank > b.rank
        } else {
            b.suit != trump && c.suit == led && c.rank > b.rank
        };
        if better {
            best = (s, c);
        }
    }
    best.0
}

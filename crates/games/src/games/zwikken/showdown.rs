//! The zwik: the rank of three of a kind, and the showdown of the askers' zwiks before the
//! tricks (zwikken.md §2.6).

use super::state::{Phase, Zwikken};
use crate::cards::{Card, CardSet, Rank};
use crate::engine::Events;
use crate::game::{Arg, Seat};

/// The zwik rank of a three-card hand (three of one rank): 10-zwik 5 > A 4 > K 3 > Q 2 > J 1.
pub fn zwik_rank(hand: &[Card]) -> Option<u8> {
    if hand.len() != 3 || hand.iter().any(|c| c.rank != hand[0].rank) {
        return None;
    }
    Some(zwik_value(hand[0].rank))
}

/// [`zwik_rank`] of a hand held as a set.
fn zwik_rank_of(hand: CardSet) -> Option<u8> {
    let mut cards = CardSet::iter(hand);
    let first = cards.next()?;
    (hand.len() == 3 && cards.all(|c| c.rank == first.rank)).then(|| zwik_value(first.rank))
}

fn zwik_value(rank: Rank) -> u8 {
    match rank.value() {
        10 => 5,
        14 => 4,
        13 => 3,
        12 => 2,
        _ => 1,
    }
}

impl Zwikken {
    /// Only askers' zwiks count; the highest wins at once (zwikken.md §2.6).
    pub(super) fn showdown(&mut self, ev: &mut impl Events) {
        let mut best: Option<(u8, Seat)> = None;
        for &a in self.askers().iter() {
            let h = self.hands[a];
            if let Some(z) = zwik_rank_of(h) {
                ev.emit(self.all(), "zwik", || {
                    std::iter::once(Arg::from(a))
                        .chain(CardSet::iter(h).map(Arg::Card))
                        .collect()
                });
                if best.is_none_or(|(b, _)| z > b) {
                    best = Some((z, a));
                }
            }
        }
        match best {
            Some((_, w)) => {
                self.end("zwik", Some(w), ev);
                self.settle(Some(w), ev);
            }
            None => {
                self.phase = Phase::Play;
                self.leader = self.order().as_slice()[0];
                self.turn = self.leader;
                self.trick_no = 1;
            }
        }
    }
}

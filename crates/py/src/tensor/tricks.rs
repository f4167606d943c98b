//! The trick play of a deal, for the four trick games' layouts (Kul, Rikken, Zwikken,
//! Svängknack): folded from the deal's lines, written as blocks.

use super::writer::{bit, seat_of, MAX_SEATS, W};
use croupier_games::cards::Card;
use croupier_games::game::{Arg, Seat};

/// The current deal's trick play, folded from its `move <seat> <card> <decision>` and `trick
/// <n> <winner>` lines: the cards of the trick in play by seat, every card each seat played
/// this deal, the trick's leader and the tricks each seat won.
#[derive(Default)]
pub(crate) struct Tricks {
    pub trick: [u64; MAX_SEATS],
    pub played: [u64; MAX_SEATS],
    pub leader: Option<Seat>,
    pub won: [u32; MAX_SEATS],
}

impl Tricks {
    /// A card `c` played by `s`.
    pub fn play(&mut self, s: Seat, c: Card) {
        if s >= MAX_SEATS {
            return;
        }
        if self.leader.is_none() {
            self.leader = Some(s);
        }
        self.trick[s] |= bit(c);
        self.played[s] |= bit(c);
    }
    /// A `trick` line.
    pub fn end(&mut self, args: &[Arg]) {
        if let Some(w) = seat_of(args.get(1)).filter(|&w| w < MAX_SEATS) {
            self.won[w] += 1;
        }
        self.trick = [0; MAX_SEATS];
        self.leader = None;
    }
    /// The blocks `trick` (52P), `played` (52P), `leader` (P), `won` (P): 106P in all.
    pub fn write(&self, w: &mut W) {
        w.rel_sets(&self.trick);
        w.rel_sets(&self.played);
        w.rel_onehot(self.leader);
        w.rel_values(&self.won[..]);
    }
}

/// The size of [`Tricks::write`].
pub(crate) fn tricks_size(players: usize) -> usize {
    106 * players
}

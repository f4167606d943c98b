//! The tensor's writer ([`W`]: blocks written in order, seats relative to the observer) and
//! the readers of a line's arguments (a card, a seat, a word) that every game's layout uses.

use croupier_games::cards::Card;
use croupier_games::game::{Arg, Event, Seat};
use std::fmt::Write as _;

/// The most seats of any game (Svängknack's 16): per-seat arrays are this long.
pub(crate) const MAX_SEATS: usize = 16;

/// The length of the header every layout starts with: this seat, the seat to move (absolute
/// and relative), the dealer (relative), the hand.
pub(crate) fn header_size(players: usize) -> usize {
    4 * players + 52
}

/// Where the current deal's lines start in `seen`: at its last `deal` line (0 when there is
/// none yet).
pub(crate) fn deal_start(seen: &[Event]) -> usize {
    seen.iter().rposition(|e| e.kind == "deal").unwrap_or(0)
}

/// The writer: blocks in order, each advancing `at`.
pub(crate) struct W<'a> {
    pub out: &'a mut [f32],
    pub at: usize,
    pub seat: Seat,
    pub players: usize,
}

impl W<'_> {
    /// The relative place of absolute seat `s` (0 = this seat).
    pub fn rel(&self, s: Seat) -> usize {
        (s + self.players - self.seat % self.players) % self.players
    }
    /// The absolute seat at relative place `r`.
    pub fn abs(&self, r: usize) -> Seat {
        (self.seat + r) % self.players
    }
    /// A one-hot block of `n`, `i` set (nothing when `None` or out of range).
    pub fn onehot(&mut self, n: usize, i: Option<usize>) {
        if let Some(i) = i.filter(|&i| i < n) {
            self.out[self.at + i] = 1.0;
        }
        self.at += n;
    }
    /// A one-hot block of P over relative seats.
    pub fn rel_onehot(&mut self, s: Option<Seat>) {
        let r = s.filter(|&s| s < self.players).map(|s| self.rel(s));
        self.onehot(self.players, r);
    }
    /// A multi-hot block of P over relative seats: the absolute seats set in `mask`.
    pub fn rel_mask(&mut self, mask: u32) {
        for r in 0..self.players {
            if mask >> self.abs(r) & 1 == 1 {
                self.out[self.at + r] = 1.0;
            }
        }
        self.at += self.players;
    }
    /// A block of 52, the cards given set.
    pub fn cards<'c>(&mut self, cards: impl IntoIterator<Item = &'c Card>) {
        for c in cards {
            self.out[self.at + c.index()] = 1.0;
        }
        self.at += 52;
    }
    /// A block of 52 from a card set (bit `i` = card index `i`).
    pub fn set(&mut self, set: u64) {
        let mut bits = set & ((1 << 52) - 1);
        while bits != 0 {
            self.out[self.at + bits.trailing_zeros() as usize] = 1.0;
            bits &= bits - 1;
        }
        self.at += 52;
    }
    /// P blocks of 52, block `r` the set of relative seat `r` (`sets` by absolute seat).
    pub fn rel_sets(&mut self, sets: &[u64]) {
        for r in 0..self.players {
            let s = sets.get(self.abs(r)).copied().unwrap_or(0);
            self.set(s);
        }
    }
    /// P numbers, the one of relative seat `r` at `r` (`values` by absolute seat).
    pub fn rel_values<T: Copy + Into<f64>>(&mut self, values: &[T]) {
        for r in 0..self.players {
            if let Some(v) = values.get(self.abs(r)) {
                self.out[self.at + r] = (*v).into() as f32;
            }
        }
        self.at += self.players;
    }
    /// P one-hot groups of `n`, group `r` the choice of relative seat `r` (`choices` by
    /// absolute seat).
    pub fn rel_choices(&mut self, n: usize, choices: &[Option<usize>]) {
        for r in 0..self.players {
            let c = choices.get(self.abs(r)).copied().flatten();
            self.onehot(n, c);
        }
    }
    /// P multi-hot groups of `n`, group `r` the bits of relative seat `r` (`bits` by absolute
    /// seat, bit `i` = place `i`).
    pub fn rel_bits(&mut self, n: usize, bits: &[u64]) {
        let mask = if n < 64 { (1u64 << n) - 1 } else { u64::MAX };
        for r in 0..self.players {
            let mut b = bits.get(self.abs(r)).copied().unwrap_or(0) & mask;
            while b != 0 {
                self.out[self.at + b.trailing_zeros() as usize] = 1.0;
                b &= b - 1;
            }
            self.at += n;
        }
    }
    /// One number.
    pub fn value(&mut self, v: f64) {
        self.out[self.at] = v as f32;
        self.at += 1;
    }
}

/// The bit of a card in a card set.
pub(crate) fn bit(c: Card) -> u64 {
    1u64 << c.index()
}

/// A token written into a stack buffer (an argument that is not already text), so that reading
/// a line's word allocates nothing. 192 bytes: a Skwitz capture of the whole table is the longest
/// token (3 bytes a card).
struct Buf {
    b: [u8; 192],
    n: usize,
}

impl std::fmt::Write for Buf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.n + s.len();
        if end > self.b.len() {
            return Err(std::fmt::Error);
        }
        self.b[self.n..end].copy_from_slice(s.as_bytes());
        self.n = end;
        Ok(())
    }
}

/// Calls `f` with argument `a` as its token text.
pub(crate) fn with_text<R>(a: &Arg, f: impl FnOnce(&str) -> R) -> R {
    match a {
        Arg::Word(w) => f(w),
        Arg::Text(t) => f(t),
        other => {
            let mut b = Buf { b: [0; 192], n: 0 };
            if write!(b, "{other}").is_err() {
                return f("");
            }
            f(std::str::from_utf8(&b.b[..b.n]).unwrap_or(""))
        }
    }
}

/// The argument as a card.
pub(crate) fn card_of(a: Option<&Arg>) -> Option<Card> {
    match a? {
        Arg::Card(c) => Some(*c),
        Arg::Int(_) => None,
        other => with_text(other, Card::from_token),
    }
}

/// The argument as a seat (or any small number).
pub(crate) fn seat_of(a: Option<&Arg>) -> Option<usize> {
    match a? {
        Arg::Int(i) => usize::try_from(*i).ok(),
        other => with_text(other, |t| t.parse().ok()),
    }
}

/// The seat a line is about (its first argument), where it is one the tensor has room for.
pub(crate) fn seat_arg(args: &[Arg]) -> Option<usize> {
    seat_of(args.first()).filter(|&s| s < MAX_SEATS)
}

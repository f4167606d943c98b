//! The trick law of Svängknack (svangknack.md Sec. 3): the trick so far, the cards a seat
//! must follow with, and forced overtaking.

use super::rules::{Rules, MAX_PLAYERS};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::Seat;

/// A trick in progress, as far as the trick law needs it (an array: no heap).
#[derive(Clone, Copy, Debug)]
pub struct TrickState {
    /// Cards played, in order (the first is the lead); the first `len` count.
    cards: [(Seat, Card); MAX_PLAYERS],
    pub(super) len: usize,
    /// Seats that called Färg in this trick (a bit set).
    pub farg: u32,
}

impl Default for TrickState {
    fn default() -> TrickState {
        TrickState {
            cards: [(0, Card::from_index(0)); MAX_PLAYERS],
            len: 0,
            farg: 0,
        }
    }
}

impl TrickState {
    /// A trick with these cards played, in order.
    pub fn from_cards(cards: &[(Seat, Card)]) -> TrickState {
        let mut t = TrickState::default();
        for &c in cards {
            t.push(c);
        }
        t
    }
    /// The cards played, in order (the first is the lead).
    pub fn cards(&self) -> &[(Seat, Card)] {
        &self.cards[..self.len]
    }
    pub(super) fn push(&mut self, play: (Seat, Card)) {
        self.cards[self.len] = play;
        self.len += 1;
    }
    pub fn led(&self) -> Option<Card> {
        self.cards().first().map(|&(_, c)| c)
    }
    /// The highest rank of suit `s` in the trick.
    pub fn highest(&self, s: Suit) -> Option<Rank> {
        self.cards()
            .iter()
            .filter(|(_, c)| c.suit == s)
            .map(|(_, c)| c.rank)
            .max()
    }
    /// The seat winning the trick so far: the highest trump, else the highest card of the led suit.
    pub fn winner(&self, trump: Suit) -> Option<Seat> {
        let led = self.led()?.suit;
        let key = |c: &Card| (c.suit == trump, c.suit == led, c.rank);
        self.cards().iter().max_by_key(|(_, c)| key(c)).map(|&(s, _)| s)
    }
}

/// The cards of `set` ranked above `r` (all of them without `r`).
fn above(set: CardSet, r: Option<Rank>) -> CardSet {
    match r {
        None => set,
        Some(r) => {
            let mut out = set;
            for c in CardSet::iter(set) {
                if c.rank <= r {
                    out.remove(c);
                }
            }
            out
        }
    }
}

/// The cards a follower may play (svangknack.md Sec. 3, clauses A-C and their options).
pub fn legal_follow(hand: CardSet, t: &TrickState, trump: Suit, r: &Rules) -> CardSet {
    let Some(led) = t.led() else {
        return hand;
    };
    let l = led.suit;
    let hl = hand.of_suit(l);
    let ht = hand.of_suit(trump);
    if !hl.is_empty() {
        if r.relaxed_after_trump && l != trump && t.highest(trump).is_some() {
            return hl;
        }
        let hi = above(hl, t.highest(l));
        if !hi.is_empty() {
            return hi;
        }
        if r.literal_c && ht.is_empty() {
            return hand;
        }
        return hl;
    }
    if l != trump && !ht.is_empty() {
        let hi = above(ht, t.highest(trump));
        return if hi.is_empty() { ht } else { hi };
    }
    hand
}

/// Whether a follower can meet an overtaking duty (the condition Färg needs to be false).
pub fn can_overtake(hand: CardSet, t: &TrickState, trump: Suit, r: &Rules) -> bool {
    let Some(led) = t.led() else {
        return true;
    };
    let l = led.suit;
    let hl = hand.of_suit(l);
    let ht = hand.of_suit(trump);
    if r.farg_led_card_only {
        return (!hl.is_empty() && !above(hl, Some(led.rank)).is_empty())
            || (hl.is_empty() && l != trump && !ht.is_empty());
    }
    if !hl.is_empty() {
        return !above(hl, t.highest(l)).is_empty();
    }
    l != trump && !above(ht, t.highest(trump)).is_empty()
}

/// Whether all cards of a hand are of one suit.
pub fn one_suited(hand: CardSet) -> bool {
    Suit::ALL.iter().filter(|&&s| hand.has_suit(s)).count() == 1
}

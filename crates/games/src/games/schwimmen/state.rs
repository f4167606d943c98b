//! The state of a Schwimmen game, a new game, the seats in turn order, and what tests and
//! tools may read of it.

use super::rules::Rules;
use crate::args;
use crate::cards::{deck_from, Card, Rank};
use crate::chance::Chance;
use crate::engine::Events;
use crate::engine::Pending;
use crate::game::{Arg, Args, Audience, Seat};
use crate::options::Options;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// The dealer chooses between the seen and the unseen packet.
    Choose,
    /// A player's turn (before or after a knock).
    Turn,
    Over,
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    ThreeAces(Seat),
    ThirtyOne(Seat),
    Showdown,
    Cap,
}

/// A turn action, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Turn {
    SwapOne(Card, Card),
    SwapAll,
    Knock,
    Pass,
}

/// One game of Schwimmen: rounds until one player is left.
#[derive(Clone)]
pub struct Schwimmen {
    pub(super) n: usize,
    pub(super) rules: Rules,
    pub(super) chance: Chance,
    pub(super) ev: Pending,
    pub(super) deck: Vec<Card>,
    pub(super) phase: Phase,
    pub(super) turn: Seat,
    pub(super) dealer: Seat,
    pub(super) round: usize,
    pub(super) strikes: Vec<u32>,
    pub(super) active: Vec<bool>,
    pub(super) hands: Vec<Vec<Card>>,
    /// The dealer's seen packet (A) and unseen packet (B) while he chooses.
    pub(super) seen: Vec<Card>,
    pub(super) unseen: Vec<Card>,
    pub(super) middle: Vec<Card>,
    /// The unused rest of the pack, in dealt order (fresh middles under `all_pass_refresh`).
    pub(super) stock: Vec<Card>,
    /// Middles removed by `all_pass_refresh`.
    pub(super) discard: Vec<Card>,
    pub(super) knocker: Option<Seat>,
    /// Turns still to come after a knock.
    pub(super) final_left: usize,
    /// Turns taken in this round before any knock.
    pub(super) turns: usize,
    /// Consecutive passes before any knock.
    pub(super) passes: usize,
    /// Final places (1 = winner), set at elimination and at the end.
    pub(super) places: Vec<Option<f64>>,
    /// The seats drowned in each round that drowned someone: (round, seats).
    pub(super) drowned: Vec<(usize, Vec<Seat>)>,
    /// The seats that took a strike in the last round (for `dealer_rule=loser_deals`).
    pub(super) struck: Vec<Seat>,
    /// Absent seats (their bot is `dead`), in the order they left: ranked last (Sec. 4).
    pub(super) absent: Vec<Seat>,
    /// Misdeals per seat (`misdeal_strike`).
    pub(super) misdeals: Vec<usize>,
    /// The last seat left, once the game is over (the outcome is made from the state when
    /// asked for, not at the end of every game and playout).
    pub(super) winner: Option<Seat>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    pub(super) deal_error: Option<String>,
}

impl Schwimmen {
    pub fn new(players: usize, o: &Options, mut chance: Chance, events: &mut impl Events) -> Result<Schwimmen, String> {
        let rules = *o.compiled(Rules::new);
        let deck = if rules.deck32 {
            deck_from(Rank::new(7))
        } else {
            deck_from(Rank::new(6))
        };
        if !(2..=10).contains(&players) {
            return Err(format!("schwimmen is played by 2-10 players, not {players}"));
        }
        if 3 * players + 3 > deck.len() {
            return Err(format!(
                "deck={} holds {} cards: at most {} players (3 each and the dealer's second packet), not {players}",
                o.get("deck"),
                deck.len(),
                (deck.len() - 3) / 3
            ));
        }
        let dealer = chance.first_dealer(players);
        let mut g = Schwimmen {
            n: players,
            rules,
            chance,
            ev: Pending::default(),
            deck,
            phase: Phase::Choose,
            turn: dealer,
            dealer,
            round: 0,
            strikes: vec![0; players],
            active: vec![true; players],
            hands: vec![Vec::new(); players],
            seen: Vec::new(),
            unseen: Vec::new(),
            middle: Vec::new(),
            stock: Vec::new(),
            discard: Vec::new(),
            knocker: None,
            final_left: 0,
            turns: 0,
            passes: 0,
            places: vec![None; players],
            drowned: Vec::new(),
            struck: Vec::new(),
            absent: Vec::new(),
            misdeals: vec![0; players],
            winner: None,
            deal_error: None,
        };
        g.ev.listen_to(events);
        g.start_round()?;
        g.ev.hand_over(events);
        Ok(g)
    }

    pub(super) fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    pub(super) fn card_args(cards: &[Card]) -> Args {
        cards.iter().map(|&c| Arg::Card(c)).collect()
    }

    /// A hand as its `hand` line shows it: sorted like every game's hands (suit by suit, high
    /// to low), whatever order swaps left it in.
    pub(super) fn hand_args(cards: &[Card]) -> Args {
        // A hand of three (every hand but an absent seat's): sorted in place, three compares.
        if let Ok(&[a, b, c]) = <&[Card; 3]>::try_from(cards) {
            let (a, b) = if a.index() <= b.index() { (a, b) } else { (b, a) };
            let (b, c) = if b.index() <= c.index() { (b, c) } else { (c, b) };
            let (a, b) = if a.index() <= b.index() { (a, b) } else { (b, a) };
            return args![a, b, c];
        }
        let mut sorted = cards.to_vec();
        // Distinct cards: an unstable sort orders them as a stable one.
        sorted.sort_unstable_by_key(|c| c.index());
        Self::card_args(&sorted)
    }

    /// The next active seat to the right of `s` (anticlockwise: seat s-1), `s` excluded
    /// unless it is the only one.
    pub(super) fn right_active(&self, s: Seat) -> Seat {
        let n = self.n;
        (1..=n)
            .map(|k| (s + n * k - k) % n)
            .find(|&t| self.active[t])
            .unwrap_or(s)
    }

    /// How many seats are still in (without making a list).
    pub(super) fn active_count(&self) -> usize {
        self.active[..self.n].iter().filter(|&&a| a).count()
    }

    pub(super) fn active_seats(&self) -> Vec<Seat> {
        (0..self.n).filter(|&s| self.active[s]).collect()
    }

    /// The active seats in turn order, starting to the right of `s`.
    pub(super) fn turn_order_iter(&self, s: Seat) -> impl Iterator<Item = Seat> + '_ {
        let n = self.n;
        (1..=n).map(move |k| (s + n * k - k) % n).filter(|&t| self.active[t])
    }

    // ----- accessors for tests and tools -----

    /// Every card of the deck, wherever it is now (hands, packets, middle, stock, discards).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut v: Vec<Card> = self.hands.concat();
        v.extend(&self.seen);
        v.extend(&self.unseen);
        v.extend(&self.middle);
        v.extend(&self.stock);
        v.extend(&self.discard);
        v
    }

    pub fn deck(&self) -> &[Card] {
        &self.deck
    }

    pub fn strikes(&self) -> &[u32] {
        &self.strikes
    }

    pub fn active(&self) -> &[bool] {
        &self.active
    }

    pub fn middle(&self) -> &[Card] {
        &self.middle
    }

    pub fn hand(&self, s: Seat) -> &[Card] {
        &self.hands[s]
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    pub fn round(&self) -> usize {
        self.round
    }

    /// The final or current places given so far (drowned and absent seats; everyone at the end).
    pub fn places(&self) -> &[Option<f64>] {
        &self.places
    }
}

//! The state of a Zwikken session, a new session, and what the views and tools may ask of it.

use super::rules::Rules;
use crate::cards::{deck_from, Card, CardSet, Rank, Suit};
use crate::chance::{Chance, DealRequest};
use crate::engine::Events;
use crate::few::Few;
use crate::game::{Audience, Seat};
use crate::options::Options;
use std::sync::Arc;

/// The most players Zwikken seats (zwikken.md §1).
pub(super) const MAX_PLAYERS: usize = 6;

/// The most cards face up: the first turned card and two seeks (`max_seeks` ≤ 2).
const MAX_TURNED: usize = 3;

/// The deck: 10 J Q K A of four suits.
pub(super) const DECK: usize = 20;

/// The phase of the current deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Bid,
    Seek,
    Exchange,
    Play,
    Over,
}

pub(super) fn ten_of(s: Suit) -> Card {
    Card::new(Rank::TEN, s)
}

/// One finished deal in the session's ledger (the outcome's detail): how it ended and the
/// chips it moved.
#[derive(Clone, Copy, Debug)]
pub(super) struct LedgerEntry {
    pub(super) deal: usize,
    pub(super) dealer: Seat,
    pub(super) turned: Few<Card, MAX_TURNED>,
    /// Bit set of the askers (none when the deal was not played).
    pub(super) askers: u32,
    pub(super) end: &'static str,
    pub(super) winner: Option<Seat>,
    pub(super) pot_before: i64,
    pub(super) pot_after: i64,
    pub(super) chips: [i64; MAX_PLAYERS],
}

/// The active seats in some order (at most 6).
type Seats = Few<Seat, MAX_PLAYERS>;

/// The exchanges a seat may make: (turned card to take, ten to lay in its place).
pub(super) type Targets = Few<(Card, Card), MAX_TURNED>;

/// One session of Zwikken.
#[derive(Clone)]
pub struct Zwikken {
    pub(super) n: usize,
    pub(super) rules: Rules,
    pub(super) chance: Chance,
    // The session (per-seat arrays: the first `n` entries count).
    pub(super) balance: [i64; MAX_PLAYERS],
    pub(super) start: i64,
    /// Deals ended so far (each settled, or passed out).
    pub(super) deals_done: u64,
    pub(super) pot: i64,
    pub(super) active: [bool; MAX_PLAYERS],
    pub(super) deal_no: usize,
    pub(super) dealer: Seat,
    /// How the deals ended: zwik, points, passer, tie, no_play.
    pub(super) tally: [usize; 5],
    pub(super) split: Vec<(Seat, i64)>,
    /// Per finished deal: how it ended and the chips it moved (in the outcome's detail).
    pub(super) ledger: Vec<LedgerEntry>,
    /// Balances and pot when the current deal started (before its ante).
    pub(super) deal_start: ([i64; MAX_PLAYERS], i64),
    pub(super) deal_end: Option<(&'static str, Option<Seat>)>,
    // The deal.
    pub(super) phase: Phase,
    pub(super) turn: Seat,
    pub(super) hands: [CardSet; MAX_PLAYERS],
    pub(super) turned: Few<Card, MAX_TURNED>,
    /// The stock in order; its cards are `stock[stock_lo..stock_hi]` (a seek takes the first).
    pub(super) stock: [Card; DECK],
    pub(super) stock_lo: usize,
    pub(super) stock_hi: usize,
    pub(super) trump: Suit,
    pub(super) repeat: bool,
    pub(super) period: usize,
    pub(super) seeks: usize,
    pub(super) round: u8,
    pub(super) speakers: Seats,
    pub(super) spk: usize,
    pub(super) asked: [bool; MAX_PLAYERS],
    pub(super) passed1: [bool; MAX_PLAYERS],
    pub(super) asks: usize,
    /// "ik verwacht een betere": (seat, suit of his ten, rank of his pair); one per period.
    pub(super) waits: Few<(Seat, Suit, Rank), MAX_TURNED>,
    /// Bit set over `Suit::index` of the tens exchanged this deal.
    pub(super) exchanged: u8,
    pub(super) ex_queue: Seats,
    pub(super) leader: Seat,
    pub(super) trick: Few<(Seat, Card), MAX_PLAYERS>,
    pub(super) trick_no: usize,
    pub(super) taken: [u32; MAX_PLAYERS],
    /// Why the session ended and its summary, once it has (the outcome is made from these
    /// and the state, when asked).
    pub(super) ended: Option<(&'static str, String)>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    pub(super) deal_error: Option<String>,
    /// The request of every deal (shared by clones until one deals).
    pub(super) deal_request: Arc<DealRequest>,
}

impl Zwikken {
    /// A new session for `players` seats; the first deal is reported to `events`.
    pub fn new(players: usize, o: &Options, mut chance: Chance, events: &mut impl Events) -> Result<Zwikken, String> {
        let n = players;
        if !(3..=MAX_PLAYERS).contains(&n) {
            return Err(format!("zwikken is played by 3 to 6 players, not {n}"));
        }
        let dealer = chance.first_dealer(n);
        let rules = Rules::from_options(o, n);
        let start = rules.bankroll;
        let no_card = Card::from_index(0);
        let mut g = Zwikken {
            n,
            rules,
            chance,
            balance: [start; MAX_PLAYERS],
            deals_done: 0,
            start,
            pot: 0,
            active: [true; MAX_PLAYERS],
            deal_no: 0,
            dealer,
            tally: [0; 5],
            split: Vec::new(),
            ledger: Vec::new(),
            deal_start: ([start; MAX_PLAYERS], 0),
            deal_end: None,
            phase: Phase::Bid,
            turn: 0,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            turned: Few::new(no_card),
            stock: [no_card; DECK],
            stock_lo: 0,
            stock_hi: 0,
            trump: Suit::Spades,
            repeat: false,
            period: 0,
            seeks: 0,
            round: 1,
            speakers: Few::new(0),
            spk: 0,
            asked: [false; MAX_PLAYERS],
            passed1: [false; MAX_PLAYERS],
            asks: 0,
            waits: Few::new((0, Suit::Spades, Rank::TEN)),
            exchanged: 0,
            ex_queue: Few::new(0),
            leader: 0,
            trick: Few::new((0, no_card)),
            trick_no: 0,
            taken: [0; MAX_PLAYERS],
            ended: None,
            deal_error: None,
            deal_request: Arc::new(DealRequest {
                dealer,
                deck: deck_from(Rank::TEN),
                hand_sizes: vec![3; n],
                piles: vec![("turned", 1), ("stock", usize::MAX)],
                first: 0,
                clockwise: true,
                packets: vec![],
                cut_from: None,
            }),
        };
        g.start_deal(events)?;
        Ok(g)
    }

    pub(super) fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    pub(super) fn bankroll(&self) -> bool {
        self.start > 0
    }

    /// The next active seat clockwise after `s`.
    pub(super) fn next_active(&self, s: Seat) -> Seat {
        let mut t = (s + 1) % self.n;
        while !self.active[t] {
            t = (t + 1) % self.n;
        }
        t
    }

    /// The active seats from the dealer's left, the dealer last.
    pub(super) fn order(&self) -> Seats {
        let mut v = Few::new(0);
        for k in 1..=self.n {
            let s = (self.dealer + k) % self.n;
            if self.active[s] {
                v.push(s);
            }
        }
        v
    }

    /// The askers, from the dealer's left.
    pub(super) fn askers(&self) -> Seats {
        let mut v = self.order();
        v.retain(|s| self.asked[s]);
        v
    }

    pub(super) fn playing(&self) -> usize {
        self.active[..self.n].iter().filter(|&&a| a).count()
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn pot(&self) -> i64 {
        self.pot
    }

    /// The rule options in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Every seat's chips now (net, or the bankroll balance).
    pub fn balances(&self) -> &[i64] {
        &self.balance[..self.n]
    }

    pub fn hand(&self, s: Seat) -> Vec<Card> {
        self.hands[s].cards()
    }

    pub fn turned(&self) -> &[Card] {
        self.turned.as_slice()
    }

    pub fn stock(&self) -> &[Card] {
        &self.stock[self.stock_lo..self.stock_hi]
    }

    pub fn trump(&self) -> Suit {
        self.trump
    }

    pub fn deal_number(&self) -> usize {
        self.deal_no
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    pub fn active(&self) -> &[bool] {
        &self.active[..self.n]
    }

    /// The trick in progress: (seat, card) in play order.
    pub fn current_trick(&self) -> &[(Seat, Card)] {
        self.trick.as_slice()
    }
}

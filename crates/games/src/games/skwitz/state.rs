//! The state of a Skwitz session, a new session, the seats and sides, and what tests and tools
//! may read of it.

use super::deal_table::{parse_deal_table, DEAL_TABLE};
use super::rules::{Rules, Setup};
use crate::args;
use crate::cards::{Card, CardSet};
use crate::chance::Chance;
use crate::engine::Pending;
use crate::engine::{Events, Typed};
use crate::game::{Audience, Outcome, Seat};
use crate::options::Options;

/// The cards a pile, the table or the removed cards can hold: a whole deck. Given as capacity
/// when a deal is made, so that no play grows them.
pub(super) const DECK: usize = 52;

/// A whole Skwitz session.
///
/// Its decision path allocates nothing: the options are read once into `Rules`, captures are
/// written into the caller's buffer as card sets, and the table, piles and hands are given room
/// for every card they can hold when a deal is made.
#[derive(Clone)]
pub struct Skwitz {
    pub(super) rules: Rules,
    pub(super) n: usize,
    pub(super) teams: bool,
    pub(super) stake: i64,
    pub(super) target: i64,
    /// (table cards, cards per draw, draws).
    pub(super) layout: (usize, usize, usize),
    pub(super) chance: Chance,
    pub(super) ev: Pending,
    // The session.
    pub(super) games_target: usize,
    pub(super) extra_cap: usize,
    pub(super) game_no: usize,
    pub(super) deal_no: usize,
    pub(super) deals_in_game: usize,
    pub(super) chips: Vec<i64>,
    /// Deals and Skwitz games ended so far ([`Engine::standing`](crate::engine::Engine::standing)).
    pub(super) deals_done: u64,
    pub(super) pot: i64,
    /// The side holding the pot (a side is a seat, or a team 0/1 with teams).
    pub(super) pot_holder: Option<usize>,
    pub(super) wins_since_collect: Vec<usize>,
    pub(super) winners: Vec<Seat>,
    pub(super) collections: Vec<(Seat, i64)>,
    /// Breaches per seat (`breach_penalty`).
    pub(super) breaches: Vec<usize>,
    /// Points per side in the current game.
    pub(super) points: Vec<i64>,
    pub(super) dealer: Seat,
    // The deal.
    pub(super) table: Vec<Card>,
    pub(super) hands: Vec<Vec<Card>>,
    /// The stock, top first.
    pub(super) stock: Vec<Card>,
    pub(super) piles: Vec<Vec<Card>>,
    pub(super) removed: Vec<Card>,
    pub(super) last_captor: Option<Seat>,
    /// The cards shown face up in this deal: the layout and every card played (what each
    /// seat's view keeps as seen; the dealer's bottom card is not among them). Public: the
    /// playout policy reads it.
    pub(super) face_up: CardSet,
    pub(super) draws: usize,
    pub(super) turn: Seat,
    pub(super) over: bool,
    pub(super) outcome: Option<Outcome>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    pub(super) deal_error: Option<String>,
}

impl Skwitz {
    /// A session for `n` players under options `o`, with its string interface (for tests and
    /// tools; [`Skwitz::new`] is the typed constructor).
    pub fn with_players(n: usize, o: Options, chance: Chance) -> Result<Typed<Skwitz>, String> {
        Typed::new(|ev| Skwitz::new(n, &o, chance, ev))
    }

    /// A session for `n` players under options `o`; its first events go to `events`.
    pub fn new(n: usize, o: &Options, mut chance: Chance, events: &mut impl Events) -> Result<Skwitz, String> {
        if !(2..=8).contains(&n) {
            return Err(format!("skwitz is played by 2-8 players, not {n}"));
        }
        let setup = o.compiled(|o| Setup {
            rules: Rules::new(o),
            deal_table: parse_deal_table(o.get("deal_table")),
        });
        let rules = setup.rules;
        let (stake, teams) = (rules.stake, rules.teams);
        if stake % 2 != 0 {
            return Err(format!("stake must be even (half-stakes are paid), not {stake}"));
        }
        if teams && n != 4 {
            return Err(format!("teams=true needs 4 players (two teams of two), not {n}"));
        }
        let overrides = setup.deal_table.as_ref().map_err(Clone::clone)?;
        let layout = overrides.get(&n).copied().unwrap_or(DEAL_TABLE[n - 2]);
        let dealer = chance.first_dealer(n);
        let sides = if teams { 2 } else { n };
        let mut g = Skwitz {
            n,
            teams,
            stake,
            target: rules.target,
            layout,
            chance,
            ev: Pending::new(events),
            games_target: rules.games,
            extra_cap: rules.extra_games_cap,
            game_no: 1,
            deal_no: 0,
            deals_in_game: 0,
            chips: vec![0; n],
            deals_done: 0,
            pot: 0,
            pot_holder: None,
            wins_since_collect: vec![0; sides],
            winners: Vec::new(),
            collections: Vec::new(),
            breaches: vec![0; n],
            points: vec![0; sides],
            dealer,
            table: Vec::with_capacity(DECK),
            hands: vec![Vec::new(); n],
            stock: Vec::new(),
            piles: (0..n).map(|_| Vec::with_capacity(DECK)).collect(),
            removed: Vec::with_capacity(DECK),
            last_captor: None,
            face_up: CardSet::EMPTY,
            draws: 0,
            turn: 0,
            over: false,
            outcome: None,
            deal_error: None,
            rules,
        };
        g.ev.emit(g.everyone(), "newgame", || args![1, dealer]);
        g.start_deal()?;
        g.ev.hand_over(events);
        Ok(g)
    }

    pub(super) fn everyone(&self) -> Audience {
        Audience::all(self.n)
    }

    /// The seat to the right: play and the deal pass anticlockwise.
    pub fn right(&self, s: Seat) -> Seat {
        (s + self.n - 1) % self.n
    }

    /// The side of a seat: the seat itself, or its team (0: seats 0+2, 1: seats 1+3).
    pub fn side(&self, s: Seat) -> usize {
        if self.teams {
            s % 2
        } else {
            s
        }
    }

    /// The seats playing against `s`: every other seat, or the other team (an iterator that
    /// does not borrow the session).
    pub(super) fn opponents(&self, s: Seat) -> impl Iterator<Item = Seat> {
        let teams = self.teams;
        (0..self.n).filter(move |&o| if teams { o % 2 != s % 2 } else { o != s })
    }

    // Read access for tests and tools.

    /// Every card's place: hands, table, stock, piles and removed cards (52 in all).
    pub fn card_count(&self) -> usize {
        if self.over {
            return 52;
        }
        self.hands.iter().map(Vec::len).sum::<usize>()
            + self.table.len()
            + self.stock.len()
            + self.piles.iter().map(Vec::len).sum::<usize>()
            + self.removed.len()
    }

    pub fn table(&self) -> &[Card] {
        &self.table
    }

    pub fn hand(&self, s: Seat) -> &[Card] {
        &self.hands[s]
    }

    pub fn chips(&self) -> &[i64] {
        &self.chips
    }

    pub fn pot(&self) -> i64 {
        self.pot
    }

    /// Points of the side of seat `s` in the current game.
    pub fn points(&self, s: Seat) -> i64 {
        self.points[self.side(s)]
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The number of the current deal in the session (1, 2, …).
    pub fn deal_no(&self) -> usize {
        self.deal_no
    }

    pub fn layout(&self) -> (usize, usize, usize) {
        self.layout
    }
}

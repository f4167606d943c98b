//! The state of a Svängknack session, a new session, and the small questions the phases ask
//! of it.

use super::rules::{Rules, DECK, MAX_PLAYERS};
use super::tricks::TrickState;
use crate::cards::{deck_from, Card, CardSet, Rank, Suit};
use crate::chance::{Chance, DealRequest};
use crate::engine::Events;
use crate::few::Few;
use crate::game::{Audience, Seat};
use crate::options::Options;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// The swinger chooses: redeal, swing, hand over.
    Swing,
    /// The other players (not the dealer) answer a redeal proposal in turn.
    Consent,
    /// The swinger picks trump from the two turned suits.
    Trump,
    /// Knock or fold, clockwise from the swinger's left to the dealer.
    Knock,
    Play,
    Over,
}

/// One finished round, for the outcome's `round_summaries` (made into text only there).
#[derive(Clone, Copy, Debug)]
pub(super) enum RoundSummary {
    /// Nobody knocked: the swinger took the pot alone.
    Lone { round: usize, seat: Seat, pot: i64 },
    /// Tricks were played: the tricks won per seat and the seats that went bet (a bit set).
    Played {
        round: usize,
        pot: i64,
        won: [u8; MAX_PLAYERS],
        bets: u32,
    },
}

/// The seats of the game, clockwise (a queue of voters, knockers or players to act).
type Seats = Few<Seat, MAX_PLAYERS>;

/// One session of Svängknack.
#[derive(Clone)]
pub struct Svangknack {
    pub(super) n: usize,
    pub(super) r: Rules,
    pub(super) chance: Chance,
    pub(super) phase: Phase,
    pub(super) turn: Seat,
    // The session (per-seat arrays: the first `n` entries count).
    pub(super) round_no: usize,
    pub(super) dealer: Seat,
    pub(super) chips: [i64; MAX_PLAYERS],
    /// Bets owed to the next pot ("gått bet").
    pub(super) carried: i64,
    /// The pot of this round, P.
    pub(super) pot: i64,
    pub(super) deal_no: usize,
    pub(super) rounds_log: Vec<RoundSummary>,
    pub(super) final_split: i64,
    // The round.
    pub(super) hands: [CardSet; MAX_PLAYERS],
    /// The stock in order: `stock[..stock_len]`, of which `stock_pos..` is left.
    pub(super) stock: [Card; DECK],
    pub(super) stock_len: usize,
    pub(super) stock_pos: usize,
    pub(super) forehand: Seat,
    pub(super) swinger: Seat,
    pub(super) redeal_available: bool,
    pub(super) handed_over: bool,
    pub(super) last_man_called: bool,
    pub(super) forced_round: bool,
    pub(super) one_card: bool,
    pub(super) voters: Seats,
    pub(super) turnup: Few<Card, 2>,
    pub(super) trump: Option<Suit>,
    pub(super) queue: Seats,
    /// The participants of the round (a bit set).
    pub(super) participants: u32,
    pub(super) trick_no: usize,
    pub(super) leader: Seat,
    pub(super) trick: TrickState,
    pub(super) to_act: Seats,
    pub(super) won: [u32; MAX_PLAYERS],
    /// Why the session ended, once it has (the outcome is made from this and the state).
    pub(super) ended: Option<&'static str>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    pub(super) deal_error: Option<String>,
    /// The request of every deal (shared by clones until one deals).
    pub(super) deal_request: Arc<DealRequest>,
}

impl Svangknack {
    /// A new session for `players` seats; the first round is reported to `events`.
    pub fn new(
        players: usize,
        o: &Options,
        mut chance: Chance,
        events: &mut impl Events,
    ) -> Result<Svangknack, String> {
        if !(3..=MAX_PLAYERS).contains(&players) {
            return Err(format!("svangknack is played by 3-16 players, not {players}"));
        }
        let r = Rules::from_options(o, players)?;
        let dealer = chance.first_dealer(players);
        let no_card = Card::from_index(0);
        let mut g = Svangknack {
            n: players,
            r,
            chance,
            phase: Phase::Swing,
            turn: 0,
            round_no: 0,
            dealer,
            chips: [0; MAX_PLAYERS],
            carried: 0,
            pot: 0,
            deal_no: 0,
            rounds_log: Vec::new(),
            final_split: 0,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            stock: [no_card; DECK],
            stock_len: 0,
            stock_pos: 0,
            forehand: 0,
            swinger: 0,
            redeal_available: true,
            handed_over: false,
            last_man_called: false,
            forced_round: false,
            one_card: false,
            voters: Few::new(0),
            turnup: Few::new(no_card),
            trump: None,
            queue: Few::new(0),
            participants: 0,
            trick_no: 0,
            leader: 0,
            trick: TrickState::default(),
            to_act: Few::new(0),
            won: [0; MAX_PLAYERS],
            ended: None,
            deal_error: None,
            deal_request: Arc::new(Svangknack::deal_request(&r, players, dealer)),
        };
        g.start_round(events)?;
        Ok(g)
    }

    pub fn rules(&self) -> &Rules {
        &self.r
    }

    pub(super) fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    pub(super) fn left(&self, s: Seat) -> Seat {
        (s + 1) % self.n
    }

    pub(super) fn participates(&self, s: Seat) -> bool {
        self.participants & (1 << s) != 0
    }

    /// What a round deals: 3 cards each from the dealer's left, the rest is the stock.
    fn deal_request(r: &Rules, n: usize, dealer: Seat) -> DealRequest {
        let deck = if r.deck36 {
            deck_from(Rank::new(6))
        } else {
            deck_from(Rank::TWO)
        };
        let mut req = DealRequest::hands(dealer, deck, n, 3);
        req.piles = vec![("stock", usize::MAX)];
        req
    }

    pub(super) fn stock(&self) -> &[Card] {
        &self.stock[..self.stock_len]
    }
}

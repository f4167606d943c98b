//! The state of a Rikken game, and a new game.

use super::bids::{Contract, Ladder};
use super::rules::{Rules, Setup};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::chance::Chance;
use crate::engine::Pending;
use crate::engine::{Events, Typed};
use crate::few::Few;
use crate::game::{Audience, Seat};
use crate::options::Options;
use std::sync::Arc;

pub(super) const N: usize = 4;

pub(super) const SEAT_NAMES: [&str; 4] = ["N", "E", "S", "W"];

pub(super) fn left(s: Seat) -> Seat {
    (s + 1) % N
}

/// A finished trick: its cards in the order played, and who won it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Trick {
    pub(super) cards: [Card; N],
    pub(super) winner: Seat,
}

/// No card: fills the unused slots of the fixed-size lists.
pub(super) const NO_CARD: Card = Card {
    rank: Rank::ACE,
    suit: Suit::Spades,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Bidding,
    Trump,
    Call,
    Play,
    Over,
}

/// One game of Rikken: one deal, after any all-pass redeals.
#[derive(Clone)]
pub struct Rikken {
    pub(super) o: Options,
    pub(super) setup: Arc<Setup>,
    pub(super) rules: Rules,
    pub(super) chance: Chance,
    pub(super) ev: Pending,
    pub(super) phase: Phase,
    pub(super) turn: Seat,
    pub(super) dealer: Seat,
    pub(super) deal_no: usize,
    pub(super) hands: [CardSet; N],
    // The auction.
    pub(super) passed: [bool; N],
    pub(super) standing: Option<Contract>,
    pub(super) declarers: Few<Seat, N>,
    pub(super) consecutive: usize,
    pub(super) passes_without_bid: usize,
    pub(super) rik_bid: bool,
    // The contract.
    pub(super) contract: Option<Contract>,
    pub(super) trump: Option<Suit>,
    pub(super) called: Option<Card>,
    pub(super) partner: Option<Seat>,
    pub(super) partner_public: bool,
    /// The called-card duties of Sec. 7.2 apply in this deal.
    pub(super) duties: bool,
    pub(super) called_suit_led: bool,
    /// Op voorhand: the hands are dealt but not yet shown (the rik comes before the deal).
    pub(super) hands_withheld: bool,
    /// The seats whose hands lie open to the others.
    pub(super) exposed: [bool; N],
    // Trick play.
    pub(super) leader: Seat,
    pub(super) trick: Few<(Seat, Card), N>,
    pub(super) tricks: Few<Trick, 13>,
    pub(super) won: [usize; N],
    /// Why play stopped, once it has (the outcome is worked out from the state when asked).
    pub(super) end: Option<&'static str>,
    /// A redeal from a deal file that failed; reported by the `apply` that caused it.
    pub(super) deal_error: Option<String>,
}

impl Rikken {
    /// A game with its string interface (for tests and tools; [`Rikken::new`] is the typed
    /// constructor).
    pub fn with_options(o: Options, chance: Chance) -> Result<Typed<Rikken>, String> {
        Typed::new(|ev| Rikken::new(N, &o, chance, ev))
    }

    /// A game for `players` (4) seats; its first events go to `events`.
    pub fn new(players: usize, o: &Options, mut chance: Chance, events: &mut impl Events) -> Result<Rikken, String> {
        if players != N {
            return Err(format!("rikken is played by exactly 4 players, not {players}"));
        }
        let o = o.clone();
        let setup = o.compiled(|o| Setup {
            rules: Rules::new(o),
            ladder: Ladder::new(o),
        });
        let rules = setup.rules;
        let dealer = chance.first_dealer(N);
        let mut g = Rikken {
            setup,
            rules,
            o,
            chance,
            ev: Pending::new(events),
            phase: Phase::Bidding,
            turn: left(dealer),
            dealer,
            deal_no: 0,
            hands: [CardSet::default(); N],
            passed: [false; N],
            standing: None,
            declarers: Few::new(0),
            consecutive: 0,
            passes_without_bid: 0,
            rik_bid: false,
            contract: None,
            trump: None,
            called: None,
            partner: None,
            partner_public: false,
            duties: false,
            called_suit_led: false,
            hands_withheld: false,
            exposed: [false; N],
            leader: left(dealer),
            trick: Few::new((0, NO_CARD)),
            tricks: Few::new(Trick {
                cards: [NO_CARD; N],
                winner: 0,
            }),
            won: [0; N],
            end: None,
            deal_error: None,
        };
        g.start_deal()?;
        g.ev.hand_over(events);
        Ok(g)
    }

    pub(super) fn all() -> Audience {
        Audience::all(N)
    }
}

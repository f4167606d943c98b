//! The Rikken state machine: deal, auction, declarations, trick play, scoring.
//!
//! Every change of state is emitted as an [`Event`](crate::game::Event) whose audience follows rikken.md Sec. 8:
//! hands go to their owner only; the partner learns that he is the partner at the call, the
//! others when the called card is played; hints go to the acting seat only.

use super::bids::{Contract, Ladder, OPEN, PRAATJE};
use super::scoring;
use crate::args;
use crate::cards::{format_cards, Card, CardSet, Rank, Suit};
use crate::chance::{Chance, DealRequest};
use crate::engine::Pending;
use crate::engine::{Engine, Events, Typed};
use crate::few::Few;
use crate::game::{Arg, Audience, Game, Outcome, Seat};
use crate::options::Options;
use serde_json::{json, Value};
use std::fmt;
use std::sync::Arc;

const N: usize = 4;
const SEAT_NAMES: [&str; 4] = ["N", "E", "S", "W"];

fn left(s: Seat) -> Seat {
    (s + 1) % N
}

/// Builds a Rikken game (the [`crate::game::NewGame`] of the spec).
pub fn new_game(players: usize, options: &Options, chance: Chance, listening: bool) -> Result<Box<dyn Game>, String> {
    Ok(Box::new(Typed::listening(listening, |ev| {
        Rikken::new(players, options, chance, ev)
    })?))
}

/// A Rikken action. `Display` writes its protocol token; [`Rikken::parse`](Engine::parse)
/// reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RikkenAction {
    Pass,
    /// Joins the standing bid (`misere_join`, …).
    Join(Contract),
    Bid(Contract),
    Trump(Suit),
    Call(Card),
    Play(Card),
}

impl RikkenAction {
    /// The token where it is a string of the program's (all but bids, whose tokens are made).
    fn fixed_token(&self) -> Option<&'static str> {
        match self {
            RikkenAction::Pass => Some("pass"),
            RikkenAction::Trump(s) => Some(s.token()),
            RikkenAction::Call(c) | RikkenAction::Play(c) => Some(c.token()),
            RikkenAction::Join(_) | RikkenAction::Bid(_) => None,
        }
    }
}

impl fmt::Display for RikkenAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RikkenAction::Join(c) => f.write_str(&c.join_token()),
            RikkenAction::Bid(c) => f.write_str(&c.token()),
            other => f.write_str(other.fixed_token().unwrap_or_default()),
        }
    }
}

crate::action_arg!(RikkenAction, RikkenAction::Play, RikkenAction::Call);

/// The options the rules consult during play, read once per game (no string lookups on the
/// decision path).
#[derive(Clone, Copy, Debug)]
struct Rules {
    malheur_obligatory: bool,
    malheur_strict: bool,
    alone_requires_rikken: bool,
    fourth_must_bid: bool,
    schoppen_mieen: bool,
    allow_join_piek_open: bool,
    malheur_trump_excludes_called_suit: bool,
    malheur_called_card_forced: bool,
    open_declarer_leads: bool,
    open_closed_tricks: i64,
    protect_called_card: bool,
    /// Schoppen mieën is scored on more than who takes the Mie: play goes on after it falls.
    mie_extras: bool,
}

impl Rules {
    fn new(o: &Options) -> Rules {
        Rules {
            malheur_obligatory: o.get("malheur_mode") == "obligatory",
            malheur_strict: o.flag("malheur_strict"),
            alone_requires_rikken: o.flag("alone_requires_rikken"),
            fourth_must_bid: o.get("all_pass") == "fourth_must_bid",
            schoppen_mieen: o.get("all_pass") == "schoppen_mieen",
            allow_join_piek_open: o.flag("allow_join_piek_open"),
            malheur_trump_excludes_called_suit: o.flag("malheur_trump_excludes_called_suit"),
            malheur_called_card_forced: o.flag("malheur_called_card_forced"),
            open_declarer_leads: o.flag("open_declarer_leads"),
            open_closed_tricks: o.int("open_closed_tricks"),
            protect_called_card: o.flag("protect_called_card"),
            mie_extras: o.flag("mie_first_trick")
                || o.flag("mie_last_trick")
                || o.flag("mie_spade_penalty")
                || o.get("mie_most_tricks") != "off",
        }
    }
}

/// What the rules need of the options, read once for every game under them.
struct Setup {
    rules: Rules,
    ladder: Ladder,
}

/// A finished trick: its cards in the order played, and who won it.
#[derive(Clone, Copy, Debug)]
struct Trick {
    cards: [Card; N],
    winner: Seat,
}

/// No card: fills the unused slots of the fixed-size lists.
const NO_CARD: Card = Card {
    rank: Rank::ACE,
    suit: Suit::Spades,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Bidding,
    Trump,
    Call,
    Play,
    Over,
}

/// One game of Rikken: one deal, after any all-pass redeals.
#[derive(Clone)]
pub struct Rikken {
    o: Options,
    setup: Arc<Setup>,
    rules: Rules,
    chance: Chance,
    ev: Pending,
    phase: Phase,
    turn: Seat,
    dealer: Seat,
    deal_no: usize,
    hands: [CardSet; N],
    // The auction.
    passed: [bool; N],
    standing: Option<Contract>,
    declarers: Few<Seat, N>,
    consecutive: usize,
    passes_without_bid: usize,
    rik_bid: bool,
    // The contract.
    contract: Option<Contract>,
    trump: Option<Suit>,
    called: Option<Card>,
    partner: Option<Seat>,
    partner_public: bool,
    /// The called-card duties of Sec. 7.2 apply in this deal.
    duties: bool,
    called_suit_led: bool,
    /// Op voorhand: the hands are dealt but not yet shown (the rik comes before the deal).
    hands_withheld: bool,
    exposed: bool,
    // Trick play.
    leader: Seat,
    trick: Few<(Seat, Card), N>,
    tricks: Few<Trick, 13>,
    won: [usize; N],
    /// Why play stopped, once it has (the outcome is worked out from the state when asked).
    end: Option<&'static str>,
    /// A redeal from a deal file that failed; reported by the `apply` that caused it.
    deal_error: Option<String>,
}

/// The bidder's side of the bid checks ([`Rikken::bidder`]).
struct Bidder {
    standing_slot: Option<usize>,
    aces: usize,
    obliged: bool,
}

/// Why a bid is refused now ([`Rikken::bid_refusal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BidRefusal {
    NotABid,
    RikBeterOpens,
    AloneOpens,
    NoOverbid(Contract),
    RikBeterOverRikOnly,
    AloneNeedsRik,
    MalheurNeedsAces,
    MalheurObligatory { strict: bool },
}

impl BidRefusal {
    /// The reason in words, for a refusal of the bid `c`.
    fn message(self, c: Contract) -> String {
        let tok = c.token();
        match self {
            BidRefusal::NotABid => format!("{tok} is not a bid under the rules in force"),
            BidRefusal::RikBeterOpens => "rik_beter cannot open the auction (A5)".into(),
            BidRefusal::AloneOpens => format!("{tok} cannot open the auction (Sec. 4.3)"),
            BidRefusal::NoOverbid(s) => format!("{tok} does not overbid the standing bid {}", s.token()),
            BidRefusal::RikBeterOverRikOnly => "rik_beter is only possible over rik".into(),
            BidRefusal::AloneNeedsRik => format!("{tok} needs a prior rik (alone_requires_rikken)"),
            BidRefusal::MalheurNeedsAces => "malheur needs 3 or 4 aces".into(),
            BidRefusal::MalheurObligatory { strict: true } => "with 3 or 4 aces you must bid malheur".into(),
            BidRefusal::MalheurObligatory { strict: false } => "with 3 or 4 aces you must bid malheur or higher".into(),
        }
    }
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
            exposed: false,
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

    fn all() -> Audience {
        Audience::all(N)
    }

    /// Deals (again, after an all-pass) and starts the auction or the special deal.
    fn start_deal(&mut self) -> Result<(), String> {
        self.deal_no += 1;
        let deck = crate::cards::full_deck();
        let mut req = DealRequest::hands(self.dealer, deck, N, 13);
        req.packets = match self.o.get("deal_packets") {
            "7+6" => vec![7, 6],
            "6+7" => vec![6, 7],
            _ => vec![],
        };
        if self.o.flag("cut_only") {
            if let Some(prev) = self.chance.deals().last() {
                // Gather the previous hands from the dealer's left and cut once.
                let order: Vec<Card> = (1..=N)
                    .flat_map(|k| prev.hands[(prev.dealer + k) % N].clone())
                    .collect();
                req.cut_from = Some(order);
            }
        }
        let deal = self.chance.deal(&req)?;
        for s in 0..N {
            self.hands[s] = CardSet::from_cards(&deal.hands[s]);
        }
        self.passed = [false; N];
        self.standing = None;
        self.declarers.clear();
        self.consecutive = 0;
        self.passes_without_bid = 0;
        self.rik_bid = false;
        self.ev.emit(Self::all(), "deal", || args![self.deal_no, self.dealer]);
        match self.o.get("special") {
            "op_voorhand" => {
                let rikker = left(self.dealer);
                if self.contract.is_none() {
                    // The rik is declared before the cards are seen: withhold the hands.
                    self.hands_withheld = true;
                    self.contract = Some(Contract::OpVoorhand);
                    self.declarers.clear();
                    self.declarers.push(rikker);
                    self.ev.emit(Self::all(), "contract", || args!["op_voorhand", rikker]);
                    self.phase = Phase::Trump;
                    self.turn = rikker;
                } else {
                    // A redeal after a void deal: the declarations stand.
                    self.declarers.clear();
                    self.declarers.push(rikker);
                    self.send_hands();
                    self.op_voorhand_substitute()?;
                }
            }
            "open_piek_totaal" => {
                self.send_hands();
                self.contract = Some(Contract::OpenPiekTotaal);
                self.declarers.clear();
                (0..N).for_each(|s| self.declarers.push(s));
                self.ev
                    .emit(Self::all(), "contract", || args!["open_piek_totaal", "0,1,2,3"]);
                self.ev.emit(Self::all(), "trump", || args!["none"]);
                self.start_play();
            }
            _ => {
                self.send_hands();
                self.phase = Phase::Bidding;
                self.turn = left(self.dealer);
                self.prompt();
            }
        }
        Ok(())
    }

    fn send_hands(&mut self) {
        self.hands_withheld = false;
        for s in 0..N {
            self.ev.emit(Audience::seat(s), "hand", || {
                self.hands[s].iter().map(crate::game::Arg::Card).collect()
            });
        }
    }

    fn ace_count(&self, s: Seat) -> usize {
        Suit::ALL
            .iter()
            .filter(|&&suit| self.hands[s].contains(Card::new(Rank::ACE, suit)))
            .count()
    }

    fn aces(&self, s: Seat) -> Vec<Card> {
        self.hands[s]
            .cards()
            .into_iter()
            .filter(|c| c.rank == Rank::ACE)
            .collect()
    }

    fn holder(&self, c: Card) -> Option<Seat> {
        (0..N).find(|&s| self.hands[s].contains(c))
    }

    // ----- the auction (Sec. 4) -----

    /// The slot of the standing bid, if any.
    fn standing_slot(&self) -> Option<usize> {
        self.standing.and_then(|c| self.setup.ladder.slot(c))
    }

    fn malheur_obliged(&self, p: Seat) -> bool {
        let malheur = self.setup.ladder.malheur_slot();
        self.rules.malheur_obligatory
            && self.ace_count(p) >= 3
            && match (self.standing_slot(), malheur) {
                (Some(s), Some(m)) => s < m,
                (None, _) => true,
                _ => false,
            }
    }

    /// Why `c` may not be bid by `p` now, or `None` if it may (before the malheur obligation
    /// and the fourth-must-bid rule, which restrict passing). Legality is tested for every
    /// rung of the ladder at every bid, so the reason is a value; its words are made only
    /// when a refusal is shown ([`BidRefusal::message`]).
    fn bid_refusal(&self, p: Seat, c: Contract) -> Option<BidRefusal> {
        let Some(slot) = self.setup.ladder.slot(c) else {
            return Some(BidRefusal::NotABid);
        };
        self.bid_refusal_at(&self.bidder(p), c, slot)
    }

    /// What the bid checks need to know of the bidder `p` and the auction, worked out once
    /// per decision rather than once per rung of the ladder.
    fn bidder(&self, p: Seat) -> Bidder {
        Bidder {
            standing_slot: self.standing_slot(),
            aces: self.ace_count(p),
            obliged: self.malheur_obliged(p),
        }
    }

    /// [`bid_refusal`](Rikken::bid_refusal) of `c`, whose slot on the ladder is `slot`.
    fn bid_refusal_at(&self, b: &Bidder, c: Contract, slot: usize) -> Option<BidRefusal> {
        match self.standing {
            None => match c {
                Contract::Rik { beter: true } => return Some(BidRefusal::RikBeterOpens),
                Contract::Alone { .. } => return Some(BidRefusal::AloneOpens),
                _ => {}
            },
            Some(s) => {
                if slot <= b.standing_slot.unwrap_or(0) {
                    return Some(BidRefusal::NoOverbid(s));
                }
                if c == (Contract::Rik { beter: true }) && s != (Contract::Rik { beter: false }) {
                    return Some(BidRefusal::RikBeterOverRikOnly);
                }
            }
        }
        if matches!(c, Contract::Alone { .. }) && self.rules.alone_requires_rikken && !self.rik_bid {
            return Some(BidRefusal::AloneNeedsRik);
        }
        if c == Contract::Malheur && b.aces < 3 {
            return Some(BidRefusal::MalheurNeedsAces);
        }
        if b.obliged && c != Contract::Malheur {
            let m = self.setup.ladder.malheur_slot().unwrap_or(0);
            let strict = self.rules.malheur_strict;
            if strict || slot < m {
                return Some(BidRefusal::MalheurObligatory { strict });
            }
        }
        None
    }

    /// The contract `p` may join now (`misere_join`), if any.
    fn joinable(&self, p: Seat) -> Option<Contract> {
        let s = self.standing?;
        let allowed = match s {
            Contract::Misere { open: 0 } => true,
            Contract::Misere { .. } | Contract::Piek { .. } => self.rules.allow_join_piek_open,
            _ => false,
        };
        if !allowed || self.declarers.iter().any(|&d| d == p) || self.malheur_obliged(p) {
            return None;
        }
        Some(s)
    }

    /// Whether `p` may pass now, or why not (a text made only when shown).
    fn may_pass(&self, p: Seat) -> Result<(), &'static str> {
        if self.malheur_obliged(p) {
            return Err("with 3 or 4 aces you may not pass: malheur is obligatory (Sec. 4.5)");
        }
        if self.rules.fourth_must_bid && self.standing.is_none() && self.passes_without_bid == 3 {
            return Err("the fourth player may not pass after three passes (all_pass=fourth_must_bid)");
        }
        Ok(())
    }

    /// The legal actions of this decision as tokens, for refusal messages.
    fn legal_tokens(&self) -> String {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        legal.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" ")
    }

    /// Why a bid token is refused, if it is (the checks of Sec. 4).
    fn check_bid(&self, token: &str) -> Result<(), String> {
        let p = self.turn;
        if token == "pass" {
            self.may_pass(p)?;
        } else if let Some(c) = Contract::parse_join(token) {
            if self.joinable(p) != Some(c) {
                return Err(match self.standing {
                    Some(s) if s == c && self.declarers.iter().any(|&d| d == p) => {
                        format!("you already play {}", s.token())
                    }
                    Some(s) if s == c => format!("joining {} is not allowed by the rules in force", s.token()),
                    _ => format!("{token}: {} is not the standing bid", c.token()),
                });
            }
        } else if let Some(c) = Contract::parse(token).filter(|c| self.setup.ladder.slot(*c).is_some()) {
            if let Some(why) = self.bid_refusal(p, c) {
                return Err(why.message(c));
            }
        } else {
            return Err(format!("'{token}' is not a bid (legal now: {})", self.legal_tokens()));
        }
        Ok(())
    }

    fn record_bid(&mut self, p: Seat, bid: RikkenAction) {
        self.ev.emit(Self::all(), "move", || args![p, bid, "bid"]);
        match bid {
            RikkenAction::Pass => {
                self.consecutive += 1;
                if !self.passed[p] && self.standing.is_none() {
                    self.passes_without_bid += 1;
                }
                self.passed[p] = true;
            }
            RikkenAction::Join(_) => {
                self.declarers.push(p);
                self.consecutive = 0;
            }
            RikkenAction::Bid(c) => {
                if c == (Contract::Rik { beter: false }) {
                    self.rik_bid = true;
                }
                self.standing = Some(c);
                self.declarers.clear();
                self.declarers.push(p);
                self.consecutive = 0;
            }
            _ => unreachable!("{bid} is not a bid"),
        }
    }

    /// Moves the auction on: automatic re-passes, the end of the auction or an all-pass.
    fn after_bid(&mut self) {
        loop {
            if self.standing.is_none() && self.passes_without_bid == N {
                self.all_pass();
                return;
            }
            if self.standing.is_some() && self.consecutive >= N - 1 {
                self.end_auction();
                return;
            }
            self.turn = left(self.turn);
            if self.passed[self.turn] {
                self.record_bid(self.turn, RikkenAction::Pass);
                continue;
            }
            break;
        }
        self.prompt();
    }

    fn all_pass(&mut self) {
        self.ev.emit(Self::all(), "allpass", || args![]);
        if self.rules.schoppen_mieen {
            self.contract = Some(Contract::SchoppenMieen);
            self.declarers.clear();
            self.ev.emit(Self::all(), "contract", || args!["schoppen_mieen", "-"]);
            self.ev.emit(Self::all(), "trump", || args!["none"]);
            self.start_play();
        } else if let Err(e) = self.start_deal() {
            // Only a deal file can make a redeal fail; it is reported when the move is applied.
            self.deal_error = Some(e);
        }
    }

    fn end_auction(&mut self) {
        let c = self.standing.expect("a standing bid");
        self.contract = Some(c);
        let ds = self.declarers;
        self.ev.emit(Self::all(), "contract", || {
            let ds: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
            args![c.token(), ds.join(",")]
        });
        let d = self.declarers[0];
        match c {
            Contract::Malheur => {
                let aces = self.aces(d);
                self.ev.emit(Self::all(), "aces", || {
                    aces.iter().map(|&c| crate::game::Arg::Card(c)).collect()
                });
                if aces.len() == 3 {
                    let fourth = Suit::ALL
                        .into_iter()
                        .map(|s| Card::new(Rank::ACE, s))
                        .find(|a| !aces.contains(a))
                        .expect("a fourth ace");
                    // The rules make the call: announced like a call the rikker made.
                    self.ev.emit(Self::all(), "move", || args![d, fourth, "call"]);
                    self.set_called(fourth);
                    self.malheur_partner();
                } else {
                    self.phase = Phase::Call;
                    self.turn = d;
                    self.prompt();
                }
            }
            _ if c.no_trump() => {
                self.ev.emit(Self::all(), "trump", || args!["none"]);
                self.start_play();
            }
            _ if c.beter() => {
                self.trump = Some(Suit::Hearts);
                self.ev.emit(Self::all(), "trump", || args!["H"]);
                self.after_trump();
            }
            _ => {
                self.phase = Phase::Trump;
                self.turn = d;
                self.prompt();
            }
        }
    }

    // ----- declarations (Sec. 5, 7.1) -----

    fn check_trump(&self, token: &str) -> Result<(), String> {
        if !self.trump_suits().any(|s| s.letter().to_string() == token) {
            return Err(format!(
                "'{token}' is not a trump suit you may name (legal: {})",
                self.legal_tokens()
            ));
        }
        Ok(())
    }

    fn name_trump(&mut self, suit: Suit) {
        self.trump = Some(suit);
        self.ev.emit(Self::all(), "move", || args![self.turn, suit, "trump"]);
        self.ev.emit(Self::all(), "trump", || args![suit]);
        self.after_trump();
    }

    fn after_trump(&mut self) {
        match self.contract {
            Some(Contract::Rik { .. }) | Some(Contract::OpVoorhand) => {
                self.phase = Phase::Call;
                self.turn = self.declarers[0];
                self.prompt();
            }
            _ => self.start_play(),
        }
    }

    /// The cards the declarer may call (in the order of a [`CardSet`]: suit by suit).
    fn callable(&self) -> CardSet {
        let d = self.declarers[0];
        let trump = self.trump;
        let suits = |all: bool| Suit::ALL.into_iter().filter(move |&s| all || Some(s) != trump);
        // The cards of the highest rank from `top` down that `d` does not hold, in `suits`.
        let highest_missing = |top: Rank, all: bool| -> CardSet {
            Rank::descending()
                .filter(|&r| r <= top)
                .map(|r| {
                    let mut set = CardSet::default();
                    for c in suits(all).map(|s| Card::new(r, s)) {
                        if !self.hands[d].contains(c) {
                            set.insert(c);
                        }
                    }
                    set
                })
                .find(|set| !set.is_empty())
                .unwrap_or_default()
        };
        match self.contract {
            // Named before the deal: any ace not of trump (Sec. 10.9).
            Some(Contract::OpVoorhand) => {
                let mut set = CardSet::default();
                suits(false).for_each(|s| {
                    set.insert(Card::new(Rank::ACE, s));
                });
                set
            }
            // Four aces: a king he does not hold, else a queen, … (Sec. 4.5, A19).
            Some(Contract::Malheur) => highest_missing(Rank::KING, true),
            // An ace he does not hold, not of trump; else the highest such card (A6).
            _ => highest_missing(Rank::ACE, false),
        }
    }

    fn check_call(&self, token: &str) -> Result<(), String> {
        let card: Card = token.parse()?;
        if !self.callable().contains(card) {
            let d = self.declarers[0];
            let why = if self.hands[d].contains(card) && !self.hands_withheld {
                format!("you hold {card}; call a card you do not hold")
            } else if Some(card.suit) == self.trump && self.contract != Some(Contract::Malheur) {
                format!("{card} is of the trump suit and cannot be called")
            } else {
                format!("{card} cannot be called now")
            };
            return Err(format!("{why} (legal: {})", format_cards(&self.callable().cards())));
        }
        Ok(())
    }

    fn call(&mut self, card: Card) {
        self.ev.emit(Self::all(), "move", || args![self.turn, card, "call"]);
        self.set_called(card);
        match self.contract {
            Some(Contract::Malheur) => self.malheur_partner(),
            Some(Contract::OpVoorhand) => {
                self.send_hands();
                if let Err(e) = self.op_voorhand_substitute() {
                    self.deal_error = Some(e);
                }
            }
            _ => {
                let h = self.holder(card).expect("the called card is in a hand");
                self.partner = Some(h);
                self.ev.emit(Audience::seat(h), "partner", || args![h]);
                self.start_play();
            }
        }
    }

    fn set_called(&mut self, card: Card) {
        self.called = Some(card);
        self.ev.emit(Self::all(), "called", || args![card]);
    }

    /// Malheur: the partner makes himself known and names trump.
    fn malheur_partner(&mut self) {
        let called = self.called.expect("the called card");
        let h = self.holder(called).expect("the called card is in a hand");
        self.partner = Some(h);
        self.partner_public = true;
        self.ev.emit(Self::all(), "partner", || args![h]);
        self.phase = Phase::Trump;
        self.turn = h;
        self.prompt();
    }

    /// Op voorhand, after the deal: if the rikker holds the called ace, the next lower card of
    /// that suit he does not hold is called instead; if he holds the whole suit the deal is void.
    fn op_voorhand_substitute(&mut self) -> Result<(), String> {
        let rikker = self.declarers[0];
        let mut called = self.called.expect("the called ace");
        let suit = called.suit;
        if self.hands[rikker].contains(called) {
            let sub = Rank::descending()
                .map(|r| Card::new(r, suit))
                .find(|c| !self.hands[rikker].contains(*c));
            match sub {
                Some(c) => {
                    called = c;
                    self.set_called(c);
                }
                None => {
                    self.ev.emit(Self::all(), "void", || args![]);
                    return self.start_deal();
                }
            }
        }
        let h = self.holder(called).expect("the called card is in a hand");
        self.partner = Some(h);
        self.ev.emit(Audience::seat(h), "partner", || args![h]);
        self.start_play();
        Ok(())
    }

    // ----- trick play (Sec. 3, 6, 7.2) -----

    fn start_play(&mut self) {
        let c = self.contract.expect("a contract");
        self.duties = c.has_called_card() && (c != Contract::Malheur || self.rules.malheur_called_card_forced);
        // A lone open or praatje declarer leads; when several declarers joined, the player left
        // of the dealer leads, as in a plain misère (A29).
        self.leader = match c.openness() {
            _ if self.declarers.len() > 1 => left(self.dealer),
            PRAATJE => self.declarers[0],
            OPEN if self.rules.open_declarer_leads => self.declarers[0],
            _ => left(self.dealer),
        };
        match c {
            Contract::OpenPiekTotaal => self.expose(&[0, 1, 2, 3]),
            _ if c.openness() == PRAATJE => self.expose(&[0, 1, 2, 3]),
            _ if c.openness() == OPEN && self.rules.open_closed_tricks == 0 => {
                let ds = self.declarers;
                self.expose(ds.as_slice())
            }
            _ => {}
        }
        self.phase = Phase::Play;
        self.turn = self.leader;
        self.prompt();
    }

    /// Lays the hands of `seats` open to every other seat.
    fn expose(&mut self, seats: &[Seat]) {
        self.exposed = true;
        for &s in seats {
            self.ev.emit(Audience::all_except(N, s), "exposed", || {
                let mut a = args![s];
                a.extend(self.hands[s].iter().map(Arg::Card));
                a
            });
        }
    }

    /// The called card, if `p` holds it and its duties still bind him.
    fn duty(&self, p: Seat) -> Option<Card> {
        let c = self.called?;
        (self.duties && !self.called_suit_led && self.hands[p].contains(c)).then_some(c)
    }

    /// The legal cards of `p`, and the hint that explains a duty restricting them.
    fn legal_cards(&self, p: Seat) -> (CardSet, Option<&'static str>) {
        let hand = self.hands[p];
        let duty = self.duty(p);
        match self.trick.first() {
            None => {
                if let Some(c) = duty {
                    let others = hand.of_suit(c.suit).minus(CardSet::from_cards(&[c]));
                    if !others.is_empty() {
                        return (hand.minus(others), Some("must_lead_called"));
                    }
                }
                (hand, None)
            }
            Some(&(_, lead)) => {
                let follow = hand.of_suit(lead.suit);
                let l = if follow.is_empty() { hand } else { follow };
                if let Some(c) = duty {
                    if c.suit == lead.suit {
                        return (CardSet::from_cards(&[c]), Some("must_play_called"));
                    }
                    if self.rules.protect_called_card && l.contains(c) && l.len() > 1 {
                        return (l.minus(CardSet::from_cards(&[c])), Some("protect_called"));
                    }
                }
                (l, None)
            }
        }
    }

    fn card_refusal(&self, p: Seat, card: Card) -> String {
        let hand = self.hands[p];
        if !hand.contains(card) {
            return format!("you do not hold {card}");
        }
        let (_, hint) = self.legal_cards(p);
        let called = self.called.map(|c| c.to_string()).unwrap_or_default();
        match hint {
            Some("must_play_called") => {
                format!("the called card {called} must be played: its suit is led for the first time")
            }
            Some("must_lead_called") => {
                format!("you must lead the called card {called} before other cards of its suit")
            }
            Some("protect_called") if Some(card) == self.called => {
                format!("the called card {called} may not be discarded while you have another legal card (protect_called_card)")
            }
            _ => match self.trick.first() {
                Some(&(_, lead)) => format!("you must follow suit ({})", lead.suit.letter()),
                None => format!("{card} may not be led now"),
            },
        }
    }

    fn check_card(&self, token: &str) -> Result<(), String> {
        let p = self.turn;
        let card: Card = token.parse()?;
        let (legal, _) = self.legal_cards(p);
        if !legal.contains(card) {
            return Err(self.card_refusal(p, card));
        }
        Ok(())
    }

    fn play(&mut self, card: Card) {
        let p = self.turn;
        self.hands[p].remove(card);
        self.trick.push((p, card));
        self.ev.emit(Self::all(), "move", || args![p, card, "play"]);
        if Some(card) == self.called && !self.partner_public && self.partner.is_some() {
            self.partner_public = true;
            self.ev.emit(Self::all(), "partner", || args![p]);
        }
        if self.trick.len() < N {
            self.turn = left(p);
            self.prompt();
            return;
        }
        let winner = self.trick_winner();
        self.won[winner] += 1;
        // The duties bind for the whole first trick in which the called suit is led.
        if Some(self.trick[0].1.suit) == self.called.map(|c| c.suit) {
            self.called_suit_led = true;
        }
        let mut cards = [NO_CARD; N];
        for (slot, &(_, c)) in cards.iter_mut().zip(self.trick.iter()) {
            *slot = c;
        }
        self.trick.clear();
        self.tricks.push(Trick { cards, winner });
        let n = self.tricks.len();
        self.ev.emit(Self::all(), "trick", || args![n, winner]);
        if let Some(reason) = self.early_end(winner) {
            self.finish(reason);
            return;
        }
        let c = self.contract.expect("a contract");
        if c.openness() == OPEN && !self.exposed && n as i64 == self.rules.open_closed_tricks {
            let ds = self.declarers;
            self.expose(ds.as_slice());
        }
        self.leader = winner;
        self.turn = winner;
        self.prompt();
    }

    fn trick_winner(&self) -> Seat {
        let lead = self.trick[0].1.suit;
        let best_of = |suit: Suit| {
            self.trick
                .iter()
                .filter(|(_, c)| c.suit == suit)
                .max_by_key(|(_, c)| c.rank)
                .map(|&(s, _)| s)
        };
        if let Some(w) = self.trump.and_then(best_of) {
            return w;
        }
        if self.contract == Some(Contract::OpVoorhand) {
            // The called card is the highest of a trick led in its suit (Sec. 10.9, A18).
            if let Some(&(s, _)) = self
                .trick
                .iter()
                .find(|(_, c)| Some(*c) == self.called && c.suit == lead)
            {
                return s;
            }
        }
        best_of(lead).expect("the leader's card follows its own suit")
    }

    /// The reason play stops after a trick won by `winner`, if it does.
    fn early_end(&self, winner: Seat) -> Option<&'static str> {
        let c = self.contract.expect("a contract");
        let last = self.tricks.last().expect("a trick");
        match c {
            Contract::Misere { .. } | Contract::Piek { .. } => {
                let (limit, reason) = match c {
                    Contract::Misere { .. } => (1, "misere_lost"),
                    _ => (2, "piek_lost"),
                };
                if self.declarers.iter().all(|&d| self.won[d] >= limit) {
                    return Some(reason);
                }
            }
            Contract::Solo { .. } if winner != self.declarers[0] => return Some("solo_lost"),
            Contract::SchoppenMieen
                if !self.rules.mie_extras && last.cards.contains(&Card::new(Rank::QUEEN, Suit::Spades)) =>
            {
                return Some("mie_taken")
            }
            _ => {}
        }
        (self.tricks.len() == 13).then_some("tricks_done")
    }

    fn finish(&mut self, reason: &'static str) {
        self.ev.emit(Self::all(), "end", || args![reason]);
        self.phase = Phase::Over;
        self.end = Some(reason);
    }

    /// The outcome of a game that ended for `reason`: scores, and the facts of the record.
    /// The outcome; without `detail`, the scores alone (no text or JSON is made).
    fn make_outcome(&self, reason: &'static str, detail: bool) -> Outcome {
        let bare = |scores| Outcome {
            scores,
            detail: Value::Null,
        };
        let c = self.contract.expect("a contract");
        let o = &self.o;
        let side: Vec<Seat> = match self.partner {
            Some(p) if c.has_called_card() => vec![self.declarers[0], p],
            _ => self.declarers.as_slice().to_vec(),
        };
        let name = |s: Seat| SEAT_NAMES[s];
        let names = |v: &[Seat]| v.iter().map(|&s| name(s)).collect::<Vec<_>>().join("+");
        let (scores, made, summary) = match c {
            Contract::Misere { .. } | Contract::Piek { .. } => {
                let (made, scores) = scoring::misere_scores(o, c, self.declarers.as_slice(), &self.won);
                if !detail {
                    return bare(scores);
                }
                let parts: Vec<String> = self
                    .declarers
                    .iter()
                    .zip(&made)
                    .map(|(&d, &m)| {
                        format!(
                            "{} {} trick(s), {}",
                            name(d),
                            self.won[d],
                            if m { "made" } else { "lost" }
                        )
                    })
                    .collect();
                (scores, json!(made), format!("{}: {}", c.title(), parts.join("; ")))
            }
            Contract::SchoppenMieen => {
                let tricks: Vec<(Seat, Vec<Card>)> = self.tricks.iter().map(|t| (t.winner, t.cards.to_vec())).collect();
                let mie = Card::new(Rank::QUEEN, Suit::Spades);
                let taker = tricks.iter().find(|(_, cs)| cs.contains(&mie)).map(|(w, _)| name(*w));
                let scores = scoring::mieen_scores(o, &tricks);
                if !detail {
                    return bare(scores);
                }
                (
                    scores,
                    json!(null),
                    format!("schoppen mieën: the Mie taken by {}", taker.unwrap_or("nobody")),
                )
            }
            Contract::OpenPiekTotaal => {
                let (winners, scores) = scoring::open_piek_totaal_scores(o, &self.won);
                if !detail {
                    return bare(scores);
                }
                let summary = format!(
                    "open piek totaal: tricks {:?}, won by {}",
                    self.won,
                    if winners.is_empty() {
                        "nobody".into()
                    } else {
                        names(&winners)
                    }
                );
                (scores, json!(winners), summary)
            }
            _ => {
                let t: usize = side.iter().map(|&s| self.won[s]).sum();
                let (made, scores) = scoring::target_scores(o, c, &side, t);
                if !detail {
                    return bare(scores);
                }
                let trump = self
                    .trump
                    .map(|s| format!(", trump {}", s.letter()))
                    .unwrap_or_default();
                let called = self.called.map(|c| format!(", called {c}")).unwrap_or_default();
                let summary = format!(
                    "{} by {}{trump}{called}: {t} tricks, {}",
                    c.title(),
                    names(&side),
                    if made { "made" } else { "failed" }
                );
                (scores, json!(made), summary)
            }
        };
        Outcome {
            scores,
            detail: json!({
                "contract": c.token(),
                "declarers": self.declarers.as_slice(),
                "partner": self.partner,
                "trump": self.trump.map(|s| s.letter().to_string()),
                "called": self.called.map(|c| c.to_string()),
                "tricks": self.won,
                "made": made,
                "end": reason,
                "deals": self.deal_no,
                "summary": summary,
            }),
        }
    }

    /// Tells the seat to move about a duty that restricts it (to that seat only).
    fn prompt(&mut self) {
        if self.phase == Phase::Play && self.ev.listening() {
            if let (_, Some(hint)) = self.legal_cards(self.turn) {
                self.ev.emit(Audience::seat(self.turn), "hint", || args![hint]);
            }
        }
    }
}

impl Rikken {
    /// Why a token of the seat to move is refused: the rules' checks of this decision, each
    /// with its own words (`Ok` if none refuses it).
    fn check_token(&self, token: &str) -> Result<(), String> {
        match self.phase {
            Phase::Bidding => self.check_bid(token),
            Phase::Trump => self.check_trump(token),
            Phase::Call => self.check_call(token),
            Phase::Play => self.check_card(token),
            Phase::Over => Err("the game is over".into()),
        }
    }

    /// The trump suits the declarer may name.
    fn trump_suits(&self) -> impl Iterator<Item = Suit> {
        let excluded = match (self.contract, self.called) {
            (Some(Contract::Malheur), Some(c)) if self.rules.malheur_trump_excludes_called_suit => Some(c.suit),
            _ => None,
        };
        Suit::ALL.into_iter().filter(move |&s| Some(s) != excluded)
    }

    /// A token read as the action it names in this phase, without asking whether it is legal.
    fn read_token(&self, token: &str) -> Option<RikkenAction> {
        match self.phase {
            Phase::Bidding if token == "pass" => Some(RikkenAction::Pass),
            Phase::Bidding => Contract::parse_join(token)
                .map(RikkenAction::Join)
                .or_else(|| Contract::parse(token).map(RikkenAction::Bid)),
            Phase::Trump => {
                let mut cs = token.chars();
                match (cs.next().and_then(Suit::from_letter), cs.next()) {
                    (Some(s), None) => Some(RikkenAction::Trump(s)),
                    _ => None,
                }
            }
            Phase::Call => Card::from_token(token).map(RikkenAction::Call),
            Phase::Play => Card::from_token(token).map(RikkenAction::Play),
            Phase::Over => None,
        }
    }
}

impl Engine for Rikken {
    type Action = RikkenAction;

    fn token(action: &RikkenAction) -> Option<&'static str> {
        action.fixed_token()
    }

    fn players(&self) -> usize {
        N
    }

    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        match self.phase {
            Phase::Bidding => "bid",
            Phase::Trump => "trump",
            Phase::Call => "call",
            Phase::Play | Phase::Over => "play",
        }
    }

    fn legal(&self, out: &mut Vec<RikkenAction>) {
        out.clear();
        let p = self.turn;
        match self.phase {
            Phase::Bidding => {
                if self.may_pass(p).is_ok() {
                    out.push(RikkenAction::Pass);
                }
                if let Some(c) = self.joinable(p) {
                    out.push(RikkenAction::Join(c));
                }
                let bidder = self.bidder(p);
                for (c, slot) in self.setup.ladder.slots() {
                    if self.bid_refusal_at(&bidder, c, slot).is_none() {
                        out.push(RikkenAction::Bid(c));
                    }
                }
            }
            Phase::Trump => out.extend(self.trump_suits().map(RikkenAction::Trump)),
            Phase::Call => out.extend(self.callable().iter().map(RikkenAction::Call)),
            Phase::Play => out.extend(self.legal_cards(p).0.iter().map(RikkenAction::Play)),
            Phase::Over => {}
        }
    }

    fn apply<E: Events>(&mut self, action: RikkenAction, events: &mut E) -> Result<(), String> {
        self.ev.listen_to(events);
        match (self.phase, action) {
            (Phase::Bidding, RikkenAction::Pass | RikkenAction::Join(_) | RikkenAction::Bid(_)) => {
                self.record_bid(self.turn, action);
                self.after_bid();
            }
            (Phase::Trump, RikkenAction::Trump(suit)) => self.name_trump(suit),
            (Phase::Call, RikkenAction::Call(card)) => self.call(card),
            (Phase::Play, RikkenAction::Play(card)) => self.play(card),
            _ => panic!("{action} is not an action of this decision ({})", self.decision()),
        }
        self.ev.hand_over(events);
        match self.deal_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn parse(&self, token: &str) -> Result<RikkenAction, String> {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if let Some(a) = self.read_token(token).filter(|a| legal.contains(a)) {
            return Ok(a);
        }
        // Refused: the rules' own checks say why.
        match self.check_token(token) {
            Err(why) => Err(why),
            Ok(()) => Err(format!("'{token}' is not an action now")),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.map(|reason| self.make_outcome(reason, true))
    }

    fn scores(&self) -> Option<Vec<f64>> {
        self.end.map(|reason| self.make_outcome(reason, false).scores)
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }

    fn chance_mut(&mut self) -> &mut Chance {
        &mut self.chance
    }
}

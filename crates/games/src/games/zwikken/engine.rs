//! The Zwikken state machine (zwikken.md §2): a session of deals; per deal the ante, the deal
//! and the turned card, two bidding rounds, the dealer's seeks, the trump-ten exchange, the zwik
//! showdown, three tricks and the settlement.
//!
//! Audiences follow zwikken.md §7: a hand goes to its owner only; turned cards, every bid, the
//! seek decision, chips, exchanges, a showdown zwik, plays and results go to everybody; the
//! stock, other hands and the pair rank of "ik verwacht een betere" go to nobody.
//!
//! The state is a typed [`Engine`]: per-seat state, the turned cards, the stock, the speakers
//! and the trick live in fixed arrays (at most 6 players, 3 turned cards, 20 cards), so a state
//! clones without touching the heap for them and a decision allocates nothing; options are read
//! into [`Rules`] once.

use super::money;
use crate::args;
use crate::cards::{deck_from, format_cards, Card, CardSet, Rank, Suit};
use crate::chance::{Chance, DealRequest};
use crate::engine::{Engine, Events, Typed};
use crate::few::Few;
use crate::game::{Arg, Audience, Game, Outcome, Seat};
use crate::options::Options;
use serde_json::json;
use std::fmt;
use std::sync::Arc;

/// Builds a Zwikken session (the [`crate::game::NewGame`] of the spec): the typed engine behind
/// the string interface.
pub fn new_game(players: usize, options: &Options, chance: Chance, listening: bool) -> Result<Box<dyn Game>, String> {
    Ok(Box::new(Typed::listening(listening, |events| {
        Zwikken::new(players, options, chance, events)
    })?))
}

/// The most players Zwikken seats (zwikken.md §1).
const MAX_PLAYERS: usize = 6;
/// The most cards face up: the first turned card and two seeks (`max_seeks` ≤ 2).
const MAX_TURNED: usize = 3;
/// The deck: 10 J Q K A of four suits.
const DECK: usize = 20;

/// A Zwikken action. `Display` writes its protocol token; [`Zwikken::parse`](Engine::parse)
/// reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZwikkenAction {
    /// `pass` ("pas").
    Pass,
    /// `ask` ("ik vraag", "… beter", "… nog beter").
    Ask,
    /// `ken_pass`: the trump-ten holder says "ik ken hem" and passes.
    KenPass,
    /// `ken_ask`: the trump-ten holder says "ik ken hem" and asks.
    KenAsk,
    /// `wait_better`: "ik verwacht een betere" (on zwik, first round).
    WaitBetter,
    /// `seek`: the dealer re-turns after an all-pass ("zoeken").
    Seek,
    /// `no_seek`: the deal is not played.
    NoSeek,
    /// `no_exchange`.
    NoExchange,
    /// `exchange_<card>`: take this turned card for one's ten.
    Exchange(Card),
    /// A card to the trick.
    Play(Card),
    /// `exchange_<take>_<card>`: the exchange at one's first card, then the card.
    ExchangePlay(Card, Card),
}

impl fmt::Display for ZwikkenAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZwikkenAction::Exchange(c) => write!(f, "exchange_{c}"),
            ZwikkenAction::ExchangePlay(take, c) => write!(f, "exchange_{take}_{c}"),
            other => f.write_str(other.fixed_token().unwrap_or_default()),
        }
    }
}

crate::action_arg!(ZwikkenAction, ZwikkenAction::Play);

impl ZwikkenAction {
    /// The token where it is a fixed word (neither a card nor an exchange).
    fn word(self) -> Option<&'static str> {
        use ZwikkenAction::*;
        Some(match self {
            Pass => "pass",
            Ask => "ask",
            KenPass => "ken_pass",
            KenAsk => "ken_ask",
            WaitBetter => "wait_better",
            Seek => "seek",
            NoSeek => "no_seek",
            NoExchange => "no_exchange",
            Play(_) | Exchange(_) | ExchangePlay(..) => return None,
        })
    }

    /// The token where it is a string of the program's: a word or a card.
    fn fixed_token(self) -> Option<&'static str> {
        match self {
            ZwikkenAction::Play(c) => Some(c.token()),
            other => other.word(),
        }
    }

    /// The action as an event argument: a card, a fixed word, or (an exchange) its token.
    fn arg(self) -> Arg {
        match self.word() {
            Some(w) => Arg::Word(w),
            None => Arg::from(self),
        }
    }
}

/// The phase of the current deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Bid,
    Seek,
    Exchange,
    Play,
    Over,
}

/// Which turned cards the holder of a ten may take (option `exchange_targets`, zwikken.md §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExchangeTargets {
    /// `any_turned`: the trump-ten holder takes any face-up turned card.
    AnyTurned,
    /// `current_suit_only`: only a turned card of the trump suit.
    CurrentSuitOnly,
    /// `suit_matched`: every ten holder one turned card of his ten's suit.
    SuitMatched,
}

impl ExchangeTargets {
    /// The option's value; anything else (or nothing) is the default, `any_turned`.
    pub fn from_value(v: Option<&str>) -> ExchangeTargets {
        match v {
            Some("current_suit_only") => ExchangeTargets::CurrentSuitOnly,
            Some("suit_matched") => ExchangeTargets::SuitMatched,
            _ => ExchangeTargets::AnyTurned,
        }
    }
}

/// The rule options, read once from the validated [`Options`].
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// `ante_rule=every_deal` (else only when a deal starts with an empty pot).
    pub ante_every_deal: bool,
    /// `follow_rule=classic` (else `seed`).
    pub classic: bool,
    pub exchange_targets: ExchangeTargets,
    pub max_seeks: usize,
    /// What every player pays at the first and the second seek.
    pub seek_fee: [i64; 2],
    /// Deals before the session may end (`deals`, 0 = 4 × players).
    pub deals: usize,
    /// Extra deals while the pot is not empty (`extra_deals_cap`, -1 = 2 × players).
    pub cap: usize,
    /// `bankroll` (0 = off).
    pub bankroll: i64,
}

impl Rules {
    pub fn from_options(o: &Options, n: usize) -> Rules {
        let mut fee = o.get("seek_fee").split(',').map(|x| x.parse().unwrap_or(0));
        Rules {
            ante_every_deal: o.get("ante_rule") == "every_deal",
            classic: o.get("follow_rule") == "classic",
            exchange_targets: ExchangeTargets::from_value(Some(o.get("exchange_targets"))),
            max_seeks: o.int("max_seeks").max(0) as usize,
            seek_fee: [fee.next().unwrap_or(0), fee.next().unwrap_or(0)],
            deals: match o.int("deals") {
                0 => 4 * n,
                d => d as usize,
            },
            cap: match o.int("extra_deals_cap") {
                c if c < 0 => 2 * n,
                c => c as usize,
            },
            bankroll: o.int("bankroll"),
        }
    }
}
/// Card points for counting tricks: A 4, K 3, Q 2, J 1, 10 0.
pub fn card_points(c: Card) -> u32 {
    match c.rank.value() {
        14 => 4,
        13 => 3,
        12 => 2,
        11 => 1,
        _ => 0,
    }
}

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

/// The cards a seat may play to `trick` (zwikken.md §3): `seed` or `classic` law.
pub fn legal_plays(hand: CardSet, trick: &[(Seat, Card)], trump: Suit, classic: bool) -> CardSet {
    let Some(&(_, first)) = trick.first() else {
        return hand;
    };
    let led = first.suit;
    let hl = hand.of_suit(led);
    let ht = hand.of_suit(trump);
    if led == trump {
        return if ht.is_empty() { hand } else { ht };
    }
    let hi = trick.iter().filter(|(_, c)| c.suit == trump).map(|(_, c)| c.rank).max();
    let mut over = ht;
    if let Some(h) = hi {
        for t in CardSet::iter(ht) {
            if t.rank <= h {
                over.remove(t);
            }
        }
    }
    if classic {
        if !hl.is_empty() {
            return hl;
        }
        if !over.is_empty() {
            return over;
        }
        let side = hand.minus(ht);
        return if side.is_empty() { hand } else { side };
    }
    if !hl.is_empty() {
        return hl.union(over);
    }
    let cand = hand.minus(ht).union(over);
    if cand.is_empty() {
        hand
    } else {
        cand
    }
}

/// The seat that wins a complete trick: the highest trump, else the highest card of the led suit.
pub fn trick_winner(trick: &[(Seat, Card)], trump: Suit) -> Seat {
    let led = trick[0].1.suit;
    let mut best = trick[0];
    for &(s, c) in &trick[1..] {
        let b = best.1;
        let better = if c.suit == trump {
            b.suit != trump || c.rank > b.rank
        } else {
            b.suit != trump && c.suit == led && c.rank > b.rank
        };
        if better {
            best = (s, c);
        }
    }
    best.0
}

/// A guard of the arithmetic, not a rule: losing askers multiply the pot (a deal without a
/// winner and k askers leaves (1+k)·P), so reckless bots grow it exponentially. A session whose
/// pot passes 2^40 chips ends at once and the pot is divided as at the cap (zwikken.md §5),
/// which keeps every balance exact in an `f64` score. \[PROPOSAL\]
pub const POT_LIMIT: i64 = 1 << 40;

fn ten_of(s: Suit) -> Card {
    Card::new(Rank::TEN, s)
}

/// How a deal ended (the `end` event), counted in the session's tally in this order.
const ENDS: [&str; 5] = ["zwik", "points", "passer", "tie", "no_play"];

/// One finished deal in the session's ledger (the outcome's detail): how it ended and the
/// chips it moved.
#[derive(Clone, Copy, Debug)]
struct LedgerEntry {
    deal: usize,
    dealer: Seat,
    turned: Few<Card, MAX_TURNED>,
    /// Bit set of the askers (none when the deal was not played).
    askers: u32,
    end: &'static str,
    winner: Option<Seat>,
    pot_before: i64,
    pot_after: i64,
    chips: [i64; MAX_PLAYERS],
}

/// The active seats in some order (at most 6).
type Seats = Few<Seat, MAX_PLAYERS>;
/// The exchanges a seat may make: (turned card to take, ten to lay in its place).
type Targets = Few<(Card, Card), MAX_TURNED>;

/// One session of Zwikken.
#[derive(Clone)]
pub struct Zwikken {
    n: usize,
    rules: Rules,
    chance: Chance,
    // The session (per-seat arrays: the first `n` entries count).
    balance: [i64; MAX_PLAYERS],
    start: i64,
    /// Deals ended so far (each settled, or passed out).
    deals_done: u64,
    pot: i64,
    active: [bool; MAX_PLAYERS],
    deal_no: usize,
    dealer: Seat,
    /// How the deals ended: zwik, points, passer, tie, no_play.
    tally: [usize; 5],
    split: Vec<(Seat, i64)>,
    /// Per finished deal: how it ended and the chips it moved (in the outcome's detail).
    ledger: Vec<LedgerEntry>,
    /// Balances and pot when the current deal started (before its ante).
    deal_start: ([i64; MAX_PLAYERS], i64),
    deal_end: Option<(&'static str, Option<Seat>)>,
    // The deal.
    phase: Phase,
    turn: Seat,
    hands: [CardSet; MAX_PLAYERS],
    turned: Few<Card, MAX_TURNED>,
    /// The stock in order; its cards are `stock[stock_lo..stock_hi]` (a seek takes the first).
    stock: [Card; DECK],
    stock_lo: usize,
    stock_hi: usize,
    trump: Suit,
    repeat: bool,
    period: usize,
    seeks: usize,
    round: u8,
    speakers: Seats,
    spk: usize,
    asked: [bool; MAX_PLAYERS],
    passed1: [bool; MAX_PLAYERS],
    asks: usize,
    /// "ik verwacht een betere": (seat, suit of his ten, rank of his pair); one per period.
    waits: Few<(Seat, Suit, Rank), MAX_TURNED>,
    /// Bit set over `Suit::index` of the tens exchanged this deal.
    exchanged: u8,
    ex_queue: Seats,
    leader: Seat,
    trick: Few<(Seat, Card), MAX_PLAYERS>,
    trick_no: usize,
    taken: [u32; MAX_PLAYERS],
    /// Why the session ended and its summary, once it has (the outcome is made from these
    /// and the state, when asked).
    ended: Option<(&'static str, String)>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    deal_error: Option<String>,
    /// The request of every deal (shared by clones until one deals).
    deal_request: Arc<DealRequest>,
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

    fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    fn bankroll(&self) -> bool {
        self.start > 0
    }

    /// The next active seat clockwise after `s`.
    fn next_active(&self, s: Seat) -> Seat {
        let mut t = (s + 1) % self.n;
        while !self.active[t] {
            t = (t + 1) % self.n;
        }
        t
    }

    /// The active seats from the dealer's left, the dealer last.
    fn order(&self) -> Seats {
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
    fn askers(&self) -> Seats {
        let mut v = self.order();
        v.retain(|s| self.asked[s]);
        v
    }

    fn playing(&self) -> usize {
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

    /// Starts the next deal: eliminations (bankroll), the dealer, the ante, the cards.
    fn start_deal(&mut self, ev: &mut impl Events) -> Result<(), String> {
        if self.bankroll() {
            for s in 0..self.n {
                if self.active[s] && self.balance[s] <= 0 {
                    self.active[s] = false;
                    ev.emit(self.all(), "out", || args![s]);
                }
            }
            if self.playing() <= 1 {
                self.finish("one_left", ev);
                return Ok(());
            }
        }
        if self.deal_no > 0 || !self.active[self.dealer] {
            self.dealer = self.next_active(self.dealer);
        }
        self.deal_no += 1;
        self.deal_start = (self.balance, self.pot);
        ev.emit(self.all(), "deal", || args![self.deal_no, self.dealer]);
        if self.pot == 0 || self.rules.ante_every_deal {
            self.everyone_pays(1, "ante", ev);
        }
        // The request is kept (the deck made once): the dealer, the first seat and the hands
        // of the seats still in change.
        let first = self.next_active(self.dealer);
        let req = Arc::make_mut(&mut self.deal_request);
        req.dealer = self.dealer;
        req.first = first;
        for (size, &active) in req.hand_sizes.iter_mut().zip(&self.active) {
            *size = if active { 3 } else { 0 };
        }
        let deal = self.chance.deal(&self.deal_request)?;
        let turned = deal.piles.get("turned").map_or(&[][..], Vec::as_slice);
        if turned.len() != 1 {
            return Err(format!("deal {}: the turned pile must hold one card", self.deal_no));
        }
        for s in 0..self.n {
            self.hands[s] = CardSet::from_cards(&deal.hands[s]);
        }
        let stock = deal.piles.get("stock").map_or(&[][..], Vec::as_slice);
        let dealt = deal.hands.iter().map(Vec::len).sum::<usize>() + 1 + stock.len();
        if dealt != DECK {
            return Err(format!(
                "deal {}: the stock must hold the {} cards left after the hands and the turned card, not {}",
                self.deal_no,
                DECK + stock.len() - dealt,
                stock.len()
            ));
        }
        self.stock[..stock.len()].copy_from_slice(stock);
        self.stock_lo = 0;
        self.stock_hi = stock.len();
        self.turned.clear();
        self.turned.push(turned[0]);
        self.trump = turned[0].suit;
        self.repeat = false;
        self.period = 1;
        self.seeks = 0;
        self.waits.clear();
        self.exchanged = 0;
        self.trick.clear();
        self.trick_no = 0;
        self.taken = [0; MAX_PLAYERS];
        for s in 0..self.n {
            if self.active[s] {
                let hand = self.hands[s];
                ev.emit(Audience::seat(s), "hand", || {
                    CardSet::iter(hand).map(Arg::Card).collect()
                });
            }
        }
        ev.emit(self.all(), "turn", || args![self.turned.as_slice()[0]]);
        self.start_bidding();
        Ok(())
    }

    /// Every active player pays `amount` into the pot.
    fn everyone_pays(&mut self, amount: i64, why: &'static str, ev: &mut impl Events) {
        if amount <= 0 {
            return;
        }
        for s in 0..self.n {
            if self.active[s] {
                self.balance[s] -= amount;
                self.pot += amount;
                ev.emit(self.all(), "pay", || args![s, amount, why]);
            }
        }
        ev.emit(self.all(), "pot", || args![self.pot]);
    }

    fn start_bidding(&mut self) {
        self.phase = Phase::Bid;
        self.round = 1;
        self.speakers = self.order();
        self.spk = 0;
        self.asked = [false; MAX_PLAYERS];
        self.passed1 = [false; MAX_PLAYERS];
        self.asks = 0;
        self.turn = self.speakers.as_slice()[0];
    }

    /// The holder of the trump ten, if a player holds it.
    fn tth(&self) -> Option<Seat> {
        (0..self.n).find(|&s| self.hands[s].contains(ten_of(self.trump)))
    }

    /// The rank of the pair beside the trump ten ("op zwik zitten"), if `p` is on zwik.
    fn on_zwik(&self, p: Seat) -> Option<Rank> {
        let mut h = self.hands[p];
        if !h.remove(ten_of(self.trump)) || h.len() != 2 {
            return None;
        }
        let mut rest = CardSet::iter(h);
        let (a, b) = (rest.next()?, rest.next()?);
        (a.rank == b.rank && a.rank != Rank::TEN).then_some(a.rank)
    }

    /// The waiting player whose card has just come (he must ask).
    fn forced_asker(&self) -> Option<Seat> {
        let last = *self.turned.last()?;
        if !self.repeat || self.round != 1 {
            return None;
        }
        self.waits
            .iter()
            .find(|&&(_, suit, rank)| suit == last.suit && rank == last.rank)
            .map(|&(s, _, _)| s)
    }

    fn may_ask(&self, p: Seat) -> bool {
        !self.bankroll() || self.balance[p] >= self.pot
    }

    fn legal_bids(&self, p: Seat, out: &mut Vec<ZwikkenAction>) {
        use ZwikkenAction::*;
        let tth = self.tth() == Some(p);
        if self.repeat {
            if self.forced_asker() == Some(p) {
                out.push(KenAsk);
            } else {
                out.push(if tth { KenPass } else { Pass });
            }
        } else if tth {
            out.push(KenPass);
            if self.may_ask(p) {
                out.push(KenAsk);
            }
            if self.round == 1 && self.on_zwik(p).is_some() {
                out.push(WaitBetter);
            }
        } else {
            out.push(Pass);
            if self.may_ask(p) {
                out.push(Ask);
            }
        }
    }

    /// The legal actions of the seat to move, as protocol tokens (for refusal messages).
    fn legal_tokens(&self) -> String {
        let mut v = Vec::new();
        self.legal(&mut v);
        v.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" ")
    }

    fn bid_refusal(&self, p: Seat, token: &str) -> String {
        let tth = self.tth() == Some(p);
        match token {
            "pass" | "ask" if tth => format!(
                "seat {p} holds the trump ten {} and must say 'ik ken hem': use ken_pass or ken_ask",
                ten_of(self.trump)
            ),
            "ken_pass" | "ken_ask" | "wait_better" if !tth => {
                format!("seat {p} does not hold the trump ten {}", ten_of(self.trump))
            }
            "wait_better" if self.round == 2 => "'ik verwacht een betere' is said in the first round only".into(),
            "wait_better" if self.repeat => "in a repeated trump suit everyone must pass".into(),
            "wait_better" => format!("seat {p} is not on zwik (the trump ten and a pair of J, Q, K or A)"),
            "ask" | "ken_ask" if self.repeat => {
                "this trump suit was turned before: everyone must pass (only a waiting player whose card came must ask)"
                    .into()
            }
            "ask" | "ken_ask" if !self.may_ask(p) => format!(
                "seat {p} has {} chips and may not ask for a pot of {}",
                self.balance[p], self.pot
            ),
            "pass" | "ken_pass" if self.forced_asker() == Some(p) => {
                format!("the card seat {p} waited for has come: 'ik verwacht een betere' obliges it to ask (ken_ask)")
            }
            _ => format!("'{token}' is not a bid here; legal: {}", self.legal_tokens()),
        }
    }

    /// What the bidder says ("pas", "ik vraag", …), as the `say` event's word.
    fn wording(&self, bid: ZwikkenAction) -> &'static str {
        let i = self.asks.min(2);
        match bid {
            ZwikkenAction::Pass => "pas",
            ZwikkenAction::Ask => ["ik_vraag", "ik_vraag_beter", "ik_vraag_nog_beter"][i],
            ZwikkenAction::KenPass => "ik_ken_hem_en_ik_pas",
            ZwikkenAction::KenAsk => [
                "ik_ken_hem_en_ik_vraag",
                "ik_ken_hem_en_ik_vraag_beter",
                "ik_ken_hem_en_ik_vraag_nog_beter",
            ][i],
            _ => "ik_verwacht_een_betere",
        }
    }

    fn apply_bid(&mut self, bid: ZwikkenAction, ev: &mut impl Events) {
        let p = self.turn;
        ev.emit(self.all(), "move", || args![p, bid.arg(), "bid"]);
        let said = self.wording(bid);
        ev.emit(self.all(), "say", || args![p, said]);
        match bid {
            ZwikkenAction::Ask | ZwikkenAction::KenAsk => {
                self.asked[p] = true;
                self.asks += 1;
            }
            ZwikkenAction::WaitBetter => {
                let r = self.on_zwik(p).expect("on zwik");
                self.waits.push((p, self.trump, r));
                if self.round == 1 {
                    self.passed1[p] = true;
                }
            }
            _ => {
                if self.round == 1 {
                    self.passed1[p] = true;
                }
            }
        }
        self.spk += 1;
        if self.spk < self.speakers.len() {
            self.turn = self.speakers.as_slice()[self.spk];
            return;
        }
        if self.asks == 0 {
            ev.emit(self.all(), "allpass", || args![]);
            self.all_passed(ev);
        } else if self.round == 1 {
            self.round = 2;
            let mut speakers = self.order();
            speakers.retain(|s| self.passed1[s]);
            self.speakers = speakers;
            self.spk = 0;
            match self.speakers.first() {
                Some(&s) => self.turn = s,
                None => self.end_bidding(ev),
            }
        } else {
            self.end_bidding(ev);
        }
    }

    fn seek_available(&self) -> bool {
        self.seeks < self.rules.max_seeks && self.stock_lo < self.stock_hi
    }

    fn all_passed(&mut self, ev: &mut impl Events) {
        if self.seek_available() {
            self.phase = Phase::Seek;
            self.turn = self.dealer;
        } else {
            self.end("no_play", None, ev);
            self.end_deal(ev);
        }
    }

    fn seek(&mut self, ev: &mut impl Events) {
        let d = self.dealer;
        ev.emit(self.all(), "move", || args![d, "seek", "seek"]);
        ev.emit(self.all(), "say", || args![d, "zoeken"]);
        let fee = self.rules.seek_fee.get(self.seeks).copied().unwrap_or(0);
        self.everyone_pays(fee, "seek", ev);
        self.seeks += 1;
        let card = self.stock[self.stock_lo];
        self.stock_lo += 1;
        self.repeat = self.turned.iter().any(|c| c.suit == card.suit);
        self.turned.push(card);
        self.trump = card.suit;
        self.period += 1;
        ev.emit(self.all(), "turn", || args![card]);
        self.start_bidding();
    }

    /// The exchanges `p` may make now: (turned card to take, ten to lay in its place).
    fn targets(&self, p: Seat) -> Targets {
        let h = self.hands[p];
        let mut v = Few::new((self.turned.as_slice()[0], self.turned.as_slice()[0]));
        match self.rules.exchange_targets {
            ExchangeTargets::SuitMatched => {
                for &c in self.turned.iter() {
                    if h.contains(ten_of(c.suit)) && self.exchanged & (1 << c.suit.index()) == 0 {
                        v.push((c, ten_of(c.suit)));
                    }
                }
            }
            mode => {
                let ten = ten_of(self.trump);
                if self.exchanged != 0 || !h.contains(ten) {
                    return v;
                }
                for &c in self.turned.iter() {
                    if mode == ExchangeTargets::AnyTurned || c.suit == self.trump {
                        v.push((c, ten));
                    }
                }
            }
        }
        v
    }

    /// The ten that `p` lays down for the turned card `take`.
    fn ten_for(&self, p: Seat, take: Card) -> Card {
        self.targets(p)
            .iter()
            .find(|(c, _)| *c == take)
            .map(|&(_, t)| t)
            .expect("a legal target")
    }

    fn do_exchange(&mut self, p: Seat, take: Card, ten: Card, ev: &mut impl Events) {
        self.hands[p].remove(ten);
        self.hands[p].insert(take);
        if let Some(slot) = self.turned.as_mut_slice().iter_mut().find(|c| **c == take) {
            *slot = ten;
        }
        self.exchanged |= 1 << ten.suit.index();
        ev.emit(self.all(), "exchange", || args![p, take, ten]);
    }

    fn end_bidding(&mut self, ev: &mut impl Events) {
        let mut q = self.order();
        q.retain(|s| !self.targets(s).is_empty());
        self.ex_queue = q;
        self.next_exchange(ev);
    }

    fn next_exchange(&mut self, ev: &mut impl Events) {
        while let Some(&s) = self.ex_queue.first() {
            if self.targets(s).is_empty() {
                self.ex_queue.remove_first();
                continue;
            }
            self.phase = Phase::Exchange;
            self.turn = s;
            return;
        }
        self.showdown(ev);
    }

    fn exchange_refusal(&self, p: Seat, target: Card) -> String {
        if !self.turned.iter().any(|&c| c == target) {
            return format!(
                "{target} is not a face-up turned card (turned: {})",
                format_cards(self.turned.as_slice())
            );
        }
        match self.rules.exchange_targets {
            ExchangeTargets::CurrentSuitOnly if target.suit != self.trump => format!(
                "{target} is not of the trump suit {}: exchange_targets=current_suit_only",
                self.trump
            ),
            ExchangeTargets::SuitMatched => {
                format!("seat {p} does not hold the ten of {}, or it was exchanged", target.suit)
            }
            _ => format!("seat {p} may not exchange {target} now"),
        }
    }

    /// Only askers' zwiks count; the highest wins at once (zwikken.md §2.6).
    fn showdown(&mut self, ev: &mut impl Events) {
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

    fn legal_play(&self, out: &mut Vec<ZwikkenAction>) {
        let p = self.turn;
        let (trick, trump, classic) = (self.trick.as_slice(), self.trump, self.rules.classic);
        out.extend(CardSet::iter(legal_plays(self.hands[p], trick, trump, classic)).map(ZwikkenAction::Play));
        if self.trick_no == 1 {
            for &(take, ten) in self.targets(p).iter() {
                let mut h = self.hands[p];
                h.remove(ten);
                h.insert(take);
                out.extend(
                    CardSet::iter(legal_plays(h, trick, trump, classic)).map(|c| ZwikkenAction::ExchangePlay(take, c)),
                );
            }
        }
    }

    fn play(&mut self, card: Card, ev: &mut impl Events) {
        let p = self.turn;
        self.hands[p].remove(card);
        self.trick.push((p, card));
        if self.trick.len() < self.playing() {
            self.turn = self.next_active(p);
            return;
        }
        let w = trick_winner(self.trick.as_slice(), self.trump);
        self.taken[w] += self.trick.iter().map(|&(_, c)| card_points(c)).sum::<u32>();
        ev.emit(self.all(), "trick", || args![self.trick_no, w]);
        self.trick.clear();
        if self.trick_no < 3 {
            self.trick_no += 1;
            self.leader = w;
            self.turn = w;
            return;
        }
        self.count_points(ev);
    }

    fn play_refusal(&self, p: Seat, token: &str) -> String {
        let hand = self.hands[p];
        if let Some(rest) = token.strip_prefix("exchange_") {
            if self.trick_no != 1 {
                return "the trump ten can be exchanged only before one's card in the first trick".into();
            }
            let take = rest.split('_').next().and_then(|c| c.parse::<Card>().ok());
            return match take {
                Some(t) if self.targets(p).iter().any(|(c, _)| *c == t) => {
                    format!("'{token}': that card may not be played after the exchange (follow the trick law)")
                }
                Some(t) => self.exchange_refusal(p, t),
                None => format!("'{token}' is not exchange_<turned card>_<card to play>"),
            };
        }
        let Ok(card) = token.parse::<Card>() else {
            return format!("'{token}' is not a card");
        };
        if !hand.contains(card) {
            return format!("seat {p} does not hold {card}");
        }
        let led = self.trick.as_slice()[0].1.suit;
        if card.suit == self.trump {
            format!("{card} would undertrump; legal: {}", self.legal_tokens())
        } else if hand.has_suit(led) {
            format!("seat {p} must follow {led} (or trump); legal: {}", self.legal_tokens())
        } else {
            format!("seat {p} must trump; legal: {}", self.legal_tokens())
        }
    }

    /// After trick 3: the unique highest total wins if it is an asker's; a passer's best or a
    /// shared top makes every asker lose (zwikken.md §2.8).
    fn count_points(&mut self, ev: &mut impl Events) {
        let taken = &self.taken[..self.n];
        ev.emit(self.all(), "points", || taken.iter().map(|&p| Arg::from(p)).collect());
        let order = self.order();
        let top = order.iter().map(|&s| self.taken[s]).max().unwrap_or(0);
        let mut best = order.iter().copied().filter(|&s| self.taken[s] == top);
        let first = best.next().expect("an active seat");
        if best.next().is_some() {
            self.end("tie", None, ev);
            self.settle(None, ev);
        } else if self.asked[first] {
            self.end("points", Some(first), ev);
            self.settle(Some(first), ev);
        } else {
            self.end("passer", Some(first), ev);
            self.settle(None, ev);
        }
    }

    /// Announces how the deal ended and counts it.
    fn end(&mut self, how: &'static str, winner: Option<Seat>, ev: &mut impl Events) {
        let k = ENDS.iter().position(|&h| h == how).expect("a known end");
        self.tally[k] += 1;
        ev.emit(self.all(), "end", || {
            args![how, winner.map_or(Arg::Word("-"), Arg::from)]
        });
        self.deal_end = Some((how, winner));
    }

    /// One line of the session's ledger in the outcome: how the deal ended and what it moved.
    fn ledger_entry(&mut self) {
        let (how, winner) = self.deal_end.take().unwrap_or(("none", None));
        let mut chips = [0; MAX_PLAYERS];
        for (s, c) in chips.iter_mut().enumerate().take(self.n) {
            *c = self.balance[s] - self.deal_start.0[s];
        }
        let askers = if how == "no_play" {
            0
        } else {
            (0..self.n).filter(|&s| self.asked[s]).fold(0, |m, s| m | (1 << s))
        };
        self.ledger.push(LedgerEntry {
            deal: self.deal_no,
            dealer: self.dealer,
            turned: self.turned,
            askers,
            end: how,
            winner,
            pot_before: self.deal_start.1,
            pot_after: self.pot,
            chips,
        });
    }

    fn settle(&mut self, winner: Option<Seat>, ev: &mut impl Events) {
        let askers = self.askers();
        let s = money::settle(self.pot, askers.as_slice(), winner);
        if let Some((w, x)) = s.won {
            self.balance[w] += x;
            ev.emit(self.all(), "win", || args![w, x]);
        }
        for &(a, x) in &s.paid {
            self.balance[a] -= x;
            ev.emit(self.all(), "pay", || args![a, x, "lose"]);
        }
        self.pot = s.pot_after;
        ev.emit(self.all(), "pot", || args![self.pot]);
        self.end_deal(ev);
    }

    /// The session ends at the first deal end with an empty pot after `deals` deals, or at the
    /// cap, where the pot is divided (zwikken.md §5).
    fn end_deal(&mut self, ev: &mut impl Events) {
        self.deals_done += 1;
        self.phase = Phase::Over;
        self.ledger_entry();
        if self.pot > POT_LIMIT {
            self.finish("pot_limit", ev);
        } else if self.deal_no >= self.rules.deals && self.pot == 0 {
            self.finish("pot_empty", ev);
        } else if self.deal_no >= self.rules.deals + self.rules.cap {
            self.finish("cap", ev);
        } else if let Err(e) = self.start_deal(ev) {
            self.deal_error = Some(e);
            self.finish("deal_error", ev);
        }
    }

    fn finish(&mut self, reason: &'static str, ev: &mut impl Events) {
        self.phase = Phase::Over;
        let mut seats: Vec<Seat> = self.order().iter().copied().collect();
        if seats.is_empty() {
            // Everyone ran out of chips at once: the pot goes to all of them. [PROPOSAL]
            seats = (1..=self.n).map(|k| (self.dealer + k) % self.n).collect();
        }
        self.split = money::split(self.pot, &seats);
        for &(s, x) in &self.split {
            self.balance[s] += x;
            self.pot -= x;
            ev.emit(self.all(), "split", || args![s, x]);
        }
        if !self.split.is_empty() {
            ev.emit(self.all(), "pot", || args![self.pot]);
        }
        let scores = self.balance[..self.n].iter().map(|&b| (b - self.start) as f64);
        let chips: Vec<String> = scores.map(|s| format!("{s:+}")).collect();
        let t = self.tally;
        let split: i64 = self.split.iter().map(|(_, x)| x).sum();
        let summary = format!(
            "{} deals ({} zwik, {} won on points, {} lost to a passer, {} tied, {} not played); {}; chips {}",
            self.deal_no,
            t[0],
            t[1],
            t[2],
            t[3],
            t[4],
            match reason {
                "pot_empty" => "the pot was cleared".to_string(),
                "one_left" => "at most one player left with chips".to_string(),
                "deal_error" => "stopped by a bad deal".to_string(),
                "pot_limit" => format!("a pot of {split} over the limit divided"),
                _ => format!("a pot of {split} divided at the cap"),
            },
            chips.join(" ")
        );
        ev.emit(self.all(), "session", || args![reason]);
        self.ended = Some((reason, summary));
    }

    /// The outcome of a finished session: the scores, and the tally and ledger in the detail
    /// (made when asked, from the state the session ended in).
    /// Each seat's chips won or lost over the session, once it has ended.
    fn final_scores(&self) -> Option<Vec<f64>> {
        self.ended.as_ref()?;
        Some(
            self.balance[..self.n]
                .iter()
                .map(|&b| (b - self.start) as f64)
                .collect(),
        )
    }

    fn make_outcome(&self) -> Option<Outcome> {
        use serde_json::{Map, Value};
        let (reason, summary) = self.ended.as_ref()?;
        let scores = self.final_scores()?;
        let t = self.tally;
        let split: i64 = self.split.iter().map(|(_, x)| x).sum();
        let seats = |set: u32| -> Value { (0..self.n).filter(|&s| set & (1 << s) != 0).collect::<Vec<_>>().into() };
        // Every line has the same keys, in the order of the record: a line is a copy of this
        // one (no key hashed again) with its values set.
        const KEYS: [&str; 9] = [
            "deal",
            "dealer",
            "turned",
            "askers",
            "end",
            "winner",
            "pot_before",
            "pot_after",
            "chips",
        ];
        let mut line = Map::with_capacity(KEYS.len());
        for k in KEYS {
            line.insert(k.into(), Value::Null);
        }
        let ledger: Vec<Value> = self
            .ledger
            .iter()
            .map(|l| {
                let mut m = line.clone();
                for (k, v) in m.iter_mut() {
                    *v = match k.as_str() {
                        "deal" => l.deal.into(),
                        "dealer" => l.dealer.into(),
                        "turned" => l
                            .turned
                            .iter()
                            .map(|c| Value::String(c.to_string()))
                            .collect::<Vec<_>>()
                            .into(),
                        "askers" => seats(l.askers),
                        "end" => l.end.into(),
                        "winner" => l.winner.map_or(Value::Null, Value::from),
                        "pot_before" => l.pot_before.into(),
                        "pot_after" => l.pot_after.into(),
                        _ => l.chips[..self.n].to_vec().into(),
                    };
                }
                Value::Object(m)
            })
            .collect();
        // The keys in the order of the record (values made here, not serialized again).
        let mut detail = Map::with_capacity(12);
        detail.insert("deals".into(), self.deal_no.into());
        detail.insert("end".into(), (*reason).into());
        for (k, name) in ENDS.iter().enumerate() {
            detail.insert((*name).into(), t[k].into());
        }
        detail.insert("split".into(), split.into());
        detail.insert("active".into(), self.active[..self.n].to_vec().into());
        let shares: Vec<Value> = self.split.iter().map(|&(s, x)| json!([s, x])).collect();
        detail.insert("split_shares".into(), shares.into());
        detail.insert("ledger".into(), ledger.into());
        detail.insert("summary".into(), summary.as_str().into());
        Some(Outcome {
            scores,
            detail: Value::Object(detail),
        })
    }
}

impl Engine for Zwikken {
    type Action = ZwikkenAction;

    fn token(action: &ZwikkenAction) -> Option<&'static str> {
        action.fixed_token()
    }

    fn players(&self) -> usize {
        self.n
    }

    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        match self.phase {
            Phase::Bid => "bid",
            Phase::Seek => "seek",
            Phase::Exchange => "exchange",
            Phase::Play | Phase::Over => "play",
        }
    }

    fn legal(&self, out: &mut Vec<ZwikkenAction>) {
        out.clear();
        match self.phase {
            Phase::Bid => self.legal_bids(self.turn, out),
            Phase::Seek => out.extend([ZwikkenAction::NoSeek, ZwikkenAction::Seek]),
            Phase::Exchange => {
                out.push(ZwikkenAction::NoExchange);
                out.extend(self.targets(self.turn).iter().map(|&(c, _)| ZwikkenAction::Exchange(c)));
            }
            Phase::Play => self.legal_play(out),
            Phase::Over => {}
        }
    }

    fn apply<E: Events>(&mut self, action: ZwikkenAction, ev: &mut E) -> Result<(), String> {
        use ZwikkenAction::*;
        let p = self.turn;
        match action {
            Pass | Ask | KenPass | KenAsk | WaitBetter => self.apply_bid(action, ev),
            Seek => self.seek(ev),
            NoSeek => {
                ev.emit(self.all(), "move", || args![p, "no_seek", "seek"]);
                self.end("no_play", None, ev);
                self.end_deal(ev);
            }
            NoExchange | Exchange(_) => {
                ev.emit(self.all(), "move", || args![p, action.arg(), "exchange"]);
                if let Exchange(take) = action {
                    let ten = self.ten_for(p, take);
                    self.do_exchange(p, take, ten, ev);
                }
                self.ex_queue.remove_first();
                self.next_exchange(ev);
            }
            Play(card) => {
                ev.emit(self.all(), "move", || args![p, action, "play"]);
                self.play(card, ev);
            }
            ExchangePlay(take, card) => {
                ev.emit(self.all(), "move", || args![p, action, "play"]);
                let ten = self.ten_for(p, take);
                self.do_exchange(p, take, ten, ev);
                self.play(card, ev);
            }
        }
        match self.deal_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn parse(&self, token: &str) -> Result<ZwikkenAction, String> {
        if self.phase == Phase::Over {
            return Err("the game is over".into());
        }
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if let Some(&a) = legal.iter().find(|a| a.to_string() == token) {
            return Ok(a);
        }
        let p = self.turn;
        Err(match self.phase {
            Phase::Bid => self.bid_refusal(p, token),
            Phase::Seek => format!("'{token}' is not a seek decision: seek or no_seek"),
            Phase::Exchange => match token.strip_prefix("exchange_").and_then(|c| c.parse::<Card>().ok()) {
                Some(t) => self.exchange_refusal(p, t),
                None => format!("'{token}' is not an exchange decision: no_exchange or exchange_<card>"),
            },
            Phase::Play | Phase::Over => self.play_refusal(p, token),
        })
    }

    /// After each deal: the deals ended so far, and each seat's chips with the pot shared
    /// alike by the seats still in (what a seat pays into the pot comes back to it in part
    /// later). Exact at the end of the session, where the pot has been paid out.
    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        let active = (0..self.n).filter(|&s| self.active[s]).count();
        let share = if active == 0 {
            0.0
        } else {
            self.pot as f64 / active as f64
        };
        let est = (0..self.n)
            .map(|s| (self.balance[s] - self.start) as f64 + if self.active[s] { share } else { 0.0 })
            .collect();
        Some((self.deals_done, est))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.make_outcome()
    }

    /// The scores without the ledger of every deal.
    fn scores(&self) -> Option<Vec<f64>> {
        self.final_scores()
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }

    fn chance_mut(&mut self) -> &mut Chance {
        &mut self.chance
    }
}

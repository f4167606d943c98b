//! The Schwimmen state machine: deal, the dealer's packet choice, turns (swap one, swap all,
//! knock, optional pass), the immediate ends (31, three aces), showdown, strikes, drowning and
//! the final ranking.
//!
//! Every change of state is an [`Event`](crate::game::Event) whose audience follows schwimmen.md Sec. 7: hands go
//! to their owner only, the seen packet to the dealer only; the middle, every action, strikes
//! and eliminations to everyone; hands are shown to everyone at a showdown or a 31, but only
//! the three aces at a three-aces end.

use super::scoring::{self, value_halves, value_text};
use crate::args;
use crate::cards::{deck_from, format_cards, Card, Rank};
use crate::chance::{Chance, DealRequest};
use crate::engine::Pending;
use crate::engine::{Engine, Events, Typed};
use crate::few::Few;
use crate::game::{Arg, Args, Audience, Game, Outcome, Ruling, Seat};
use crate::notation::fmt_score;
use crate::options::Options;
use serde_json::Value;
use std::fmt;

/// Builds a Schwimmen game (the [`crate::game::NewGame`] of the spec).
pub fn new_game(players: usize, options: &Options, chance: Chance, listening: bool) -> Result<Box<dyn Game>, String> {
    Ok(Box::new(Typed::listening(listening, |ev| {
        Schwimmen::new(players, options, chance, ev)
    })?))
}

/// A Schwimmen action. `Display` writes its protocol token; [`Schwimmen::parse`](Engine::parse)
/// reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchwimmenAction {
    /// The dealer keeps the packet he has seen (`keep_seen`).
    KeepSeen,
    /// The dealer takes the unseen packet (`take_unseen`).
    TakeUnseen,
    /// Lays down a card of the hand and takes one of the middle (`swap_<hand>_<middle>`).
    Swap(Card, Card),
    SwapAll,
    Knock,
    Pass,
}

impl SchwimmenAction {
    /// The action's protocol token: every one is a fixed string (swaps' made at compile time;
    /// tokens are written for every record and every process bot).
    pub fn token(&self) -> &'static str {
        match self {
            SchwimmenAction::KeepSeen => "keep_seen",
            SchwimmenAction::TakeUnseen => "take_unseen",
            SchwimmenAction::Swap(h, m) => swap_token(h.index() * 52 + m.index()),
            SchwimmenAction::SwapAll => "swap_all",
            SchwimmenAction::Knock => "knock",
            SchwimmenAction::Pass => "pass",
        }
    }
}

impl fmt::Display for SchwimmenAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// Every swap token `swap_XX_YY`, ten bytes each, by swap code `hand * 52 + middle` (card
/// indexes, as `Card::index`), made at compile time.
const SWAP_TOKENS: &str = {
    use crate::cards::index_letters as letters;
    // Read only here, at compile time, to make the `&str`: the one copy is the string's.
    #[allow(clippy::large_const_arrays)]
    const BYTES: [u8; 52 * 52 * 10] = {
        let mut b = [0u8; 52 * 52 * 10];
        let mut code = 0;
        while code < 52 * 52 {
            let (h, m) = (letters(code / 52), letters(code % 52));
            let token = [b's', b'w', b'a', b'p', b'_', h[0], h[1], b'_', m[0], m[1]];
            let mut k = 0;
            while k < 10 {
                b[code * 10 + k] = token[k];
                k += 1;
            }
            code += 1;
        }
        b
    };
    match std::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("swap tokens are ASCII"),
    }
};

/// The token of the swap with code `code` (below 52 * 52).
fn swap_token(code: usize) -> &'static str {
    &SWAP_TOKENS[code * 10..code * 10 + 10]
}

/// An action as an event argument: a fixed word, or a swap as a number (`hand * 52 + middle`,
/// card indexes: `swap_of_code`) that writes its token where a line is made.
impl From<SchwimmenAction> for Arg {
    fn from(a: SchwimmenAction) -> Arg {
        match a {
            SchwimmenAction::KeepSeen => Arg::Word("keep_seen"),
            SchwimmenAction::TakeUnseen => Arg::Word("take_unseen"),
            SchwimmenAction::Swap(h, m) => Arg::Action {
                code: (h.index() * 52 + m.index()) as u64,
                write: |code, f| {
                    if code < 52 * 52 {
                        f.write_str(swap_token(code as usize))
                    } else {
                        Err(fmt::Error)
                    }
                },
            },
            SchwimmenAction::SwapAll => Arg::Word("swap_all"),
            SchwimmenAction::Knock => Arg::Word("knock"),
            SchwimmenAction::Pass => Arg::Word("pass"),
        }
    }
}

/// The swap an [`Arg::Action`] of this game stands for.
pub(super) fn swap_of_code(code: u64) -> Option<SchwimmenAction> {
    let (h, m) = ((code / 52) as usize, (code % 52) as usize);
    (h < 52).then(|| SchwimmenAction::Swap(Card::from_index(h), Card::from_index(m)))
}

/// The options, typed once per set of options ([`Options::compiled`]: not looked up by name
/// for every game of a run or every playout of a search).
#[derive(Clone, Copy, Debug)]
struct Rules {
    /// `deck=32`.
    deck32: bool,
    misdeal_strike: bool,
    allow_pass: bool,
    no_knock_first_circuit: bool,
    all_pass_refresh: bool,
    max_circuits: usize,
    /// Strikes that drown a player (`strikes_to_drown`).
    drown: u32,
    /// Strikes that make a player swim (`strikes_to_swim`).
    swim: u32,
    /// `lowest_tie=highest_cards_tiebreak`.
    tiebreak: bool,
    knocker_double: bool,
    /// `same_round_rank=by_hand_value`.
    rank_by_value: bool,
    /// `dealer_rule=loser_deals`.
    loser_deals: bool,
}

impl Rules {
    fn new(o: &Options) -> Rules {
        Rules {
            deck32: o.get("deck") == "32",
            misdeal_strike: o.flag("misdeal_strike"),
            allow_pass: o.flag("allow_pass"),
            no_knock_first_circuit: o.flag("no_knock_first_circuit"),
            all_pass_refresh: o.flag("all_pass_refresh"),
            max_circuits: o.int("max_circuits") as usize,
            drown: o.int("strikes_to_drown") as u32,
            swim: o.int("strikes_to_swim") as u32,
            tiebreak: o.get("lowest_tie") == "highest_cards_tiebreak",
            knocker_double: o.flag("knocker_double"),
            rank_by_value: o.get("same_round_rank") == "by_hand_value",
            loser_deals: o.get("dealer_rule") == "loser_deals",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The dealer chooses between the seen and the unseen packet.
    Choose,
    /// A player's turn (before or after a knock).
    Turn,
    Over,
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    ThreeAces(Seat),
    ThirtyOne(Seat),
    Showdown,
    Cap,
}

/// A turn action, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    SwapOne(Card, Card),
    SwapAll,
    Knock,
    Pass,
}

/// One game of Schwimmen: rounds until one player is left.
#[derive(Clone)]
pub struct Schwimmen {
    n: usize,
    rules: Rules,
    chance: Chance,
    ev: Pending,
    deck: Vec<Card>,
    phase: Phase,
    turn: Seat,
    dealer: Seat,
    round: usize,
    strikes: Vec<u32>,
    active: Vec<bool>,
    hands: Vec<Vec<Card>>,
    /// The dealer's seen packet (A) and unseen packet (B) while he chooses.
    seen: Vec<Card>,
    unseen: Vec<Card>,
    middle: Vec<Card>,
    /// The unused rest of the pack, in dealt order (fresh middles under `all_pass_refresh`).
    stock: Vec<Card>,
    /// Middles removed by `all_pass_refresh`.
    discard: Vec<Card>,
    knocker: Option<Seat>,
    /// Turns still to come after a knock.
    final_left: usize,
    /// Turns taken in this round before any knock.
    turns: usize,
    /// Consecutive passes before any knock.
    passes: usize,
    /// Final places (1 = winner), set at elimination and at the end.
    places: Vec<Option<f64>>,
    /// The seats drowned in each round that drowned someone: (round, seats).
    drowned: Vec<(usize, Vec<Seat>)>,
    /// The seats that took a strike in the last round (for `dealer_rule=loser_deals`).
    struck: Vec<Seat>,
    /// Absent seats (their bot is `dead`), in the order they left: ranked last (Sec. 4).
    absent: Vec<Seat>,
    /// Misdeals per seat (`misdeal_strike`).
    misdeals: Vec<usize>,
    /// The last seat left, once the game is over (the outcome is made from the state when
    /// asked for, not at the end of every game and playout).
    winner: Option<Seat>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    deal_error: Option<String>,
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

    fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    fn card_args(cards: &[Card]) -> Args {
        cards.iter().map(|&c| Arg::Card(c)).collect()
    }

    /// A hand as its `hand` line shows it: sorted like every game's hands (suit by suit, high
    /// to low), whatever order swaps left it in.
    fn hand_args(cards: &[Card]) -> Args {
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
    fn right_active(&self, s: Seat) -> Seat {
        let n = self.n;
        (1..=n)
            .map(|k| (s + n * k - k) % n)
            .find(|&t| self.active[t])
            .unwrap_or(s)
    }

    /// How many seats are still in (without making a list).
    fn active_count(&self) -> usize {
        self.active[..self.n].iter().filter(|&&a| a).count()
    }

    fn active_seats(&self) -> Vec<Seat> {
        (0..self.n).filter(|&s| self.active[s]).collect()
    }

    /// The active seats in turn order, starting to the right of `s`.
    fn turn_order_iter(&self, s: Seat) -> impl Iterator<Item = Seat> + '_ {
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

    // ----- the deal (Sec. 2.1) -----

    fn start_round(&mut self) -> Result<(), String> {
        self.round += 1;
        let n = self.n;
        let req = DealRequest {
            dealer: self.dealer,
            // Lent to the request and taken back (no copy of the deck per round).
            deck: std::mem::take(&mut self.deck),
            hand_sizes: (0..n).map(|s| if self.active[s] { 3 } else { 0 }).collect(),
            piles: vec![("unseen", 3), ("stock", usize::MAX)],
            first: self.right_active(self.dealer),
            clockwise: false,
            packets: vec![],
            cut_from: None,
        };
        let dealt = self.chance.deal(&req);
        self.deck = req.deck;
        // Copied into the buffers of the last round (the deal stays in the chance's log).
        let deal = dealt?;
        for s in 0..n {
            if self.active[s] && s != self.dealer {
                self.hands[s].clone_from(&deal.hands[s]);
            } else {
                self.hands[s].clear();
            }
        }
        self.seen.clone_from(&deal.hands[self.dealer]);
        self.unseen.clear();
        self.stock.clear();
        for (name, cards) in &deal.piles {
            match name.as_str() {
                "unseen" => self.unseen.clone_from(cards),
                "stock" => self.stock.clone_from(cards),
                _ => {}
            }
        }
        self.middle.clear();
        self.discard.clear();
        self.knocker = None;
        self.final_left = 0;
        self.turns = 0;
        self.passes = 0;
        self.struck.clear();
        let all = self.all();
        self.ev.emit(all, "deal", || args![self.round, self.dealer]);
        for s in 0..n {
            if self.active[s] && s != self.dealer {
                self.ev
                    .emit(Audience::seat(s), "hand", || Self::hand_args(&self.hands[s]));
            }
        }
        self.ev
            .emit(Audience::seat(self.dealer), "packet", || Self::card_args(&self.seen));
        self.phase = Phase::Choose;
        self.turn = self.dealer;
        Ok(())
    }

    // ----- the dealer's choice (Sec. 2.2, 2.3) -----

    fn apply_choice(&mut self, keep: bool) {
        let token = if keep { "keep_seen" } else { "take_unseen" };
        let d = self.dealer;
        let (hand, middle) = if keep {
            (std::mem::take(&mut self.seen), std::mem::take(&mut self.unseen))
        } else {
            (std::mem::take(&mut self.unseen), std::mem::take(&mut self.seen))
        };
        self.hands[d] = hand;
        self.middle = middle;
        let all = self.all();
        self.ev.emit(all, "move", || args![d, token, "choose"]);
        self.ev
            .emit(Audience::seat(d), "hand", || Self::hand_args(&self.hands[d]));
        self.ev.emit(all, "middle", || Self::card_args(&self.middle));
        // The initial check: three aces first, then 31, in turn order from the dealer's right.
        let aces = self
            .turn_order_iter(d)
            .find(|&s| scoring::is_three_aces(&self.hands[s]));
        let thirty_one = self.turn_order_iter(d).find(|&s| scoring::is_31(&self.hands[s]));
        if let Some(s) = aces {
            self.end_round(End::ThreeAces(s));
        } else if let Some(s) = thirty_one {
            self.end_round(End::ThirtyOne(s));
        } else {
            self.phase = Phase::Turn;
            self.turn = self.right_active(d);
        }
    }

    // ----- turns (Sec. 2.4) -----

    fn may_knock(&self) -> bool {
        self.knocker.is_none() && !(self.rules.no_knock_first_circuit && self.turns < self.active_count())
    }

    /// Why a knock is refused now (made only for a refused token).
    fn knock_refusal(&self) -> Option<String> {
        if let Some(k) = self.knocker {
            return Some(format!("seat {k} has knocked already: only one knock per round"));
        }
        if !self.may_knock() {
            return Some("no knock before every player has had a turn (no_knock_first_circuit)".into());
        }
        None
    }

    fn legal_turns(&self, out: &mut Vec<SchwimmenAction>) {
        let hand = &self.hands[self.turn][..];
        if let (Ok(h), Ok(m)) = (<&[Card; 3]>::try_from(hand), <&[Card; 3]>::try_from(&self.middle[..])) {
            // Three cards each (always in play): the nine swaps at once.
            let swaps: [SchwimmenAction; 9] = std::array::from_fn(|i| SchwimmenAction::Swap(h[i / 3], m[i % 3]));
            out.extend_from_slice(&swaps);
        } else {
            for &h in hand {
                for &m in &self.middle {
                    out.push(SchwimmenAction::Swap(h, m));
                }
            }
        }
        out.push(SchwimmenAction::SwapAll);
        if self.may_knock() {
            out.push(SchwimmenAction::Knock);
        }
        if self.rules.allow_pass {
            out.push(SchwimmenAction::Pass);
        }
    }

    fn legal_tokens(&self) -> String {
        let mut v = Vec::new();
        self.legal_turns(&mut v);
        v.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" ")
    }

    fn parse_turn(&self, token: &str) -> Result<Turn, String> {
        let legal_now = || self.legal_tokens();
        match token {
            "swap_all" => return Ok(Turn::SwapAll),
            "knock" => {
                return match self.knock_refusal() {
                    Some(why) => Err(why),
                    None => Ok(Turn::Knock),
                }
            }
            "pass" => {
                return if self.rules.allow_pass {
                    Ok(Turn::Pass)
                } else {
                    Err("passing is not allowed (allow_pass=false): swap one, swap all or knock".into())
                }
            }
            _ => {}
        }
        let parts: Vec<&str> = token.split('_').collect();
        if parts.len() == 3 && parts[0] == "swap" {
            let h: Card = parts[1]
                .parse()
                .map_err(|e| format!("'{token}': the card to lay down: {e}"))?;
            let m: Card = parts[2]
                .parse()
                .map_err(|e| format!("'{token}': the card to take: {e}"))?;
            if !self.hands[self.turn].contains(&h) {
                return Err(format!("'{token}': {h} is not in your hand"));
            }
            if !self.middle.contains(&m) {
                return Err(format!(
                    "'{token}': {m} is not in the middle ({})",
                    format_cards(&self.middle)
                ));
            }
            return Ok(Turn::SwapOne(h, m));
        }
        Err(format!("'{token}' is not an action (legal now: {})", legal_now()))
    }

    fn apply_turn(&mut self, action: SchwimmenAction) {
        let t = match action {
            SchwimmenAction::Swap(h, m) => Turn::SwapOne(h, m),
            SchwimmenAction::SwapAll => Turn::SwapAll,
            SchwimmenAction::Knock => Turn::Knock,
            _ => Turn::Pass,
        };
        let p = self.turn;
        let all = self.all();
        self.ev.emit(all, "move", || args![p, action, "turn"]);
        let before_knock = self.knocker.is_none();
        match t {
            Turn::SwapOne(h, m) => {
                let hi = self.hands[p].iter().position(|&c| c == h).expect("a checked card");
                let mi = self.middle.iter().position(|&c| c == m).expect("a checked card");
                self.hands[p][hi] = m;
                self.middle[mi] = h;
            }
            Turn::SwapAll => std::mem::swap(&mut self.hands[p], &mut self.middle),
            Turn::Knock => {
                self.knocker = Some(p);
                self.final_left = self.active_count() - 1;
            }
            Turn::Pass => {}
        }
        if matches!(t, Turn::SwapOne(..) | Turn::SwapAll) {
            self.passes = 0;
            self.ev.emit(all, "middle", || Self::card_args(&self.middle));
            self.ev
                .emit(Audience::seat(p), "hand", || Self::hand_args(&self.hands[p]));
            if scoring::is_three_aces(&self.hands[p]) {
                self.end_round(End::ThreeAces(p));
                return;
            }
            if scoring::is_31(&self.hands[p]) {
                self.end_round(End::ThirtyOne(p));
                return;
            }
        }
        if t == Turn::Pass && before_knock {
            self.passes += 1;
            if self.passes >= self.active_count() {
                self.passes = 0;
                self.refresh_middle();
            }
        }
        if before_knock {
            self.turns += 1;
            if t != Turn::Knock && self.turns >= self.rules.max_circuits * self.active_count() {
                self.end_round(End::Cap);
                return;
            }
        } else {
            self.final_left -= 1;
            if self.final_left == 0 {
                self.end_round(End::Showdown);
                return;
            }
        }
        self.turn = self.right_active(p);
    }

    /// A full circuit of passes under `all_pass_refresh`: the middle is removed and three fresh
    /// cards are turned from the unused pack (if it still holds three).
    fn refresh_middle(&mut self) {
        if !self.rules.all_pass_refresh || self.stock.len() < 3 {
            return;
        }
        self.discard.append(&mut self.middle);
        self.middle.extend(self.stock.drain(..3));
        let all = self.all();
        self.ev.emit(all, "refresh", || Self::card_args(&self.middle));
        self.ev.emit(all, "middle", || Self::card_args(&self.middle));
    }

    // ----- the end of a round (Sec. 2.5, 2.6) -----

    fn end_round(&mut self, end: End) {
        let all = self.all();
        // The active seats in turn order from the dealer's right (at most 10).
        let mut order = Few::<Seat, 10>::new(0);
        for t in self.turn_order_iter(self.dealer) {
            order.push(t);
        }
        let (reason, who) = match end {
            End::ThreeAces(s) => ("three_aces", Some(s)),
            End::ThirtyOne(s) => ("thirtyone", Some(s)),
            End::Showdown => ("showdown", None),
            End::Cap => ("cap", None),
        };
        self.ev.emit(all, "end", || {
            let mut a = args![reason];
            if let Some(s) = who {
                a.push(Arg::from(s));
            }
            a
        });
        // Who takes strikes, and how many.
        let mut strikes = Few::<(Seat, u32), 10>::new((0, 0));
        if let End::ThreeAces(s) = end {
            self.show(s);
            for &t in order.iter() {
                if t != s {
                    strikes.push((t, 1));
                }
            }
        } else {
            for &s in order.iter() {
                self.show(s);
            }
            let low = scoring::lowest_of(order.iter().map(|&s| (s, &self.hands[s][..])), self.rules.tiebreak);
            for &s in order.iter() {
                if low & 1 << s != 0 {
                    let k = if self.rules.knocker_double && self.knocker == Some(s) {
                        2
                    } else {
                        1
                    };
                    strikes.push((s, k));
                }
            }
        }
        self.struck.clear();
        self.struck.extend(strikes.iter().map(|&(s, _)| s));
        // Drowning, with the reprieve when everyone left would drown.
        let drown = self.rules.drown;
        let swim = self.rules.swim;
        let mut would = Few::<Seat, 10>::new(0);
        for &(s, k) in strikes.iter() {
            if self.strikes[s] + k >= drown {
                would.push(s);
            }
        }
        let reprieve = !would.is_empty() && would.len() == order.len();
        if reprieve {
            self.ev.emit(all, "reprieve", || args![]);
        }
        for &(s, k) in strikes.iter() {
            let before = self.strikes[s];
            let mut after = before + k;
            if reprieve {
                after = after.min(drown.saturating_sub(1)).max(before);
            }
            self.strikes[s] = after;
            self.ev.emit(all, "strike", || args![s, after]);
            if after >= swim && before < swim && after < drown {
                self.ev.emit(all, "swimming", || args![s]);
            }
        }
        if !reprieve && !would.is_empty() {
            let out = would.as_slice().to_vec();
            let remaining = order.len();
            // Only a three-aces round drowns players with different values (a showdown strikes
            // equal values only); there the hidden hands rank them, and only the order is told.
            let values: Option<Vec<u32>> = self
                .rules
                .rank_by_value
                .then(|| out.iter().map(|&s| value_halves(&self.hands[s])).collect());
            let places = scoring::group_places(&out, remaining, values.as_deref());
            for (s, place) in places {
                self.places[s] = Some(place);
                self.active[s] = false;
                self.ev.emit(all, "out", || args![s, fmt_score(place)]);
            }
            self.drowned.push((self.round, out));
        }
        if self.active_count() == 1 {
            let last = (0..self.n).find(|&s| self.active[s]).expect("one seat is left");
            self.finish(last);
            return;
        }
        self.dealer = self.next_dealer();
        if let Err(e) = self.start_round() {
            // Only a deal file can make a deal fail; it is reported when the move is applied.
            self.deal_error = Some(e);
        }
    }

    /// Shows seat `s`'s hand and its value to everyone.
    fn show(&mut self, s: Seat) {
        let all = self.all();
        self.ev.emit(all, "show", || {
            let h = &self.hands[s];
            let mut a = Args::with_capacity(h.len() + 2);
            a.push(Arg::from(s));
            a.extend(h.iter().map(|&c| Arg::Card(c)));
            // A whole value is a number (the same token as its text).
            let v = value_halves(h);
            a.push(if v.is_multiple_of(2) {
                Arg::Int(i64::from(v / 2))
            } else {
                Arg::Text(value_text(v))
            });
            a
        });
    }

    /// One strike for `s` outside a round end (a misdeal), with swimming and drowning.
    fn strike_alone(&mut self, s: Seat) {
        let all = self.all();
        let drown = self.rules.drown;
        let swim = self.rules.swim;
        let before = self.strikes[s];
        let after = before + 1;
        self.strikes[s] = after;
        self.ev.emit(all, "strike", || args![s, after]);
        if after >= swim && before < swim && after < drown {
            self.ev.emit(all, "swimming", || args![s]);
        }
        if after >= drown {
            // The last place among the players still in (never everyone: two or more are in).
            let place = self.active_count() as f64;
            self.places[s] = Some(place);
            self.active[s] = false;
            self.ev.emit(all, "out", || args![s, fmt_score(place)]);
            self.drowned.push((self.round, vec![s]));
        }
    }

    /// The round is abandoned and dealt again by `dealer`, or the game ends if one player is left.
    fn redeal(&mut self, dealer: Seat) {
        let left = self.active_seats();
        if left.len() == 1 {
            self.finish(left[0]);
            return;
        }
        self.dealer = dealer;
        if let Err(e) = self.start_round() {
            // Only a deal file can make a deal fail; it is reported by the next apply.
            self.deal_error = Some(e);
        }
    }

    /// Sec. 2.6 misdeal strike (`misdeal_strike`): the dealer failed at the packet choice. He takes
    /// a strike and deals again (if he drowned, the next player to his right deals).
    fn misdeal(&mut self, d: Seat, kind: &str) {
        let all = self.all();
        self.misdeals[d] += 1;
        self.ev.emit(all, "misdeal", || args![d, kind.to_string()]);
        self.strike_alone(d);
        let next = if self.active[d] { d } else { self.right_active(d) };
        self.redeal(next);
    }

    /// Sec. 4 absent player: seat `s`'s bot is dead. It leaves the game at once and is ranked
    /// last: below every player still in and every player drowned so far (they move up one place);
    /// of several absent seats the one that left first ranks lowest. Its cards leave play; a
    /// round whose dealer leaves before choosing is dealt again by the next player.
    fn withdraw(&mut self, s: Seat) {
        let place = (self.n - self.absent.len()) as f64;
        for p in self.places.iter_mut().flatten() {
            if *p <= place {
                *p -= 1.0;
            }
        }
        self.places[s] = Some(place);
        self.absent.push(s);
        self.active[s] = false;
        let all = self.all();
        self.ev.emit(all, "absent", || args![s, fmt_score(place)]);
        if self.phase == Phase::Choose {
            let next = self.right_active(s);
            self.redeal(next);
            return;
        }
        let hand = std::mem::take(&mut self.hands[s]);
        self.discard.extend(hand);
        let left = self.active_seats();
        if left.len() == 1 {
            self.finish(left[0]);
            return;
        }
        if self.knocker.is_some() {
            self.final_left -= 1;
            if self.final_left == 0 {
                self.end_round(End::Showdown);
                return;
            }
        }
        self.turn = self.right_active(s);
    }

    fn next_dealer(&self) -> Seat {
        if self.rules.loser_deals {
            let n = self.n;
            let d = self.dealer;
            if let Some(s) = (1..=n)
                .map(|k| (d + n * k - k) % n)
                .find(|&t| self.active[t] && self.struck.contains(&t))
            {
                return s;
            }
        }
        self.right_active(self.dealer)
    }

    fn finish(&mut self, winner: Seat) {
        self.places[winner] = Some(1.0);
        self.phase = Phase::Over;
        self.winner = Some(winner);
        if self.ev.listening() {
            let all = self.all();
            let (places, paid) = self.final_places();
            for s in Self::by_place(&places) {
                self.ev
                    .emit(all, "place", || args![s, fmt_score(places[s]), fmt_score(paid[s])]);
            }
        }
    }

    /// Every seat's final place (everyone is placed once the game is over) and payment.
    fn final_places(&self) -> (Vec<f64>, Vec<f64>) {
        let places: Vec<f64> = self.places.iter().map(|p| p.unwrap_or(self.n as f64)).collect();
        let paid = places.iter().map(|&p| scoring::payment(p)).collect();
        (places, paid)
    }

    /// The seats from the first place to the last (seat order within a shared place).
    fn by_place(places: &[f64]) -> Vec<Seat> {
        let mut by_place: Vec<Seat> = (0..places.len()).collect();
        by_place.sort_by(|&a, &b| places[a].total_cmp(&places[b]).then(a.cmp(&b)));
        by_place
    }

    /// The outcome of a game that is over (made when asked for: once, by the referee).
    fn make_outcome(&self, winner: Seat) -> Outcome {
        use std::fmt::Write;
        let (places, paid) = self.final_places();
        // `place:seat` from the first place to the last, written into one string.
        let mut ranking = String::new();
        for (i, s) in Self::by_place(&places).into_iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(ranking, "{sep}{}:{s}", fmt_score(places[s]));
        }
        let summary = format!(
            "seat {winner} is the last one left after {} round(s); places {ranking}; the kitty gets {} francs",
            self.round,
            fmt_score(paid.iter().sum())
        );
        // The JSON made directly, as `json!` makes it (the same values, keys in the same order).
        fn array<T: Copy + Into<Value>>(xs: &[T]) -> Value {
            Value::Array(xs.iter().map(|&x| x.into()).collect())
        }
        fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
            Value::Object(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
        }
        let drowned = self
            .drowned
            .iter()
            .map(|(r, seats)| object([("round", (*r).into()), ("seats", array(seats))]))
            .collect();
        Outcome {
            scores: paid.iter().map(|p| -p).collect(),
            detail: object([
                ("winner", winner.into()),
                ("places", array(&places)),
                ("paid", array(&paid)),
                ("kitty", paid.iter().sum::<f64>().into()),
                ("strikes", array(&self.strikes)),
                ("rounds", self.round.into()),
                ("drowned", Value::Array(drowned)),
                ("absent", array(&self.absent)),
                ("misdeals", array(&self.misdeals)),
                ("summary", summary.into()),
            ]),
        }
    }
}

impl Schwimmen {
    /// Runs `f` with the events it makes going to `events`.
    fn with_events<R>(&mut self, events: &mut impl Events, f: impl FnOnce(&mut Self) -> R) -> R {
        self.ev.listen_to(events);
        let r = f(self);
        self.ev.hand_over(events);
        r
    }
}

impl Engine for Schwimmen {
    type Action = SchwimmenAction;

    fn token(action: &SchwimmenAction) -> Option<&'static str> {
        Some(action.token())
    }

    fn players(&self) -> usize {
        self.n
    }

    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        match self.phase {
            Phase::Choose => "choose",
            Phase::Turn | Phase::Over => "turn",
        }
    }

    fn legal(&self, out: &mut Vec<SchwimmenAction>) {
        out.clear();
        match self.phase {
            Phase::Choose => out.extend([SchwimmenAction::KeepSeen, SchwimmenAction::TakeUnseen]),
            Phase::Turn => self.legal_turns(out),
            Phase::Over => {}
        }
    }

    fn apply<E: Events>(&mut self, action: SchwimmenAction, events: &mut E) -> Result<(), String> {
        self.with_events(events, |g| match action {
            SchwimmenAction::KeepSeen => g.apply_choice(true),
            SchwimmenAction::TakeUnseen => g.apply_choice(false),
            turn => g.apply_turn(turn),
        });
        match self.deal_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn parse(&self, token: &str) -> Result<SchwimmenAction, String> {
        match self.phase {
            Phase::Choose => match token {
                "keep_seen" => Ok(SchwimmenAction::KeepSeen),
                "take_unseen" => Ok(SchwimmenAction::TakeUnseen),
                _ => Err(format!(
                    "'{token}' is not a choice of the dealer (legal now: keep_seen take_unseen)"
                )),
            },
            Phase::Turn => Ok(match self.parse_turn(token)? {
                Turn::SwapOne(h, m) => SchwimmenAction::Swap(h, m),
                Turn::SwapAll => SchwimmenAction::SwapAll,
                Turn::Knock => SchwimmenAction::Knock,
                Turn::Pass => SchwimmenAction::Pass,
            }),
            Phase::Over => Err("the game is over".into()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|w| self.make_outcome(w))
    }

    /// What each seat paid, without the summary and the JSON.
    fn scores(&self) -> Option<Vec<f64>> {
        self.winner?;
        let (_, paid) = self.final_places();
        Some(paid.iter().map(|p| -p).collect())
    }

    /// Between rounds: the rounds played, and each seat's score *estimated* from the lives
    /// left (a drowned seat's place is known; a seat still in is expected to outlast each
    /// other one with the share of their lives it holds: place 1 + Σ L_j / (L_i + L_j)). Not
    /// a settled result like Kul's or Skwitz's, but a search's playout can stop at the end of
    /// the round instead of playing the session to its end.
    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        if self.winner.is_some() {
            let (_, paid) = self.final_places();
            return Some((self.round as u64, paid.iter().map(|p| -p).collect()));
        }
        let drown = self.rules.drown as f64;
        let lives: Vec<f64> = (0..self.n).map(|s| (drown - self.strikes[s] as f64).max(0.5)).collect();
        let scores = (0..self.n)
            .map(|i| match self.places[i] {
                Some(place) if !self.active[i] => -scoring::payment(place),
                _ => {
                    let place = 1.0
                        + (0..self.n)
                            .filter(|&j| j != i && self.active[j])
                            .map(|j| lives[j] / (lives[i] + lives[j]))
                            .sum::<f64>();
                    -scoring::payment(place)
                }
            })
            .collect();
        Some((self.round.saturating_sub(1) as u64, scores))
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }

    fn chance_mut(&mut self) -> &mut Chance {
        &mut self.chance
    }

    /// A seat whose bot is `dead` is absent (Sec. 4): it leaves the game, ranked last. Under
    /// `misdeal_strike`, any other fault of the dealer at the packet choice is a misdeal (Sec. 2.6).
    /// Otherwise the referee's usual substitute.
    fn on_fault<E: Events>(&mut self, seat: Seat, kind: &str, events: &mut E) -> Ruling<SchwimmenAction> {
        if self.phase == Phase::Over || seat != self.turn {
            return Ruling::Substitute;
        }
        if kind == "dead" {
            self.with_events(events, |g| g.withdraw(seat));
            return Ruling::Handled;
        }
        if self.phase == Phase::Choose && self.rules.misdeal_strike {
            self.with_events(events, |g| g.misdeal(seat, kind));
            return Ruling::Handled;
        }
        Ruling::Substitute
    }
}

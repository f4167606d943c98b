//! The Skwitz state machine: a session of games; each game is a run of deals until a player
//! declares Out!; each deal is an ante, a shuffle with the matador bottom check, a layout and
//! draws until the stock is empty (skwitz.md Sec. 2, 4, 5).
//!
//! Audiences (Sec. 7): a seat's hand goes to that seat only, the bottom card of the stock to
//! the dealer only; everything else (table, plays, points, payments, the pot) is public.

use super::captures::{self, is_matador, value};
use super::deal_table::{parse_deal_table, DEAL_TABLE};
use crate::args;
use crate::cards::{full_deck, Card, CardSet, Suit};
use crate::chance::{Chance, DealRequest};
use crate::engine::Pending;
use crate::engine::{Engine, Events, Typed};
use crate::game::{Arg, Args, Audience, Game, Outcome, Ruling, Seat};
use crate::options::Options;
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt;

/// A game that has lasted this many deals ends at the next deal end at which someone has
/// reached the target, as if `out_timing=auto_at_deal_end` (a guard against bots that never
/// declare; it does not change play between bots that declare).
pub const FORCE_OUT_AFTER_DEALS: usize = 30;

/// Builds a Skwitz session (the [`crate::game::NewGame`] of the spec).
pub fn new_game(players: usize, options: &Options, chance: Chance, listening: bool) -> Result<Box<dyn Game>, String> {
    Ok(Box::new(Typed::listening(listening, |ev| {
        Skwitz::new(players, options, chance, ev)
    })?))
}

/// A Skwitz action: `out`, a card to trail (`7H`), or a card and the table cards it captures
/// (`TD:4S,6H`, the captured cards in notation order). `Display` writes the token;
/// [`Skwitz::parse`](Engine::parse) reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkwitzAction {
    Out,
    Trail(Card),
    Capture(Card, CardSet),
}

impl SkwitzAction {
    /// The token where it is a string of the program's (all but a capture's).
    fn fixed_token(self) -> Option<&'static str> {
        match self {
            SkwitzAction::Out => Some("out"),
            SkwitzAction::Trail(c) => Some(c.token()),
            SkwitzAction::Capture(..) => None,
        }
    }
}

impl fmt::Display for SkwitzAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkwitzAction::Out | SkwitzAction::Trail(_) => f.write_str(self.fixed_token().unwrap_or_default()),
            SkwitzAction::Capture(c, taken) => {
                // The token in one write: `C:` and three bytes per taken card (a whole deck at
                // most), the last comma left out. CardSet iterates in index order, which is
                // the notation order of Card's Ord.
                let mut buf = [0u8; 3 + 3 * 52];
                let card = |c: Card| [c.rank.letter() as u8, c.suit.letter() as u8];
                buf[..2].copy_from_slice(&card(*c));
                buf[2] = b':';
                let mut len = 3;
                for t in taken.iter() {
                    buf[len..len + 2].copy_from_slice(&card(t));
                    buf[len + 2] = b',';
                    len += 3;
                }
                if !taken.is_empty() {
                    len -= 1;
                }
                f.write_str(std::str::from_utf8(&buf[..len]).map_err(|_| fmt::Error)?)
            }
        }
    }
}

/// An action as an event argument: a trail is its card, a capture a number (the card's index,
/// then the captured cards' set above it: `capture_of_code`) that writes its token where a
/// line is made, `out` a fixed word.
impl From<SkwitzAction> for Arg {
    fn from(a: SkwitzAction) -> Arg {
        match a {
            SkwitzAction::Out => Arg::Word("out"),
            SkwitzAction::Trail(c) => Arg::Card(c),
            SkwitzAction::Capture(c, taken) => Arg::Action {
                code: c.index() as u64 | taken.0 << 6,
                write: |code, f| fmt::Display::fmt(&capture_of_code(code).ok_or(fmt::Error)?, f),
            },
        }
    }
}

/// The capture an [`Arg::Action`] of this game stands for.
pub(super) fn capture_of_code(code: u64) -> Option<SkwitzAction> {
    let c = (code & 63) as usize;
    (c < 52).then(|| SkwitzAction::Capture(Card::from_index(c), CardSet(code >> 6)))
}

/// Where chips go to or come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purse {
    Seat(Seat),
    Pot,
}

/// A purse as an event argument: its seat number, or `pot`.
impl From<Purse> for Arg {
    fn from(p: Purse) -> Arg {
        match p {
            Purse::Seat(s) => Arg::from(s),
            Purse::Pot => Arg::Word("pot"),
        }
    }
}

/// Which cards may be trailed (`trail_rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TrailRule {
    /// Only when no card of the hand can capture.
    OnlyWhenUnable,
    Free,
    /// Any card that cannot capture.
    CardLevel,
}

/// The options the rules consult, read once for every game under them (no string lookups on
/// the decision path).
#[derive(Clone, Copy, Debug)]
struct Rules {
    stake: i64,
    target: i64,
    teams: bool,
    games: usize,
    extra_games_cap: usize,
    ante_per_deal: bool,
    trail: TrailRule,
    /// `matador_source=table_only`: the capturing card scores no matador.
    matador_table_only: bool,
    /// `last_play_skwitz=counts`.
    last_play_skwitz: bool,
    leftover_to_last_captor: bool,
    /// `tie_rule=all_tied`.
    tie_all_tied: bool,
    /// `out_timing=on_turn` (else Out! is automatic at the deal end).
    out_on_turn: bool,
    /// `collect_rule=second_win_total`.
    collect_second_win: bool,
    breach_penalty: bool,
}

impl Rules {
    fn new(o: &Options) -> Rules {
        Rules {
            stake: o.int("stake"),
            target: o.int("target"),
            teams: o.flag("teams"),
            games: o.int("games") as usize,
            extra_games_cap: o.int("extra_games_cap") as usize,
            ante_per_deal: o.get("ante_per") == "deal",
            trail: match o.get("trail_rule") {
                "free" => TrailRule::Free,
                "card_level" => TrailRule::CardLevel,
                _ => TrailRule::OnlyWhenUnable,
            },
            matador_table_only: o.get("matador_source") == "table_only",
            last_play_skwitz: o.get("last_play_skwitz") != "no",
            leftover_to_last_captor: o.flag("leftover_to_last_captor"),
            tie_all_tied: o.get("tie_rule") == "all_tied",
            out_on_turn: o.get("out_timing") == "on_turn",
            collect_second_win: o.get("collect_rule") == "second_win_total",
            breach_penalty: o.flag("breach_penalty"),
        }
    }
}

/// What the rules need of the options, read once for every game under them.
struct Setup {
    rules: Rules,
    /// The `deal_table` overrides by player count, or why they do not parse.
    deal_table: Result<BTreeMap<usize, (usize, usize, usize)>, String>,
}

/// The cards a pile, the table or the removed cards can hold: a whole deck. Given as capacity
/// when a deal is made, so that no play grows them.
const DECK: usize = 52;

/// A whole Skwitz session.
///
/// Its decision path allocates nothing: the options are read once into `Rules`, captures are
/// written into the caller's buffer as card sets, and the table, piles and hands are given room
/// for every card they can hold when a deal is made.
#[derive(Clone)]
pub struct Skwitz {
    rules: Rules,
    n: usize,
    teams: bool,
    stake: i64,
    target: i64,
    /// (table cards, cards per draw, draws).
    layout: (usize, usize, usize),
    chance: Chance,
    ev: Pending,
    // The session.
    games_target: usize,
    extra_cap: usize,
    game_no: usize,
    deal_no: usize,
    deals_in_game: usize,
    chips: Vec<i64>,
    /// Deals and Skwitz games ended so far ([`Engine::standing`]).
    deals_done: u64,
    pot: i64,
    /// The side holding the pot (a side is a seat, or a team 0/1 with teams).
    pot_holder: Option<usize>,
    wins_since_collect: Vec<usize>,
    winners: Vec<Seat>,
    collections: Vec<(Seat, i64)>,
    /// Breaches per seat (`breach_penalty`).
    breaches: Vec<usize>,
    /// Points per side in the current game.
    points: Vec<i64>,
    dealer: Seat,
    // The deal.
    table: Vec<Card>,
    hands: Vec<Vec<Card>>,
    /// The stock, top first.
    stock: Vec<Card>,
    piles: Vec<Vec<Card>>,
    removed: Vec<Card>,
    last_captor: Option<Seat>,
    draws: usize,
    turn: Seat,
    over: bool,
    outcome: Option<Outcome>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    deal_error: Option<String>,
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

    fn everyone(&self) -> Audience {
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
    fn opponents(&self, s: Seat) -> impl Iterator<Item = Seat> {
        let teams = self.teams;
        (0..self.n).filter(move |&o| if teams { o % 2 != s % 2 } else { o != s })
    }

    fn pay(&mut self, from: Purse, to: Purse, amount: i64, reason: &'static str) {
        if amount == 0 {
            return;
        }
        for (p, d) in [(from, -amount), (to, amount)] {
            match p {
                Purse::Seat(s) => self.chips[s] += d,
                Purse::Pot => self.pot += d,
            }
        }
        self.ev.emit(self.everyone(), "pay", || args![from, to, amount, reason]);
    }

    fn score(&mut self, seat: Seat, reason: &'static str) {
        let side = self.side(seat);
        self.points[side] += 1;
        self.ev
            .emit(self.everyone(), "point", || args![seat, reason, self.points[side]]);
    }

    /// The bottom card of a deal: the last card of the stock, or of the dealer's first draw when
    /// the first draw takes the whole stock.
    fn bottom(&self, hands: &[Vec<Card>], stock: &[Card]) -> Option<Card> {
        stock.last().or_else(|| hands[self.dealer].last()).copied()
    }

    /// Antes, shuffles until the bottom card is no matador, lays out the table and makes the first draw.
    fn start_deal(&mut self) -> Result<(), String> {
        self.deal_no += 1;
        self.deals_in_game += 1;
        let (t, h, _) = self.layout;
        self.ev
            .emit(self.everyone(), "deal", || args![self.deal_no, self.dealer]);
        if self.rules.ante_per_deal || self.deals_in_game == 1 {
            for s in 0..self.n {
                self.pay(Purse::Seat(s), Purse::Pot, self.stake, "ante");
            }
        }
        let forehand = self.right(self.dealer);
        let req = DealRequest {
            dealer: self.dealer,
            deck: full_deck(),
            hand_sizes: vec![h; self.n],
            piles: vec![("table", t), ("stock", usize::MAX)],
            first: forehand,
            clockwise: false,
            packets: vec![],
            cut_from: None,
        };
        let mut attempts = 0;
        let deal = loop {
            let d = self.chance.deal(&req)?.clone();
            let table = d.piles.get("table").cloned().unwrap_or_default();
            let stock = d.piles.get("stock").cloned().unwrap_or_default();
            if table.len() != t {
                return Err(format!(
                    "deal {}: the table pile has {} cards, this game lays out {t}",
                    self.deal_no,
                    table.len()
                ));
            }
            let total = d.hands.iter().map(Vec::len).sum::<usize>() + table.len() + stock.len();
            if total != 52 {
                return Err(format!(
                    "deal {}: the deal holds {total} cards, not 52 (the stock pile must hold the rest)",
                    self.deal_no
                ));
            }
            attempts += 1;
            match self.bottom(&d.hands, &stock) {
                Some(b) if is_matador(b) && attempts < 1000 => {
                    self.ev.emit(self.everyone(), "reshuffle", || args![]);
                }
                _ => break (d, table, stock),
            }
        };
        let (d, table, stock) = deal;
        let bottom = self.bottom(&d.hands, &stock).expect("a deal has a bottom card");
        self.ev.emit(Audience::seat(self.dealer), "bottom", || args![bottom]);
        // Room for every card, so that no play grows them.
        self.table.clear();
        self.table.reserve(DECK);
        self.table.extend(table);
        self.stock = stock;
        for pile in &mut self.piles {
            pile.clear();
            pile.reserve(DECK);
        }
        self.removed.clear();
        self.removed.reserve(DECK);
        self.last_captor = None;
        self.draws = 0;
        self.ev.emit(self.everyone(), "table", || {
            let mut cards: Args = self.table.iter().map(|&c| Arg::Card(c)).collect();
            if cards.is_empty() {
                cards.push(Arg::Word("-"));
            }
            cards
        });
        self.hands = d.hands;
        for hand in &mut self.hands {
            // Room for a draw of h cards.
            hand.reserve(h.saturating_sub(hand.len()));
        }
        self.announce_draw();
        Ok(())
    }

    /// Announces a draw (the hands are already in `self.hands`); forehand plays first.
    fn announce_draw(&mut self) {
        self.draws += 1;
        self.ev
            .emit(self.everyone(), "draw", || args![self.draws, self.stock.len()]);
        for s in 0..self.n {
            self.hands[s].sort_unstable();
            self.ev.emit(Audience::seat(s), "hand", || {
                self.hands[s].iter().map(|&c| crate::game::Arg::Card(c)).collect()
            });
        }
        self.turn = self.right(self.dealer);
    }

    /// Draws h cards each from the top of the stock, forehand first, anticlockwise.
    fn draw(&mut self) {
        let h = self.layout.1;
        let mut s = self.right(self.dealer);
        for _ in 0..self.n {
            let k = h.min(self.stock.len());
            self.hands[s].clear();
            self.hands[s].extend(self.stock.drain(..k));
            s = self.right(s);
        }
        self.announce_draw();
    }

    fn can_declare(&self, s: Seat) -> bool {
        self.rules.out_on_turn && self.points[self.side(s)] >= self.target
    }

    /// Whether `card` (in the mover's hand) may be trailed.
    fn may_trail(&self, card: Card) -> Result<(), String> {
        let hand = &self.hands[self.turn];
        match self.rules.trail {
            TrailRule::Free => Ok(()),
            TrailRule::CardLevel => {
                if let Some(c) = captures::captures(card, &self.table).first() {
                    Err(format!(
                        "{card} can capture ({}), so it must capture (trail_rule=card_level)",
                        captures::token(card, c)
                    ))
                } else {
                    Ok(())
                }
            }
            TrailRule::OnlyWhenUnable => {
                for &h in hand {
                    if let Some(c) = captures::captures(h, &self.table).first() {
                        return Err(format!(
                            "you can capture ({}), and a player may trail only when no card can capture",
                            captures::token(h, c)
                        ));
                    }
                }
                Ok(())
            }
        }
    }

    /// Parses an action token against the current state without changing anything.
    fn parse_action(&self, token: &str) -> Result<Action, String> {
        if token == "out" {
            if !self.rules.out_on_turn {
                return Err("Out! is automatic at the deal end under out_timing=auto_at_deal_end".into());
            }
            let side = self.side(self.turn);
            if !self.can_declare(self.turn) {
                return Err(format!(
                    "Out! needs {} points; {} has {}",
                    self.target,
                    if self.teams { "your team" } else { "you" },
                    self.points[side]
                ));
            }
            return Ok(Action::Out);
        }
        let (card_s, rest) = match token.split_once(':') {
            Some((c, r)) => (c, Some(r)),
            None => (token, None),
        };
        let card: Card = card_s.parse().map_err(|e| {
            format!("'{token}' is not an action: write out, a card to trail (7H) or CARD:C1,C2 to capture ({e})")
        })?;
        if !self.hands[self.turn].contains(&card) {
            return Err(format!("{card} is not in your hand"));
        }
        match rest {
            None => {
                self.may_trail(card)?;
                Ok(Action::Trail(card))
            }
            Some(list) => {
                let mut taken: Vec<Card> = Vec::new();
                for t in list.split(',') {
                    let c: Card = t.parse().map_err(|e| {
                        format!("'{token}': the captured cards must be cards separated by commas ({e})")
                    })?;
                    if !self.table.contains(&c) {
                        return Err(format!("{c} is not on the table"));
                    }
                    if taken.contains(&c) {
                        return Err(format!("{c} is listed twice"));
                    }
                    taken.push(c);
                }
                captures::check(card, &taken)?;
                let canonical = captures::token(card, &taken);
                if canonical != token {
                    return Err(format!(
                        "write the captured cards in notation order (S H D C, high to low): {canonical}"
                    ));
                }
                Ok(Action::Capture(card, taken))
            }
        }
    }

    /// `card` from the mover's hand takes `taken` (a legal capture) from the table into the
    /// mover's pile: the cards entering the pile (the played card first, then the taken ones in
    /// notation order) score their matadors, and a cleared table a skwitz.
    fn capture(&mut self, card: Card, taken: CardSet) {
        let s = self.turn;
        self.hands[s].retain(|&c| c != card);
        self.table.retain(|&c| !taken.contains(c));
        let table_only = self.rules.matador_table_only;
        let played = std::iter::once(card).filter(|_| !table_only);
        for c in played.chain(taken.iter()) {
            if is_matador(c) {
                self.ev.emit(self.everyone(), "matador", || args![s, c]);
                self.score(s, "matador");
                self.bonus_payments(s, "matador");
            }
        }
        let last_play = self.stock.is_empty() && self.hands.iter().all(Vec::is_empty);
        if self.table.is_empty() && (self.rules.last_play_skwitz || !last_play) {
            // The marker: the first taken card in notation order.
            let marker = taken.iter().next().expect("a capture takes a card");
            self.ev.emit(self.everyone(), "skwitz", || args![s, marker]);
            self.score(s, "skwitz");
            self.bonus_payments(s, "skwitz");
        }
        self.piles[s].push(card);
        self.piles[s].extend(taken.iter());
        self.last_captor = Some(s);
    }

    /// Every other player (the other team) pays S/2 to `s` and S/2 to the pot.
    fn bonus_payments(&mut self, s: Seat, reason: &'static str) {
        let half = self.stake / 2;
        for o in self.opponents(s) {
            self.pay(Purse::Seat(o), Purse::Seat(s), half, reason);
            self.pay(Purse::Seat(o), Purse::Pot, half, reason);
        }
    }

    /// The default legal action of SK14 for a seat in breach: the lowest-value trail if trailing
    /// is legal (A = 1 … 10, then J, Q, K; equal values in notation order), otherwise the first
    /// capture in the canonical order (the capturing cards in notation order S H D C, high to
    /// low; each card's captures largest set first, then card by card in notation order).
    /// Never `out`: declaring is a choice.
    pub fn default_action(&self) -> String {
        let mut typed = Vec::new();
        self.legal_into(&mut typed);
        let legal: Vec<String> = typed.iter().map(|a| a.to_string()).collect();
        let trail = legal
            .iter()
            .filter(|t| !t.contains(':'))
            .filter_map(|t| t.parse::<Card>().ok())
            .min_by_key(|&c| (value(c).unwrap_or(c.rank.value()), c));
        if let Some(c) = trail {
            return c.to_string();
        }
        let mut hand = self.hands[self.turn].clone();
        hand.sort();
        for c in hand {
            if let Some(x) = captures::captures(c, &self.table).first() {
                let t = captures::token(c, x);
                if legal.contains(&t) {
                    return t;
                }
            }
        }
        legal
            .into_iter()
            .find(|t| t != "out")
            .expect("a legal play besides out")
    }

    /// After an action: the next turn, a new draw, or the deal end.
    fn advance(&mut self) -> Result<(), String> {
        if self.hands.iter().any(|h| !h.is_empty()) {
            self.turn = self.right(self.turn);
            return Ok(());
        }
        if !self.stock.is_empty() {
            self.draw();
            return Ok(());
        }
        self.deal_end()
    }

    fn deal_end(&mut self) -> Result<(), String> {
        let to = self.last_captor.filter(|_| self.rules.leftover_to_last_captor);
        match to {
            Some(s) => self.piles[s].extend_from_slice(&self.table),
            None => self.removed.extend_from_slice(&self.table),
        }
        self.ev.emit(self.everyone(), "clear", || {
            let mut a = args![to.map_or(Arg::Word("none"), Arg::from)];
            a.extend(self.table.iter().map(|&c| Arg::Card(c)));
            a
        });
        self.table.clear();
        for s in 0..self.n {
            let spades = self.piles[s].iter().filter(|c| c.suit == Suit::Spades).count();
            self.ev
                .emit(self.everyone(), "count", || args![s, self.piles[s].len(), spades]);
        }
        // Per side (at most 8).
        let sides = self.points.len();
        let mut cards = [0usize; 8];
        let mut spades = [0usize; 8];
        for s in 0..self.n {
            cards[self.side(s)] += self.piles[s].len();
            spades[self.side(s)] += self.piles[s].iter().filter(|c| c.suit == Suit::Spades).count();
        }
        for (counts, reason) in [(cards, "cards"), (spades, "spades")] {
            let most = self.most(&counts[..sides]);
            for side in (0..sides).filter(|&side| most & 1 << side != 0) {
                self.score(side, reason);
            }
        }
        if let Some(s) = self.last_captor {
            self.score(s, "last");
        }
        self.deals_done += 1;
        self.ev.emit(self.everyone(), "dealend", || args![self.deal_no]);
        let auto = !self.rules.out_on_turn || self.deals_in_game >= FORCE_OUT_AFTER_DEALS;
        if auto {
            let best = *self.points.iter().max().unwrap();
            if best >= self.target {
                // The first seat in turn order from forehand whose side has the most points.
                let mut s = self.right(self.dealer);
                while self.points[self.side(s)] != best {
                    s = self.right(s);
                }
                return self.go_out(s, "auto");
            }
        }
        self.dealer = self.right(self.dealer);
        self.start_deal()
    }

    /// The sides that score a "most" point, as a mask (bit `side`): the unique maximum, or
    /// every tied side under `tie_rule=all_tied` (nobody when every count is 0).
    fn most(&self, counts: &[usize]) -> u32 {
        let max = *counts.iter().max().unwrap();
        if max == 0 {
            return 0;
        }
        let tied = (0..counts.len())
            .filter(|&i| counts[i] == max)
            .fold(0u32, |m, i| m | 1 << i);
        if tied.count_ones() == 1 || self.rules.tie_all_tied {
            tied
        } else {
            0
        }
    }

    /// Out! by `w`: payments, matsch, the pot, and the next game or the end of the session.
    fn go_out(&mut self, w: Seat, how: &'static str) -> Result<(), String> {
        self.ev.emit(self.everyone(), "out", || args![w, how]);
        let s = self.stake;
        for o in self.opponents(w) {
            self.pay(Purse::Seat(o), Purse::Seat(w), s, "out");
            self.pay(Purse::Seat(o), Purse::Pot, s, "out");
        }
        for o in self.opponents(w) {
            if self.points[self.side(o)] == 0 {
                self.ev.emit(self.everyone(), "matsch", || args![o]);
                self.pay(Purse::Seat(o), Purse::Seat(w), s, "matsch");
                self.pay(Purse::Seat(o), Purse::Pot, s, "matsch");
            }
        }
        let side = self.side(w);
        self.wins_since_collect[side] += 1;
        let collect = if self.rules.collect_second_win {
            self.wins_since_collect[side] >= 2
        } else {
            self.pot_holder == Some(side)
        };
        if collect {
            let pot = self.pot;
            self.pay(Purse::Pot, Purse::Seat(w), pot, "collect");
            self.collections.push((w, pot));
            self.pot_holder = None;
            self.wins_since_collect.fill(0);
            self.ev.emit(self.everyone(), "potholder", || args!["none"]);
        } else {
            self.pot_holder = Some(side);
            self.ev.emit(self.everyone(), "potholder", || args![w]);
        }
        self.winners.push(w);
        self.deals_done += 1;
        self.ev.emit(self.everyone(), "gameend", || args![self.game_no, w]);
        self.dealer = w;
        self.points.fill(0);
        self.table.clear();
        self.stock.clear();
        self.hands = vec![Vec::new(); self.n];
        let done =
            self.game_no >= self.games_target && (self.pot == 0 || self.game_no >= self.games_target + self.extra_cap);
        if done {
            self.finish();
            return Ok(());
        }
        self.game_no += 1;
        self.deals_in_game = 0;
        self.ev
            .emit(self.everyone(), "newgame", || args![self.game_no, self.dealer]);
        self.start_deal()
    }

    /// The end of the session: split a pot nobody collected, and the outcome.
    fn finish(&mut self) {
        if self.pot > 0 {
            let n = self.n as i64;
            let share = self.pot / n;
            let mut rem = self.pot % n;
            let mut s = self.right(self.dealer);
            for _ in 0..self.n {
                let extra = if rem > 0 { 1 } else { 0 };
                rem -= extra;
                self.pay(Purse::Pot, Purse::Seat(s), share + extra, "split");
                s = self.right(s);
            }
        }
        self.ev.emit(self.everyone(), "sessionend", || args![self.game_no]);
        self.over = true;
        let scores: Vec<f64> = (0..self.n)
            .map(|s| {
                if self.teams {
                    (self.chips[s] + self.chips[(s + 2) % 4]) as f64
                } else {
                    self.chips[s] as f64
                }
            })
            .collect();
        let winners: Vec<String> = self.winners.iter().map(|w| w.to_string()).collect();
        let chips: Vec<String> = scores.iter().map(|c| format!("{c:+}")).collect();
        let summary = format!(
            "{} games ({} deals); Out! by {}; {}; chips {}",
            self.game_no,
            self.deal_no,
            winners.join(","),
            if self.collections.is_empty() {
                "pot split".to_string()
            } else {
                format!(
                    "pot collected by {}",
                    self.collections
                        .iter()
                        .map(|(s, p)| format!("{s}({p})"))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            },
            chips.join(" ")
        );
        self.outcome = Some(Outcome {
            scores,
            detail: json!({
                "summary": summary,
                "games": self.game_no,
                "deals": self.deal_no,
                "winners": self.winners,
                "collections": self.collections.iter().map(|(s, p)| json!([s, p])).collect::<Vec<_>>(),
                "chips": self.chips,
                "teams": self.teams,
                "breaches": self.breaches,
            }),
        });
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

enum Action {
    Out,
    Trail(Card),
    Capture(Card, Vec<Card>),
}

impl Skwitz {
    /// The legal actions of the seat to move (captures as the rules enumerate them).
    fn legal_into(&self, out: &mut Vec<SkwitzAction>) {
        out.clear();
        if self.over {
            return;
        }
        if self.can_declare(self.turn) {
            out.push(SkwitzAction::Out);
        }
        let hand = &self.hands[self.turn];
        let table = CardSet::from_cards(&self.table);
        let mut capturing = CardSet::default();
        for &c in hand {
            let wrap = |x| SkwitzAction::Capture(c, x);
            let set_of = |a: &SkwitzAction| match *a {
                SkwitzAction::Capture(_, x) => x,
                _ => CardSet::EMPTY,
            };
            if captures::push_captures(c, table, out, wrap, set_of) > 0 {
                capturing.insert(c);
            }
        }
        for &c in hand {
            let ok = match self.rules.trail {
                TrailRule::Free => true,
                TrailRule::CardLevel => !capturing.contains(c),
                TrailRule::OnlyWhenUnable => capturing.is_empty(),
            };
            if ok {
                out.push(SkwitzAction::Trail(c));
            }
        }
    }
}

impl Engine for Skwitz {
    type Action = SkwitzAction;

    fn token(action: &SkwitzAction) -> Option<&'static str> {
        action.fixed_token()
    }

    fn players(&self) -> usize {
        self.n
    }

    fn to_move(&self) -> Option<Seat> {
        if self.over {
            None
        } else {
            Some(self.turn)
        }
    }

    fn decision(&self) -> &'static str {
        "play"
    }

    fn legal(&self, out: &mut Vec<SkwitzAction>) {
        self.legal_into(out);
    }

    fn apply<E: Events>(&mut self, action: SkwitzAction, events: &mut E) -> Result<(), String> {
        if let Some(e) = self.deal_error.take() {
            return Err(e);
        }
        self.ev.listen_to(events);
        let s = self.turn;
        self.ev.emit(self.everyone(), "move", || args![s, action, "play"]);
        let r = match action {
            SkwitzAction::Out => self.go_out(s, "declared"),
            SkwitzAction::Trail(c) => {
                self.hands[s].retain(|&h| h != c);
                self.table.push(c);
                self.advance()
            }
            SkwitzAction::Capture(c, taken) => {
                self.capture(c, taken);
                self.advance()
            }
        };
        self.ev.hand_over(events);
        if let Err(e) = r {
            // A deal from a deal file did not fit: the session cannot go on.
            self.over = true;
            self.deal_error = Some(e.clone());
            return Err(e);
        }
        Ok(())
    }

    fn parse(&self, token: &str) -> Result<SkwitzAction, String> {
        if self.over {
            return Err("the session is over".into());
        }
        Ok(match self.parse_action(token)? {
            Action::Out => SkwitzAction::Out,
            Action::Trail(c) => SkwitzAction::Trail(c),
            Action::Capture(c, taken) => SkwitzAction::Capture(c, CardSet::from_cards(&taken)),
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// After each deal and each Skwitz game: the chips of each seat (its team's with `teams`)
    /// with the Skwitz game in play estimated: its side goes out first with the chance of a
    /// race to the target in which every point goes to any side alike
    /// ([`race_odds`](crate::games::race::race_odds)), and is paid (or pays) the Out; the pot,
    /// with what the Out adds to it, is shared alike (matsch and collections left out). The
    /// estimates add up to zero over the sides; at the end of the session they are the scores.
    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        let side_chips = |s: Seat| -> i64 {
            if self.teams {
                self.chips[s] + self.chips[(s + 2) % 4]
            } else {
                self.chips[s]
            }
        };
        if self.over {
            return Some((self.deals_done, (0..self.n).map(|s| side_chips(s) as f64).collect()));
        }
        let sides = self.points.len();
        let q = (self.n / sides) as f64;
        let n = self.n as f64;
        let stake = self.stake as f64;
        let needs: Vec<u32> = self.points.iter().map(|&p| (self.target - p).max(1) as u32).collect();
        let odds = crate::games::race::race_odds(&needs);
        let pot_share = q * (self.pot as f64 + (n - q) * stake) / n;
        let est = (0..self.n)
            .map(|s| {
                let p = odds[self.side(s)];
                side_chips(s) as f64 + p * (n - q) * stake - (1.0 - p) * 2.0 * q * stake + pot_share
            })
            .collect();
        Some((self.deals_done, est))
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }

    fn chance_mut(&mut self) -> &mut Chance {
        &mut self.chance
    }

    /// SK14 under `breach_penalty=true`: the faulty seat pays S/2 to every other player (the
    /// other team with `teams`), and the default action ([`Skwitz::default_action`]) is played
    /// for it. Otherwise the referee's usual substitute.
    fn on_fault<E: Events>(&mut self, seat: Seat, kind: &str, events: &mut E) -> Ruling<SkwitzAction> {
        if !self.rules.breach_penalty || self.over || seat != self.turn {
            return Ruling::Substitute;
        }
        self.ev.listen_to(events);
        self.breaches[seat] += 1;
        self.ev
            .emit(self.everyone(), "breach", || args![seat, kind.to_string()]);
        let half = self.stake / 2;
        for o in self.opponents(seat) {
            self.pay(Purse::Seat(seat), Purse::Seat(o), half, "breach");
        }
        self.ev.hand_over(events);
        let token = self.default_action();
        Ruling::Play(self.parse(&token).expect("the default action is legal"))
    }
}

/// The value of a card for sums (re-exported for the policy and tests).
pub fn card_value(c: Card) -> Option<u8> {
    value(c)
}

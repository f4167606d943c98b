//! The Skwitz seat view: what one seat knows, folded from the notification lines routed to it
//! (protocol.md, section "Skwitz"), and its JSON form (without `decision`, `legal` and
//! `time_ms`, which the referee adds).

use crate::cards::{Card, Suit};
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::options::Options;
use serde_json::{json, Value};

/// One seat's knowledge.
#[derive(Clone)]
pub struct SkwitzView {
    pub(super) players: usize,
    pub(super) seat: Seat,
    /// Made JSON only in `to_json` (for a process bot that asked for `view`).
    pub(super) options: Options,
    teams: bool,
    game_no: usize,
    deal: usize,
    dealer: Option<Seat>,
    pub(super) hand: Vec<Card>,
    pub(super) table: Vec<Card>,
    stock: usize,
    bottom: Option<Card>,
    draw: usize,
    pub(super) hand_sizes: Vec<usize>,
    points: Vec<i64>,
    chips: Vec<i64>,
    pot: i64,
    pot_holder: Option<Seat>,
    piles: Vec<usize>,
    spades: Vec<usize>,
    skwitz: Vec<usize>,
    matadors: Vec<Vec<String>>,
    last_captor: Option<Seat>,
    /// The cards seen face up in this deal.
    pub(super) seen: Vec<Card>,
    /// This deal's moves (shared strings: search copies views for every world it plays).
    moves: Vec<(Seat, std::sync::Arc<str>)>,
    winners: Vec<Seat>,
    scores: Option<Vec<f64>>,
}

impl SkwitzView {
    pub fn new(info: &GameInfo) -> SkwitzView {
        let n = info.players;
        SkwitzView {
            players: n,
            seat: info.seat,
            options: info.options.clone(),
            teams: info.options.flag("teams"),
            game_no: 0,
            deal: 0,
            dealer: None,
            hand: vec![],
            table: vec![],
            stock: 0,
            bottom: None,
            draw: 0,
            hand_sizes: vec![0; n],
            points: vec![0; n],
            chips: vec![0; n],
            pot: 0,
            pot_holder: None,
            piles: vec![0; n],
            spades: vec![0; n],
            skwitz: vec![0; n],
            matadors: vec![vec![]; n],
            last_captor: None,
            seen: vec![],
            moves: vec![],
            winners: vec![],
            scores: None,
        }
    }

    fn seat_arg(&self, a: Option<&Arg>) -> Option<Seat> {
        a.and_then(|x| x.parse::<Seat>().ok()).filter(|&s| s < self.players)
    }

    fn cards(args: &[Arg]) -> Vec<Card> {
        args.iter().filter_map(|a| a.parse().ok()).collect()
    }

    /// Sets the points of `seat`'s side (both partners with teams).
    fn set_points(&mut self, seat: Seat, total: i64) {
        for s in 0..self.players {
            if s == seat || (self.teams && s % 2 == seat % 2) {
                self.points[s] = total;
            }
        }
    }

    fn play(&mut self, seat: Seat, token: &str) {
        self.moves.push((seat, std::sync::Arc::from(token)));
        if token == "out" {
            return;
        }
        let (card_s, rest) = match token.split_once(':') {
            Some((c, r)) => (c, Some(r)),
            None => (token, None),
        };
        let Ok(card) = card_s.parse::<Card>() else { return };
        self.seen.push(card);
        if seat == self.seat {
            self.hand.retain(|&c| c != card);
        }
        self.hand_sizes[seat] = self.hand_sizes[seat].saturating_sub(1);
        match rest {
            None => self.table.push(card),
            Some(list) => {
                let taken: Vec<Card> = list.split(',').filter_map(|t| t.parse().ok()).collect();
                self.table.retain(|c| !taken.contains(c));
                let all: Vec<Card> = std::iter::once(card).chain(taken).collect();
                self.piles[seat] += all.len();
                self.spades[seat] += all.iter().filter(|c| c.suit == Suit::Spades).count();
                self.last_captor = Some(seat);
            }
        }
    }
}

impl SeatView for SkwitzView {
    fn observe(&mut self, kind: &str, args: &[Arg]) {
        let n = self.players;
        match kind {
            "newgame" => {
                self.game_no = args.first().and_then(|a| a.parse().ok()).unwrap_or(0);
                self.points = vec![0; n];
            }
            "deal" => {
                self.deal = args.first().and_then(|a| a.parse().ok()).unwrap_or(0);
                self.dealer = self.seat_arg(args.get(1));
                self.hand.clear();
                self.table.clear();
                self.bottom = None;
                self.draw = 0;
                self.hand_sizes = vec![0; n];
                self.piles = vec![0; n];
                self.spades = vec![0; n];
                self.skwitz = vec![0; n];
                self.matadors = vec![vec![]; n];
                self.last_captor = None;
                self.seen.clear();
                self.moves.clear();
            }
            "bottom" => self.bottom = args.first().and_then(|a| a.parse().ok()),
            "table" => {
                self.table = Self::cards(args);
                self.seen.extend(self.table.iter().copied());
            }
            "draw" => {
                self.draw = args.first().and_then(|a| a.parse().ok()).unwrap_or(0);
                self.stock = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
                // Everyone draws the same number of cards; our own `hand` line gives it.
            }
            "hand" => {
                self.hand = Self::cards(args);
                let k = self.hand.len();
                self.hand_sizes = vec![k; n];
            }
            "move" => {
                if let (Some(s), Some(t)) = (self.seat_arg(args.first()), args.get(1)) {
                    let t = t.clone();
                    self.play(s, &t.text());
                }
            }
            "matador" => {
                if let (Some(s), Some(c)) = (self.seat_arg(args.first()), args.get(1)) {
                    self.matadors[s].push(c.to_string());
                }
            }
            "skwitz" => {
                if let Some(s) = self.seat_arg(args.first()) {
                    self.skwitz[s] += 1;
                }
            }
            "point" => {
                if let (Some(s), Some(t)) = (self.seat_arg(args.first()), args.get(2).and_then(|a| a.parse().ok())) {
                    self.set_points(s, t);
                }
            }
            "pay" => {
                let amount: i64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
                for (i, d) in [(0, -amount), (1, amount)] {
                    match args.get(i) {
                        Some(a) if a == "pot" => self.pot += d,
                        a => {
                            if let Some(s) = self.seat_arg(a) {
                                self.chips[s] += d;
                            }
                        }
                    }
                }
            }
            "clear" => self.table.clear(),
            "count" => {
                if let (Some(s), Some(c), Some(sp)) = (
                    self.seat_arg(args.first()),
                    args.get(1).and_then(|a| a.parse().ok()),
                    args.get(2).and_then(|a| a.parse().ok()),
                ) {
                    self.piles[s] = c;
                    self.spades[s] = sp;
                }
            }
            "potholder" => self.pot_holder = self.seat_arg(args.first()),
            "gameend" => {
                if let Some(w) = self.seat_arg(args.get(1)) {
                    self.winners.push(w);
                }
                self.points = vec![0; n];
            }
            "gameover" => self.scores = Some(args.iter().filter_map(|a| a.parse().ok()).collect()),
            _ => {}
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_json(&self) -> Value {
        let cards = |v: &[Card]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        json!({
            "game": "skwitz",
            "players": self.players,
            "seat": self.seat,
            "options": self.options.to_json(),
            "teams": self.teams,
            "game_no": self.game_no,
            "deal": self.deal,
            "dealer": self.dealer,
            "forehand": self.dealer.map(|d| (d + self.players - 1) % self.players),
            "hand": cards(&self.hand),
            "table": cards(&self.table),
            "stock": self.stock,
            "bottom": self.bottom.map(|c| c.to_string()),
            "draw": self.draw,
            "hand_sizes": self.hand_sizes,
            "points": self.points,
            "chips": self.chips,
            "pot": self.pot,
            "pot_holder": self.pot_holder,
            "piles": self.piles,
            "spades": self.spades,
            "skwitz": self.skwitz,
            "matadors": self.matadors,
            "last_captor": self.last_captor,
            "seen": cards(&self.seen),
            "moves": self.moves.iter().map(|(s, t)| json!([s, &**t])).collect::<Vec<_>>(),
            "winners": self.winners,
            "scores": self.scores,
        })
    }
}

pub fn new_view(info: &GameInfo) -> Box<dyn SeatView> {
    Box::new(SkwitzView::new(info))
}

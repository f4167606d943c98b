//! The Skwitz seat view: what one seat knows, folded from the notification lines routed to it
//! (protocol.md, section "Skwitz"), and its JSON form (without `decision`, `legal` and
//! `time_ms`, which the referee adds).

use super::engine::SkwitzAction;
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::options::Options;
use serde_json::{json, Value};
use std::sync::Arc;

/// A move as the view keeps it: the action, typed (its `Display` writes the token back), or,
/// for a token that does not read back as the same action, the token itself.
#[derive(Clone, Debug)]
enum Played {
    Action(SkwitzAction),
    Token(Arc<str>),
}

/// A move token read as the action it writes: `out`, a card, or a card and its captured cards
/// in notation order. `None` for anything else (a token that would not be written back as it
/// is).
fn action_of(token: &str) -> Option<SkwitzAction> {
    let b = token.as_bytes();
    if b == b"out" {
        return Some(SkwitzAction::Out);
    }
    let card_at = |i: usize| -> Option<Card> {
        Some(Card::new(
            Rank::from_letter(char::from(*b.get(i)?))?,
            Suit::from_letter(char::from(*b.get(i + 1)?))?,
        ))
    };
    if b.len() == 2 {
        return card_at(0).map(SkwitzAction::Trail);
    }
    // `CARD:C1,C2,…`: three bytes per captured card, the last without its comma.
    if b.len() < 5 || b[2] != b':' || (b.len() - 3) % 3 != 2 {
        return None;
    }
    let card = card_at(0)?;
    let mut taken = CardSet::EMPTY;
    let mut last: Option<Card> = None;
    let mut i = 3;
    loop {
        let x = card_at(i)?;
        // Strictly in notation order, as the action writes them.
        if last.is_some_and(|l| l >= x) {
            return None;
        }
        last = Some(x);
        taken.insert(x);
        i += 3;
        if i > b.len() {
            return Some(SkwitzAction::Capture(card, taken));
        }
        if b[i - 1] != b',' {
            return None;
        }
    }
}

/// One seat's knowledge.
#[derive(Clone)]
pub struct SkwitzView {
    pub(super) players: usize,
    pub(super) seat: Seat,
    /// Made JSON only in `to_json` (for a process bot that asked for `view`).
    options: Options,
    /// `matador_source` is not `table_only`: the capturing card scores a matador too.
    pub(super) matador_any: bool,
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
    /// The cards seen face up in this deal, in the order seen.
    seen: Vec<Card>,
    /// The same cards as a set.
    pub(super) seen_set: CardSet,
    /// This deal's moves.
    moves: Vec<(Seat, Played)>,
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
            matador_any: !info
                .options
                .iter()
                .any(|(k, v)| k == "matador_source" && v == "table_only"),
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
            seen_set: CardSet::EMPTY,
            moves: vec![],
            winners: vec![],
            scores: None,
        }
    }

    fn seat_arg(&self, a: Option<&Arg>) -> Option<Seat> {
        a.and_then(|x| x.parse::<Seat>().ok()).filter(|&s| s < self.players)
    }

    /// Sets the points of `seat`'s side (both partners with teams).
    fn set_points(&mut self, seat: Seat, total: i64) {
        for s in 0..self.players {
            if s == seat || (self.teams && s % 2 == seat % 2) {
                self.points[s] = total;
            }
        }
    }

    /// A `move` line's token: typed where it is an action.
    fn play_arg(&mut self, seat: Seat, arg: &Arg) {
        let action = match arg {
            Arg::Card(c) => Some(SkwitzAction::Trail(*c)),
            Arg::Word(w) => action_of(w),
            Arg::Text(t) => action_of(t),
            Arg::Action { code, .. } => super::engine::capture_of_code(*code),
            Arg::Int(_) => None,
        };
        match action {
            Some(a) => self.play(seat, a),
            None => self.play_token(seat, &arg.text()),
        }
    }

    /// A token that is no action as written (never one the referee sends): read as far as it
    /// goes, and kept as it is.
    fn play_token(&mut self, seat: Seat, token: &str) {
        self.moves.push((seat, Played::Token(Arc::from(token))));
        let (card_s, rest) = match token.split_once(':') {
            Some((c, r)) => (c, Some(r)),
            None => (token, None),
        };
        let Ok(card) = card_s.parse::<Card>() else { return };
        self.seen.push(card);
        self.seen_set.insert(card);
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

    fn play(&mut self, seat: Seat, action: SkwitzAction) {
        self.moves.push((seat, Played::Action(action)));
        let (card, taken) = match action {
            SkwitzAction::Out => return,
            SkwitzAction::Trail(c) => (c, None),
            SkwitzAction::Capture(c, taken) => (c, Some(taken)),
        };
        self.seen.push(card);
        self.seen_set.insert(card);
        if seat == self.seat {
            self.hand.retain(|&c| c != card);
        }
        self.hand_sizes[seat] = self.hand_sizes[seat].saturating_sub(1);
        match taken {
            None => self.table.push(card),
            Some(taken) => {
                self.table.retain(|&c| !taken.contains(c));
                self.piles[seat] += taken.len() + 1;
                let spades = taken.of_suit(Suit::Spades).len() + usize::from(card.suit == Suit::Spades);
                self.spades[seat] += spades;
                self.last_captor = Some(seat);
            }
        }
    }
}

/// Read-only access for the Python package's observation tensor (crates/py/src/tensor).
impl SkwitzView {
    /// The seat's cards now.
    pub fn hand(&self) -> &[Card] {
        &self.hand
    }
    /// The cards face up on the table.
    pub fn table(&self) -> &[Card] {
        &self.table
    }
    /// How many cards each seat holds.
    pub fn hand_sizes(&self) -> &[usize] {
        &self.hand_sizes
    }
    /// How many cards are left in the stock.
    pub fn stock(&self) -> usize {
        self.stock
    }
    /// Each seat's points in this Skwitz game.
    pub fn points(&self) -> &[i64] {
        &self.points
    }
    /// Each seat's chips.
    pub fn chips(&self) -> &[i64] {
        &self.chips
    }
    pub fn pot(&self) -> i64 {
        self.pot
    }
    pub fn pot_holder(&self) -> Option<Seat> {
        self.pot_holder
    }
}

impl SeatView for SkwitzView {
    fn held(&self) -> Option<&[Card]> {
        Some(self.hand())
    }

    fn observe(&mut self, kind: &str, args: &[Arg]) {
        let n = self.players;
        match kind {
            // The commonest line first.
            "move" => {
                if let (Some(s), Some(t)) = (self.seat_arg(args.first()), args.get(1)) {
                    self.play_arg(s, t);
                }
            }
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
                self.hand_sizes.fill(0);
                self.piles.fill(0);
                self.spades.fill(0);
                self.skwitz.fill(0);
                self.matadors.iter_mut().for_each(Vec::clear);
                self.last_captor = None;
                self.seen.clear();
                self.seen_set = CardSet::EMPTY;
                self.moves.clear();
            }
            "bottom" => self.bottom = args.first().and_then(|a| a.parse().ok()),
            "table" => {
                self.table.clear();
                self.table.extend(args.iter().filter_map(Arg::card));
                self.seen.extend(self.table.iter().copied());
                self.seen_set = self.seen_set.union(CardSet::from_cards(&self.table));
            }
            "draw" => {
                self.draw = args.first().and_then(|a| a.parse().ok()).unwrap_or(0);
                self.stock = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
                // Everyone draws the same number of cards; our own `hand` line gives it.
            }
            "hand" => {
                self.hand.clear();
                self.hand.extend(args.iter().filter_map(Arg::card));
                let k = self.hand.len();
                self.hand_sizes.fill(k);
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
                        Some(a) if is_pot(a) => self.pot += d,
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
            "moves": self
                .moves
                .iter()
                .map(|(s, p)| match p {
                    Played::Action(a) => json!([s, a.to_string()]),
                    Played::Token(t) => json!([s, &**t]),
                })
                .collect::<Vec<_>>(),
            "winners": self.winners,
            "scores": self.scores,
        })
    }
}

/// Whether a `pay` line's purse is the pot (a seat number never is).
fn is_pot(a: &Arg) -> bool {
    match a {
        Arg::Int(_) | Arg::Card(_) => false,
        Arg::Word(w) => *w == "pot",
        Arg::Text(t) => t == "pot",
        Arg::Action { .. } => false,
    }
}

pub fn new_view(info: &GameInfo) -> Box<dyn SeatView> {
    Box::new(SkwitzView::new(info))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::{Purpose, Rng};

    #[test]
    fn move_tokens_read_back_as_the_actions_that_write_them() {
        let mut rng = Rng::new(5, Purpose::Table, 0);
        for _ in 0..5000 {
            let card = Card::from_index(rng.below(52) as usize);
            let taken = CardSet(rng.next_u64() & rng.next_u64() & rng.next_u64() & CardSet::DECK.0);
            for a in [
                SkwitzAction::Out,
                SkwitzAction::Trail(card),
                SkwitzAction::Capture(card, taken),
            ] {
                let token = a.to_string();
                let read = action_of(&token);
                if matches!(a, SkwitzAction::Capture(_, t) if t.is_empty()) {
                    assert_eq!(read, None, "{token}");
                } else {
                    assert_eq!(read, Some(a), "{token}");
                }
                // As an event argument: the same token, and a capture's number reads back.
                let arg = Arg::from(a);
                assert_eq!(arg.to_string(), token);
                if let Some(code) = arg.action_code() {
                    assert_eq!(crate::games::skwitz::engine::capture_of_code(code), Some(a), "{token}");
                }
            }
        }
        for bad in [
            "",
            "o",
            "outs",
            "A",
            "ASX",
            "AS:",
            "AS:KS,",
            "AS:KS,QS,",
            "AS:QS,KS",
            "AS:KS,KS",
            "AS;KS",
            "AS:KSx",
            "1S",
            "AS:KS QS",
            "as",
            "AS:ks",
        ] {
            assert_eq!(action_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_token_that_is_no_action_is_kept_as_it_is() {
        let info = GameInfo {
            game: "skwitz".into(),
            options: Options::resolve(&super::super::options(), "skwitz", &[] as &[&str]).unwrap(),
            players: 4,
            seat: 0,
        };
        let mut v = SkwitzView::new(&info);
        for l in [
            "deal 1 0",
            "table 2H 3H 4H 5H",
            "move 3 7C:2H,5H",
            "move 2 9C:4H,3H,x",
            "move 1 QS",
        ] {
            let mut w = l.split(' ');
            let kind = w.next().unwrap();
            v.observe(kind, &crate::game::text_args(w));
        }
        let j = v.to_json();
        assert_eq!(j["moves"], json!([[3, "7C:2H,5H"], [2, "9C:4H,3H,x"], [1, "QS"]]));
        assert_eq!(j["table"], json!(["QS"]));
        assert_eq!(j["piles"], json!([0, 0, 3, 3]));
    }
}

//! The Schwimmen seat view: what one seat knows, folded from the notification lines routed to
//! it (protocol.md, section "Schwimmen"), and its JSON form (without `decision`, `legal` and
//! `time_ms`, which the referee adds).

use super::engine::SchwimmenAction;
use crate::cards::{Card, Rank, Suit};
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::notation::score_value;
use crate::options::Options;
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub fn new_view(info: &GameInfo) -> Box<dyn SeatView> {
    Box::new(SchwimmenView::new(info))
}

/// What a hand of three cards is worth, for people, by the rules' own count
/// ([`super::scoring::value_halves`]): `21`, `30.5` (three of a kind), `31`; `None` for a hand
/// of other than three cards (the human seat and `show --html` show it beside the hand).
pub fn hand_value_text(hand: &[Card]) -> Option<String> {
    (hand.len() == 3).then(|| super::scoring::value_text(super::scoring::value_halves(hand)))
}

/// Everything that belongs to the current round (reset by a `deal` line).
#[derive(Clone, Debug, Default)]
pub(super) struct Round {
    number: Option<u64>,
    dealer: Option<Seat>,
    pub(super) hand: Vec<Card>,
    /// The packet the dealer has seen, while he chooses.
    pub(super) packet: Vec<Card>,
    pub(super) middle: Vec<Card>,
    knocker: Option<Seat>,
    moves: Vec<(Seat, Played)>,
    /// The tokens of the moves that are kept as a token ([`Played::Token`]).
    tokens: Vec<String>,
    /// The hands shown: the seat and where its cards are in `shown_cards` (a seat shown again
    /// replaces what it showed).
    shown: Vec<(Seat, usize, usize)>,
    shown_cards: Vec<Card>,
    ended: Option<Ended>,
}

impl Round {
    /// A new round: everything cleared, the lists keeping their room.
    fn reset(&mut self, number: Option<u64>, dealer: Option<Seat>) {
        self.number = number;
        self.dealer = dealer;
        self.hand.clear();
        self.packet.clear();
        self.middle.clear();
        self.knocker = None;
        self.moves.clear();
        self.tokens.clear();
        self.shown.clear();
        self.shown_cards.clear();
        self.ended = None;
    }
}

/// A move as the view keeps it: the action, typed (its `Display` writes the token back); a
/// swap the engine told as its number ([`Arg::Action`]), kept as that number and read back as
/// the swap only for [`to_json`](SeatView::to_json) (a view sees every swap of the game, its
/// bot asks for few); or, for a token that does not read back as the same action, where the
/// token is in [`Round::tokens`]. `Copy`, so that a new round clears the moves at once.
#[derive(Clone, Copy, Debug)]
enum Played {
    Action(SchwimmenAction),
    /// `hand * 52 + middle` (card indexes), below 52 * 52: [`super::engine::swap_of_code`].
    Swap(u16),
    Token(usize),
}

impl Played {
    /// The move's token.
    fn token(&self, tokens: &[String]) -> String {
        match self {
            Played::Action(a) => a.to_string(),
            Played::Swap(code) => super::engine::swap_of_code(u64::from(*code))
                .map(|a| a.to_string())
                .unwrap_or_default(),
            Played::Token(i) => tokens[*i].clone(),
        }
    }
}

/// How the round ended, as its `end` line said: the reason and the seat as the engine gives
/// them (written back as the same tokens), or the line's tokens joined.
#[derive(Clone, Debug)]
enum Ended {
    Typed(&'static str, Option<i64>),
    Text(String),
}

impl Ended {
    fn of(args: &[Arg]) -> Ended {
        match args {
            [Arg::Word(w)] => Ended::Typed(w, None),
            [Arg::Word(w), Arg::Int(s)] => Ended::Typed(w, Some(*s)),
            _ => Ended::Text(crate::game::texts(args).join(" ")),
        }
    }
    fn text(&self) -> String {
        match self {
            Ended::Typed(w, None) => w.to_string(),
            Ended::Typed(w, Some(s)) => format!("{w} {s}"),
            Ended::Text(t) => t.clone(),
        }
    }
}

/// A move token read as the action it writes (`None`: not one, as written).
fn action_of(token: &str) -> Option<SchwimmenAction> {
    let b = token.as_bytes();
    // `swap_XX_YY`, the commonest, first.
    if b.len() == 10 && b.starts_with(b"swap_") && b[7] == b'_' {
        let card = |i: usize| {
            Some(Card::new(
                Rank::from_letter(char::from(b[i]))?,
                Suit::from_letter(char::from(b[i + 1]))?,
            ))
        };
        return Some(SchwimmenAction::Swap(card(5)?, card(8)?));
    }
    Some(match token {
        "keep_seen" => SchwimmenAction::KeepSeen,
        "take_unseen" => SchwimmenAction::TakeUnseen,
        "swap_all" => SchwimmenAction::SwapAll,
        "knock" => SchwimmenAction::Knock,
        "pass" => SchwimmenAction::Pass,
        _ => return None,
    })
}

/// One seat's knowledge of a Schwimmen game.
#[derive(Clone)]
pub struct SchwimmenView {
    game: String,
    players: usize,
    seat: Seat,
    /// Made JSON only in `to_json` (for a process bot that asked for `view`).
    options: Options,
    pub(super) round: Round,
    strikes: Vec<u32>,
    active: Vec<bool>,
    swimming: Vec<bool>,
    places: BTreeMap<Seat, String>,
    scores: Option<Vec<Value>>,
}

fn seat_arg(args: &[Arg], i: usize) -> Option<Seat> {
    args.get(i).and_then(|a| a.parse().ok())
}

/// Sets `cards` to the cards among `args`.
#[inline(never)]
fn set_cards(cards: &mut Vec<Card>, args: &[Arg]) {
    cards.clear();
    // Three cards (every hand and middle the engine tells): copied at once.
    if let [Arg::Card(a), Arg::Card(b), Arg::Card(c)] = args {
        cards.extend_from_slice(&[*a, *b, *c]);
    } else {
        cards.extend(args.iter().filter_map(Arg::card));
    }
}

fn card_strings(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

impl SchwimmenView {
    pub fn new(info: &GameInfo) -> SchwimmenView {
        SchwimmenView {
            game: info.game.clone(),
            players: info.players,
            seat: info.seat,
            options: info.options.clone(),
            round: Round::default(),
            strikes: vec![0; info.players],
            active: vec![true; info.players],
            swimming: vec![false; info.players],
            places: BTreeMap::new(),
            scores: None,
        }
    }

    fn reset_game(&mut self) {
        self.round = Round::default();
        self.strikes = vec![0; self.players];
        self.active = vec![true; self.players];
        self.swimming = vec![false; self.players];
        self.places.clear();
        self.scores = None;
    }
}

/// Read-only access for the Python package's observation tensor (crates/py/src/tensor).
impl SchwimmenView {
    /// The seat's cards now.
    pub fn hand(&self) -> &[Card] {
        &self.round.hand
    }
    /// The middle now.
    pub fn middle(&self) -> &[Card] {
        &self.round.middle
    }
    /// The packet the dealer has seen, while he chooses (the dealer's view only).
    pub fn packet(&self) -> &[Card] {
        &self.round.packet
    }
    /// Each seat's strikes (lives lost).
    pub fn strikes(&self) -> &[u32] {
        &self.strikes
    }
    /// Each seat still in the game.
    pub fn active(&self) -> &[bool] {
        &self.active
    }
    /// Each seat that is swimming (on its last life).
    pub fn swimming(&self) -> &[bool] {
        &self.swimming
    }
}

impl SeatView for SchwimmenView {
    fn held(&self) -> Option<&[Card]> {
        Some(self.hand())
    }

    /// The lines of every turn here (a move, the middle, the hand), the others out of line:
    /// the commonest lines take the shortest path. Each kind is folded by a function of its
    /// own, so that this one only looks at the kind and passes the line on (it saves no
    /// registers for the bodies it would otherwise hold).
    fn observe(&mut self, kind: &str, args: &[Arg]) {
        match kind {
            "middle" => set_cards(&mut self.round.middle, args),
            "move" => self.observe_move(args),
            "hand" => self.observe_hand(args),
            _ => self.observe_other(kind, args),
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_json(&self) -> Value {
        self.json()
    }
}

impl SchwimmenView {
    #[inline(never)]
    fn observe_hand(&mut self, args: &[Arg]) {
        set_cards(&mut self.round.hand, args);
        self.round.packet.clear();
    }

    #[inline(never)]
    fn observe_move(&mut self, args: &[Arg]) {
        let r = &mut self.round;
        if let (Some(s), Some(t)) = (seat_arg(args, 0), args.get(1)) {
            let played = match t {
                // A swap of the engine (never a knock): its number is kept as it is.
                &Arg::Action { code, .. } if code < 52 * 52 => {
                    r.moves.push((s, Played::Swap(code as u16)));
                    return;
                }
                Arg::Word(w) => action_of(w),
                Arg::Text(w) => action_of(w),
                _ => None,
            };
            let played = match played {
                Some(a) => {
                    if a == SchwimmenAction::Knock {
                        r.knocker = Some(s);
                    }
                    Played::Action(a)
                }
                None => {
                    r.tokens.push(t.to_string());
                    Played::Token(r.tokens.len() - 1)
                }
            };
            r.moves.push((s, played));
        }
    }

    #[inline(never)]
    fn observe_other(&mut self, kind: &str, args: &[Arg]) {
        let r = &mut self.round;
        match kind {
            "deal" => r.reset(args.first().and_then(|a| a.parse().ok()), seat_arg(args, 1)),
            "packet" => set_cards(&mut r.packet, args),
            "end" => r.ended = Some(Ended::of(args)),
            "show" => {
                if let Some(s) = seat_arg(args, 0) {
                    if r.shown.iter().any(|&(t, _, _)| t == s) {
                        r.shown.retain(|&(t, _, _)| t != s);
                    }
                    let start = r.shown_cards.len();
                    // Three cards and a whole value (the engine's `show` but for a value of
                    // 30.5): the cards at once.
                    if let [_, Arg::Card(a), Arg::Card(b), Arg::Card(c), Arg::Int(_)] = args {
                        r.shown_cards.extend_from_slice(&[*a, *b, *c]);
                    } else {
                        r.shown_cards.extend(args[1..].iter().filter_map(Arg::card));
                    }
                    r.shown.push((s, start, r.shown_cards.len() - start));
                }
            }
            "strike" => {
                if let (Some(s), Some(k)) = (seat_arg(args, 0), args.get(1).and_then(|a| a.parse().ok())) {
                    if let Some(x) = self.strikes.get_mut(s) {
                        *x = k;
                    }
                }
            }
            "swimming" => {
                if let Some(x) = seat_arg(args, 0).and_then(|s| self.swimming.get_mut(s)) {
                    *x = true;
                }
            }
            "out" => {
                if let Some(s) = seat_arg(args, 0).filter(|&s| s < self.players) {
                    self.active[s] = false;
                    self.swimming[s] = false;
                    self.places
                        .insert(s, args.get(1).map(Arg::to_string).unwrap_or_default());
                }
            }
            "absent" => {
                if let Some(s) = seat_arg(args, 0).filter(|&s| s < self.players) {
                    let place: f64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(self.players as f64);
                    // Everyone placed at or above the absent seat's place moves up one.
                    for p in self.places.values_mut() {
                        if let Ok(v) = p.parse::<f64>() {
                            if v <= place {
                                *p = crate::notation::fmt_score(v - 1.0);
                            }
                        }
                    }
                    self.active[s] = false;
                    self.swimming[s] = false;
                    self.places
                        .insert(s, args.get(1).map(Arg::to_string).unwrap_or_default());
                }
            }
            "place" => {
                if let Some(s) = seat_arg(args, 0).filter(|&s| s < self.players) {
                    self.places
                        .insert(s, args.get(1).map(Arg::to_string).unwrap_or_default());
                }
            }
            "gameover" => self.scores = Some(args.iter().map(|s| score_value(&s.text())).collect()),
            "game" => self.reset_game(),
            _ => {}
        }
    }

    /// [`SeatView::to_json`].
    fn json(&self) -> Value {
        let r = &self.round;
        let mut by_seat = r.shown.clone();
        by_seat.sort_by_key(|&(s, _, _)| s);
        let shown: serde_json::Map<String, Value> = by_seat
            .iter()
            .map(|&(s, start, len)| (s.to_string(), json!(card_strings(&r.shown_cards[start..start + len]))))
            .collect();
        let places: serde_json::Map<String, Value> = self
            .places
            .iter()
            .map(|(s, p)| (s.to_string(), score_value(p)))
            .collect();
        let moves: Vec<Value> = r.moves.iter().map(|(s, p)| json!([s, p.token(&r.tokens)])).collect();
        let swimming: Vec<Seat> = (0..self.players).filter(|&s| self.swimming[s]).collect();
        json!({
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "options": self.options.to_json(),
            "round": r.number,
            "dealer": r.dealer,
            "strikes": self.strikes,
            "active": self.active,
            "swimming": swimming,
            "places": places,
            "hand": card_strings(&r.hand),
            "packet": if r.packet.is_empty() { Value::Null } else { json!(card_strings(&r.packet)) },
            "middle": card_strings(&r.middle),
            "knocker": r.knocker,
            "moves": moves,
            "shown": shown,
            "ended": r.ended.as_ref().map(Ended::text),
            "scores": self.scores,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;

    /// A swap as an event argument writes its token, and its number reads back as the swap.
    #[test]
    fn swaps_as_arguments_write_their_token_and_read_back() {
        for h in 0..52 {
            for m in 0..52 {
                let a = SchwimmenAction::Swap(Card::from_index(h), Card::from_index(m));
                let arg = Arg::from(a);
                assert_eq!(arg.to_string(), a.to_string());
                assert_eq!(arg.action_code().and_then(super::super::engine::swap_of_code), Some(a));
                assert_eq!(action_of(&arg.to_string()), Some(a));
            }
        }
    }

    /// The engine's typed lines (swaps as numbers, cards: the short paths of `observe`) and the
    /// same lines read back from their text fold into the same view, line by line, for every
    /// seat, through whole games with random moves (passes, refreshes, 31s, three aces, shows
    /// of 30.5).
    #[test]
    fn typed_lines_and_their_text_fold_alike() {
        use crate::engine::Typed;
        use crate::game::Game;
        let spec = crate::games::schwimmen::spec();
        let mut shows = 0;
        for (seed, rules) in [
            (1, &[][..]),
            (2, &["allow_pass=true"][..]),
            (3, &["deck=32", "knocker_double=true"][..]),
        ] {
            let o = Options::resolve(&(spec.options)(), "schwimmen", rules).unwrap();
            let mut g =
                Typed::new(|ev| super::super::engine::Schwimmen::new(4, &o, crate::chance::Chance::seeded(seed), ev))
                    .unwrap();
            let info = |seat| GameInfo {
                game: "schwimmen".into(),
                options: o.clone(),
                players: 4,
                seat,
            };
            let mut typed: Vec<SchwimmenView> = (0..4).map(|s| SchwimmenView::new(&info(s))).collect();
            let mut text = typed.clone();
            let mut rng = crate::chance::Rng::new(seed, crate::chance::Purpose::Bot, 0);
            loop {
                for ev in g.take_events() {
                    let line = ev.line();
                    let mut words = line.split(' ');
                    let kind = words.next().unwrap();
                    let text_args = crate::game::text_args(words);
                    shows += usize::from(kind == "show");
                    for s in ev.to.members(4) {
                        typed[s].observe(ev.kind, &ev.args);
                        text[s].observe(kind, &text_args);
                        assert_eq!(typed[s].to_json(), text[s].to_json(), "seat {s} after '{line}'");
                    }
                }
                if g.to_move().is_none() {
                    break;
                }
                let legal = g.legal_actions();
                g.apply(&legal[rng.below(legal.len() as u64) as usize]).unwrap();
            }
        }
        assert!(shows > 100, "{shows} hands shown");
    }

    #[test]
    fn the_view_folds_the_lines_of_a_round() {
        let info = GameInfo {
            game: "schwimmen".into(),
            options: Options::default(),
            players: 3,
            seat: 0,
        };
        let mut v = SchwimmenView::new(&info);
        let lines = [
            "deal 1 0",
            "packet AS KS 7D",
            "move 0 take_unseen",
            "hand 8C 9C TC",
            "middle AS KS 7D",
            "move 2 swap_6H_AS",
            "middle 6H KS 7D",
            "move 1 knock",
            "end showdown",
            "show 2 AS 8H 9H 17",
            "strike 1 3",
            "swimming 1",
            "out 2 3",
        ];
        for l in lines {
            let w: Vec<String> = l.split(' ').map(String::from).collect();
            v.observe(&w[0], &crate::game::text_args(w[1..].iter().map(String::as_str)));
            if l == "packet AS KS 7D" {
                assert_eq!(v.to_json()["packet"], json!(["AS", "KS", "7D"]));
            }
        }
        let j = v.to_json();
        assert_eq!(j["round"], 1);
        assert_eq!(j["hand"], json!(["8C", "9C", "TC"]));
        assert_eq!(j["packet"], Value::Null);
        assert_eq!(j["middle"], json!(["6H", "KS", "7D"]));
        assert_eq!(j["knocker"], 1);
        assert_eq!(j["moves"][1], json!([2, "swap_6H_AS"]));
        assert_eq!(j["shown"]["2"], json!(["AS", "8H", "9H"]));
        assert_eq!(j["strikes"], json!([0, 3, 0]));
        assert_eq!(j["swimming"], json!([1]));
        assert_eq!(j["active"], json!([true, true, false]));
        assert_eq!(j["places"]["2"], 3);
        assert_eq!(j["ended"], "showdown");
    }
}

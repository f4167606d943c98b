//! The Zwikken seat view: what one seat knows, folded from the notification lines routed to it
//! (protocol.md, section "Zwikken"), and its JSON form.

use super::engine::ExchangeTargets;
use crate::cards::Card;
use crate::few::Few;
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::options::Options;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The most seats at a Zwikken table, so the most cards in a trick.
const MAX_SEATS: usize = 6;

pub(super) use crate::games::tokens::Tok;

/// An argument as a token of the view: one of this game's words, or text.
fn tok(arg: &Arg) -> Tok {
    Tok::of(arg, known_word)
}

/// The words of Zwikken lines that the view keeps (bids, how a deal ended), as static text.
fn known_word(t: &str) -> Option<&'static str> {
    Some(match t {
        "pass" => "pass",
        "ask" => "ask",
        "ken_pass" => "ken_pass",
        "ken_ask" => "ken_ask",
        "wait_better" => "wait_better",
        "zwik" => "zwik",
        "points" => "points",
        "passer" => "passer",
        "tie" => "tie",
        "no_play" => "no_play",
        _ => return None,
    })
}

/// A trick: its leader and the cards in play order with their seats (seats as bytes: a trick
/// is copied into the deal's list).
#[derive(Clone, Copy, Debug)]
pub(super) struct Trick {
    pub(super) seats: Few<u8, MAX_SEATS>,
    pub(super) cards: Few<Card, MAX_SEATS>,
    pub(super) winner: Option<Seat>,
}

impl Default for Trick {
    fn default() -> Trick {
        Trick {
            seats: Few::new(0),
            cards: Few::new(Card::from_index(0)),
            winner: None,
        }
    }
}

/// What one deal has shown so far (reset by a `deal` line, its buffers kept).
#[derive(Clone, Debug, Default)]
pub(super) struct DealState {
    pub(super) number: Option<usize>,
    pub(super) dealer: Option<Seat>,
    pub(super) hand: Vec<Card>,
    pub(super) turned: Vec<Card>,
    pub(super) repeat: bool,
    pub(super) seeks: usize,
    pub(super) bids: Vec<(Seat, Tok)>,
    pub(super) askers: Vec<Seat>,
    pub(super) ken: Option<Seat>,
    pub(super) waiting: Vec<Seat>,
    pub(super) exchanges: Vec<(Seat, Card, Card)>,
    pub(super) zwiks: BTreeMap<Seat, Vec<Card>>,
    pub(super) tricks: Vec<Trick>,
    pub(super) trick: Option<Trick>,
    pub(super) played: Vec<Card>,
    /// The `points` line's numbers, when `has_points`.
    pub(super) points: Vec<u32>,
    pub(super) has_points: bool,
    pub(super) ended: Option<(Tok, Option<Seat>)>,
}

impl DealState {
    /// An empty deal whose lists hold a deal of `n` seats without growing.
    fn with_capacity(n: usize) -> DealState {
        DealState {
            hand: Vec::with_capacity(3),
            turned: Vec::with_capacity(3),
            bids: Vec::with_capacity(2 * n),
            askers: Vec::with_capacity(n),
            tricks: Vec::with_capacity(3),
            played: Vec::with_capacity(3 * n),
            points: Vec::with_capacity(n),
            ..DealState::default()
        }
    }

    /// A new deal: everything as `DealState::default()` with these numbers, the lists emptied
    /// in place.
    fn reset(&mut self, number: Option<usize>, dealer: Option<Seat>) {
        self.number = number;
        self.dealer = dealer;
        self.hand.clear();
        self.turned.clear();
        self.repeat = false;
        self.seeks = 0;
        self.bids.clear();
        self.askers.clear();
        self.ken = None;
        self.waiting.clear();
        self.exchanges.clear();
        self.zwiks.clear();
        self.tricks.clear();
        self.trick = None;
        self.played.clear();
        self.points.clear();
        self.has_points = false;
        self.ended = None;
    }
}

/// One seat's knowledge of a Zwikken session.
#[derive(Clone)]
pub struct ZwikkenView {
    game: String,
    players: usize,
    pub(super) seat: Seat,
    /// Made JSON only in `to_json` (for a process bot that asked for `view`).
    options: Options,
    /// The option `exchange_targets`, read once (the policy's).
    pub(super) exchange_targets: ExchangeTargets,
    pub(super) deal: DealState,
    pot: i64,
    chips: Vec<i64>,
    pub(super) active: Vec<bool>,
    /// The results of the finished deals: [deal, how, winner].
    history: Vec<(usize, Tok, Option<Seat>)>,
    session_end: Option<String>,
    /// A first-trick `move s exchange_X_Y`: Y is played once the `exchange` line has put X
    /// into the hand.
    pending: Option<(Seat, Card)>,
    scores: Option<Vec<Value>>,
}

fn seat_arg(args: &[Arg], i: usize) -> Option<Seat> {
    match args.get(i)? {
        Arg::Int(n) => Seat::try_from(*n).ok(),
        other => other.parse().ok(),
    }
}

fn int_arg(args: &[Arg], i: usize) -> i64 {
    match args.get(i) {
        Some(Arg::Int(n)) => *n,
        other => other.and_then(|a| a.parse().ok()).unwrap_or(0),
    }
}

fn strs(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

impl ZwikkenView {
    pub fn new(info: &GameInfo) -> ZwikkenView {
        ZwikkenView {
            game: info.game.clone(),
            players: info.players,
            seat: info.seat,
            options: info.options.clone(),
            exchange_targets: ExchangeTargets::from_value(
                info.options
                    .iter()
                    .find(|(k, _)| *k == "exchange_targets")
                    .map(|(_, v)| v.as_str()),
            ),
            deal: DealState::with_capacity(info.players),
            pot: 0,
            chips: vec![0; info.players],
            active: vec![true; info.players],
            history: Vec::new(),
            session_end: None,
            pending: None,
            scores: None,
        }
    }

    /// A `move` line's token: a card is played, a bid is kept, a seek counted, a first-trick
    /// exchange waits for its `exchange` line.
    fn on_move(&mut self, seat: Seat, arg: &Arg) {
        if let Arg::Card(card) = arg {
            self.play(seat, *card);
            return;
        }
        let text;
        let token: &str = match arg {
            Arg::Word(w) => w,
            Arg::Text(t) => t,
            other => {
                text = other.to_string();
                &text
            }
        };
        let d = &mut self.deal;
        match token {
            "pass" | "ask" | "ken_pass" | "ken_ask" | "wait_better" => {
                let tok = match arg {
                    Arg::Word(w) => Tok::Word(w),
                    _ => Tok::of_str(token, known_word),
                };
                d.bids.push((seat, tok));
                if token.ends_with("ask") {
                    d.askers.push(seat);
                }
                if token.starts_with("ken") || token == "wait_better" {
                    d.ken = Some(seat);
                }
                if token == "wait_better" && !d.waiting.contains(&seat) {
                    d.waiting.push(seat);
                }
            }
            "seek" => d.seeks += 1,
            _ => {
                if let Some(rest) = token.strip_prefix("exchange_") {
                    if let Some(card) = rest.split_once('_').and_then(|(_, c)| c.parse::<Card>().ok()) {
                        self.pending = Some((seat, card));
                    }
                } else if let Ok(card) = token.parse::<Card>() {
                    self.play(seat, card);
                }
            }
        }
    }

    fn play(&mut self, seat: Seat, card: Card) {
        let d = &mut self.deal;
        if seat == self.seat {
            d.hand.retain(|&c| c != card);
        }
        let t = d.trick.get_or_insert_with(Trick::default);
        // A seat is a byte in a trick (Zwikken seats at most 6).
        t.seats.push_unless_full(seat as u8);
        t.cards.push_unless_full(card);
        d.played.push(card);
    }
}

fn trick_json(t: &Trick) -> Value {
    let mut v = json!({
        "leader": t.seats.first(),
        "seats": t.seats.as_slice(),
        "cards": strs(t.cards.as_slice()),
    });
    if let Some(w) = t.winner {
        v["winner"] = json!(w);
    }
    v
}

/// Read-only access for the Python package's observation tensor (crates/py/src/tensor).
impl ZwikkenView {
    /// The seat's cards now.
    pub fn hand(&self) -> &[Card] {
        &self.deal.hand
    }
    /// The turned cards face up now (an exchanged ten in the taken card's place).
    pub fn turned(&self) -> &[Card] {
        &self.deal.turned
    }
    /// Each seat's chips.
    pub fn chips(&self) -> &[i64] {
        &self.chips
    }
    pub fn pot(&self) -> i64 {
        self.pot
    }
    /// Each seat still in the session.
    pub fn active(&self) -> &[bool] {
        &self.active
    }
}

impl SeatView for ZwikkenView {
    fn held(&self) -> Option<&[Card]> {
        Some(self.hand())
    }

    fn observe(&mut self, kind: &str, args: &[Arg]) {
        let d = &mut self.deal;
        // The most frequent lines first.
        match kind {
            "move" => {
                if let (Some(seat), Some(token)) = (seat_arg(args, 0), args.get(1)) {
                    self.on_move(seat, token);
                }
            }
            // Only the seats' words ("pas", "ik vraag"): nothing to keep.
            "say" | "allpass" => {}
            "pay" => {
                if let Some(s) = seat_arg(args, 0) {
                    if let Some(c) = self.chips.get_mut(s) {
                        *c -= int_arg(args, 1);
                    }
                }
            }
            "turn" => {
                if let Some(c) = args.first().and_then(|a| a.parse::<Card>().ok()) {
                    d.repeat = d.turned.iter().any(|t| t.suit == c.suit);
                    d.turned.push(c);
                    // A new period: the earlier bids lapse.
                    d.bids.clear();
                    d.askers.clear();
                    d.ken = None;
                }
            }
            "deal" => d.reset(args.first().and_then(|a| a.parse().ok()), seat_arg(args, 1)),
            "hand" => {
                d.hand.clear();
                d.hand.extend(args.iter().filter_map(|a| match a {
                    Arg::Card(c) => Some(*c),
                    other => other.card(),
                }));
            }
            "exchange" => {
                let (seat, take, ten) = (
                    seat_arg(args, 0),
                    args.get(1).and_then(|a| a.parse::<Card>().ok()),
                    args.get(2).and_then(|a| a.parse::<Card>().ok()),
                );
                if let (Some(seat), Some(take), Some(ten)) = (seat, take, ten) {
                    if let Some(slot) = d.turned.iter_mut().find(|c| **c == take) {
                        *slot = ten;
                    }
                    if seat == self.seat {
                        d.hand.retain(|&c| c != ten);
                        d.hand.push(take);
                    }
                    d.exchanges.push((seat, take, ten));
                }
                if let Some((seat, card)) = self.pending.take() {
                    self.play(seat, card);
                }
            }
            "zwik" => {
                if let Some(s) = seat_arg(args, 0) {
                    d.zwiks
                        .insert(s, args[1..].iter().filter_map(|a| a.parse().ok()).collect());
                }
            }
            "trick" => {
                let mut t = d.trick.take().unwrap_or_default();
                t.winner = seat_arg(args, 1);
                d.tricks.push(t);
            }
            "points" => {
                d.points.clear();
                d.points.extend(args.iter().map(|a| a.parse::<u32>().unwrap_or(0)));
                d.has_points = true;
            }
            "end" => {
                let how = args.first().map_or(Tok::Word(""), tok);
                let w = seat_arg(args, 1);
                d.ended = Some((how.clone(), w));
                if let Some(k) = d.number {
                    self.history.push((k, how, w));
                }
            }
            "win" | "split" => {
                if let Some(s) = seat_arg(args, 0) {
                    if let Some(c) = self.chips.get_mut(s) {
                        *c += int_arg(args, 1);
                    }
                }
            }
            "pot" => self.pot = int_arg(args, 0),
            "out" => {
                if let Some(a) = seat_arg(args, 0).and_then(|s| self.active.get_mut(s)) {
                    *a = false;
                }
            }
            "session" => self.session_end = args.first().map(Arg::to_string),
            "gameover" => self.scores = Some(args.iter().map(|s| crate::notation::score_value(&s.text())).collect()),
            "game" => {
                *self = ZwikkenView::new(&GameInfo {
                    game: self.game.clone(),
                    options: Default::default(),
                    players: self.players,
                    seat: self.seat,
                })
                .with_options(self.options.clone(), self.exchange_targets);
            }
            _ => {}
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_json(&self) -> Value {
        let d = &self.deal;
        let active = self.active.iter().filter(|&&a| a).count();
        let stock = 20usize.saturating_sub(3 * active + d.turned.len());
        let trump = d.turned.last().map(|c| c.suit.letter().to_string());
        let zwiks: serde_json::Map<String, Value> =
            d.zwiks.iter().map(|(s, cs)| (s.to_string(), json!(strs(cs)))).collect();
        json!({
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "options": self.options.to_json(),
            "deal": d.number,
            "dealer": d.dealer,
            "active": self.active,
            "pot": self.pot,
            "chips": self.chips,
            "hand": strs(&d.hand),
            "turned": strs(&d.turned),
            "trump": trump,
            "repeat": d.repeat,
            "seeks": d.seeks,
            "stock": if d.number.is_some() { json!(stock) } else { Value::Null },
            "bids": d.bids.iter().map(|(s, t)| json!([s, t.as_str()])).collect::<Vec<_>>(),
            "askers": d.askers,
            "ken": d.ken,
            "waiting": d.waiting,
            "exchanges": d.exchanges.iter().map(|(s, a, b)| json!([s, a.to_string(), b.to_string()])).collect::<Vec<_>>(),
            "zwiks": zwiks,
            "tricks": d.tricks.iter().map(trick_json).collect::<Vec<_>>(),
            "trick": d.trick.as_ref().map(trick_json),
            "played": strs(&d.played),
            "points": d.has_points.then_some(&d.points),
            "ended": d.ended.as_ref().map(|(h, w)| json!({"how": h.as_str(), "winner": w})),
            "history": self.history.iter().map(|(k, h, w)| json!([k, h.as_str(), w])).collect::<Vec<_>>(),
            "session_end": self.session_end,
            "scores": self.scores,
        })
    }
}

impl ZwikkenView {
    fn with_options(mut self, options: Options, exchange_targets: ExchangeTargets) -> ZwikkenView {
        self.options = options;
        self.exchange_targets = exchange_targets;
        self
    }
}

/// An empty view for one seat (the `new_view` of the game's spec).
pub fn new_view(info: &GameInfo) -> Box<dyn SeatView> {
    Box::new(ZwikkenView::new(info))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::zwikken::options;
    use crate::options::Options;

    fn feed(v: &mut ZwikkenView, lines: &[&str]) {
        for l in lines {
            let mut w = l.split(' ');
            let kind = w.next().unwrap();
            let args: Vec<String> = w.map(String::from).collect();
            v.observe(kind, &crate::game::text_args(args.iter().map(String::as_str)));
        }
    }

    #[test]
    fn a_deal_folds_into_the_json_of_the_protocol() {
        let o = Options::resolve(&options(), "zwikken", &[] as &[&str]).unwrap();
        let mut v = ZwikkenView::new(&GameInfo {
            game: "zwikken".into(),
            options: o,
            players: 3,
            seat: 2,
        });
        feed(
            &mut v,
            &[
                "deal 1 0",
                "pay 0 1 ante",
                "pay 1 1 ante",
                "pay 2 1 ante",
                "pot 3",
                "hand TH AS KD",
                "turn JS",
                "move 1 pass",
                "move 2 ken_pass",
                "move 0 pass",
                "allpass",
                "move 0 seek",
                "pay 0 1 seek",
                "pay 1 1 seek",
                "pay 2 1 seek",
                "pot 6",
                "turn QH",
                "move 1 ask",
                "move 2 ken_pass",
                "move 0 pass",
                "move 2 ken_pass",
                "move 0 pass",
                "move 2 no_exchange",
                "move 1 AH",
            ],
        );
        let j = v.to_json();
        assert_eq!(j["turned"], json!(["JS", "QH"]));
        assert_eq!(j["trump"], "H");
        assert_eq!(j["repeat"], false);
        assert_eq!(j["seeks"], 1);
        assert_eq!(j["stock"], json!(20 - 9 - 2));
        assert_eq!(j["askers"], json!([1]));
        assert_eq!(j["ken"], 2);
        assert_eq!(j["pot"], 6);
        assert_eq!(j["chips"], json!([-2, -2, -2]));
        assert_eq!(j["trick"]["cards"], json!(["AH"]));
        // The first-trick exchange: the taken card is played after the exchange line.
        feed(&mut v, &["move 2 exchange_QH_QH", "exchange 2 QH TH", "move 0 KC"]);
        let j = v.to_json();
        assert_eq!(j["hand"], json!(["AS", "KD"]));
        assert_eq!(j["turned"], json!(["JS", "TH"]));
        assert_eq!(j["trick"]["seats"], json!([1, 2, 0]));
        assert_eq!(j["trick"]["cards"], json!(["AH", "QH", "KC"]));
        feed(
            &mut v,
            &[
                "trick 1 2",
                "points 0 0 9",
                "end passer 2",
                "pay 1 6 lose",
                "pot 12",
                "deal 2 1",
                "turn AC",
            ],
        );
        let j = v.to_json();
        assert_eq!(j["history"], json!([[1, "passer", 2]]));
        assert_eq!(j["chips"], json!([-2, -8, -2]));
        assert_eq!(j["hand"], json!([]));
        assert_eq!(j["turned"], json!(["AC"]));
    }
}

//! The Rikken seat view: what one seat knows, folded from the notification lines routed to it
//! (protocol.md §6.1), and its JSON form (protocol.md §6.3, without `decision`, `legal` and
//! `time_ms`, which the referee adds).

use crate::cards::{Card, Suit};
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::options::Options;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// What a `move` line is, from its decision word (`move <seat> <token> <decision>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveKind {
    /// A bid or pass of the auction (also an automatic re-pass).
    Bid,
    /// A trump declaration (`move s H trump`).
    Trump,
    /// A called card (`move s AC call`), always followed by `called AC`.
    Call,
    /// A card played to a trick.
    Play,
    /// A decision word this version does not know: kept out of the view.
    Other,
}

impl MoveKind {
    /// The kind of a `move` line's arguments.
    pub fn of(args: &[Arg]) -> MoveKind {
        match args.get(2).map(Arg::text).as_deref() {
            Some("bid") => MoveKind::Bid,
            Some("trump") => MoveKind::Trump,
            Some("call") => MoveKind::Call,
            Some("play") => MoveKind::Play,
            _ => MoveKind::Other,
        }
    }
}

/// A completed trick; `cards` is `None` under `hide_quitted_tricks`.
#[derive(Clone, Debug)]
pub(super) struct DoneTrick {
    leader: Seat,
    pub(super) cards: Option<Vec<Card>>,
    winner: Seat,
}

/// Everything that belongs to the current deal (reset by a `deal` line).
#[derive(Clone, Debug, Default)]
pub(super) struct DealState {
    number: Option<u64>,
    dealer: Option<Seat>,
    pub(super) hand: Vec<Card>,
    auction: Vec<(Seat, String)>,
    pub(super) contract: Option<(String, Vec<Seat>)>,
    pub(super) trump: Option<String>,
    called: Option<String>,
    pub(super) partner: Option<Seat>,
    aces: Vec<String>,
    pub(super) exposed: BTreeMap<Seat, Vec<Card>>,
    pub(super) tricks: Vec<DoneTrick>,
    pub(super) trick: Option<(Seat, Vec<Card>)>,
    pub(super) tricks_won: Vec<u32>,
    pub(super) played: Vec<Card>,
    hints: Vec<String>,
    ended: Option<String>,
}

/// One seat's knowledge of a Rikken game.
#[derive(Clone)]
pub struct RikkenView {
    game: String,
    pub(super) players: usize,
    pub(super) seat: Seat,
    /// The game's options, made JSON only in `to_json` (a process bot that asked for `view`).
    options: Options,
    hide_quitted_tricks: bool,
    pub(super) deal: DealState,
    scores: Option<Vec<Value>>,
}

impl RikkenView {
    pub fn new(info: &GameInfo) -> RikkenView {
        let hide_quitted_tricks = info
            .options
            .iter()
            .any(|(k, v)| k == "hide_quitted_tricks" && v == "true");
        RikkenView {
            game: info.game.clone(),
            players: info.players,
            seat: info.seat,
            options: info.options.clone(),
            hide_quitted_tricks,
            deal: DealState {
                tricks_won: vec![0; info.players],
                ..DealState::default()
            },
            scores: None,
        }
    }

    /// The trump suit of the deal, once declared (`None` before, and for `trump none`).
    pub(super) fn trump_suit(&self) -> Option<Suit> {
        let t = self.deal.trump.as_deref()?;
        let mut chars = t.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Suit::from_letter(c),
            _ => None,
        }
    }

    fn on_move(&mut self, seat: Seat, token: &Arg, kind: MoveKind) {
        if seat == self.seat {
            self.deal.hints.clear();
        }
        match kind {
            MoveKind::Bid => self.deal.auction.push((seat, token.to_string())),
            MoveKind::Play => {
                let Some(card) = token.card() else { return };
                self.play(seat, card);
            }
            MoveKind::Trump | MoveKind::Call | MoveKind::Other => {}
        }
    }

    fn play(&mut self, seat: Seat, card: Card) {
        let d = &mut self.deal;
        if seat == self.seat {
            d.hand.retain(|&c| c != card);
        }
        if let Some(cards) = d.exposed.get_mut(&seat) {
            cards.retain(|&c| c != card);
        }
        match &mut d.trick {
            Some((_, cards)) => cards.push(card),
            None => d.trick = Some((seat, vec![card])),
        }
        d.played.push(card);
    }

    fn end_trick(&mut self, winner: Seat) {
        let hide = self.hide_quitted_tricks;
        let d = &mut self.deal;
        let (leader, cards) = d.trick.take().unwrap_or((winner, Vec::new()));
        d.tricks.push(DoneTrick {
            leader,
            cards: if hide { None } else { Some(cards) },
            winner,
        });
        if let Some(n) = d.tricks_won.get_mut(winner) {
            *n += 1;
        }
        if hide {
            d.played.clear();
        }
    }
}

/// Read-only access for the Python package's observation tensor (crates/py/src/tensor).
impl RikkenView {
    /// The seat's cards now.
    pub fn hand(&self) -> &[Card] {
        &self.deal.hand
    }
}

fn seat_arg(args: &[Arg], i: usize) -> Option<Seat> {
    args.get(i).and_then(|a| a.parse().ok())
}

fn cards_of(args: &[Arg]) -> Vec<Card> {
    args.iter().filter_map(|a| a.parse().ok()).collect()
}

fn card_strings(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

/// A score as a JSON number (integers stay integers).
impl SeatView for RikkenView {
    fn held(&self) -> Option<&[Card]> {
        Some(self.hand())
    }

    fn observe(&mut self, kind: &str, args: &[Arg]) {
        let d = &mut self.deal;
        match kind {
            "deal" => {
                *d = DealState {
                    number: args.first().and_then(|a| a.parse().ok()),
                    dealer: seat_arg(args, 1),
                    tricks_won: vec![0; self.players],
                    ..DealState::default()
                };
            }
            "hand" => d.hand = cards_of(args),
            "move" => {
                if let (Some(seat), Some(token)) = (seat_arg(args, 0), args.get(1)) {
                    self.on_move(seat, token, MoveKind::of(args));
                }
            }
            "contract" => {
                let bid = args.first().map(Arg::to_string).unwrap_or_default();
                let declarers = args
                    .get(1)
                    .map(|s| s.text().split(',').filter_map(|x| x.parse().ok()).collect())
                    .unwrap_or_default();
                d.contract = Some((bid, declarers));
            }
            "trump" => d.trump = args.first().map(Arg::to_string),
            "called" => d.called = args.first().map(Arg::to_string),
            "aces" => d.aces = crate::game::texts(args),
            "partner" => d.partner = seat_arg(args, 0),
            "exposed" => {
                if let Some(seat) = seat_arg(args, 0) {
                    let played = d.played.clone();
                    let cards = cards_of(&args[1..])
                        .into_iter()
                        .filter(|c| !played.contains(c))
                        .collect();
                    d.exposed.insert(seat, cards);
                }
            }
            "hint" => d.hints.extend(args.iter().map(Arg::to_string)),
            "trick" => {
                if let Some(winner) = seat_arg(args, 1) {
                    self.end_trick(winner);
                }
            }
            "end" => d.ended = Some(crate::game::texts(args).join(" ")),
            "gameover" => self.scores = Some(args.iter().map(|s| crate::notation::score_value(&s.text())).collect()),
            "game" => {
                // A new game: forget everything of the last one.
                self.deal = DealState {
                    tricks_won: vec![0; self.players],
                    ..DealState::default()
                };
                self.scores = None;
            }
            _ => {}
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_json(&self) -> Value {
        let d = &self.deal;
        let contract = match &d.contract {
            Some((bid, declarers)) => json!({"bid": bid, "declarers": declarers}),
            None => Value::Null,
        };
        let exposed: serde_json::Map<String, Value> = d
            .exposed
            .iter()
            .map(|(s, cards)| (s.to_string(), json!(card_strings(cards))))
            .collect();
        let tricks: Vec<Value> = d
            .tricks
            .iter()
            .map(|t| match &t.cards {
                Some(cards) => json!({"leader": t.leader, "cards": card_strings(cards), "winner": t.winner}),
                None => json!({"leader": t.leader, "winner": t.winner}),
            })
            .collect();
        let trick = match &d.trick {
            Some((leader, cards)) => json!({"leader": leader, "cards": card_strings(cards)}),
            None => Value::Null,
        };
        let auction: Vec<Value> = d.auction.iter().map(|(s, t)| json!([s, t])).collect();
        json!({
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "options": self.options.to_json(),
            "deal": d.number,
            "dealer": d.dealer,
            "hand": card_strings(&d.hand),
            "auction": auction,
            "contract": contract,
            "trump": d.trump,
            "called": d.called,
            "partner": d.partner,
            "aces": d.aces,
            "exposed": exposed,
            "tricks": tricks,
            "trick": trick,
            "tricks_won": d.tricks_won,
            "played": card_strings(&d.played),
            "hints": d.hints,
            "ended": d.ended,
            "scores": self.scores,
        })
    }
}

/// A Rikken bid, contract or special deal as people read it: the one spelling of every text
/// for people (`show`, the human seat, `show --html`, `ask`), where the protocol writes tokens.
/// `rik_beter` is "rik beter", `alone9` "alone 9", `misere` "misère", `open_piek_praatje` "open
/// piek met een praatje", `solo_beter` "solo beter", `schoppen_mieen` "schoppen mieën", a join
/// (`misere_join`) "misère too"; any other word keeps its letters, underscores made spaces.
pub fn contract_words(token: &str) -> String {
    token
        .split('_')
        .map(|w| match w {
            "misere" => "misère".to_string(),
            "mieen" => "mieën".to_string(),
            "praatje" => "met een praatje".to_string(),
            "join" => "too".to_string(),
            _ => match w.strip_prefix("alone") {
                Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => format!("alone {n}"),
                _ => w.to_string(),
            },
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An empty view for one seat (the `new_view` of the game's spec).
pub fn new_view(info: &GameInfo) -> Box<dyn SeatView> {
    Box::new(RikkenView::new(info))
}

#[cfg(test)]
pub(crate) mod tests;

//! The Svängknack seat view: what one seat knows, folded from the lines routed to it
//! (protocol.md, section "Svängknack and Kul"), and its JSON form.

use crate::cards::Card;
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::options::Options;
use serde_json::{json, Value};

#[derive(Clone, Debug, Default)]
pub(super) struct Trick {
    pub(super) leader: Seat,
    pub(super) cards: Vec<(Seat, Card)>,
    pub(super) farg: Vec<Seat>,
    pub(super) winner: Option<Seat>,
}

impl Trick {
    fn to_json(&self) -> Value {
        let cards: Vec<Value> = self.cards.iter().map(|(s, c)| json!([s, c.to_string()])).collect();
        json!({"leader": self.leader, "cards": cards, "farg": self.farg, "winner": self.winner})
    }
}

/// Everything about the current round (reset by a `round` line).
#[derive(Clone, Debug, Default)]
pub(super) struct Round {
    pub(super) number: u64,
    pub(super) dealer: Option<Seat>,
    pub(super) forehand: Option<Seat>,
    pub(super) swinger: Option<Seat>,
    pub(super) pot: i64,
    pub(super) hand: Vec<Card>,
    pub(super) moves: Vec<(Seat, String)>,
    pub(super) redeal: Option<String>,
    pub(super) turnup: Vec<Card>,
    pub(super) trump: Option<String>,
    pub(super) forced: Option<String>,
    pub(super) knocked: Vec<Seat>,
    pub(super) folded: Vec<Seat>,
    pub(super) participants: Vec<Seat>,
    pub(super) tricks: Vec<Trick>,
    pub(super) trick: Option<Trick>,
    pub(super) played: Vec<Card>,
    pub(super) bets: Vec<Seat>,
    pub(super) lone: bool,
}

/// One seat's knowledge of a Svängknack session.
#[derive(Clone)]
pub struct SvangView {
    game: String,
    players: usize,
    seat: Seat,
    /// Made JSON only in `to_json` (for a process bot that asked for `view`).
    options: Options,
    stake: i64,
    chips: Vec<i64>,
    pub(super) round: Round,
    rounds_done: u64,
    ended: Option<String>,
}

fn cards(v: &[Card]) -> Vec<String> {
    v.iter().map(|c| c.to_string()).collect()
}

impl SvangView {
    pub fn new(info: &GameInfo) -> SvangView {
        let stake = info
            .options
            .iter()
            .find(|(k, _)| *k == "base_stake")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(3);
        SvangView {
            game: info.game.clone(),
            players: info.players,
            seat: info.seat,
            options: info.options.clone(),
            stake,
            chips: vec![0; info.players],
            round: Round::default(),
            rounds_done: 0,
            ended: None,
        }
    }

    fn set_chips(&mut self, token: Option<&Arg>) {
        if let Some(t) = token {
            let v: Vec<i64> = t.text().split(',').filter_map(|x| x.parse().ok()).collect();
            if v.len() == self.players {
                self.chips = v;
            }
        }
    }
}

impl SeatView for SvangView {
    fn observe(&mut self, kind: &str, args: &[Arg]) {
        let num = |i: usize| args.get(i).and_then(|a| a.parse::<i64>().ok());
        let r = &mut self.round;
        match kind {
            "round" => {
                self.round = Round {
                    number: num(0).unwrap_or(0) as u64,
                    dealer: num(1).map(|s| s as Seat),
                    forehand: num(2).map(|s| s as Seat),
                    swinger: num(2).map(|s| s as Seat),
                    ..Round::default()
                };
            }
            "ante" => {
                let a = num(0).unwrap_or(0);
                match args.get(1).map(Arg::text).as_deref() {
                    Some("all") => self.chips.iter_mut().for_each(|c| *c -= a),
                    _ => {
                        if let Some(c) = num(1).and_then(|s| self.chips.get_mut(s as usize)) {
                            *c -= a;
                        }
                    }
                }
            }
            "pot" => r.pot = num(0).unwrap_or(0),
            "hand" => r.hand = args.iter().filter_map(|a| a.parse().ok()).collect(),
            "redeal" => r.redeal = args.first().map(Arg::to_string),
            "swinger" => r.swinger = num(0).map(|s| s as Seat),
            "turnup" => r.turnup = args.iter().filter_map(|a| a.parse().ok()).collect(),
            "trump" => r.trump = args.first().map(Arg::to_string),
            "forced" => r.forced = args.first().map(Arg::to_string),
            "participants" => {
                r.participants = args
                    .first()
                    .map(|t| t.text().split(',').filter_map(|x| x.parse().ok()).collect())
                    .unwrap_or_default()
            }
            "lastman" => {
                if let Some(s) = num(0) {
                    r.knocked.push(s as Seat);
                }
            }
            "move" => {
                let (Some(s), Some(tok)) = (num(0), args.get(1)) else {
                    return;
                };
                let s = s as Seat;
                if let Ok(c) = tok.parse::<Card>() {
                    if s == self.seat {
                        r.hand.retain(|&h| h != c);
                    }
                    r.played.push(c);
                    match &mut r.trick {
                        Some(t) => t.cards.push((s, c)),
                        None => {
                            r.trick = Some(Trick {
                                leader: s,
                                cards: vec![(s, c)],
                                ..Trick::default()
                            })
                        }
                    }
                    return;
                }
                match &*tok.text() {
                    "farg" => {
                        if let Some(t) = &mut r.trick {
                            t.farg.push(s);
                        }
                    }
                    "knock" => r.knocked.push(s),
                    "fold" => r.folded.push(s),
                    _ => {}
                }
                r.moves.push((s, tok.to_string()));
            }
            "trick" => {
                if let Some(mut t) = r.trick.take() {
                    t.winner = num(1).map(|w| w as Seat);
                    r.tricks.push(t);
                }
            }
            "paid" => {
                if let (Some(s), Some(a)) = (num(0), num(2)) {
                    if let Some(c) = self.chips.get_mut(s as usize) {
                        *c += a;
                    }
                }
            }
            "bet" => {
                if let Some(s) = num(0) {
                    r.bets.push(s as Seat);
                }
            }
            "lone" => r.lone = true,
            "chips" => {
                self.set_chips(args.first());
                self.rounds_done = self.round.number;
            }
            "split" => self.set_chips(args.get(1)),
            "end" => self.ended = args.first().map(Arg::to_string),
            _ => {}
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_json(&self) -> Value {
        let r = &self.round;
        let moves: Vec<Value> = r.moves.iter().map(|(s, t)| json!([s, t])).collect();
        let tricks: Vec<Value> = r.tricks.iter().map(Trick::to_json).collect();
        let mut won = vec![0u32; self.players];
        for t in &r.tricks {
            if let Some(w) = t.winner {
                won[w] += 1;
            }
        }
        json!({
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "options": self.options.to_json(),
            "stake": self.stake,
            "chips": self.chips,
            "round": r.number,
            "dealer": r.dealer,
            "forehand": r.forehand,
            "swinger": r.swinger,
            "pot": r.pot,
            "trick_value": r.pot / 3,
            "hand": cards(&r.hand),
            "moves": moves,
            "redeal": r.redeal,
            "turnup": cards(&r.turnup),
            "trump": r.trump,
            "forced": r.forced,
            "knocked": r.knocked,
            "folded": r.folded,
            "participants": r.participants,
            "tricks": tricks,
            "trick": r.trick.as_ref().map(Trick::to_json),
            "tricks_won": won,
            "played": cards(&r.played),
            "bets": r.bets,
            "lone": r.lone,
            "ended": self.ended,
        })
    }
}

pub fn new_view(info: &GameInfo) -> Box<dyn SeatView> {
    Box::new(SvangView::new(info))
}

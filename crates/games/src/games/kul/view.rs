//! The Kul seat view: what one seat knows, folded from the lines routed to it (protocol.md,
//! section "Svängknack and Kul"), and its JSON form.

use crate::cards::Card;
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::options::Options;
use serde_json::{json, Value};

#[derive(Clone, Debug)]
pub(super) struct DoneTrick {
    leader: Seat,
    cards: Vec<Card>,
    winner: Seat,
}

/// One seat's knowledge of a Kul session.
#[derive(Clone)]
pub struct KulView {
    game: String,
    players: usize,
    seat: Seat,
    /// Made JSON only in `to_json` (for a process bot that asked for `view`).
    options: Options,
    game_no: u64,
    stake: i64,
    pot: i64,
    chips: Vec<i64>,
    marks: Vec<u32>,
    deal: Option<u64>,
    dealer: Option<Seat>,
    pub(super) hand: Vec<Card>,
    pub(super) tricks: Vec<DoneTrick>,
    /// The trick in play: its leader and the cards so far.
    pub(super) trick: Option<(Seat, Vec<Card>)>,
    played: Vec<Card>,
    redeal: Vec<(Seat, String)>,
    ended: bool,
}

fn cards(v: &[Card]) -> Vec<String> {
    v.iter().map(|c| c.to_string()).collect()
}

impl KulView {
    pub fn new(info: &GameInfo) -> KulView {
        KulView {
            game: info.game.clone(),
            players: info.players,
            seat: info.seat,
            options: info.options.clone(),
            game_no: 0,
            stake: 0,
            pot: 0,
            chips: vec![0; info.players],
            marks: vec![0; info.players],
            deal: None,
            dealer: None,
            hand: Vec::new(),
            tricks: Vec::new(),
            trick: None,
            played: Vec::new(),
            redeal: Vec::new(),
            ended: false,
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

/// Read-only access for the Python package's observation tensor (crates/py/src/tensor).
impl KulView {
    pub fn hand(&self) -> &[Card] {
        &self.hand
    }
    /// Each seat's chips (its net gain so far).
    pub fn chips(&self) -> &[i64] {
        &self.chips
    }
    /// Each seat's marks in this Kul game.
    pub fn marks(&self) -> &[u32] {
        &self.marks
    }
    pub fn pot(&self) -> i64 {
        self.pot
    }
    pub fn stake(&self) -> i64 {
        self.stake
    }
}

impl SeatView for KulView {
    fn held(&self) -> Option<&[Card]> {
        Some(self.hand())
    }

    fn observe(&mut self, kind: &str, args: &[Arg]) {
        let num = |i: usize| args.get(i).and_then(|a| a.parse::<i64>().ok());
        match kind {
            "ante" => {
                self.game_no = num(0).unwrap_or(0) as u64;
                self.stake = num(1).unwrap_or(0);
                self.pot = num(2).unwrap_or(0);
                for c in &mut self.chips {
                    *c -= self.stake;
                }
                self.marks = vec![0; self.players];
            }
            "deal" => {
                self.deal = num(0).map(|d| d as u64);
                self.dealer = num(1).map(|d| d as Seat);
                self.hand.clear();
                self.tricks.clear();
                self.trick = None;
                self.played.clear();
                self.redeal.clear();
            }
            "hand" => self.hand = args.iter().filter_map(|a| a.parse().ok()).collect(),
            "move" => {
                let (Some(s), Some(tok)) = (num(0), args.get(1)) else {
                    return;
                };
                let s = s as Seat;
                match tok.parse::<Card>() {
                    Ok(c) => {
                        if s == self.seat {
                            self.hand.retain(|&h| h != c);
                        }
                        self.played.push(c);
                        match &mut self.trick {
                            Some((_, cs)) => cs.push(c),
                            None => self.trick = Some((s, vec![c])),
                        }
                    }
                    Err(_) => self.redeal.push((s, tok.to_string())),
                }
            }
            "trick" => {
                if let (Some((leader, cs)), Some(w)) = (self.trick.take(), num(1)) {
                    self.tricks.push(DoneTrick {
                        leader,
                        cards: cs,
                        winner: w as Seat,
                    });
                }
            }
            "mark" => {
                if let (Some(s), Some(m)) = (num(0), num(1)) {
                    if let Some(x) = self.marks.get_mut(s as usize) {
                        *x = m as u32;
                    }
                }
            }
            "kul" => {
                self.pot = 0;
                self.set_chips(args.get(2));
            }
            "split" => {
                self.pot = 0;
                self.set_chips(args.get(1));
            }
            "end" => self.ended = true,
            _ => {}
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_json(&self) -> Value {
        let tricks: Vec<Value> = self
            .tricks
            .iter()
            .map(|t| json!({"leader": t.leader, "cards": cards(&t.cards), "winner": t.winner}))
            .collect();
        let trick = match &self.trick {
            Some((l, cs)) => json!({"leader": l, "cards": cards(cs)}),
            None => Value::Null,
        };
        let redeal: Vec<Value> = self.redeal.iter().map(|(s, t)| json!([s, t])).collect();
        json!({
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "options": self.options.to_json(),
            "game_no": self.game_no,
            "stake": self.stake,
            "pot": self.pot,
            "chips": self.chips,
            "marks": self.marks,
            "deal": self.deal,
            "dealer": self.dealer,
            "hand": cards(&self.hand),
            "tricks": tricks,
            "trick": trick,
            "played": cards(&self.played),
            "redeal": redeal,
            "ended": self.ended,
        })
    }
}

pub fn new_view(info: &GameInfo) -> Box<dyn SeatView> {
    Box::new(KulView::new(info))
}

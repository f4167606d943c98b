//! The Svängknack seat view: what one seat knows, folded from the lines routed to it
//! (protocol.md, section "Svängknack and Kul"), and its JSON form.
//!
//! The view is folded once per seat and event, so it is typed and keeps its buffers: a round
//! clears its lists instead of dropping them, a move is kept as the fixed word it is (text
//! only for a token no engine writes), and the chips line is read in place.

use crate::cards::Card;
use crate::few::Few;
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::options::Options;
use serde_json::{json, Value};

/// The most seats a trick holds (Svängknack seats at most 16).
const MAX_SEATS: usize = 16;

pub(super) use crate::games::tokens::Tok;

/// An argument as a token of the view: one of this game's words, or text.
fn tok(arg: &Arg) -> Tok {
    Tok::of(arg, known_word)
}

/// The words of Svängknack lines that the view keeps (moves, trump, redeal, forced), as
/// static text.
fn known_word(t: &str) -> Option<&'static str> {
    Some(match t {
        "swing" => "swing",
        "handover" => "handover",
        "handover_last" => "handover_last",
        "redeal" => "redeal",
        "agree" => "agree",
        "refuse" => "refuse",
        "knock" => "knock",
        "fold" => "fold",
        "farg" => "farg",
        "S" => "S",
        "H" => "H",
        "D" => "D",
        "C" => "C",
        "refused" => "refused",
        "stock" => "stock",
        "shuffle" => "shuffle",
        "participation" => "participation",
        "same_suit" => "same_suit",
        _ => return None,
    })
}

/// Whether an argument is the word `w` (without writing a number or card as text).
fn is_word(arg: &Arg, w: &str) -> bool {
    match arg {
        Arg::Word(x) => *x == w,
        Arg::Text(t) => t == w,
        _ => false,
    }
}

/// A trick as the seat saw it (seats as bytes: a trick is copied into the round's list).
#[derive(Clone, Copy, Debug)]
pub(super) struct Trick {
    pub(super) leader: Seat,
    pub(super) cards: Few<(u8, Card), MAX_SEATS>,
    pub(super) farg: Few<u8, MAX_SEATS>,
    pub(super) winner: Option<Seat>,
}

impl Trick {
    pub(super) fn new(leader: Seat) -> Trick {
        Trick {
            leader,
            cards: Few::new((0, Card::from_index(0))),
            farg: Few::new(0),
            winner: None,
        }
    }

    fn json(&self) -> Value {
        let cards: Vec<Value> = self.cards.iter().map(|(s, c)| json!([s, c.to_string()])).collect();
        json!({"leader": self.leader, "cards": cards, "farg": self.farg.as_slice(), "winner": self.winner})
    }
}

/// Everything about the current round (reset by a `round` line, its buffers kept).
#[derive(Clone, Debug, Default)]
pub(super) struct Round {
    pub(super) number: u64,
    pub(super) dealer: Option<Seat>,
    pub(super) forehand: Option<Seat>,
    pub(super) swinger: Option<Seat>,
    pub(super) pot: i64,
    pub(super) hand: Vec<Card>,
    pub(super) moves: Vec<(Seat, Tok)>,
    pub(super) redeal: Option<Tok>,
    pub(super) turnup: Vec<Card>,
    pub(super) trump: Option<Tok>,
    pub(super) forced: Option<Tok>,
    pub(super) knocked: Vec<Seat>,
    pub(super) folded: Vec<Seat>,
    pub(super) participants: Vec<Seat>,
    pub(super) tricks: Vec<Trick>,
    pub(super) trick: Option<Trick>,
    pub(super) played: Vec<Card>,
    pub(super) bets: Vec<Seat>,
    pub(super) lone: bool,
}

impl Round {
    /// An empty round whose lists hold a round of `n` seats without growing.
    fn with_capacity(n: usize) -> Round {
        Round {
            hand: Vec::with_capacity(3),
            moves: Vec::with_capacity(2 * n + 4),
            turnup: Vec::with_capacity(2),
            knocked: Vec::with_capacity(n + 1),
            folded: Vec::with_capacity(n),
            participants: Vec::with_capacity(n),
            tricks: Vec::with_capacity(3),
            played: Vec::with_capacity(3 * n),
            bets: Vec::with_capacity(n),
            ..Round::default()
        }
    }

    /// A new round: everything as `Round::default()` with these numbers, the lists emptied in
    /// place.
    fn reset(&mut self, number: u64, dealer: Option<Seat>, forehand: Option<Seat>) {
        self.number = number;
        self.dealer = dealer;
        self.forehand = forehand;
        self.swinger = forehand;
        self.pot = 0;
        self.hand.clear();
        self.moves.clear();
        self.redeal = None;
        self.turnup.clear();
        self.trump = None;
        self.forced = None;
        self.knocked.clear();
        self.folded.clear();
        self.participants.clear();
        self.tricks.clear();
        self.trick = None;
        self.played.clear();
        self.bets.clear();
        self.lone = false;
    }
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

/// A number as `str::parse::<i64>` reads it (an optional sign, then digits, in range).
fn parse_i64(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for &b in digits {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?;
        v = if neg {
            v.checked_sub(d as i64)?
        } else {
            v.checked_add(d as i64)?
        };
    }
    Some(v)
}

/// An argument as a number (a number argument read directly).
fn int(arg: Option<&Arg>) -> Option<i64> {
    match arg? {
        Arg::Int(i) => Some(*i),
        other => other.parse::<i64>().ok(),
    }
}

/// An argument as a card, if it is one (a card argument read directly).
fn card(arg: &Arg) -> Option<Card> {
    match arg {
        Arg::Card(c) => Some(*c),
        other => other.card(),
    }
}

/// Reads the cards among `args` into `out` (emptied first).
fn cards_into(out: &mut Vec<Card>, args: &[Arg]) {
    out.clear();
    out.extend(args.iter().filter_map(card));
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
            round: Round::with_capacity(info.players),
            rounds_done: 0,
            ended: None,
        }
    }

    /// The chips of every seat from a token `3,-2,5`: taken when it has a number per seat.
    fn set_chips(&mut self, token: Option<&Arg>) {
        let Some(t) = token else { return };
        let mut read = [0i64; MAX_SEATS];
        let mut k = 0;
        let text = t.text();
        let bytes = text.as_bytes();
        let mut start = 0;
        // The comma-separated parts, each kept when it is a number.
        while start <= bytes.len() {
            let end = bytes[start..]
                .iter()
                .position(|&b| b == b',')
                .map_or(bytes.len(), |e| start + e);
            if let Some(v) = parse_i64(&bytes[start..end]) {
                if k < MAX_SEATS {
                    read[k] = v;
                }
                k += 1;
            }
            start = end + 1;
        }
        if k == self.players && k <= MAX_SEATS {
            self.chips.copy_from_slice(&read[..k]);
        }
    }

    /// The trump suit, once it is chosen.
    pub(super) fn trump(&self) -> Option<crate::cards::Suit> {
        self.round.trump.as_ref().and_then(|t| t.as_str().parse().ok())
    }
}

impl SvangView {
    /// A `move` line (about half of all lines): a card played, or a word.
    fn on_move(&mut self, args: &[Arg]) {
        let num = |i: usize| int(args.get(i));
        let r = &mut self.round;
        let (Some(s), Some(tok)) = (num(0), args.get(1)) else {
            return;
        };
        let s = s as Seat;
        if let Some(c) = card(tok) {
            if s == self.seat {
                r.hand.retain(|&h| h != c);
            }
            r.played.push(c);
            // A seat is a byte in a trick (Svängknack seats at most 16).
            let b = s as u8;
            match &mut r.trick {
                Some(t) => t.cards.push_unless_full((b, c)),
                None => {
                    let mut t = Trick::new(s);
                    t.cards.push((b, c));
                    r.trick = Some(t);
                }
            }
            return;
        }
        let tok = self::tok(tok);
        match tok.as_str() {
            "farg" => {
                if let Some(t) = &mut r.trick {
                    t.farg.push_unless_full(s as u8);
                }
            }
            "knock" => r.knocked.push(s),
            "fold" => r.folded.push(s),
            _ => {}
        }
        r.moves.push((s, tok));
    }
}

/// Read-only access for the Python package's observation tensor (crates/py/src/tensor).
impl SvangView {
    /// The seat's cards now.
    pub fn hand(&self) -> &[Card] {
        &self.round.hand
    }
    /// Each seat's chips.
    pub fn chips(&self) -> &[i64] {
        &self.chips
    }
    /// The pot of this round.
    pub fn pot(&self) -> i64 {
        self.round.pot
    }
}

impl SeatView for SvangView {
    fn held(&self) -> Option<&[Card]> {
        Some(self.hand())
    }

    fn observe(&mut self, kind: &str, args: &[Arg]) {
        if kind == "move" {
            self.on_move(args);
            return;
        }
        let num = |i: usize| int(args.get(i));
        let r = &mut self.round;
        // The most frequent lines first.
        match kind {
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
            "round" => {
                let (number, dealer, forehand) = (
                    num(0).unwrap_or(0) as u64,
                    num(1).map(|s| s as Seat),
                    num(2).map(|s| s as Seat),
                );
                r.reset(number, dealer, forehand);
            }
            "ante" => {
                let a = num(0).unwrap_or(0);
                if args.get(1).is_some_and(|x| is_word(x, "all")) {
                    self.chips.iter_mut().for_each(|c| *c -= a);
                } else if let Some(c) = num(1).and_then(|s| self.chips.get_mut(s as usize)) {
                    *c -= a;
                }
            }
            "pot" => r.pot = num(0).unwrap_or(0),
            "hand" => cards_into(&mut r.hand, args),
            "redeal" => r.redeal = args.first().map(tok),
            "swinger" => r.swinger = num(0).map(|s| s as Seat),
            "turnup" => cards_into(&mut r.turnup, args),
            "trump" => r.trump = args.first().map(tok),
            "forced" => r.forced = args.first().map(tok),
            "participants" => {
                r.participants.clear();
                if let Some(t) = args.first() {
                    r.participants
                        .extend(t.text().split(',').filter_map(|x| x.parse::<Seat>().ok()));
                }
            }
            "lastman" => {
                if let Some(s) = num(0) {
                    r.knocked.push(s as Seat);
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
        let moves: Vec<Value> = r.moves.iter().map(|(s, t)| json!([s, t.as_str()])).collect();
        let tricks: Vec<Value> = r.tricks.iter().map(Trick::json).collect();
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
            "redeal": r.redeal.as_ref().map(Tok::as_str),
            "turnup": cards(&r.turnup),
            "trump": r.trump.as_ref().map(Tok::as_str),
            "forced": r.forced.as_ref().map(Tok::as_str),
            "knocked": r.knocked,
            "folded": r.folded,
            "participants": r.participants,
            "tricks": tricks,
            "trick": r.trick.as_ref().map(Trick::json),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chips_token_is_read_as_its_numbers_split_by_commas() {
        let info = GameInfo {
            game: "svangknack".into(),
            options: Options::default(),
            players: 3,
            seat: 0,
        };
        for t in ["3,-2,5", "1,2", "1,2,3,4", "1,,2,3", "1,x,2,3", ",1,2,3,", "", "7,8,9"] {
            let mut v = SvangView::new(&info);
            v.chips = vec![10, 20, 30];
            v.set_chips(Some(&Arg::Text(t.into())));
            let parsed: Vec<i64> = t.split(',').filter_map(|x| x.parse().ok()).collect();
            let want = if parsed.len() == 3 { parsed } else { vec![10, 20, 30] };
            assert_eq!(v.chips, want, "{t:?}");
        }
    }

    #[test]
    fn numbers_are_read_as_str_parse_reads_them() {
        for t in [
            "0",
            "7",
            "-3",
            "+5",
            "-0",
            "0012",
            "",
            "-",
            "+",
            "--1",
            "1-",
            "3 ",
            " 3",
            "x",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999999",
        ] {
            assert_eq!(parse_i64(t.as_bytes()), t.parse::<i64>().ok(), "{t:?}");
        }
    }
}

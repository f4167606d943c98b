//! What lies on the table for an onlooker (`show --html`), read from a view's JSON: what the
//! page does not draw itself, in words.

use super::names::Names;
use super::text::{capitalise, get, hand_worth, view_strings, words};
use crate::cards::{Card, Suit};
use crate::games::rikken::view::contract_words;
use serde_json::Value;

impl Names {
    /// What lies on the table for an onlooker (`show --html`), from a view's JSON: where the
    /// game stands, the contract, the cards face up, the pot, what was said and done in this
    /// deal or round, the deals before. In words, cards as people read them. What the page draws
    /// itself is left out: the seats' hands, marks and numbers per seat, the trick, Rikken's
    /// auction, the seats named by a key (`dealer`, `knocker`, …) or listed (`askers`, …).
    pub fn board(&self, view: &Value) -> Vec<String> {
        let mut out = Vec::new();
        self.where_it_stands(view, &mut out);
        self.contract(view, &mut out);
        out.extend(self.money(view));
        self.cards_face_up(view, &mut out);
        self.said_and_done(view, &mut out);
        self.how_it_ended(view, &mut out);
        out.extend(self.deals_so_far(view));
        self.session(view, &mut out);
        out
    }

    /// Where the game stands: its number, round, deal and draw, and whether a repeat period runs.
    fn where_it_stands(&self, view: &Value, out: &mut Vec<String>) {
        let mut at = Vec::new();
        for (key, label) in [
            ("game_no", "game"),
            ("round", "round"),
            ("deal", "deal"),
            ("draw", "draw"),
        ] {
            if let Some(v) = get(view, key).and_then(Value::as_u64) {
                at.push(format!("{label} {v}"));
            }
        }
        if !at.is_empty() {
            out.push(capitalise(&at.join(", ")));
        }
        if get(view, "repeat").and_then(Value::as_bool) == Some(true) {
            out.push("A repeat period: a suit turned before.".into());
        }
    }

    /// The contract, trump, called card and partner, as the human seat's table says them; and
    /// the declarer's aces.
    fn contract(&self, view: &Value, out: &mut Vec<String>) {
        let mut facts = Vec::new();
        if let Some(c) = get(view, "contract") {
            let bid = contract_words(c.get("bid").and_then(Value::as_str).unwrap_or("?"));
            let by: Vec<String> = c
                .get("declarers")
                .and_then(Value::as_array)
                .map(|d| d.iter().filter_map(|v| self.seat_of(v)).collect())
                .unwrap_or_default();
            facts.push(if by.is_empty() {
                format!("contract {bid}")
            } else {
                format!("contract {bid} by {}", by.join(", "))
            });
        }
        if let Some(t) = get(view, "trump").and_then(Value::as_str) {
            facts.push(if t == "none" {
                "no trump".into()
            } else {
                format!("trump {}", self.suit(t))
            });
        }
        if let Some(c) = get(view, "called").and_then(Value::as_str) {
            facts.push(format!("called card {}", self.card_tok(c)));
        }
        if let Some(p) = get(view, "partner").and_then(|v| self.seat_of(v)) {
            facts.push(format!("partner {p}"));
        }
        if !facts.is_empty() {
            out.push(capitalise(&facts.join(", ")));
        }
        if let Some(a) = get(view, "aces").filter(|a| a.as_array().is_some_and(|a| !a.is_empty())) {
            out.push(format!("The declarer's aces: {}", self.cards(&view_strings(a))));
        }
    }

    /// The pot, the stake, a trick's worth, the stock and the seeks.
    fn money(&self, view: &Value) -> Option<String> {
        let mut money = Vec::new();
        for (key, label) in [("pot", "pot"), ("stake", "stake"), ("trick_value", "a trick is worth")] {
            if let Some(v) = get(view, key).filter(|v| v.is_number()) {
                money.push(format!("{label} {v}"));
            }
        }
        if let Some(v) = get(view, "stock").filter(|v| v.is_number()) {
            money.push(format!("{v} card(s) in the stock"));
        }
        if let Some(v) = get(view, "seeks").and_then(Value::as_u64).filter(|&v| v > 0) {
            money.push(format!("{v} seek(s)"));
        }
        (!money.is_empty()).then(|| capitalise(&money.join(", ")))
    }

    /// Cards face up (with what they are worth where the game counts a hand), and the cards
    /// taken for the trump ten.
    fn cards_face_up(&self, view: &Value, out: &mut Vec<String>) {
        for (key, label) in [
            ("turned", "Face up"),
            ("turnup", "Turned up"),
            ("middle", "The middle"),
            ("table", "On the table"),
        ] {
            if let Some(v) = get(view, key).filter(|v| v.as_array().is_some_and(|a| !a.is_empty())) {
                let tokens = view_strings(v);
                let cards: Vec<Card> = tokens.iter().filter_map(|t| Card::from_token(t)).collect();
                let worth = hand_worth(&self.game, &cards).map_or_else(String::new, |w| format!(" ({w})"));
                out.push(format!("{label}: {}{worth}", self.cards(&tokens)));
            }
        }
        if let Some(e) = get(view, "exchanges").and_then(Value::as_array) {
            for x in e.iter().filter_map(Value::as_array) {
                let at = |i: usize| x.get(i).and_then(Value::as_str).unwrap_or("?");
                let who = x.first().and_then(|v| self.seat_of(v)).unwrap_or_default();
                out.push(format!(
                    "{who} took {} for the trump ten, laying {} face up.",
                    self.card_tok(at(1)),
                    self.card_tok(at(2))
                ));
            }
        }
    }

    /// What was said and done in this deal or round, in the order it was.
    fn said_and_done(&self, view: &Value, out: &mut Vec<String>) {
        for (key, label, decision) in [("bids", "Bids", "bid"), ("moves", "So far", "")] {
            let Some(list) = get(view, key).and_then(Value::as_array).filter(|l| !l.is_empty()) else {
                continue;
            };
            // The last few: the events of the steps say each one.
            const LAST: usize = 6;
            let earlier = list.len().saturating_sub(LAST);
            let mut said: Vec<String> = list[earlier..]
                .iter()
                .filter_map(Value::as_array)
                .map(|m| {
                    let who = m.first().and_then(|v| self.seat_of(v)).unwrap_or_default();
                    let token = m.get(1).and_then(Value::as_str).unwrap_or("?");
                    let decision = match decision {
                        "" if token.len() == 1 && Suit::from_letter(token.chars().next().unwrap_or(' ')).is_some() => {
                            "trump"
                        }
                        d => d,
                    };
                    format!("{who}: {}", self.action(decision, token))
                })
                .collect();
            if earlier > 0 {
                said.insert(0, format!("({earlier} before)"));
            }
            out.push(format!("{label}: {}.", said.join("; ")));
        }
    }

    /// How the deal or game ended, a redeal, and a pot taken without play.
    fn how_it_ended(&self, view: &Value, out: &mut Vec<String>) {
        if let Some(e) = get(view, "ended") {
            match e {
                Value::String(how) => out.push(format!("Over: {}.", words(how))),
                Value::Object(o) => {
                    let how = o.get("how").and_then(Value::as_str).map(words).unwrap_or_default();
                    match o.get("winner").and_then(|v| self.seat_of(v)) {
                        Some(w) => out.push(format!("Over: {how}, {w} wins.")),
                        None => out.push(format!("Over: {how}.")),
                    }
                }
                Value::Bool(true) => out.push("Over.".into()),
                _ => {}
            }
        }
        if let Some(r) = get(view, "redeal").and_then(Value::as_str) {
            out.push(match r {
                "stock" => "Redeal: new hands from the stock.".into(),
                "shuffle" => "Redeal: the cards are shuffled again.".into(),
                "refused" => "The redeal was refused.".into(),
                r => format!("Redeal: {}.", words(r)),
            });
        }
        if get(view, "lone").and_then(Value::as_bool) == Some(true) {
            out.push("Nobody knocked: the swinger takes the pot.".into());
        }
    }

    /// The deals before, and how each ended.
    fn deals_so_far(&self, view: &Value) -> Option<String> {
        let h = get(view, "history")
            .and_then(Value::as_array)
            .filter(|h| !h.is_empty())?;
        let deals: Vec<String> = h
            .iter()
            .filter_map(Value::as_array)
            .map(|d| {
                let n = d.first().map(|n| n.to_string()).unwrap_or_default();
                let winner = d
                    .get(2)
                    .and_then(|v| self.seat_of(v))
                    .unwrap_or_else(|| "nobody".into());
                let how = match d.get(1).and_then(Value::as_str).unwrap_or("") {
                    "zwik" => format!("{winner} with a zwik"),
                    "points" => format!("{winner} on points"),
                    "passer" => format!("a passer ({winner}) took the most points"),
                    "tie" => "a tie: every asker lost".into(),
                    "no_play" => "nobody played".into(),
                    other => words(other),
                };
                format!("{n}: {how}")
            })
            .collect();
        Some(format!("Deals so far: {}.", deals.join("; ")))
    }

    /// The session: the games won, the teams, and how it ended.
    fn session(&self, view: &Value, out: &mut Vec<String>) {
        if let Some(w) = get(view, "winners").and_then(Value::as_array).filter(|w| !w.is_empty()) {
            let games: Vec<String> = w
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{} {}", i + 1, self.seat_of(s).unwrap_or_else(|| "nobody".into())))
                .collect();
            out.push(format!("Games won: {}.", games.join(", ")));
        }
        if get(view, "teams").and_then(Value::as_bool) == Some(true) && self.players == 4 {
            out.push(format!(
                "Teams: {} and {} against {} and {}.",
                self.seat(0),
                self.seat(2),
                self.seat(1),
                self.seat(3)
            ));
        }
        if let Some(e) = get(view, "session_end").and_then(Value::as_str) {
            out.push(format!("The session is over ({}).", words(e)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_of_an_onlooker_is_in_words() {
        let z = Names::onlooker("zwikken", 3);
        let view = serde_json::json!({"deal": 5, "pot": 12, "stock": 9, "seeks": 1, "trump": "C",
            "turned": ["KD", "AC"], "bids": [[1, "ken_pass"], [2, "ask"]],
            "exchanges": [[0, "AD", "TD"]],
            "history": [[1, "no_play", null], [2, "points", 0], [3, "zwik", 2], [4, "passer", 1], [5, "tie", null]],
            "session_end": "pot_empty"});
        let b = z.board(&view).join("\n");
        for line in [
            "Deal 5",
            "Trump ♣ clubs",
            "Pot 12, 9 card(s) in the stock, 1 seek(s)",
            "Face up: K♦ A♣",
            "Seat 0 took A♦ for the trump ten, laying 10♦ face up.",
            "Bids: Seat 1: I have the trump ten, and pass (ik ken hem en ik pas); Seat 2: ask (ik vraag).",
            "Deals so far: 1: nobody played; 2: Seat 0 on points; 3: Seat 2 with a zwik; \
             4: a passer (Seat 1) took the most points; 5: a tie: every asker lost.",
            "The session is over (pot empty).",
        ] {
            assert!(b.contains(line), "no '{line}' in\n{b}");
        }
        let r = Names::onlooker("rikken", 4);
        let view = serde_json::json!({"deal": 1, "contract": {"bid": "open_misere_praatje", "declarers": [2]},
            "trump": "none", "ended": "tricks_done"});
        let b = r.board(&view).join("\n");
        assert!(
            b.contains("Contract open misère met een praatje by South, no trump"),
            "{b}"
        );
        assert!(b.contains("Over: tricks done."), "{b}");
        assert!(!b.contains('_'), "{b}");
    }
}

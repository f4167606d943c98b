//! What lies on the table for the person at a seat, read from the seat view's JSON: the keys any
//! game has, each read the one way it is written in every game's view.

use super::names::Names;
use super::text::{capitalise, get, view_strings, words};
use serde_json::Value;

impl Names {
    /// What lies on the table, from the seat view's JSON: the keys any game has, each read
    /// the one way it is written in every game's view.
    pub(super) fn table(&self, view: &Value) -> Vec<String> {
        let mut out = Vec::new();
        out.extend(self.standing(view));
        out.extend(self.contract_and_trump(view));
        self.face_up(view, &mut out);
        out.extend(self.trick(view));
        self.numbers_per_seat(view, &mut out);
        self.who_is_in(view, &mut out);
        out
    }

    /// Where the game stands: its number, round and deal, and who deals, leads and swings.
    fn standing(&self, view: &Value) -> Option<String> {
        let mut at = Vec::new();
        for (key, label) in [("game_no", "game"), ("round", "round"), ("deal", "deal")] {
            if let Some(v) = get(view, key).and_then(Value::as_u64) {
                at.push(format!("{label} {v}"));
            }
        }
        for (key, label) in [("dealer", "dealer"), ("forehand", "forehand"), ("swinger", "swinger")] {
            if let Some(s) = get(view, key).and_then(|v| self.seat_of(v)) {
                at.push(format!("{label} {s}"));
            }
        }
        (!at.is_empty()).then(|| capitalise(&at.join(", ")))
    }

    /// The contract, trump and called card (and the partner, the pot, the stock).
    fn contract_and_trump(&self, view: &Value) -> Option<String> {
        let mut facts = Vec::new();
        if let Some(c) = get(view, "contract") {
            let bid = c.get("bid").and_then(Value::as_str).unwrap_or("?");
            let by: Vec<String> = c
                .get("declarers")
                .and_then(Value::as_array)
                .map(|d| d.iter().filter_map(|v| self.seat_of(v)).collect())
                .unwrap_or_default();
            facts.push(if by.is_empty() {
                format!("contract {}", words(bid))
            } else {
                format!("contract {} by {}", words(bid), by.join(", "))
            });
        }
        if let Some(t) = get(view, "trump").and_then(Value::as_str) {
            facts.push(format!(
                "trump {}",
                if t == "none" { "none".into() } else { self.suit(t) }
            ));
        }
        if let Some(c) = get(view, "called").and_then(Value::as_str) {
            facts.push(format!("called card {}", self.card_tok(c)));
        }
        if let Some(p) = get(view, "partner").and_then(|v| self.seat_of(v)) {
            facts.push(format!("partner {p}"));
        }
        for (key, label) in [("pot", "pot"), ("trick_value", "a trick is worth"), ("stock", "stock")] {
            if let Some(v) = get(view, key).filter(|v| v.is_number()) {
                facts.push(format!("{label} {v}"));
            }
        }
        (!facts.is_empty()).then(|| capitalise(&facts.join(", ")))
    }

    /// Cards lying face up, and the hands played open.
    fn face_up(&self, view: &Value, out: &mut Vec<String>) {
        for (key, label) in [
            ("turned", "Face up"),
            ("turnup", "Turned up"),
            ("middle", "Middle"),
            ("table", "On the table"),
            ("packet", "Your seen packet"),
        ] {
            if let Some(v) = get(view, key).filter(|v| v.is_array()) {
                out.push(format!("{label}: {}", self.cards(&view_strings(v))));
            }
        }
        if let Some(e) = get(view, "exposed").and_then(Value::as_object) {
            for (s, cards) in e {
                let who = self.seat_arg(s);
                out.push(format!("Open hand of {who}: {}", self.hand(&view_strings(cards))));
            }
        }
    }

    /// The trick being played: who played what, or who leads it.
    fn trick(&self, view: &Value) -> Option<String> {
        let t = get(view, "trick").filter(|t| t.is_object())?;
        let leader = t.get("leader").and_then(Value::as_u64).unwrap_or(0) as usize;
        let seats: Vec<usize> = t.get("seats").and_then(Value::as_array).map_or_else(Vec::new, |a| {
            a.iter().filter_map(|s| s.as_u64().map(|s| s as usize)).collect()
        });
        let plays: Vec<String> = t
            .get("cards")
            .and_then(Value::as_array)
            .map(|cards| {
                cards
                    .iter()
                    .enumerate()
                    .map(|(i, c)| match c {
                        // [seat, card] pairs (Svängknack).
                        Value::Array(p) => format!(
                            "{} {}",
                            p.first().and_then(|v| self.seat_of(v)).unwrap_or_default(),
                            self.card_tok(p.get(1).and_then(Value::as_str).unwrap_or("?"))
                        ),
                        _ => {
                            let s = seats.get(i).copied().unwrap_or((leader + i) % self.players.max(1));
                            format!("{} {}", self.seat(s), self.card_tok(c.as_str().unwrap_or("?")))
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(if plays.is_empty() {
            format!("Trick: {} leads", self.seat(leader))
        } else {
            format!("Trick: {}", plays.join(", "))
        })
    }

    /// One number per seat: tricks, marks, points, strikes, cards in hand, chips.
    fn numbers_per_seat(&self, view: &Value, out: &mut Vec<String>) {
        for (key, label) in [
            ("tricks_won", "Tricks"),
            ("marks", "Marks"),
            ("points", "Points"),
            ("strikes", "Strikes"),
            ("hand_sizes", "Cards in hand"),
            ("chips", "Chips"),
        ] {
            if let Some(v) = get(view, key)
                .and_then(Value::as_array)
                .filter(|a| a.len() == self.players)
            {
                out.push(format!(
                    "{label}: {}",
                    self.per_seat(&view_strings(&Value::Array(v.clone())))
                ));
            }
        }
    }

    /// Who is in: who asked, plays, knocked or folded, and who knocked last.
    fn who_is_in(&self, view: &Value, out: &mut Vec<String>) {
        for (key, label) in [
            ("askers", "Asked"),
            ("participants", "Playing"),
            ("knocked", "Knocked"),
            ("folded", "Folded"),
        ] {
            if let Some(v) = get(view, key).and_then(Value::as_array).filter(|a| !a.is_empty()) {
                let who: Vec<String> = v.iter().filter_map(|v| self.seat_of(v)).collect();
                out.push(format!("{label}: {}", who.join(", ")));
            }
        }
        if let Some(k) = get(view, "knocker").and_then(|v| self.seat_of(v)) {
            out.push(format!("{k} knocked"));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::bots::human::names::tests::names;

    #[test]
    fn the_table_from_every_games_view() {
        // A Kul view with a trick in progress: leader and the seats after it, clockwise.
        let k = names("kul", 3, 1);
        let view = serde_json::json!({"game_no":1,"pot":3,"chips":[-1,-1,-1],"marks":[0,1,0],
            "deal":2,"dealer":0,"hand":["KS","5H"],"trick":{"leader":2,"cards":["AH","3H"]}});
        let t = k.table(&view).join("\n");
        assert!(t.contains("Trick: Seat 2 A♥, Seat 0 3♥"), "{t}");
        assert!(t.contains("Marks: Seat 0 0, Seat 1 (you) 1, Seat 2 0"), "{t}");
        assert!(t.contains("Pot 3"), "{t}");
        // Svängknack's [seat, card] pairs.
        let sv = names("svangknack", 3, 0);
        let view = serde_json::json!({"trick":{"leader":1,"cards":[[1,"9H"],[2,"TH"]],"farg":[]},"trump":"H"});
        let t = sv.table(&view).join("\n");
        assert!(t.contains("Trick: Seat 1 9♥, Seat 2 10♥"), "{t}");
        assert!(t.contains("Trump ♥ hearts"), "{t}");
    }
}

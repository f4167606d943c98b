//! Skwitz events for people (`croupier show`): games and deals, the layout, each play and
//! what it captured, skwitzes and matadors, points, payments and the pot. Works on the whole
//! event stream of a session as well as on the events one seat saw.

use crate::cards::{prettify_tokens, pretty_cards, Card};
use crate::game::{Audience, Event};

fn cards(args: &[String]) -> String {
    let cs: Vec<Card> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if cs.is_empty() {
        "-".to_string()
    } else {
        pretty_cards(&cs)
    }
}

fn who(a: Option<&String>) -> String {
    match a.map(String::as_str) {
        Some("pot") => "the pot".to_string(),
        Some(s) => format!("seat {s}"),
        None => "?".to_string(),
    }
}

pub fn render(events: &[Event], players: usize) -> Vec<String> {
    let mut out = Vec::new();
    let all = Audience::all(players);
    for e in events {
        let a = &crate::game::texts(&e.args);
        let private = if e.to != all {
            let to: Vec<String> = e.to.members(players).map(|s| s.to_string()).collect();
            format!("  (to {})", if to.is_empty() { "nobody".into() } else { to.join(",") })
        } else {
            String::new()
        };
        let line = match e.kind {
            "newgame" => format!("game {}, dealer {}", a[0], a.get(1).cloned().unwrap_or_default()),
            "deal" => format!("deal {}, dealer {}", a[0], a.get(1).cloned().unwrap_or_default()),
            "reshuffle" => "the bottom card is a matador: reshuffled".to_string(),
            "bottom" => format!("bottom card {}", cards(a)),
            "table" => format!("table: {}", cards(a)),
            "draw" => format!(
                "draw {} ({} left in the stock{})",
                a[0],
                a.get(1).cloned().unwrap_or_default(),
                if a.get(1).map(String::as_str) == Some("0") {
                    ": these are the last"
                } else {
                    ""
                }
            ),
            "hand" => match e.to.only(players) {
                Some(s) => {
                    out.push(format!("hand {s}: {}", cards(a)));
                    continue;
                }
                None => format!("hand: {}", cards(a)),
            },
            "move" => {
                let t = a.get(1).cloned().unwrap_or_default();
                match t.split_once(':') {
                    _ if t == "out" => format!("seat {}: Out!", a[0]),
                    Some((c, list)) => format!(
                        "seat {} takes {} with {}",
                        a[0],
                        prettify_tokens(&list.replace(',', " ")),
                        prettify_tokens(c)
                    ),
                    None => format!("seat {} trails {}", a[0], prettify_tokens(&t)),
                }
            }
            "matador" => format!("  matador {} for seat {}", cards(&a[1..]), a[0]),
            "skwitz" => format!("  Skwitz! seat {} swept the table", a[0]),
            "breach" => format!(
                "  breach: seat {} faulted ({}) and pays half a stake to every other player",
                a[0],
                a.get(1).map(String::as_str).unwrap_or("fault")
            ),
            "point" => format!("  +1 {} for seat {} (now {})", a[1], a[0], a[2]),
            "pay" => format!("  {} pays {} {} chips ({})", who(a.first()), who(a.get(1)), a[2], a[3]),
            "clear" => format!(
                "these are the last: left on the table {} ({})",
                cards(&a[1..]),
                if a[0] == "none" {
                    "out of play".to_string()
                } else {
                    format!("to seat {}", a[0])
                }
            ),
            "count" => format!("seat {}: {} cards, {} spades", a[0], a[1], a[2]),
            "dealend" => format!("end of deal {}", a[0]),
            "out" => format!("seat {} goes out ({})", a[0], a[1]),
            "matsch" => format!("seat {} is matsch (no points)", a[0]),
            "potholder" => {
                if a[0] == "none" {
                    "the pot is collected".to_string()
                } else {
                    format!("seat {} holds the pot", a[0])
                }
            }
            "gameend" => format!("game {} won by seat {}", a[0], a[1]),
            "sessionend" => format!("session over after {} games", a[0]),
            _ => prettify_tokens(&e.line()),
        };
        out.push(format!("{line}{private}"));
    }
    out
}

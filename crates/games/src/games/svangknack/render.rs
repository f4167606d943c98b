//! Svängknack events for people (`croupier show`): each round's pot, hands, the swinger's
//! choice, the turn-up and trump, knocks, every trick and its winner, payments and bets.

use crate::cards::{prettify_tokens, Card, Suit};
use crate::game::Event;

/// Renders a session of Svängknack (all its events, or the events one seat saw).
pub fn render(events: &[Event], players: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut trick: Vec<String> = Vec::new();
    let mut knocks: Vec<String> = Vec::new();
    let flush_knocks = |out: &mut Vec<String>, knocks: &mut Vec<String>| {
        if !knocks.is_empty() {
            out.push(format!("    {}", knocks.join(", ")));
            knocks.clear();
        }
    };
    for ev in events {
        let a = &crate::game::texts(&ev.args);
        let arg = |i: usize| a.get(i).cloned().unwrap_or_default();
        if ev.kind != "move" || !matches!(arg(1).as_str(), "knock" | "fold") {
            flush_knocks(&mut out, &mut knocks);
        }
        match ev.kind {
            "round" => {
                if !out.is_empty() {
                    out.push(String::new());
                }
                out.push(format!("round {}: dealer {}, swinger {}", arg(0), arg(1), arg(2)));
            }
            "ante" => out.push(format!(
                "  ante {} by {}",
                arg(0),
                if arg(1) == "all" {
                    "everyone".into()
                } else {
                    format!("seat {}", arg(1))
                }
            )),
            "pot" => out.push(format!("  pot {}, a trick is worth {}", arg(0), arg(1))),
            "deal" => out.push(format!("  deal {}, dealer {}", arg(0), arg(1))),
            "hand" => {
                let who = ev.to.only(players).map_or("?".to_string(), |s| s.to_string());
                out.push(format!("    hand {who}: {}", prettify_tokens(&a.join(" "))));
            }
            "move" => {
                let tok = arg(1);
                if tok.parse::<Card>().is_ok() {
                    trick.push(format!("{} {}", arg(0), prettify_tokens(&tok)));
                } else if tok == "farg" {
                    trick.push(format!("{} Färg", arg(0)));
                } else if tok == "knock" || tok == "fold" {
                    knocks.push(format!("{} {tok}", arg(0)));
                } else {
                    out.push(format!("  seat {}: {tok}", arg(0)));
                }
            }
            "trick" => {
                out.push(format!("  trick {}: {}  → {}", arg(0), trick.join("  "), arg(1)));
                trick.clear();
            }
            "turnup" => out.push(format!("  turned up: {}", prettify_tokens(&a.join(" ")))),
            "trump" => out.push(format!(
                "  trump {}",
                arg(0).parse::<Suit>().map(|s| s.pretty()).unwrap_or_else(|_| arg(0))
            )),
            "paid" => out.push(format!("  seat {} wins {} trick(s): +{}", arg(0), arg(1), arg(2))),
            "bet" => out.push(format!("  seat {} is bet: owes {} to the next pot", arg(0), arg(1))),
            "lone" => out.push(format!("  nobody knocked: seat {} takes the pot of {}", arg(0), arg(1))),
            "chips" => out.push(format!("  chips {}", arg(0))),
            "split" => out.push(format!("bets of {} split at the cap; chips {}", arg(0), arg(1))),
            "end" => out.push(format!("session over ({})", arg(0))),
            _ => out.push(format!("  {}", prettify_tokens(&ev.line()))),
        }
    }
    flush_knocks(&mut out, &mut knocks);
    if !trick.is_empty() {
        out.push(format!("  trick (unfinished): {}", trick.join("  ")));
    }
    out
}

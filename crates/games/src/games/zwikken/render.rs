//! Zwikken events for people (`croupier show`): each deal with its ante, hands, turned cards,
//! bids in their Dutch wording, seeks, exchanges, zwiks, tricks, result and chips. Works on the
//! whole event stream of a session as well as on the events one seat saw.

use crate::cards::{prettify_tokens, Card};
use crate::game::Event;

fn pretty_cards(args: &[String]) -> String {
    prettify_tokens(&args.join(" "))
}

/// Renders a sequence of events (the `render` of the game's spec).
pub fn render(events: &[Event], players: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut trick: Vec<String> = Vec::new();
    let mut pays: Vec<String> = Vec::new();
    let flush = |pays: &mut Vec<String>, out: &mut Vec<String>| {
        if !pays.is_empty() {
            out.push(format!("  chips: {}", pays.join(", ")));
            pays.clear();
        }
    };
    for e in events {
        let a = &crate::game::texts(&e.args);
        let arg = |i: usize| a.get(i).cloned().unwrap_or_default();
        if !matches!(e.kind, "pay" | "win" | "split" | "pot") {
            flush(&mut pays, &mut out);
        }
        match e.kind {
            "deal" => out.push(format!("deal {}, dealer {}", arg(0), arg(1))),
            "hand" => match e.to.only(players) {
                Some(s) => out.push(format!("  hand {s}: {}", pretty_cards(a))),
                None => out.push(format!("  hand: {}", pretty_cards(a))),
            },
            "turn" => {
                let c = arg(0).parse::<Card>().ok();
                out.push(format!(
                    "  turned {} (trump {})",
                    c.map(|c| c.pretty()).unwrap_or_default(),
                    c.map(|c| c.suit.pretty()).unwrap_or_default()
                ));
            }
            "say" => out.push(format!("  {}: {}", arg(0), arg(1).replace('_', " "))),
            "move" => {
                let t = arg(1);
                if t.parse::<Card>().is_ok() {
                    trick.push(format!("{} {}", arg(0), prettify_tokens(&t)));
                } else if let Some(rest) = t.strip_prefix("exchange_") {
                    if let Some((_, play)) = rest.split_once('_') {
                        trick.push(format!("{} {}", arg(0), prettify_tokens(play)));
                    }
                } else if t == "no_seek" {
                    out.push(format!("  {}: no seek", arg(0)));
                } else if t == "no_exchange" {
                    out.push(format!("  {}: no exchange", arg(0)));
                }
            }
            "allpass" => out.push("  all passed".into()),
            "exchange" => out.push(format!(
                "  {} exchanges {} for {}",
                arg(0),
                prettify_tokens(&arg(2)),
                prettify_tokens(&arg(1))
            )),
            "zwik" => out.push(format!("  {} shows a zwik: {}", arg(0), pretty_cards(&a[1..]))),
            "trick" => {
                out.push(format!("  trick {}: {}  → {}", arg(0), trick.join("  "), arg(1)));
                trick.clear();
            }
            "points" => out.push(format!("  card points: {}", a.join(" "))),
            "end" => out.push(match arg(0).as_str() {
                "zwik" => format!("  {} wins with a zwik", arg(1)),
                "points" => format!("  {} wins on points", arg(1)),
                "passer" => format!("  passer {} has the most points: every asker loses", arg(1)),
                "tie" => "  the top is shared: every asker loses".to_string(),
                _ => "  not played: the pot carries over".to_string(),
            }),
            "pay" => pays.push(format!("{} pays {} ({})", arg(0), arg(1), arg(2))),
            "win" => pays.push(format!("{} takes {}", arg(0), arg(1))),
            "split" => pays.push(format!("{} gets {} of the divided pot", arg(0), arg(1))),
            "pot" => pays.push(format!("pot {}", arg(0))),
            "out" => out.push(format!("  {} is out of chips", arg(0))),
            "session" => out.push(format!("session over: {}", arg(0).replace('_', " "))),
            _ => {}
        }
    }
    flush(&mut pays, &mut out);
    out
}

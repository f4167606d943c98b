//! Schwimmen events for people (`croupier show`): each round's deal, the dealer's choice, every
//! exchange with the middle, the knock, the end, the hands shown, strikes, drownings and the
//! final places. Works on the whole event stream of a game as well as on one seat's events.

use super::scoring::{value_halves, value_text};
use crate::cards::{prettify_tokens, pretty_cards, Card};
use crate::game::Event;

fn cards_of(args: &[String]) -> Vec<Card> {
    args.iter().filter_map(|a| a.parse().ok()).collect()
}

fn move_text(seat: &str, token: &str) -> String {
    match token {
        "keep_seen" => format!("{seat} keeps the seen packet"),
        "take_unseen" => format!("{seat} takes the unseen packet"),
        "swap_all" => format!("{seat} swaps all three"),
        "knock" => format!("{seat} knocks"),
        "pass" => format!("{seat} passes"),
        t => match t.strip_prefix("swap_").map(|r| r.split('_').collect::<Vec<_>>()) {
            Some(p) if p.len() == 2 => format!(
                "{seat} lays down {} and takes {}",
                prettify_tokens(p[0]),
                prettify_tokens(p[1])
            ),
            _ => format!("{seat} {t}"),
        },
    }
}

/// Human-readable lines for a sequence of Schwimmen events (the `render` of the game's spec).
pub fn render(events: &[Event], _players: usize) -> Vec<String> {
    let mut out = Vec::new();
    for ev in events {
        let a = &crate::game::texts(&ev.args);
        let arg = |i: usize| a.get(i).cloned().unwrap_or_default();
        match ev.kind {
            "deal" => out.push(format!("round {}, dealer {}", arg(0), arg(1))),
            "hand" => {
                let to: Vec<String> = ev.to.members(32).map(|s| s.to_string()).collect();
                let c = cards_of(a);
                out.push(format!(
                    "  hand {}: {} ({})",
                    to.join(","),
                    pretty_cards(&c),
                    value_text(value_halves(&c))
                ));
            }
            "packet" => {
                let to: Vec<String> = ev.to.members(32).map(|s| s.to_string()).collect();
                out.push(format!(
                    "  seen packet of {}: {}",
                    to.join(","),
                    pretty_cards(&cards_of(a))
                ));
            }
            "middle" => out.push(format!("    middle: {}", pretty_cards(&cards_of(a)))),
            "move" => out.push(format!("  {}", move_text(&arg(0), &arg(1)))),
            "refresh" => out.push(format!(
                "  everyone passed: a fresh middle {}",
                pretty_cards(&cards_of(a))
            )),
            "end" => out.push(match arg(0).as_str() {
                "thirtyone" => format!("  end: {} has 31", arg(1)),
                "three_aces" => format!("  end: {} has three aces", arg(1)),
                "cap" => "  end: no knock within max_circuits, showdown".to_string(),
                _ => "  end: showdown".to_string(),
            }),
            "show" => out.push(format!(
                "  {} shows {} = {}",
                arg(0),
                pretty_cards(&cards_of(&a[1.min(a.len())..])),
                a.last().cloned().unwrap_or_default()
            )),
            "strike" => out.push(format!("  strike for {} (now {})", arg(0), arg(1))),
            "swimming" => out.push(format!("  {} is swimming", arg(0))),
            "reprieve" => out.push("  everyone left would drown: nobody goes out".to_string()),
            "out" => out.push(format!("  {} drowns (place {})", arg(0), arg(1))),
            "misdeal" => out.push(format!(
                "  misdeal: dealer {} faulted ({}) at the packet choice: a strike, and a new deal",
                arg(0),
                arg(1)
            )),
            "absent" => out.push(format!(
                "  {} is absent (its bot is dead): out of the game, ranked last (place {})",
                arg(0),
                arg(1)
            )),
            "place" => out.push(format!("place {}: seat {} pays {}", arg(1), arg(0), arg(2))),
            "gameover" => out.push(format!("scores: {}", a.join(" "))),
            _ => out.push(format!("  {}", prettify_tokens(&ev.line()))),
        }
    }
    out
}

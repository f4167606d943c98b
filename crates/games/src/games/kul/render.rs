//! Kul events for people (`croupier show`): each game's ante, the deals, the hands, every trick
//! and its winner, the marks and the pots.

use crate::cards::{prettify_tokens, Card};
use crate::game::Event;

/// Renders a session of Kul (all its events, or the events one seat saw).
pub fn render(events: &[Event], players: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut trick: Vec<String> = Vec::new();
    for ev in events {
        let a = &crate::game::texts(&ev.args);
        let arg = |i: usize| a.get(i).cloned().unwrap_or_default();
        match ev.kind {
            "ante" => out.push(format!("game {}: every player pays {}, pot {}", arg(0), arg(1), arg(2))),
            "deal" => out.push(format!("  deal {}, dealer {}", arg(0), arg(1))),
            "hand" => {
                let who = ev.to.only(players).map_or("?".to_string(), |s| s.to_string());
                out.push(format!("    hand {who}: {}", prettify_tokens(&a.join(" "))));
            }
            "move" => {
                let tok = arg(1);
                if tok.parse::<Card>().is_ok() {
                    trick.push(format!("{} {}", arg(0), prettify_tokens(&tok)));
                } else {
                    out.push(format!("    {}: {tok}", arg(0)));
                }
            }
            "redeal" => out.push(format!("    redeal {}", arg(0))),
            "trick" => {
                out.push(format!("    trick {}: {}  → {}", arg(0), trick.join("  "), arg(1)));
                trick.clear();
            }
            "mark" => out.push(format!("    seat {} takes the last trick: {} mark(s)", arg(0), arg(1))),
            "kul" => out.push(format!(
                "  seat {} takes the pot of {}; chips {}",
                arg(0),
                arg(1),
                arg(2)
            )),
            "split" => out.push(format!(
                "  deal cap: the pot is split, {} each; chips {}",
                arg(0),
                arg(1)
            )),
            "end" => out.push("session over".into()),
            _ => out.push(format!("    {}", prettify_tokens(&ev.line()))),
        }
    }
    if !trick.is_empty() {
        out.push(format!("    trick (unfinished): {}", trick.join("  ")));
    }
    out
}

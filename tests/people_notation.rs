//! One notation for people everywhere: `show`, `ask` and the human seat write a card rank then
//! suit symbol (`10♦`, never `♦10`), and Rikken's contracts in words (`rik beter`, `misère`),
//! while records and protocol tokens (`TD`, `rik_beter`) stay as they are.

mod common;

use common::croupier;
use std::path::Path;

/// Symbol-first cards (`♦10`, `♠A`): the notation no text for people uses.
fn suit_first(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for (i, c) in chars.iter().enumerate() {
        if "♠♥♦♣".contains(*c) {
            if let Some(r) = chars.get(i + 1) {
                if "AKQJ23456789".contains(*r) || (*r == '1' && chars.get(i + 2) == Some(&'0')) {
                    out.push(chars[i..(i + 3).min(chars.len())].iter().collect());
                }
            }
        }
    }
    out
}

/// Rank-first cards (`10♦`, `A♠`) in a text.
fn rank_first(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    (1..chars.len())
        .filter(|&i| "♠♥♦♣".contains(chars[i]) && "AKQJ234567890".contains(chars[i - 1]))
        .count()
}

fn stdout(args: &[&str], dir: &Path) -> String {
    let out = croupier().args(args).current_dir(dir).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Game 24 of seed 100 between `simple` bots: an auction of rik, rik beter and misère.
#[test]
fn show_and_ask_write_cards_and_contracts_as_the_human_seat_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    stdout(
        &[
            "play", "rikken", "--games", "24", "--seed", "100", "--quiet", "--record", "r.jsonl",
        ],
        d,
    );
    let record = std::fs::read_to_string(d.join("r.jsonl")).unwrap();
    let game = record.lines().nth(23).unwrap();
    assert!(game.contains("\"rik_beter\"") && game.contains("\"misere\""), "{game}");
    std::fs::write(d.join("g.jsonl"), format!("{game}\n")).unwrap();

    let show = stdout(&["show", "g.jsonl"], d);
    assert_eq!(suit_first(&show), Vec::<String>::new(), "{show}");
    assert!(rank_first(&show) > 52, "{show}");
    assert!(show.contains("rik beter") && show.contains("misère"), "{show}");
    assert!(!show.contains("rik_beter") && !show.contains("misere"), "{show}");

    // ask at the first bid and at a card play: the hand and the actions in words, each with
    // its token where the two differ (bot authors write tokens in regress suites).
    let actions = serde_json::from_str::<serde_json::Value>(game).unwrap()["actions"]
        .as_array()
        .unwrap()
        .len();
    let bid = stdout(&["ask", "g.jsonl", "--action", "1", "--bot", "simple"], d);
    let hand = bid.lines().find(|l| l.trim_start().starts_with("hand:")).unwrap();
    assert_eq!(rank_first(hand), 13, "{hand}");
    assert!(
        bid.contains("solo beter (solo_beter)") && bid.contains("misère (misere)"),
        "{bid}"
    );
    let play = stdout(
        &["ask", "g.jsonl", "--action", &actions.to_string(), "--bot", "simple"],
        d,
    );
    assert_eq!(suit_first(&play), Vec::<String>::new(), "{play}");
    let legal = play.lines().find(|l| l.trim_start().starts_with("legal:")).unwrap();
    assert!(
        rank_first(legal) >= 1 && legal.contains(" ("),
        "a card and its token: {legal}"
    );
    // --json keeps the tokens.
    let json = stdout(&["ask", "g.jsonl", "--action", "1", "--bot", "simple", "--json"], d);
    assert!(json.contains("\"solo_beter\"") && rank_first(&json) == 0, "{json}");
}

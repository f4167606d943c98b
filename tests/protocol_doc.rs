//! protocol.md is the contract with bot authors: its 15-line example bot must play every game
//! without a single fault.

mod common;
use common::{croupier, records};
use croupier::cards::Card;

#[test]
fn the_example_bot_of_protocol_md_plays_every_game() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    let start = doc.find("```python\n").expect("a python example") + "```python\n".len();
    let code = &doc[start..start + doc[start..].find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("firstbot.py");
    std::fs::write(&bot, code).unwrap();
    for g in croupier::games::all() {
        let rec = dir.path().join(format!("{}.jsonl", g.name));
        let mut cmd = croupier();
        cmd.args([
            "play", g.name, "--games", "1", "--seed", "5", "--strict", "--quiet", "--record",
        ])
        .arg(&rec)
        .arg("--log-dir")
        .arg(dir.path());
        cmd.args(["--players", &g.min_players.max(2).to_string()]);
        cmd.arg("--seat").arg(format!("python3 {}", bot.display()));
        for _ in 1..g.min_players.max(2) {
            cmd.args(["--seat", "simple"]);
        }
        cmd.assert().success();
        let r = &records(&rec)[0];
        assert_eq!(r["seats"][0]["name"], "firstbot", "{}", g.name);
        assert_eq!(r["faults"].as_array().unwrap().len(), 0, "{}: {}", g.name, r["faults"]);
    }
}

/// Every action is announced as `move <seat> <token> <decision>`, so the notification stream alone
/// tells a call from a card led (Rikken `move 1 AD call` / `move 1 AD play`), in every game; and
/// every `hand` line is sorted the same way (suit by suit S H D C, high to low), also after a
/// Schwimmen swap.
#[test]
fn every_move_line_names_its_decision_and_every_hand_is_sorted() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("seen.txt");
    let bot = dir.path().join("spy.py");
    let code = format!(
        r#"import sys
log = open({log:?}, "a")
for line in sys.stdin:
    log.write(line); log.flush()
    w = line.split()
    if not w or not w[0].isdigit():
        continue
    rid, cmd = w[0], w[1]
    if cmd == "hello":
        print(f"={{rid}} spy 1", flush=True)
    elif cmd == "act":
        print(f"={{rid}} {{w[-1]}}", flush=True)
    else:
        print(f"={{rid}}", flush=True)
        if cmd == "quit":
            break
"#,
        log = log.display().to_string()
    );
    std::fs::write(&bot, code).unwrap();
    for g in croupier::games::all() {
        std::fs::write(&log, "").unwrap();
        let players = g.min_players.max(3).min(g.max_players).to_string();
        let mut cmd = croupier();
        cmd.args(["play", g.name, "--games", "3", "--seed", "11", "--strict", "--quiet"])
            .args(["--players", &players])
            .arg("--log-dir")
            .arg(dir.path())
            .arg("--seat")
            .arg(format!("python3 {}", bot.display()));
        for _ in 1..players.parse().unwrap() {
            cmd.args(["--seat", "random"]);
        }
        cmd.assert().success();
        let seen = std::fs::read_to_string(&log).unwrap();
        let mut pending: Option<(String, String)> = None; // (decision, answer) awaiting its move line
        let (mut acts, mut moves, mut hands) = (0, 0, 0);
        for line in seen.lines() {
            let w: Vec<&str> = line.split(' ').collect();
            if w.len() > 2 && w[1] == "act" {
                assert!(
                    pending.is_none(),
                    "{}: an act before the last answer was announced",
                    g.name
                );
                pending = Some((w[2].to_string(), w[w.len() - 1].to_string()));
                acts += 1;
            } else if w[0] == "hand" {
                let cards: Vec<usize> = w[1..].iter().map(|c| c.parse::<Card>().unwrap().index()).collect();
                assert!(cards.windows(2).all(|p| p[0] < p[1]), "{}: {line}", g.name);
                hands += 1;
            } else if w[0] == "move" {
                moves += 1;
                assert_eq!(w.len(), 4, "{}: {line}", g.name);
                assert!(w[3].chars().all(|c| c.is_ascii_lowercase()), "{}: {line}", g.name);
                if w[1] == "0" {
                    if let Some((decision, answer)) = pending.take() {
                        assert_eq!((w[2], w[3]), (answer.as_str(), decision.as_str()), "{}: {line}", g.name);
                    }
                }
            }
        }
        assert!(
            pending.is_none() && acts > 3 && moves > acts && hands > 0,
            "{}: {acts} acts, {moves} moves",
            g.name
        );
    }
}

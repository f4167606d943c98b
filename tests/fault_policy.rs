//! What a fault does (issue 13, "Clocks and policies"): `--on-fault substitute|forfeit|abort`
//! and `--max-faults N`, with the forfeit scores each game's rules document defines.

mod common;
use common::{croupier, records};
use std::path::Path;

/// A bot that answers every `act` with an action no game has, and notes each start in `starts`.
fn cheat(dir: &Path) -> String {
    let starts = dir.join("starts.txt");
    let body = format!(
        r#"echo start >> {s}
while read -r id cmd rest; do
  case "$cmd" in
    hello) echo "=$id cheat 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) echo "=$id XX" ;;
  esac
done"#,
        s = starts.display()
    );
    let path = dir.join("cheat.sh");
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

fn play(dir: &Path, game: &str, players: usize, extra: &[&str]) -> assert_cmd::assert::Assert {
    let mut c = croupier();
    c.args([
        "play",
        game,
        "--games",
        "2",
        "--seed",
        "5",
        "--quiet",
        "--seat",
        &cheat(dir),
    ]);
    for _ in 1..players {
        c.args(["--seat", "simple"]);
    }
    c.args(["--log-dir", &dir.join("logs").display().to_string(), "--record"])
        .arg(dir.join("r.jsonl"))
        .args(extra);
    c.assert()
}

/// Every game: the cheating seat forfeits at its first decision, with the scores its rules
/// document says (docs/rules/<game>.md, "Forfeit"), and replay agrees; a record whose forfeit
/// scores were changed is refused.
#[test]
fn a_fault_forfeits_the_game_with_each_games_forfeit_scores() {
    let cases: &[(&str, usize, &[f64])] = &[
        ("rikken", 4, &[-48.0, 16.0, 16.0, 16.0]),
        ("zwikken", 4, &[-48.0, 16.0, 16.0, 16.0]),
        ("svangknack", 6, &[-90.0, 18.0, 18.0, 18.0, 18.0, 18.0]),
        ("kul", 5, &[-12.0, 3.0, 3.0, 3.0, 3.0]),
        ("skwitz", 4, &[-60.0, 20.0, 20.0, 20.0]),
        ("schwimmen", 4, &[-4.0, -2.0, -2.0, -2.0]),
    ];
    for &(game, players, scores) in cases {
        let dir = tempfile::tempdir().unwrap();
        play(dir.path(), game, players, &["--on-fault", "forfeit"]).success();
        let rec = dir.path().join("r.jsonl");
        let recs = records(&rec);
        assert_eq!(recs.len(), 2, "{game}");
        for r in &recs {
            assert_eq!(r["forfeit"]["seat"], 0, "{game}: {}", r["forfeit"]);
            assert_eq!(r["forfeit"]["fault"], "illegal", "{game}");
            assert_eq!(common::scores(r), scores, "{game}");
            let last = r["faults"].as_array().unwrap().last().unwrap().clone();
            assert!(
                last["message"].as_str().unwrap().ends_with("seat 0 forfeits the game"),
                "{game}: {last}"
            );
            assert_eq!(
                last["action"].as_u64().unwrap() as usize,
                r["actions"].as_array().unwrap().len()
            );
        }
        croupier().arg("replay").arg(&rec).assert().success();
        // Forfeit scores that are not the game's are caught.
        let text = std::fs::read_to_string(&rec).unwrap();
        let first = text.lines().next().unwrap();
        let mut v: serde_json::Value = serde_json::from_str(first).unwrap();
        v["result"]["scores"][0] = serde_json::json!(-1);
        v["result"]["scores"][1] = serde_json::json!(1);
        std::fs::write(&rec, format!("{v}\n")).unwrap();
        croupier()
            .arg("replay")
            .arg(&rec)
            .assert()
            .code(1)
            .stderr(predicates::str::contains("scores differ"));
    }
}

/// `--on-fault abort`: the first fault stops the run with exit code 4 and nothing of the game in
/// play is recorded.
#[test]
fn abort_stops_the_run_at_the_first_fault() {
    let dir = tempfile::tempdir().unwrap();
    play(dir.path(), "kul", 2, &["--on-fault", "abort"])
        .code(4)
        .stderr(predicates::str::contains(
            "game 1: aborted (--on-fault abort): seat 0 (cheat): illegal",
        ));
    assert!(records(&dir.path().join("r.jsonl")).is_empty());
}

/// `--max-faults 2`: after its third fault the bot is stopped and never started again; its
/// later decisions are `dead` faults that say it is disqualified, played by substitutes.
#[test]
fn a_bot_over_max_faults_is_disqualified_for_the_rest_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    play(dir.path(), "kul", 2, &["--max-faults", "2"]).success();
    let recs = records(&dir.path().join("r.jsonl"));
    let kinds: Vec<String> = recs
        .iter()
        .flat_map(|r| r["faults"].as_array().unwrap().clone())
        .map(|f| f["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds[..3], ["illegal", "illegal", "illegal"], "{kinds:?}");
    assert!(kinds[3..].iter().all(|k| k == "dead"), "{kinds:?}");
    assert!(
        kinds.len() > 5,
        "the second game is played by substitutes too: {kinds:?}"
    );
    let last = &recs[1]["faults"][0]["message"];
    assert!(
        last.as_str().unwrap().contains("disqualified: more than 2 faults"),
        "{last}"
    );
    let starts = std::fs::read_to_string(dir.path().join("starts.txt")).unwrap();
    assert_eq!(starts.lines().count(), 1, "a disqualified bot is not started again");
    croupier()
        .arg("replay")
        .arg(dir.path().join("r.jsonl"))
        .assert()
        .success();

    // With abort, the run stops when the bot goes over the limit, not at its first fault.
    let dir = tempfile::tempdir().unwrap();
    play(dir.path(), "kul", 2, &["--on-fault", "abort", "--max-faults", "2"])
        .code(4)
        .stderr(predicates::str::contains("aborted"));
    let starts = std::fs::read_to_string(dir.path().join("starts.txt")).unwrap();
    assert_eq!(starts.lines().count(), 1);
}

#[test]
fn fault_policies_are_checked_as_arguments() {
    common::assert_usage_error(
        &["play", "kul", "--on-fault", "ignore"],
        &["'ignore' is not a fault policy"],
    );
    common::assert_usage_error(
        &["match", "kul", "--bot", "simple", "--max-faults", "-1"],
        &["--max-faults", "-1"],
    );
}

/// `replay` checks a record's faults: one past the end of the actions, of an unknown kind, of no
/// seat of the game, or out of order is refused with exit 1, naming it (issue 28, item 3).
#[test]
fn replay_refuses_impossible_faults() {
    let dir = tempfile::tempdir().unwrap();
    play(dir.path(), "rikken", 4, &[]).success();
    let text = std::fs::read_to_string(dir.path().join("r.jsonl")).unwrap();
    let first = text.lines().next().unwrap();
    let rec: serde_json::Value = serde_json::from_str(first).unwrap();
    assert!(!rec["faults"].as_array().unwrap().is_empty(), "the cheat faulted");
    // The record as written replays.
    let good = dir.path().join("good.jsonl");
    std::fs::write(&good, format!("{first}\n")).unwrap();
    croupier().arg("replay").arg(&good).assert().success();
    let cases: [(&str, serde_json::Value, &str); 4] = [
        (
            "action",
            serde_json::json!(1_000_000_000u64),
            "action index 1000000000 is past the record's",
        ),
        ("kind", serde_json::json!("nonsense"), "unknown kind 'nonsense'"),
        ("seat", serde_json::json!(9), "there is no seat 9"),
        ("action", serde_json::json!(null), "out of the order of the actions"),
    ];
    for (k, (field, value, said)) in cases.into_iter().enumerate() {
        let mut bad = rec.clone();
        let faults = bad["faults"].as_array_mut().unwrap();
        if k == 3 {
            // Out of order: the last fault (a later action) swapped with the first.
            let n = faults.len();
            assert!(
                faults[n - 1]["action"].as_u64() > faults[0]["action"].as_u64(),
                "{faults:?}"
            );
            faults.swap(0, n - 1);
        } else {
            faults[0][field] = value;
        }
        let path = dir.path().join(format!("bad{k}.jsonl"));
        std::fs::write(&path, format!("{bad}\n")).unwrap();
        let out = croupier().arg("replay").arg(&path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "case {k}: {err}");
        assert!(err.contains(said) && err.contains("fault"), "case {k}: {err}");
    }
}

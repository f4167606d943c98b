//! Schwimmen through the binary: play with records and replay for 2, 4 and 10 players, the
//! ranking payments in every record, `rules`, a bad option value, simple beating random, and
//! the fault rules (a misdeal strike for a garbage dealer, a dead bot ranked last).

mod common;
use common::{assert_simple_beats_random, assert_usage_error, croupier, records};

use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

#[test]
fn recorded_games_pay_the_ranking_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    for (n, games, rules) in [(2usize, 10, vec![]), (4, 10, vec!["deck=32"]), (10, 3, vec![])] {
        let rec = dir.path().join(format!("w{n}.jsonl"));
        let mut cmd = croupier();
        cmd.args([
            "play",
            "schwimmen",
            "--players",
            &n.to_string(),
            "--games",
            &games.to_string(),
        ])
        .args(["--seed", "11", "--quiet", "--record"])
        .arg(&rec);
        for r in &rules {
            cmd.args(["--rule", r]);
        }
        cmd.assert().success();
        let recs = records(&rec);
        assert_eq!(recs.len(), games);
        for r in &recs {
            assert_eq!(r["game"], "schwimmen");
            let scores: Vec<f64> = r["result"]["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_f64().unwrap())
                .collect();
            assert_eq!(scores.len(), n);
            // Not zero-sum: the places 1..n are paid to the kitty.
            let want = -((n * (n + 1)) as f64) / 2.0;
            assert!((scores.iter().sum::<f64>() - want).abs() < 1e-9, "{scores:?}");
            let winner = r["result"]["detail"]["winner"].as_u64().unwrap() as usize;
            assert_eq!(scores[winner], -1.0);
            let places: Vec<f64> = r["result"]["detail"]["places"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_f64().unwrap())
                .collect();
            for s in 0..n {
                assert_eq!(scores[s], -places[s], "seat {s} pays its place");
            }
            // Every deal after the first deals no cards to the players already drowned.
            let deals = r["deals"].as_array().unwrap();
            assert!(!deals.is_empty());
            assert_eq!(deals[0]["piles"]["unseen"].as_array().unwrap().len(), 3);
        }
        croupier()
            .arg("replay")
            .arg(&rec)
            .assert()
            .success()
            .stdout(predicate::str::contains(format!("replayed {games} game(s)")));
        croupier()
            .args(["show"])
            .arg(&rec)
            .args(["--seat", "0"])
            .assert()
            .success()
            .stdout(predicate::str::contains("round 1, dealer"));
    }
}

#[test]
fn rules_list_the_options_and_bad_values_are_clear_errors() {
    croupier().args(["rules", "schwimmen"]).assert().success().stdout(
        predicate::str::contains("dealer_rule")
            .and(predicate::str::contains("max_circuits"))
            .and(predicate::str::contains("same_round_rank"))
            .and(predicate::str::contains("NOT zero-sum"))
            .and(predicate::str::contains("misdeal_strike"))
            .and(predicate::str::contains("ranked last")),
    );
    assert_usage_error(&["play", "schwimmen", "--rule", "deck=52"], &["deck", "36|32"]);
    assert_usage_error(&["play", "schwimmen", "--players", "11"], &["2-10"]);
    assert_usage_error(
        &["play", "schwimmen", "--players", "10", "--rule", "deck=32"],
        &["at most 9 players"],
    );
}

#[test]
fn simple_beats_random() {
    assert_simple_beats_random("schwimmen", &["--games", "12", "--seed", "5"]);
}

/// Writes a shell bot and returns its seat spec.
fn shell_bot(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    format!("sh {}", p.display())
}

fn play_3(dir: &Path, seat0: &str, rules: &[&str]) -> Value {
    let rec = dir.join("r.jsonl");
    let _ = std::fs::remove_file(&rec);
    let mut cmd = croupier();
    cmd.args(["play", "schwimmen", "--players", "3", "--seed", "6", "--quiet"])
        .args(["--seat", seat0, "--seat", "simple", "--seat", "simple"])
        .args(["--startup-time", "5s", "--move-time", "2s", "--record"])
        .arg(&rec)
        .arg("--log-dir")
        .arg(dir.join("logs"));
    for r in rules {
        cmd.args(["--rule", r]);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    croupier()
        .arg("replay")
        .arg(&rec)
        .assert()
        .success()
        .stdout(predicate::str::contains("all agree"));
    records(&rec).remove(0)
}

#[test]
fn misdeal_strike_for_a_garbage_dealer_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let bot = shell_bot(
        dir.path(),
        "garbage.sh",
        r#"while read -r id cmd rest; do
  case "$cmd" in
    hello) echo "=$id garbage 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) echo "=$id nonsense" ;;
  esac
done"#,
    );
    let r = play_3(dir.path(), &bot, &["misdeal_strike=true"]);
    let faults = r["faults"].as_array().unwrap();
    assert!(
        faults.iter().all(|f| f["kind"] == "illegal" && f["seat"] == 0),
        "{faults:?}"
    );
    let misdeals = r["result"]["detail"]["misdeals"][0].as_u64().unwrap();
    assert!(misdeals >= 1, "seat 0 dealt and misdealt: {}", r["result"]["detail"]);
    assert_eq!(r["result"]["detail"]["misdeals"][1], 0);
    let settled = faults
        .iter()
        .filter(|f| f["message"].as_str().unwrap().contains("the rules settled the turn"))
        .count() as u64;
    assert_eq!(settled, misdeals, "a misdeal plays no action");
    // The deal after a misdeal is a new round, and a recorded deal like any other.
    let rounds = r["result"]["detail"]["rounds"].as_u64().unwrap();
    assert_eq!(r["deals"].as_array().unwrap().len() as u64, rounds);
    let scores: Vec<f64> = r["result"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_f64().unwrap())
        .collect();
    assert!((scores.iter().sum::<f64>() + 6.0).abs() < 1e-9, "{scores:?}");
}

#[test]
fn a_dead_bot_is_absent_and_ranked_last() {
    let dir = tempfile::tempdir().unwrap();
    // Crashes at its first decision; started again, it exits at once: the restart fails and
    // the seat is dead from then on.
    let marker = dir.path().join("started");
    let bot = shell_bot(
        dir.path(),
        "dies.sh",
        &format!(
            r#"if [ -e {m} ]; then exit 1; fi
touch {m}
while read -r id cmd rest; do
  case "$cmd" in
    hello) echo "=$id dies 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) exit 3 ;;
  esac
done"#,
            m = marker.display()
        ),
    );
    let r = play_3(dir.path(), &bot, &[]);
    let kinds: Vec<&str> = r["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(&kinds[..3], ["crash", "restart", "dead"], "{kinds:?}");
    assert_eq!(
        kinds.iter().filter(|k| **k == "dead").count(),
        1,
        "an absent seat is never asked again: {kinds:?}"
    );
    assert_eq!(r["result"]["detail"]["absent"], serde_json::json!([0]));
    assert_eq!(r["result"]["detail"]["places"][0], 3.0, "ranked last");
    assert_eq!(r["result"]["scores"][0], -3.0);
}

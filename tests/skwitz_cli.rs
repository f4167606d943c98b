//! Skwitz through the binary: play with records and replay for 2, 4 and 8 players (zero-sum
//! scores), `rules skwitz`, option errors, `show`, and `match` simple against random.

mod common;
use common::{assert_simple_beats_random, assert_usage_error, croupier, records};

use predicates::prelude::*;

#[test]
fn play_record_replay_zero_sum_for_2_4_and_8_players() {
    let dir = tempfile::tempdir().unwrap();
    for (n, games) in [(2, 2), (4, 2), (8, 1)] {
        let rec = dir.path().join(format!("k{n}.jsonl"));
        croupier()
            .args([
                "play",
                "skwitz",
                "--players",
                &n.to_string(),
                "--games",
                &games.to_string(),
            ])
            .args(["--seed", "9", "--record", rec.to_str().unwrap(), "--quiet"])
            .assert()
            .success();
        let recs = records(&rec);
        assert_eq!(recs.len(), games);
        for r in &recs {
            let s: Vec<f64> = r["result"]["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            assert_eq!(s.len(), n);
            assert!(s.iter().sum::<f64>().abs() < 1e-9, "not zero-sum: {s:?}");
            assert!(r["deals"].as_array().unwrap().len() >= 5, "a session spans many deals");
        }
        croupier()
            .args(["replay", rec.to_str().unwrap()])
            .assert()
            .success()
            .stdout(predicate::str::contains("all agree"));
    }
    // A teams session and an overridden deal table replay too.
    let rec = dir.path().join("teams.jsonl");
    croupier()
        .args([
            "play",
            "skwitz",
            "--players",
            "4",
            "--games",
            "2",
            "--seed",
            "3",
            "--quiet",
        ])
        .args([
            "--rule",
            "teams=true",
            "--rule",
            "games=2",
            "--record",
            rec.to_str().unwrap(),
        ])
        .assert()
        .success();
    croupier().args(["replay", rec.to_str().unwrap()]).assert().success();
    croupier()
        .args(["show", rec.to_str().unwrap(), "--game", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("game 1, dealer").and(predicate::str::contains("goes out")));
    let rec = dir.path().join("five.jsonl");
    croupier()
        .args(["play", "skwitz", "--players", "5", "--seed", "4", "--quiet"])
        .args(["--rule", "deal_table=5:7,3,3", "--record", rec.to_str().unwrap()])
        .assert()
        .success();
    croupier().args(["replay", rec.to_str().unwrap()]).assert().success();
}

#[test]
fn rules_list_the_options_and_bad_values_exit_2() {
    let mut out = croupier().args(["rules", "skwitz"]).assert().success();
    for o in [
        "target",
        "stake",
        "deal_table",
        "ante_per",
        "trail_rule",
        "matador_source",
        "last_play_skwitz",
        "leftover_to_last_captor",
        "tie_rule",
        "out_timing",
        "collect_rule",
        "teams",
        "breach_penalty",
        "games",
        "extra_games_cap",
    ] {
        out = out.stdout(predicate::str::contains(o));
    }
    assert_usage_error(
        &["play", "skwitz", "--rule", "trail_rule=sometimes"],
        &["only_when_unable|free|card_level"],
    );
    assert_usage_error(&["play", "skwitz", "--rule", "deal_table=4:4,4,4"], &["not 52"]);
    assert_usage_error(&["play", "skwitz", "--rule", "stake=3"], &["even"]);
    assert_usage_error(&["play", "skwitz", "--players", "9"], &["2-8"]);
}

#[test]
fn simple_beats_random() {
    assert_simple_beats_random("skwitz", &["--games", "6", "--seed", "5", "--rule", "games=2"]);
}

#[test]
fn breach_penalty_charges_a_garbage_bot_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    // A bot that answers every act with a token that is never legal.
    let bot = dir.path().join("garbage.sh");
    std::fs::write(
        &bot,
        r#"#!/bin/sh
while read -r id cmd rest; do
  case "$cmd" in
    hello) echo "=$id garbage 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) echo "=$id nonsense" ;;
  esac
done
"#,
    )
    .unwrap();
    let rec = dir.path().join("breach.jsonl");
    let out = croupier()
        .args(["play", "skwitz", "--players", "3", "--seed", "11", "--quiet"])
        .args([
            "--seat",
            &format!("sh {}", bot.display()),
            "--seat",
            "simple",
            "--seat",
            "simple",
        ])
        .args([
            "--rule",
            "breach_penalty=true",
            "--rule",
            "games=1",
            "--rule",
            "extra_games_cap=0",
        ])
        .args(["--startup-time", "5s", "--record", rec.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let recs = records(&rec);
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    let faults = r["faults"].as_array().unwrap();
    assert!(!faults.is_empty(), "the garbage bot faults");
    assert!(
        faults.iter().all(|f| f["kind"] == "illegal" && f["seat"] == 0),
        "{faults:?}"
    );
    let subs = r["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["substitute"] == true)
        .count();
    assert_eq!(subs, faults.len(), "each fault is one ruled action");
    // Every fault is a breach in the result; the scores stay zero-sum.
    let breaches: Vec<u64> = r["result"]["detail"]["breaches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(breaches, vec![faults.len() as u64, 0, 0]);
    let s: Vec<f64> = r["result"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(s.iter().sum::<f64>().abs() < 1e-9, "not zero-sum: {s:?}");
    croupier()
        .args(["replay", rec.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("all agree"));
    croupier()
        .args(["show", rec.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("breach: seat 0 faulted (illegal)").and(predicate::str::contains("pays")));
}

//! Svängknack and Kul through the binary: play with a record, replay, zero-sum scores, the
//! rules listing, clear option errors, and `simple` beating `random` in a match.

mod common;
use common::{assert_simple_beats_random, assert_usage_error, croupier, records, scores};

use predicates::prelude::*;

/// Plays, checks every record is zero-sum with n scores, and replays the file.
fn play_and_replay(game: &str, players: usize, games: usize, rules: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut c = croupier();
    c.args([
        "play",
        game,
        "--players",
        &players.to_string(),
        "--games",
        &games.to_string(),
    ])
    .args(["--seed", "5", "--record"])
    .arg(&rec);
    for r in rules {
        c.args(["--rule", r]);
    }
    c.assert().success();
    let recs = records(&rec);
    assert_eq!(recs.len(), games);
    for r in &recs {
        let s = scores(r);
        assert_eq!(s.len(), players);
        assert_eq!(s.iter().sum::<f64>(), 0.0, "not zero-sum: {s:?}");
        assert!(r["result"]["detail"]["summary"].as_str().is_some());
    }
    croupier()
        .arg("replay")
        .arg(&rec)
        .assert()
        .success()
        .stdout(predicate::str::contains("all agree"));
    croupier().arg("show").arg(&rec).assert().success();
}

/// The pair interval of `simple` minus `random` lies above 0.
fn simple_beats_random(game: &str, players: usize, games: usize) {
    let (players, games) = (players.to_string(), games.to_string());
    assert_simple_beats_random(game, &["--players", &players, "--games", &games, "--seed", "1"]);
}

#[test]
fn kul_plays_records_and_replays() {
    play_and_replay("kul", 5, 4, &[]);
    play_and_replay("kul", 2, 2, &["marks_to_win=2", "redeal_request=true"]);
    play_and_replay("kul", 10, 1, &["stake=3"]);
}

#[test]
fn kul_rules_and_errors() {
    croupier()
        .args(["rules", "kul"])
        .assert()
        .success()
        .stdout(predicate::str::contains("marks_to_win").and(predicate::str::contains("redeal_request")));
    assert_usage_error(
        &["play", "kul", "--rule", "marks_to_win=4"],
        &["bad value '4'", "3|2|1"],
    );
    assert_usage_error(&["play", "kul", "--players", "11"], &["2-10 players"]);
}

#[test]
fn kul_simple_beats_random() {
    simple_beats_random("kul", 3, 12);
}

#[test]
fn svangknack_plays_records_and_replays() {
    play_and_replay("svangknack", 3, 2, &[]);
    play_and_replay(
        "svangknack",
        8,
        1,
        &["forced_participation=every_new_pot", "last_man=true"],
    );
    play_and_replay("svangknack", 16, 1, &["rounds=16"]);
    play_and_replay(
        "svangknack",
        5,
        1,
        &["deck=36", "same_suit_forces_all=true", "farg_tricks=1,2,3"],
    );
}

#[test]
fn svangknack_rules_and_errors() {
    croupier().args(["rules", "svangknack"]).assert().success().stdout(
        predicate::str::contains("forced_participation")
            .and(predicate::str::contains("literal_C"))
            .and(predicate::str::contains("farg_reference"))
            .and(predicate::str::contains("first_round_dealer_only")),
    );
    assert_usage_error(
        &["play", "svangknack", "--rule", "farg_tricks=3"],
        &["bad value '3'", "1,2|1,2,3"],
    );
    assert_usage_error(&["play", "svangknack", "--rule", "base_stake=4"], &["divisible by 3"]);
    assert_usage_error(
        &["play", "svangknack", "--players", "12", "--rule", "deck=36"],
        &["at most 11"],
    );
    assert_usage_error(&["play", "svangknack", "--players", "17"], &["3-16 players"]);
}

#[test]
fn svangknack_simple_beats_random() {
    simple_beats_random("svangknack", 4, 10);
}

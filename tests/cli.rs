//! Integration tests through the binary: play, record, replay, show, games, rules, errors.

mod common;
use common::{assert_usage_error, croupier, records, scores};

use predicates::prelude::*;
use serde_json::Value;

#[test]
fn games_and_rules_list_what_exists() {
    croupier()
        .arg("games")
        .assert()
        .success()
        .stdout(predicate::str::contains("rikken"));
    croupier()
        .args(["rules", "rikken"])
        .assert()
        .success()
        .stdout(predicate::str::contains("lowest_alone_bid").and(predicate::str::contains("all_pass")));
    assert_usage_error(&["rules", "nope"], &["unknown game 'nope'", "rikken"]);
}

#[test]
fn bad_options_and_arguments_are_clear_errors() {
    croupier()
        .args(["play", "rikken", "--rule", "frobnicate=1"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unknown option 'frobnicate'").and(predicate::str::contains("lowest_alone_bid")),
        );
    assert_usage_error(
        &["play", "rikken", "--rule", "lowest_alone_bid=6"],
        &["bad value '6'", "7|8|9"],
    );
    assert_usage_error(&["play", "rikken", "--players", "5"], &["played by 4 players, not 5"]);
    assert_usage_error(&["play", "rikken", "--seed", "x"], &["bad seed 'x'"]);
    assert_usage_error(&["play", "rikken", "--move-time", "300"], &["300ms"]);
    assert_usage_error(
        &[
            "play",
            "rikken",
            "--seat",
            "./no-such-bot",
            "--seat",
            "simple",
            "--seat",
            "simple",
            "--seat",
            "simple",
        ],
        &["no-such-bot"],
    );
}

#[test]
fn a_recorded_run_is_zero_sum_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    croupier()
        .args([
            "play", "rikken", "--games", "40", "--seed", "7", "--seat", "simple", "--seat", "random", "--seat",
            "simple", "--seat", "random", "--record",
        ])
        .arg(&rec)
        .assert()
        .success()
        .stdout(predicate::str::contains("game 40/40"));
    let recs = records(&rec);
    assert_eq!(recs.len(), 40);
    for r in &recs {
        assert_eq!(r["format"], "croupier-record");
        assert_eq!(r["game"], "rikken");
        let s = scores(r);
        assert_eq!(s.len(), 4);
        assert!(s.iter().sum::<f64>().abs() < 1e-9, "not zero-sum: {s:?}");
        assert!(!r["deals"].as_array().unwrap().is_empty());
        assert_eq!(r["deals"][0]["hands"].as_array().unwrap().len(), 4);
        assert!(!r["actions"].as_array().unwrap().is_empty());
    }
    croupier()
        .arg("replay")
        .arg(&rec)
        .assert()
        .success()
        .stdout(predicate::str::contains("replayed 40 game(s)"));
    // The same seed gives the same games.
    let rec2 = dir.path().join("r2.jsonl");
    croupier()
        .args([
            "play", "rikken", "--games", "40", "--seed", "7", "--quiet", "--seat", "simple", "--seat", "random",
            "--seat", "simple", "--seat", "random", "--record",
        ])
        .arg(&rec2)
        .assert()
        .success();
    let (a, b) = (records(&rec), records(&rec2));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x["deals"], y["deals"]);
        assert_eq!(
            x["actions"].as_array().unwrap().len(),
            y["actions"].as_array().unwrap().len()
        );
        assert_eq!(x["result"], y["result"]);
    }
    // Refuses to overwrite a record file.
    croupier()
        .args(["play", "rikken", "--seed", "1", "--record"])
        .arg(&rec)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--append"));
    assert_eq!(records(&rec).len(), 40);
}

#[test]
fn replay_names_the_place_of_a_tampered_card() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    croupier()
        .args(["play", "rikken", "--games", "3", "--seed", "11", "--quiet", "--record"])
        .arg(&rec)
        .assert()
        .success();
    let text = std::fs::read_to_string(&rec).unwrap();
    let mut lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // Change the first card play of game 2 to a card of another seat's hand.
    let g = &mut lines[1];
    let acts = g["actions"].as_array().unwrap().clone();
    let (i, a) = acts
        .iter()
        .enumerate()
        .find(|(_, a)| {
            a["action"].as_str().unwrap().len() == 2
                && a["action"].as_str().unwrap().parse::<String>().is_ok()
                && "SHDC".contains(&a["action"].as_str().unwrap()[1..])
                && "AKQJT98765432".contains(&a["action"].as_str().unwrap()[..1])
        })
        .unwrap();
    let seat = a["seat"].as_u64().unwrap() as usize;
    let other = g["deals"].as_array().unwrap().last().unwrap()["hands"][(seat + 1) % 4][0].clone();
    g["actions"][i]["action"] = other.clone();
    let tampered = dir.path().join("t.jsonl");
    std::fs::write(
        &tampered,
        lines.iter().map(|l| l.to_string() + "\n").collect::<String>(),
    )
    .unwrap();
    croupier().arg("replay").arg(&tampered).assert().code(1).stderr(
        predicate::str::contains("game 2")
            .and(predicate::str::contains(format!("action {}", i + 1)))
            .and(predicate::str::contains(other.as_str().unwrap())),
    );
    // Changing a card in a dealt hand is caught against the seed.
    let mut lines2: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let h0 = lines2[2]["deals"][0]["hands"][0][0].clone();
    let h1 = lines2[2]["deals"][0]["hands"][1][0].clone();
    lines2[2]["deals"][0]["hands"][0][0] = h1;
    lines2[2]["deals"][0]["hands"][1][0] = h0;
    std::fs::write(
        &tampered,
        lines2.iter().map(|l| l.to_string() + "\n").collect::<String>(),
    )
    .unwrap();
    croupier().arg("replay").arg(&tampered).assert().code(1).stderr(
        predicate::str::contains("game 3")
            .and(predicate::str::contains("deal 1"))
            .and(predicate::str::contains("seat 0")),
    );
    // A file that is not a record is an input error (exit 2) naming the line.
    std::fs::write(&tampered, "{\"x\":1}\n").unwrap();
    croupier()
        .arg("replay")
        .arg(&tampered)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(":1:"));
}

#[test]
fn show_prints_the_game_and_a_seat_view() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    croupier()
        .args(["play", "rikken", "--games", "2", "--seed", "5", "--quiet", "--record"])
        .arg(&rec)
        .assert()
        .success();
    let all = croupier()
        .args(["show"])
        .arg(&rec)
        .args(["--game", "2"])
        .assert()
        .success();
    let out = String::from_utf8(all.get_output().stdout.clone()).unwrap();
    assert!(out.contains("rikken"), "{out}");
    assert!(
        out.contains('♠') || out.contains('♥'),
        "suit symbols in human output: {out}"
    );
    let seat = croupier()
        .args(["show"])
        .arg(&rec)
        .args(["--game", "2", "--seat", "1"])
        .assert()
        .success();
    let seat_out = String::from_utf8(seat.get_output().stdout.clone()).unwrap();
    assert!(seat_out.contains("What seat 1 saw"), "{seat_out}");
    assert!(seat_out.len() < out.len(), "a seat sees less than everything");
    croupier()
        .args(["show"])
        .arg(&rec)
        .args(["--game", "9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no game 9"));
}

#[test]
fn record_to_stdout_keeps_summaries_on_stderr() {
    let out = croupier()
        .args(["play", "rikken", "--games", "2", "--seed", "3", "--record", "-"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    for l in lines {
        let v: Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["game"], "rikken");
    }
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("game 2/2"), "{stderr}");
    // ... and replay reads stdin.
    croupier().args(["replay", "-"]).write_stdin(stdout).assert().success();
}

#[test]
fn a_closed_stdout_ends_croupier_quietly() {
    // `croupier … | head -1`: the reader goes away; no panic, exit status 0.
    let exe = assert_cmd::cargo::cargo_bin("croupier");
    let mut child = std::process::Command::new(exe)
        .args(["play", "rikken", "--games", "300", "--seed", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let res = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(res.status.success(), "{:?} {stderr}", res.status);
}

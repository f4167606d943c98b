//! The game clock (issue 13): `--time BANK+INC` per seat and game, measured by the referee,
//! told to bot processes as `clock <ms left> <increment ms>` before each `act`; running out is
//! a timeout (a loss on time with `--on-fault forfeit`); each seat's thinking time and what is
//! left on its clock are in the record.

mod common;
use common::{croupier, records};
use std::path::Path;

/// A bot that takes 300 ms for every decision and notes every `clock` line it is told.
fn slow(dir: &Path) -> String {
    let body = format!(
        r#"while read -r id cmd a b first rest; do
  case "$id" in clock) echo "$cmd $a" >> {o} ;; esac
  case "$cmd" in
    hello) echo "=$id slow 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) sleep 0.3; echo "=$id $first" ;;
  esac
done"#,
        o = dir.join("clock.txt").display()
    );
    std::fs::write(dir.join("slow.sh"), body).unwrap();
    format!("sh {}", dir.join("slow.sh").display())
}

fn play(dir: &Path, extra: &[&str]) -> serde_json::Value {
    let rec = dir.join("r.jsonl");
    croupier()
        .args([
            "play",
            "kul",
            "--players",
            "2",
            "--rule",
            "games=1",
            "--rule",
            "marks_to_win=1",
        ])
        .args([
            "--seed",
            "1",
            "--quiet",
            "--seat",
            &slow(dir),
            "--seat",
            "simple",
            "--time",
            "1s+100ms",
        ])
        .args(["--log-dir", &dir.join("logs").display().to_string(), "--record"])
        .arg(&rec)
        .args(extra)
        .assert()
        .success();
    records(&rec).remove(0)
}

#[test]
fn a_bot_slower_than_its_increment_runs_out_of_clock() {
    let dir = tempfile::tempdir().unwrap();
    let r = play(dir.path(), &[]);
    // What the bot was told: 1000 ms at first, then less each time (it uses 300 ms, gets 100).
    let told: Vec<(u64, u64)> = std::fs::read_to_string(dir.path().join("clock.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            let (a, b) = l.split_once(' ').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    assert_eq!(told[0], (1000, 100), "{told:?}");
    assert!(told[1].0 < 1000 - 150 && told[1].0 > 0, "{told:?}");
    let f = &r["faults"][0];
    assert_eq!(f["kind"], "timeout", "{f}");
    assert!(f["message"].as_str().unwrap().contains("all its clock had left"), "{f}");
    let seats = r["seats"].as_array().unwrap();
    assert!(seats[0]["think_ms"].as_f64().unwrap() >= 1000.0, "{}", seats[0]);
    assert!(seats[0]["clock_ms"].as_f64().unwrap() <= 200.0, "{}", seats[0]);
    assert!(
        seats[1]["clock_ms"].as_f64().unwrap() >= 1000.0,
        "simple answers at once and gains: {}",
        seats[1]
    );
}

/// With `--on-fault forfeit`, running out of clock loses the game on time.
#[test]
fn running_out_of_clock_with_forfeit_loses_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let r = play(dir.path(), &["--on-fault", "forfeit"]);
    assert_eq!(r["forfeit"]["seat"], 0);
    assert_eq!(r["forfeit"]["fault"], "timeout");
    assert_eq!(
        common::scores(&r),
        vec![-1.0, 1.0],
        "Kul's forfeit: stake × games to the other seat"
    );
}

#[test]
fn a_clock_is_checked_as_an_argument() {
    common::assert_usage_error(&["play", "kul", "--time", "soon"], &["--time", "soon"]);
    common::assert_usage_error(&["play", "kul", "--time", "0+1s"], &["the bank must be more than 0"]);
}

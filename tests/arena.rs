//! `croupier match`, `compare` and `stats` through the binary.

mod common;
use common::assert_usage_error;
use common::croupier;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

fn json_out(cmd: &mut Command) -> Value {
    let out = cmd.arg("--json").assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

/// The numbers of a result, without the timings (which differ from run to run).
fn numbers(mut v: Value) -> Value {
    for b in v["bots"].as_array_mut().unwrap() {
        let o = b.as_object_mut().unwrap();
        o.remove("ms_per_decision");
        o.remove("max_ms");
    }
    if let Some(o) = v.as_object_mut() {
        o.remove("match");
    }
    v
}

#[test]
fn a_match_finds_the_better_bot_whatever_the_concurrency() {
    let run = |c: &str| {
        json_out(croupier().args([
            "match",
            "rikken",
            "--bot",
            "simple",
            "--bot",
            "random",
            "--games",
            "60",
            "--seed",
            "11",
            "--concurrency",
            c,
        ]))
    };
    let one = run("1");
    assert_eq!(one["deals"], 60);
    assert_eq!(
        one["games"], 120,
        "duplicate by default: two seatings of simple,random,simple,random"
    );
    let pair = &one["pairs"][0];
    assert_eq!(
        (pair["a"].as_str(), pair["b"].as_str()),
        (Some("simple"), Some("random"))
    );
    assert!(
        pair["ci95"][0].as_f64().unwrap() > 0.0,
        "simple is clearly better: {pair}"
    );
    assert_eq!(numbers(one), numbers(run("3")));
}

#[test]
fn the_result_table_and_progress_go_to_the_right_streams() {
    let out = croupier()
        .args([
            "match", "rikken", "--bot", "s=simple", "--bot", "r=random", "--lineup", "s,r,r,r", "--games", "8",
            "--seed", "2",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("4 seating(s) per deal"), "{stdout}");
    assert!(stdout.contains("s − r:"), "{stdout}");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("32/32 games"),
        "plain progress when stderr is not a terminal: {stderr}"
    );
    assert_usage_error(
        &["match", "rikken", "--bot", "s=simple", "--lineup", "s,x,s,s"],
        &["'x', which is not a --bot"],
    )
}

#[test]
fn compare_exit_codes() {
    let cmp = |args: &[&str]| {
        let mut c = croupier();
        c.args(["compare", "rikken", "--seed", "3", "--quiet"]).args(args);
        c.assert()
    };
    cmp(&["--candidate", "random", "--baseline", "simple"])
        .code(1)
        .stdout(predicate::str::contains("result: fail"));
    cmp(&["--candidate", "simple", "--baseline", "simple"])
        .code(0)
        .stdout(predicate::str::contains("result: pass"));
    cmp(&["--candidate", "simple", "--baseline", "random"])
        .code(0)
        .stdout(predicate::str::contains("candidate − baseline per deal and seat: +"));
    cmp(&["--candidate", "simple", "--baseline", "simple", "--games", "3"])
        .code(3)
        .stdout(predicate::str::contains("no decision"));
    cmp(&["--candidate", "simple", "--baseline", "simple", "--sprt", "1,0"])
        .code(2)
        .stderr(predicate::str::contains("--sprt"));
}

fn run_match(extra: &[&str], record: &Path) {
    croupier()
        .args([
            "match", "rikken", "--bot", "a=simple", "--bot", "b=random", "--games", "40", "--seed", "9", "--quiet",
            "--record",
        ])
        .arg(record)
        .args(extra)
        .assert()
        .success();
}

fn stats(files: &[&Path]) -> Value {
    let mut c = croupier();
    c.arg("stats");
    for f in files {
        c.arg(f);
    }
    json_out(&mut c)
}

#[test]
fn shards_merged_by_stats_equal_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let (full, s0, s1) = (
        dir.path().join("full.jsonl"),
        dir.path().join("s0.jsonl"),
        dir.path().join("s1.jsonl"),
    );
    run_match(&[], &full);
    run_match(&["--shard", "0/2"], &s0);
    run_match(&["--shard", "1/2", "--concurrency", "2"], &s1);
    let one = stats(&[&full]);
    assert_eq!(one["games"], 80);
    assert_eq!(numbers(one.clone()), numbers(stats(&[&s0, &s1])));
    // The same file twice: the duplicates are reported and counted once.
    let out = croupier()
        .arg("stats")
        .arg(&full)
        .arg(&full)
        .arg("--json")
        .assert()
        .success();
    let twice: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(numbers(twice), numbers(one));
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("80 duplicate game(s) counted once"), "{stderr}");
}

#[test]
fn a_record_is_not_overwritten_and_resume_checks_the_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    run_match(&[], &rec);
    croupier()
        .args([
            "match", "rikken", "--bot", "a=simple", "--bot", "b=random", "--games", "40", "--seed", "9", "--record",
        ])
        .arg(&rec)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use --resume"));
    croupier()
        .args([
            "match", "rikken", "--bot", "a=simple", "--bot", "b=random", "--games", "41", "--seed", "9", "--resume",
            "--record",
        ])
        .arg(&rec)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("other arguments"));
    // Resuming a finished run plays nothing and prints the same numbers.
    let out = croupier()
        .args([
            "match", "rikken", "--bot", "a=simple", "--bot", "b=random", "--games", "40", "--resume", "--json",
            "--record",
        ])
        .arg(&rec)
        .assert()
        .success();
    let resumed: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(numbers(resumed), numbers(stats(&[&rec])));
}

#[test]
fn a_run_killed_with_sigkill_and_resumed_gives_the_uninterrupted_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let (full, part) = (dir.path().join("full.jsonl"), dir.path().join("part.jsonl"));
    let args = |rec: &Path| -> Vec<String> {
        let mut v: Vec<String> = [
            "match",
            "rikken",
            "--bot",
            "a=croupier bot simple",
            "--bot",
            "b=croupier bot random",
            "--games",
            "150",
            "--seed",
            "4",
            // The same rngseeds in both runs (process bots' come from a bot seed of their own).
            "--bot-seed",
            "4",
            "--quiet",
            "--json",
            "--record",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.push(rec.display().to_string());
        v
    };
    let exe = assert_cmd::cargo::cargo_bin("croupier");
    let out = std::process::Command::new(&exe)
        .args(args(&full))
        .args(["--log-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let uninterrupted: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Start the same run, kill it once some games are written.
    let mut child = std::process::Command::new(&exe)
        .args(args(&part))
        .args(["--log-dir"])
        .arg(dir.path())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&part).map(|t| t.lines().count()).unwrap_or(0);
        if lines >= 20 || start.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let written = std::fs::read_to_string(&part).unwrap().lines().count();
    assert!((20..300).contains(&written), "killed midway: {written} lines");
    // A write cut short by the kill leaves a torn last line: resume must drop it.
    let mut f = std::fs::OpenOptions::new().append(true).open(&part).unwrap();
    std::io::Write::write_all(&mut f, b"{\"format\":\"croupier-rec").unwrap();
    drop(f);
    let out = std::process::Command::new(&exe)
        .args(args(&part))
        .args(["--resume", "--log-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("torn last line"));
    let resumed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(numbers(resumed), numbers(uninterrupted));
    assert_eq!(std::fs::read_to_string(&part).unwrap().lines().count(), 300);
    croupier().arg("replay").arg(&part).assert().success();
}

#[test]
fn compare_writes_a_junit_report_for_ci() {
    let dir = tempfile::tempdir().unwrap();
    for (cand, base, code, failures) in [("random", "simple", 1, "1"), ("simple", "simple", 0, "0")] {
        let xml = dir.path().join(format!("{cand}-{base}.xml"));
        croupier()
            .args([
                "compare",
                "rikken",
                "--seed",
                "3",
                "--quiet",
                "--candidate",
                cand,
                "--baseline",
                base,
                "--junit",
            ])
            .arg(&xml)
            .assert()
            .code(code);
        let text = std::fs::read_to_string(&xml).unwrap();
        assert!(text.starts_with("<?xml"), "{text}");
        assert!(text.contains(&format!("tests=\"1\" failures=\"{failures}\"")), "{text}");
        assert!(
            text.contains(&format!("name=\"{cand} is not worse than {base}\"")),
            "{text}"
        );
        assert_eq!(text.contains("<failure"), code == 1, "{text}");
    }
}

#[test]
fn resume_ends_a_last_record_that_lost_only_its_newline() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let args = [
        "match",
        "kul",
        "--players",
        "3",
        "--bot",
        "simple",
        "--bot",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
        "--quiet",
    ];
    croupier().args(args).arg("--record").arg(&rec).assert().success();
    let text = std::fs::read_to_string(&rec).unwrap();
    let first5: Vec<&str> = text.lines().take(5).collect();
    std::fs::write(&rec, first5.join("\n")).unwrap(); // the fifth record has no newline
    croupier()
        .args(args)
        .arg("--record")
        .arg(&rec)
        .arg("--resume")
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&rec).unwrap().lines().count(), 12);
    croupier().arg("replay").arg(&rec).assert().success();
}

/// --resume refuses every argument that changes results, the time limits included (issue 13,
/// item 8: a resumed run with another --move-time had 102 faults).
#[test]
fn resume_refuses_other_time_limits() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("m.jsonl");
    let run = |extra: &[&str]| {
        croupier()
            .args([
                "match", "rikken", "--bot", "a=simple", "--bot", "b=random", "--games", "2", "--seed", "5",
            ])
            .args(["--quiet", "--record"])
            .arg(&rec)
            .arg("--log-dir")
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(run(&["--move-time", "10s"]).status.success());
    let same = run(&["--move-time", "10s", "--resume"]);
    assert!(same.status.success(), "{}", String::from_utf8_lossy(&same.stderr));
    let others: [&[&str]; 2] = [
        &["--move-time", "5s", "--resume"],
        &["--move-time", "10s", "--startup-time", "3s", "--resume"],
    ];
    for other in others {
        let out = run(other);
        assert_eq!(out.status.code(), Some(2), "{other:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("other arguments"),
            "{other:?}"
        );
    }
}

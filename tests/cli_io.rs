//! Inputs, outputs and record files through the binary: `-` for stdin/stdout, output paths
//! checked before the first game, records that are not records, `stats` groups, bot logs and
//! deal-file errors.

mod common;
use common::{assert_usage_error, croupier};

use serde_json::Value;
use std::path::{Path, PathBuf};

fn exe() -> String {
    env!("CARGO_BIN_EXE_croupier").to_string()
}

/// A seat spec for a bot that creates `marker` when it starts, then plays as `simple`: a test
/// that it does not exist afterwards shows that no game was started.
fn marker_bot(dir: &Path) -> (String, PathBuf) {
    let marker = dir.join("started");
    let spec = format!("sh -c 'touch {}; exec {} bot simple'", marker.display(), exe());
    (spec, marker)
}

/// Every line of `text` is a croupier record of `game`; returns how many.
fn count_records(text: &str, game: &str) -> usize {
    let mut n = 0;
    for l in text.lines() {
        let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
        assert_eq!(v["format"], "croupier-record", "{l}");
        assert_eq!(v["game"], game, "{l}");
        n += 1;
    }
    n
}

fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

// ----- item 1: `-` is stdout for every --record and --junit, stdin for every input -----

#[test]
fn match_record_dash_writes_the_records_to_stdout_and_the_table_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let out = croupier()
        .current_dir(dir.path())
        .args([
            "match", "rikken", "--bot", "simple", "--bot", "random", "--games", "3", "--seed", "1", "--quiet",
            "--record", "-",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_eq!(count_records(&stdout_of(&out), "rikken"), 6, "3 deals, 2 seatings each");
    assert!(stderr_of(&out).contains("simple − random"), "{}", stderr_of(&out));
    assert!(!dir.path().join("-").exists(), "a file named - was created");
    // With --json the result object goes to stderr too: stdout holds records only.
    let out = croupier()
        .current_dir(dir.path())
        .args([
            "match", "rikken", "--bot", "simple", "--bot", "random", "--games", "2", "--seed", "1", "--quiet",
            "--json", "--record", "-",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_eq!(count_records(&stdout_of(&out), "rikken"), 4);
    let result: Value = serde_json::from_str(stderr_of(&out).trim()).unwrap();
    assert_eq!(result["games"], 4);
}

#[test]
fn compare_record_dash_and_junit_dash_write_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let cmp = |extra: &[&str]| {
        croupier()
            .current_dir(dir.path())
            .args([
                "compare",
                "rikken",
                "--candidate",
                "simple",
                "--baseline",
                "simple",
                "--games",
                "2",
                "--seed",
                "1",
                "--quiet",
            ])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = cmp(&["--record", "-"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr_of(&out));
    // Two deals; per deal the candidate in each of 4 seats and one shared baseline game.
    assert_eq!(count_records(&stdout_of(&out), "rikken"), 10);
    assert!(stderr_of(&out).contains("result: no decision"), "{}", stderr_of(&out));

    let out = cmp(&["--junit", "-"]);
    assert_eq!(out.status.code(), Some(3));
    let xml = stdout_of(&out);
    assert!(
        xml.starts_with("<?xml") && xml.trim_end().ends_with("</testsuites>"),
        "{xml}"
    );
    assert!(stderr_of(&out).contains("result: no decision"));
    assert!(!dir.path().join("-").exists(), "a file named - was created");
}

#[test]
fn every_input_reads_stdin_for_dash() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    // --deal -: the hands come from stdin.
    let north = r#"["AS","KS","QS","JS","TS","9S","8S","7S","6S","5S","4S","3S","2S"]"#;
    croupier()
        .args(["play", "rikken", "--seed", "5", "--quiet", "--record"])
        .arg(&rec)
        .args(["--deal", "-"])
        .write_stdin(format!(r#"{{"hands": {{"N": {north}}}}}"#))
        .assert()
        .success();
    let text = std::fs::read_to_string(&rec).unwrap();
    let r: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(r["deal_source"], "file");
    assert_eq!(r["deals"][0]["hands"][0], serde_json::from_str::<Value>(north).unwrap());
    // replay, show and stats read a record from stdin.
    croupier()
        .args(["replay", "-"])
        .write_stdin(text.clone())
        .assert()
        .success();
    let out = croupier()
        .args(["show", "-"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert!(
        out.status.success() && stdout_of(&out).contains("seed"),
        "{}",
        stderr_of(&out)
    );
    let out = croupier()
        .args(["stats", "--json", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let v: Value = serde_json::from_str(stdout_of(&out).trim()).unwrap();
    assert_eq!(v["games"], 1);
    // stdin can be read once.
    assert_usage_error(&["replay", "-", "-"], &["standard input", "more than once"]);
}

// ----- item 2: one file for two outputs is refused; outputs are checked before the first game -----

#[test]
fn one_file_for_record_and_junit_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, marker) = marker_bot(dir.path());
    let both = dir.path().join("out.txt");
    let same_via_dot = dir.path().join(".").join("out.txt");
    for (record, junit) in [(both.clone(), both.clone()), (both.clone(), same_via_dot)] {
        let out = croupier()
            .args([
                "compare",
                "rikken",
                "--candidate",
                &bot,
                "--baseline",
                "simple",
                "--games",
                "2",
                "--record",
            ])
            .arg(&record)
            .arg("--junit")
            .arg(&junit)
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("--record and --junit both name") && err.contains("out.txt"),
            "{err}"
        );
        assert!(!marker.exists(), "a bot was started");
        assert!(!both.exists(), "the file was created");
    }
    assert_usage_error(
        &[
            "compare",
            "rikken",
            "--candidate",
            "simple",
            "--baseline",
            "simple",
            "--record",
            "-",
            "--junit",
            "-",
        ],
        &["--record and --junit both name - (standard output)"],
    );
}

#[test]
fn an_unwritable_output_is_an_error_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, marker) = marker_bot(dir.path());
    let junit = dir.path().join("no-such-dir").join("report.xml");
    let out = croupier()
        .args([
            "compare",
            "rikken",
            "--candidate",
            &bot,
            "--baseline",
            "simple",
            "--games",
            "2",
            "--junit",
        ])
        .arg(&junit)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--junit") && err.contains("no-such-dir/report.xml"),
        "{err}"
    );
    assert!(!marker.exists(), "a bot was started");
    // A record path that is a directory, for each command that records.
    let runs = one_game_of_each_command(&bot);
    for args in runs {
        let out = croupier().args(&args).arg("--record").arg(dir.path()).output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(&dir.path().display().to_string()), "{args:?}: {err}");
        assert!(!marker.exists(), "{args:?}: a bot was started");
    }
}

// ----- item 8: --record - | head ends quietly -----

/// Runs croupier with stdout on a pipe, reads the first line, closes the pipe and returns the
/// exit status and stderr.
fn close_after_first_line(args: &[&str]) -> (std::process::ExitStatus, String) {
    let mut child = std::process::Command::new(exe())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(out), &mut first).unwrap();
    assert!(first.contains("croupier-record"), "{args:?}: {first}");
    // The reader is dropped here: the pipe is closed.
    let res = child.wait_with_output().unwrap();
    (res.status, stderr_of(&res))
}

#[test]
fn record_to_a_closed_stdout_ends_quietly() {
    // Far more records than a pipe holds, so croupier writes into the closed pipe.
    let runs: [&[&str]; 3] = [
        &[
            "play", "rikken", "--games", "400", "--seed", "1", "--quiet", "--record", "-",
        ],
        &[
            "match", "rikken", "--bot", "simple", "--bot", "random", "--games", "300", "--seed", "1", "--quiet",
            "--record", "-",
        ],
        &[
            "compare",
            "rikken",
            "--candidate",
            "simple",
            "--baseline",
            "simple",
            "--games",
            "300",
            "--seed",
            "1",
            "--sprt=-100,100",
            "--quiet",
            "--record",
            "-",
        ],
    ];
    for args in runs {
        let (status, err) = close_after_first_line(args);
        assert!(status.success(), "{args:?}: {status:?} {err}");
        assert!(
            !err.contains("croupier:") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

// ----- item 4: a file that is not a record is an input error (exit 2) naming file and line -----

/// Two whole records of `game` (seed 7), as the text of a record file.
fn two_records(dir: &Path, game: &str) -> String {
    let rec = dir.join(format!("{game}.jsonl"));
    let _ = std::fs::remove_file(&rec);
    croupier()
        .args(["play", game, "--games", "2", "--seed", "7", "--quiet", "--record"])
        .arg(&rec)
        .assert()
        .success();
    std::fs::read_to_string(&rec).unwrap()
}

#[test]
fn files_that_are_not_records_are_input_errors_for_replay_show_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let good = two_records(dir.path(), "rikken");
    let first = good.lines().next().unwrap();
    let truncated = format!("{}\n{first}\n", &first[..first.len() / 2]);
    let mut random = vec![0x89u8, b'P', b'N', b'G', 0xff, 0xfe, 0x00, b'\n'];
    random.extend((0u8..200).map(|b| b.wrapping_mul(37)));
    let unknown_game = format!(
        "{first}\n{}\n",
        first.replace("\"game\":\"rikken\"", "\"game\":\"nogame\"")
    );
    let mut v: Value = serde_json::from_str(first).unwrap();
    v["options"]["frobnicate"] = "1".into();
    let unknown_option = format!("{first}\n{v}\n");
    let cases: Vec<(&str, Vec<u8>, &[&str])> = vec![
        (
            "truncated.jsonl",
            truncated.into_bytes(),
            &["truncated.jsonl:1:", "not JSON"],
        ),
        ("random.bin", random, &["random.bin:1:", "not a croupier record"]),
        (
            "other.json",
            b"{\"name\": \"a package\", \"version\": \"1.0\"}\n".to_vec(),
            &["other.json:1:", "not a croupier record"],
        ),
        ("empty.jsonl", Vec::new(), &["empty.jsonl", "empty"]),
        ("blank.jsonl", b"\n\n".to_vec(), &["blank.jsonl", "empty"]),
        (
            "game.jsonl",
            unknown_game.into_bytes(),
            &["game.jsonl:2:", "unknown game 'nogame'"],
        ),
        (
            "option.jsonl",
            unknown_option.into_bytes(),
            &["option.jsonl:2:", "frobnicate"],
        ),
    ];
    for (name, bytes, needles) in &cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        for cmd in ["replay", "show", "stats"] {
            let out = croupier().arg(cmd).arg(&path).output().unwrap();
            let err = stderr_of(&out);
            assert_eq!(out.status.code(), Some(2), "{cmd} {name}: {err}");
            for n in *needles {
                assert!(err.contains(n), "{cmd} {name}: '{n}' not in: {err}");
            }
        }
    }
}

#[test]
fn stats_keeps_skipping_a_torn_last_line_after_whole_records() {
    let dir = tempfile::tempdir().unwrap();
    let good = two_records(dir.path(), "rikken");
    let second = good.lines().nth(1).unwrap();
    let torn = dir.path().join("torn.jsonl");
    std::fs::write(&torn, format!("{}\n{}", good.lines().next().unwrap(), &second[..100])).unwrap();
    let out = croupier().args(["stats", "--json"]).arg(&torn).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("torn last line"));
    let v: Value = serde_json::from_str(stdout_of(&out).trim()).unwrap();
    assert_eq!(v["games"], 1);
    // replay and show do not guess: the torn line is an input error.
    for cmd in ["replay", "show"] {
        let out = croupier().arg(cmd).arg(&torn).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        assert!(stderr_of(&out).contains("torn.jsonl:2:"), "{cmd}: {}", stderr_of(&out));
    }
}

// ----- item 3: stats prints one table per group of records that belong together -----

fn run_match(dir: &Path, file: &str, extra: &[&str]) -> PathBuf {
    let rec = dir.join(file);
    croupier()
        .args([
            "match", "rikken", "--bot", "a=simple", "--bot", "b=random", "--quiet", "--record",
        ])
        .arg(&rec)
        .args(extra)
        .assert()
        .success();
    rec
}

fn stats_json(files: &[&Path]) -> (Vec<Value>, String) {
    let out = croupier().args(["stats", "--json"]).args(files).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let lines = stdout_of(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (lines, stderr_of(&out))
}

#[test]
fn stats_of_different_games_prints_a_table_per_game() {
    let dir = tempfile::tempdir().unwrap();
    two_records(dir.path(), "rikken");
    two_records(dir.path(), "zwikken");
    let (r, z) = (dir.path().join("rikken.jsonl"), dir.path().join("zwikken.jsonl"));
    let out = croupier().arg("stats").arg(&r).arg(&z).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    let headings: Vec<&str> = text.lines().filter(|l| l.contains(" game(s)")).collect();
    assert_eq!(headings.len(), 2, "{text}");
    assert!(headings[0].starts_with("rikken (4 players, default rules)"), "{text}");
    assert!(headings[1].starts_with("zwikken ("), "{text}");
    assert!(!stderr_of(&out).contains("duplicate"), "{}", stderr_of(&out));
    let (groups, _) = stats_json(&[&r, &z]);
    let games: Vec<&str> = groups.iter().map(|g| g["game"].as_str().unwrap()).collect();
    assert_eq!(games, ["rikken", "zwikken"]);
    assert!(groups.iter().all(|g| g["games"] == 2), "{groups:?}");
}

#[test]
fn stats_groups_by_options_and_bots_and_merges_runs_of_the_same_bots() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s3 = run_match(d, "s3.jsonl", &["--games", "4", "--seed", "3"]);
    let s4 = run_match(d, "s4.jsonl", &["--games", "6", "--seed", "4"]);
    let s3_longer = run_match(d, "s3-longer.jsonl", &["--games", "6", "--seed", "3"]);
    let rule = run_match(
        d,
        "rule.jsonl",
        &["--games", "3", "--seed", "3", "--rule", "lowest_alone_bid=8"],
    );
    let lineup = run_match(
        d,
        "lineup.jsonl",
        &["--games", "3", "--seed", "3", "--lineup", "a,a,b,b"],
    );
    let (groups, err) = stats_json(&[&s3, &s4, &s3_longer, &rule, &lineup]);
    assert_eq!(groups.len(), 3, "{groups:?}");
    // Seeds 3 and 4: more deals of the same bots. The first 4 deals of the longer seed-3 run
    // are the deals of the shorter one: counted once.
    assert_eq!(
        (groups[0]["deals"].as_u64(), groups[0]["games"].as_u64()),
        (Some(12), Some(24))
    );
    assert!(err.contains("8 duplicate game(s) counted once"), "{err}");
    assert_eq!(groups[1]["deals"], 3);
    assert_eq!(groups[2]["deals"], 3);
    // Every line has exactly the keys of `match --json`.
    let out = croupier()
        .args([
            "match", "rikken", "--bot", "a=simple", "--bot", "b=random", "--games", "1", "--json", "--quiet",
        ])
        .output()
        .unwrap();
    let m: Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    for g in &groups {
        assert_eq!(keys(g), keys(&m));
    }
    // The table headings name what sets the groups apart.
    let out = croupier()
        .arg("stats")
        .args([&s3, &s4, &rule, &lineup])
        .output()
        .unwrap();
    let text = stdout_of(&out);
    let headings: Vec<&str> = text.lines().filter(|l| l.contains(" game(s)")).collect();
    assert_eq!(headings.len(), 3, "{text}");
    assert!(
        headings[0].contains("default rules") && headings[0].contains("seeds 3, 4"),
        "{text}"
    );
    assert!(headings[0].contains("lineup a,b,a,b (a=simple, b=random)"), "{text}");
    assert!(headings[1].contains("lowest_alone_bid=8"), "{text}");
    assert!(headings[2].contains("lineup a,a,b,b"), "{text}");
}

// ----- item 7: --append adds only to a record file -----

#[test]
fn append_refuses_a_file_that_is_not_a_record_file() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    let text = "my notes\nabout bots\n";
    std::fs::write(&notes, text).unwrap();
    let out = croupier()
        .args(["play", "rikken", "--seed", "1", "--quiet", "--append", "--record"])
        .arg(&notes)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("notes.txt:1:") && err.contains("not a croupier record"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), text, "the file was written");
    // A record file is added to, also when its last record lost its newline.
    let good = two_records(dir.path(), "rikken");
    let recs = dir.path().join("recs.jsonl");
    std::fs::write(&recs, good.trim_end()).unwrap();
    croupier()
        .args(["play", "zwikken", "--seed", "1", "--quiet", "--append", "--record"])
        .arg(&recs)
        .assert()
        .success();
    let all = std::fs::read_to_string(&recs).unwrap();
    assert_eq!(all.lines().count(), 3);
    croupier().arg("replay").arg(&recs).assert().success();
}

// ----- item 6: deal-file errors name the file, the line and the game -----

#[test]
fn deal_file_errors_name_the_file_line_and_game_before_any_bot_starts() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, marker) = marker_bot(dir.path());
    let spades = r#"["AS","KS","QS","JS","TS","9S","8S","7S","6S","5S","4S","3S","2S"]"#;
    let twelve_hearts = r#"["AH","KH","QH","JH","TH","9H","8H","7H","6H","5H","4H","3H"]"#;
    let cases = [
        (
            format!("{{\"hands\": {{\"N\": {spades}}}}}\n\n{{\"hands\": {{\"E\": {twelve_hearts}}}}}\n"),
            "deals.json:3: game 2: deal 1: seat 1 has 12 cards, Rikken deals 13",
        ),
        (
            format!("{{\"hands\": [{spades}, [\"AS\"]]}}"),
            "deals.json:1: game 1: deal 1: seat 1 has 1 cards, Rikken deals 13",
        ),
        (
            format!("{{\"hands\": [{spades}, {spades}]}}"),
            "deals.json:1: game 1: deal 1: AS is given twice (seat 0 and seat 1)",
        ),
        ("{}\n{\"hands\": [".to_string(), "deals.json:2: game 2: not valid JSON"),
        (
            "{\"hands\": {\"N\": [\"XX\"]}}".to_string(),
            "deals.json:1: game 1, deal 1: hands.N: 'XX'",
        ),
    ];
    let deals = dir.path().join("deals.json");
    for (text, expected) in &cases {
        std::fs::write(&deals, text).unwrap();
        let mut args = vec!["play", "rikken", "--seed", "1", "--deal", deals.to_str().unwrap()];
        for _ in 0..4 {
            args.extend(["--seat", bot.as_str()]);
        }
        let out = croupier().current_dir(dir.path()).args(&args).output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{text}: {err}");
        let shown = err.replace(&format!("{}/", dir.path().display()), "");
        assert!(shown.contains(expected), "'{expected}' not in: {shown}");
        assert!(!marker.exists(), "{text}: a bot was started");
    }
    // From stdin the file is <stdin>.
    croupier()
        .args(["play", "rikken", "--seed", "1", "--deal", "-"])
        .write_stdin(format!("{{\"hands\": [{spades}, [\"AS\"]]}}"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "<stdin>:1: game 1: deal 1: seat 1 has 1 cards",
        ));
}

// ----- item 5: one log file per bot name and run; --log-dir must be a directory -----

/// A shell bot that answers every decision with an illegal card (a fault); with `loud` it
/// first says hello on stderr.
fn faulty_bot(dir: &Path, loud: bool) -> String {
    let path = dir.join(if loud { "loud.sh" } else { "quiet.sh" });
    let hello = if loud { "echo \"hello from $$\" >&2" } else { ":" };
    let body = format!(
        r#"{hello}
while read -r id cmd rest; do
  case "$cmd" in
    hello) echo "=$id shbot 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) echo "=$id XX" ;;
  esac
done"#
    );
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    format!("sh {}", path.display())
}

/// The run directories under `logs`, oldest first.
fn run_dirs(logs: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(logs).unwrap().map(|e| e.unwrap().path()).collect();
    v.sort();
    v
}

#[test]
fn each_run_writes_its_own_log_per_bot_name() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let loud = faulty_bot(dir.path(), true);
    let run = || {
        let out = croupier()
            .args([
                "match",
                "rikken",
                "--bot",
                &format!("loud={loud}"),
                "--bot",
                "simple",
                "--games",
                "1",
                "--seed",
                "1",
            ])
            .args(["--quiet", "--log-dir"])
            .arg(&logs)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        stderr_of(&out)
    };
    let first = run();
    let second = run();
    let runs = run_dirs(&logs);
    assert_eq!(runs.len(), 2, "one directory per run: {runs:?}");
    for (r, err) in runs.iter().zip([first, second]) {
        assert!(
            err.contains(&format!("bot stderr logs are in {}", r.display())),
            "{err}"
        );
        let files: Vec<String> = std::fs::read_dir(r)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(files, ["loud.log"]);
        // The lineup loud,simple,loud,simple runs two processes of the bot: their lines share
        // the file, labelled; nothing of the other run is in it.
        let text = std::fs::read_to_string(r.join("loud.log")).unwrap();
        let mut lines: Vec<&str> = text.lines().map(|l| l.split(" hello").next().unwrap()).collect();
        lines.sort();
        assert_eq!(lines, ["[player 0]", "[player 2]"], "{text}");
    }
}

#[test]
fn the_logs_line_names_only_a_directory_that_holds_logs() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let quiet = faulty_bot(dir.path(), false);
    let out = croupier()
        .args([
            "play", "rikken", "--seed", "1", "--seat", &quiet, "--seat", "simple", "--seat", "simple",
        ])
        .args(["--seat", "simple", "--log-dir"])
        .arg(&logs)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    assert!(text.contains("fault(s)"), "{text}");
    assert!(!text.contains("logs are in"), "no bot wrote to stderr: {text}");
    assert!(!logs.exists(), "an empty log directory was created");
    // A bot that writes to stderr: play names its log file after the command.
    let loud = faulty_bot(dir.path(), true);
    let out = croupier()
        .args([
            "play", "rikken", "--seed", "1", "--seat", &loud, "--seat", "simple", "--seat", "simple",
        ])
        .args(["--seat", "simple", "--log-dir"])
        .arg(&logs)
        .output()
        .unwrap();
    let run = &run_dirs(&logs)[0];
    assert!(
        stdout_of(&out).contains(&format!("logs are in {}", run.display())),
        "{}",
        stdout_of(&out)
    );
    assert!(
        run.join("sh_loud.sh.log").exists(),
        "{:?}",
        std::fs::read_dir(run).unwrap().collect::<Vec<_>>()
    );
}

#[test]
fn a_log_dir_that_is_a_file_is_refused_before_anything_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, marker) = marker_bot(dir.path());
    let file = dir.path().join("logs.txt");
    std::fs::write(&file, "").unwrap();
    let under = file.join("sub");
    for log_dir in [&file, &under] {
        let runs = one_game_of_each_command(&bot);
        for args in runs {
            let out = croupier().args(&args).arg("--log-dir").arg(log_dir).output().unwrap();
            let err = stderr_of(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(&format!("--log-dir {}", log_dir.display())), "{err}");
            assert!(err.contains("is a file, not a directory"), "{err}");
            assert!(!marker.exists(), "{args:?}: a bot was started");
        }
    }
}

/// One game of Rikken through each command that starts bots and writes files: `play` (the bot in
/// every seat), `match` and `compare`.
fn one_game_of_each_command(bot: &str) -> [Vec<&str>; 3] {
    let mut play = vec!["play", "rikken"];
    for _ in 0..4 {
        play.extend(["--seat", bot]);
    }
    [
        play,
        vec!["match", "rikken", "--bot", bot, "--games", "1"],
        vec![
            "compare",
            "rikken",
            "--candidate",
            bot,
            "--baseline",
            "simple",
            "--games",
            "1",
        ],
    ]
}

/// A line longer than any record (here 65 MiB without a newline) is refused with its file and
/// line, before it fills the memory (issue 28, item 8).
#[test]
fn stats_refuses_a_line_longer_than_any_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.jsonl");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..65 {
            f.write_all(&chunk).unwrap();
        }
    }
    for cmd in ["stats", "replay"] {
        let out = croupier().arg(cmd).arg(&path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(err.contains("huge.jsonl:1: a line longer than 64 MiB"), "{cmd}: {err}");
    }
}

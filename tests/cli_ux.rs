//! What new users ran into with `match`, `compare`, `show` and `rules` (issue 11): refusals,
//! messages, the JSON shape, alignment, help texts, signals.

mod common;
use common::{assert_usage_error, croupier, wait_for_lines};

use serde_json::Value;

/// stdout of a run that must succeed with `code`.
fn stdout_of(args: &[&str], code: i32) -> String {
    let out = croupier().args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "croupier {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn compare_of_identical_bots_passes_on_the_evidence_of_their_ties() {
    let args = [
        "compare",
        "rikken",
        "--candidate",
        "simple",
        "--baseline",
        "simple",
        "--seed",
        "3",
        "--quiet",
    ];
    let text = stdout_of(&args, 0);
    assert!(text.contains("sequential test by betting"), "{text}");
    assert!(
        text.contains("(wealth: pass 2"),
        "the pass side reached 1/alpha = 20: {text}"
    );
    assert!(text.contains("fail 1.000)"), "ties stake nothing on a fail: {text}");
    assert!(text.contains("result: pass"), "{text}");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let v: Value = serde_json::from_str(&stdout_of(&json_args, 0)).unwrap();
    assert_eq!(v["result"], "pass", "{v}");
    assert_eq!(v["mean"], 0.0, "{v}");
    assert_eq!(v["log_wealth"]["fail"], 0.0, "{v}");
    assert!(v["evidence"].as_f64().unwrap() >= 20f64.ln(), "{v}");
    // Not at once (the GSPRT passed them at its 10-deal minimum on a variance of 0): every tie
    // wins the pass side a bounded bet.
    let deals = v["deals"].as_u64().unwrap();
    assert!((20..=200).contains(&deals), "{v}");
}

#[test]
fn more_bots_than_seats_is_refused_not_dropped() {
    let five = [
        "match", "rikken", "--bot", "a=simple", "--bot", "b=random", "--bot", "c=simple", "--bot", "d=random", "--bot",
        "e=simple", "--games", "1", "--seed", "1",
    ];
    assert_usage_error(
        &five,
        &[
            "5 bots (a, b, c, d, e)",
            "the 4 seats",
            "--lineup",
            "croupier tournament",
        ],
    );
    // A game with room for them all says how to seat them.
    assert_usage_error(
        &[
            "match",
            "kul",
            "--players",
            "3",
            "--bot",
            "simple",
            "--bot",
            "random",
            "--bot",
            "x=simple",
            "--bot",
            "y=random",
        ],
        &["4 bots", "the 3 seats", "--players 4"],
    );
    // A lineup that leaves a bot out, or names one that is not a --bot.
    let mut left_out = five.to_vec();
    left_out.extend(["--lineup", "a,b,c,d"]);
    assert_usage_error(&left_out, &["--lineup a,b,c,d leaves --bot e without a seat"]);
    let mut unknown = five.to_vec();
    unknown.extend(["--lineup", "a,b,c,z"]);
    assert_usage_error(&unknown, &["'z', which is not a --bot", "a, b, c, d, e"]);
    // Fewer bots than seats still cycle over the seats.
    let text = stdout_of(
        &[
            "match", "rikken", "--bot", "a=simple", "--bot", "b=random", "--games", "1", "--seed", "1", "--quiet",
        ],
        0,
    );
    assert!(text.contains("lineup a,b,a,b"), "{text}");
}

#[test]
fn resume_counts_the_games_of_a_half_written_deal_as_read() {
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
        "--record",
    ];
    croupier().args(args).arg(&rec).assert().success();
    // 3 seatings per deal: keep deal 0 whole and 2 of the 3 games of deal 1.
    let text = std::fs::read_to_string(&rec).unwrap();
    let first5: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(&rec, first5).unwrap();
    let out = croupier().args(args).arg(&rec).arg("--resume").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("(5 game(s) read from the record, 7 played now)"),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(&rec).unwrap().lines().count(), 12);
}

#[test]
fn negative_and_zero_numbers_get_invalid_value_messages() {
    let m = ["match", "rikken", "--bot", "simple"];
    let with = |base: &[&'static str], extra: &[&'static str]| -> Vec<&'static str> {
        base.iter().chain(extra).copied().collect()
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        // `--games` is the old name of match's `--deals`: clap names the option by its name.
        (with(&m, &["--games", "-3"]), "invalid value '-3' for '--deals <DEALS>'"),
        (with(&m, &["--deals", "0"]), "invalid value '0' for '--deals <DEALS>'"),
        (with(&m, &["--seed", "-1"]), "invalid value '-1' for '--seed <SEED>'"),
        (
            with(&m, &["--concurrency", "-1"]),
            "invalid value '-1' for '--concurrency <CONCURRENCY>'",
        ),
        (
            with(&m, &["--concurrency", "0"]),
            "invalid value '0' for '--concurrency <CONCURRENCY>'",
        ),
        (
            with(&m, &["--players", "-4"]),
            "invalid value '-4' for '--players <PLAYERS>'",
        ),
        (with(&m, &["--move-time", "-1s"]), "bad duration '-1s'"),
        (with(&m, &["--shard", "-1/4"]), "bad shard '-1/4'"),
        (
            vec![
                "compare",
                "rikken",
                "--candidate",
                "simple",
                "--baseline",
                "simple",
                "--deals",
                "0",
            ],
            "invalid value '0' for '--deals <DEALS>'",
        ),
        (
            vec![
                "compare",
                "rikken",
                "--candidate",
                "simple",
                "--baseline",
                "simple",
                "--alpha",
                "-0.1",
            ],
            "invalid value '-0.1' for '--alpha <ALPHA>'",
        ),
        (
            vec![
                "compare",
                "rikken",
                "--candidate",
                "simple",
                "--baseline",
                "simple",
                "--sprt",
                "-1,-2",
            ],
            "invalid value '-1,-2' for '--sprt <LOWER,UPPER>'",
        ),
        (
            vec!["play", "rikken", "--games", "0"],
            "invalid value '0' for '--games <GAMES>'",
        ),
        (
            vec!["play", "rikken", "--games", "-2"],
            "invalid value '-2' for '--games <GAMES>'",
        ),
        (
            vec!["play", "rikken", "--seed", "-5"],
            "invalid value '-5' for '--seed <SEED>'",
        ),
        (
            vec!["bot", "simple", "--seed", "-5"],
            "invalid value '-5' for '--seed <SEED>'",
        ),
    ];
    for (args, needle) in &cases {
        assert_usage_error(args, &[needle]);
        let out = croupier().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("tip: to pass"), "{}: {stderr}", args.join(" "));
    }
    // A negative bound of --sprt is a value, as the README writes it.
    stdout_of(
        &[
            "compare",
            "rikken",
            "--candidate",
            "simple",
            "--baseline",
            "random",
            "--sprt",
            "-1,0",
            "--games",
            "2",
            "--seed",
            "1",
            "--quiet",
        ],
        3,
    );
}

/// The keys of a JSON object, in order.
fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(|k| k.as_str())
        .collect()
}

#[test]
fn match_and_compare_json_is_one_object_in_the_words_of_the_text() {
    let args = [
        "match", "rikken", "--bot", "s=simple", "--bot", "r=random", "--games", "3", "--seed", "0x10", "--quiet",
    ];
    let text = stdout_of(&args, 0);
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let v: Value = serde_json::from_str(&stdout_of(&json_args, 0)).unwrap();
    assert_eq!(
        keys(&v),
        ["game", "match", "seed", "lineup", "shard", "seatings", "deals", "games", "bots", "pairs"],
        "{v}"
    );
    assert_eq!(
        keys(&v["bots"][0]),
        [
            "bot",
            "spec",
            "games",
            "deals",
            "mean",
            "ci95",
            "faults",
            "ms_per_decision",
            "max_ms"
        ]
    );
    assert_eq!(keys(&v["pairs"][0]), ["a", "b", "deals", "mean", "ci95"]);
    // The same facts as the text's header line.
    assert!(
        text.contains("rikken: 3 deal(s), 6 game(s) (duplicate, 2 seating(s) per deal), seed 16, lineup s,r,s,r"),
        "{text}"
    );
    assert_eq!(v["seed"], "16");
    assert_eq!(v["lineup"], serde_json::json!(["s", "r", "s", "r"]));
    assert_eq!(
        (&v["deals"], &v["games"], &v["seatings"]),
        (&3.into(), &6.into(), &2.into())
    );
    assert_eq!(v["shard"], Value::Null);
    assert!(
        text.contains(&format!("match {}", v["match"].as_str().unwrap())),
        "{text}"
    );
    // The table's column words.
    for w in [
        "bot",
        "games",
        "mean",
        "95% interval",
        "faults",
        "ms/decision",
        "max ms",
    ] {
        assert!(text.lines().nth(1).unwrap().contains(w), "{text}");
    }

    let cmp = [
        "compare",
        "rikken",
        "--candidate",
        "simple",
        "--baseline",
        "random",
        "--games",
        "2",
        "--seed",
        "7",
        "--quiet",
    ];
    let text = stdout_of(&cmp, 3);
    let mut json_args = cmp.to_vec();
    json_args.push("--json");
    let v: Value = serde_json::from_str(&stdout_of(&json_args, 3)).unwrap();
    assert_eq!(
        keys(&v),
        [
            "game",
            "match",
            "seed",
            "candidate",
            "baseline",
            "field",
            "deals",
            "games",
            "mean",
            "ci95",
            "lower",
            "upper",
            "alpha",
            "beta",
            "evidence",
            "evidence_bounds",
            "log_wealth",
            "surprises",
            "result",
            "faults",
            "shard",
            "read"
        ],
        "{v}"
    );
    assert!(
        text.contains("rikken: candidate simple against baseline random (field random), seed 7"),
        "{text}"
    );
    assert_eq!(
        (&v["seed"], &v["candidate"], &v["field"]),
        (&"7".into(), &"simple".into(), &"random".into())
    );
    assert!(text.contains("over 2 deal(s) (10 games)"), "{text}");
    assert_eq!((&v["deals"], &v["games"]), (&2.into(), &10.into()));
    assert!(
        text.contains("result: no decision") && v["result"] == "no decision",
        "{text} {v}"
    );
}

/// The character column where `needle` starts in `line` (characters, not bytes: "−" is one).
fn column(line: &str, needle: &str) -> usize {
    let at = line
        .find(needle)
        .unwrap_or_else(|| panic!("'{needle}' not in '{line}'"));
    line[..at].chars().count()
}

#[test]
fn tables_stay_aligned_with_long_names_and_values() {
    let long = "a_bot_with_a_thirty_char_name_";
    assert_eq!(long.len(), 30);
    let text = stdout_of(
        &[
            "match",
            "rikken",
            "--bot",
            "simple",
            "--bot",
            &format!("{long}=random"),
            "--games",
            "2",
            "--seed",
            "1",
            "--quiet",
        ],
        0,
    );
    let lines: Vec<&str> = text.lines().collect();
    let (head, rows) = (lines[1], [lines[2], lines[3]]);
    assert!(head.starts_with("bot "), "{text}");
    // Every row's numbers end where their heading ends; the interval starts with its heading.
    for row in rows {
        assert_eq!(row.chars().count(), head.chars().count(), "{text}");
        assert_eq!(column(row, "["), column(head, "95% interval"), "{text}");
    }
    assert!(rows[1].starts_with(&format!("{long} ")), "{text}");

    // `rules`: the defaults and the help texts each start in one column.
    let rules = stdout_of(&["rules", "rikken"], 0);
    let options: Vec<&str> = rules
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains(" = "))
        .collect();
    assert!(options
        .iter()
        .any(|l| l.contains("malheur_mode = obligatory|optional|abolished")));
    let default_at = column(options[0], "default ");
    for l in &options {
        assert_eq!(column(l, "default "), default_at, "{rules}");
        let after = &l[l.find("default ").unwrap() + 8..];
        let value_end = after.find(' ').unwrap();
        let help_at = default_at + 8 + value_end + after[value_end..].len() - after[value_end..].trim_start().len();
        assert_eq!(help_at, column(options[0], "the lowest alone bid"), "{l}");
    }
}

#[test]
fn show_takes_compass_seats_and_every_game_says_hand_trick_and_deal_alike() {
    let dir = tempfile::tempdir().unwrap();
    let mut texts = Vec::new();
    for (game, players) in [
        ("rikken", "4"),
        ("zwikken", "3"),
        ("svangknack", "3"),
        ("kul", "3"),
        ("skwitz", "3"),
        ("schwimmen", "3"),
    ] {
        let rec = dir.path().join(format!("{game}.jsonl"));
        croupier()
            .args(["play", game, "--players", players, "--seed", "2", "--quiet", "--record"])
            .arg(&rec)
            .assert()
            .success();
        let rec = rec.to_str().unwrap().to_string();
        let text = stdout_of(&["show", &rec, "--seat", "1"], 0);
        // One vocabulary: "hand S: …" for a seat's cards, "trick N: S card  S card  → S",
        // "deal N, dealer S".
        let hand = text
            .lines()
            .find(|l| l.trim_start().starts_with("hand "))
            .unwrap_or_else(|| panic!("{text}"));
        let who = if game == "rikken" { "E" } else { "1" };
        assert!(
            hand.trim_start().starts_with(&format!("hand {who}: ")),
            "{game}: {hand}"
        );
        if let Some(trick) = text.lines().find(|l| l.trim_start().starts_with("trick ")) {
            assert!(trick.contains("  → ") && !trick.contains(", "), "{game}: {trick}");
        }
        if game != "schwimmen" {
            assert!(
                text.lines().any(|l| l.trim_start().starts_with("deal 1, dealer ")),
                "{game}: {text}"
            );
        }
        for old in ["hand of", "seat hand", "== Game", "-- Deal"] {
            assert!(!text.contains(old), "{game}: '{old}' in {text}");
        }
        texts.push((game, rec, text));
    }
    // --seat E is seat 1 of a 4-player game (as in deal files and protocol.md), and the header
    // names the letters.
    let (_, rikken, by_number) = &texts[0];
    let by_letter = stdout_of(&["show", rikken, "--seat", "E"], 0);
    assert_eq!(&by_letter, by_number);
    assert!(by_letter.contains("  seat 1 (E): simple"), "{by_letter}");
    assert_usage_error(
        &["show", &texts[1].1, "--seat", "E"],
        &["\"E\" is not a seat of a 3-player game"],
    );
    assert_usage_error(
        &["show", rikken, "--seat", "X"],
        &["invalid value 'X' for '--seat <SEAT>'"],
    );
}

/// The help paragraph of `--option` in `croupier CMD --help` (its first line and the indented
/// lines after it).
fn help_of(cmd: &str, option: &str) -> String {
    let help = stdout_of(&[cmd, "--help"], 0);
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(&format!("{option} ")));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("{option} not in {help}"))
        .to_string();
    let rest: Vec<&str> = lines.take_while(|l| l.starts_with("                ")).collect();
    let text = format!("{first} {}", rest.join(" "));
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn help_texts_say_what_the_options_do() {
    let record = help_of("match", "--record");
    assert!(!record.contains("Append"), "{record}");
    assert!(
        record.contains("not empty is refused") && record.contains("--resume"),
        "{record}"
    );
    let record = help_of("compare", "--record");
    assert!(
        !record.contains("Append") && record.contains("not empty is refused") && record.contains("--resume"),
        "{record}"
    );
    let players = help_of("compare", "--players");
    assert!(!players.contains("lineup"), "compare has no lineup: {players}");
    assert!(help_of("match", "--players").contains("--lineup"));
    // show: the game's position is --index; --game (a name everywhere else) still works, unlisted.
    let show = stdout_of(&["show", "--help"], 0);
    assert!(show.contains("--index <K>") && !show.contains("--game"), "{show}");
    assert!(help_of("show", "--seat").contains("N E S W"));
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    croupier()
        .args(["play", "kul", "--games", "2", "--seed", "4", "--quiet", "--record"])
        .arg(&rec)
        .assert()
        .success();
    let rec = rec.to_str().unwrap();
    let second = stdout_of(&["show", rec, "--index", "2"], 0);
    assert_eq!(stdout_of(&["show", rec, "--game", "2"], 0), second);
    assert_ne!(stdout_of(&["show", rec], 0), second);
}

/// Bot processes whose command line contains `pattern` (pgrep -f).
fn processes_like(pattern: &str) -> Vec<String> {
    let out = std::process::Command::new("pgrep")
        .args(["-f", pattern])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Sends `sig` to `child` and returns its exit code and stderr.
fn signal_and_wait(child: std::process::Child, sig: i32) -> (Option<i32>, String) {
    // SAFETY: kill has no memory-safety preconditions; the pid is our own running child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn sigint_stops_a_match_cleanly_and_resume_finishes_it() {
    let dir = tempfile::tempdir().unwrap();
    let (full, part) = (dir.path().join("full.jsonl"), dir.path().join("part.jsonl"));
    // A bot command line no other test uses, to find leftover processes.
    let unique = format!("bot simple --seed 77{}", std::process::id());
    // Long enough (about a second) that the test sees it running before it signals it.
    const DEALS: usize = 1000;
    let games = 2 * DEALS;
    let args = |rec: &std::path::Path| -> Vec<String> {
        let mut v: Vec<String> = ["match", "rikken", "--bot"].iter().map(|s| s.to_string()).collect();
        v.push(format!("a=croupier {unique}"));
        v.extend(
            [
                "--bot",
                "b=croupier bot random",
                "--games",
                &DEALS.to_string(),
                "--seed",
                "8",
                // The same rngseeds in both runs (process bots' come from a bot seed of their own).
                "--bot-seed",
                "8",
                "--quiet",
                "--json",
                "--log-dir",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        v.push(dir.path().display().to_string());
        v.push("--record".into());
        v.push(rec.display().to_string());
        v
    };
    let exe = assert_cmd::cargo::cargo_bin("croupier");
    let out = std::process::Command::new(&exe).args(args(&full)).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let uninterrupted: Value = serde_json::from_slice(&out.stdout).unwrap();

    let mut child = std::process::Command::new(&exe)
        .args(args(&part))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_lines(&part, 10, &mut child);
    assert!(
        !processes_like(&unique).is_empty(),
        "the bots run under that command line"
    );
    let (code, stderr) = signal_and_wait(child, libc::SIGINT);
    assert_eq!(code, Some(130), "{stderr}");
    let written = std::fs::read_to_string(&part).unwrap().lines().count();
    assert!(written < games, "stopped early: {written} lines");
    assert_eq!(written % 2, 0, "whole deals only (2 seatings each): {written}");
    assert!(
        stderr.contains(&format!(
            "interrupted: {written} of {games} games recorded in {}; run the same command with --resume to finish",
            part.display()
        )),
        "{stderr}"
    );
    assert!(processes_like(&unique).is_empty(), "every bot was reaped");
    croupier().arg("replay").arg(&part).assert().success();

    let out = std::process::Command::new(&exe)
        .args(args(&part))
        .arg("--resume")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let numbers = |mut v: Value| {
        for b in v["bots"].as_array_mut().unwrap() {
            b.as_object_mut()
                .unwrap()
                .retain(|k, _| k != "ms_per_decision" && k != "max_ms");
        }
        v
    };
    assert_eq!(numbers(resumed), numbers(uninterrupted));
    assert_eq!(std::fs::read_to_string(&part).unwrap().lines().count(), games);
}

#[test]
fn sigterm_stops_compare_and_sigint_stops_play() {
    let dir = tempfile::tempdir().unwrap();
    let exe = assert_cmd::cargo::cargo_bin("croupier");
    let unique = format!("bot simple --seed 78{}", std::process::id());
    let bot = format!("croupier {unique}");
    // Identical bots with the midpoint of --sprt at 0: no decision before --games.
    let rec = dir.path().join("c.jsonl");
    let mut child = std::process::Command::new(&exe)
        .args([
            "compare",
            "rikken",
            "--candidate",
            &bot,
            "--baseline",
            &bot,
            "--sprt",
            "-1,1",
            "--games",
            "5000",
        ])
        .args(["--seed", "1", "--quiet", "--log-dir"])
        .arg(dir.path())
        .arg("--record")
        .arg(&rec)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_lines(&rec, 10, &mut child);
    let (code, stderr) = signal_and_wait(child, libc::SIGTERM);
    assert_eq!(code, Some(143), "{stderr}");
    assert!(stderr.contains("interrupted: no decision after"), "{stderr}");
    assert!(processes_like(&unique).is_empty(), "every bot was reaped");

    let rec = dir.path().join("p.jsonl");
    let mut child = std::process::Command::new(&exe)
        .args([
            "play", "rikken", "--seat", &bot, "--seat", &bot, "--seat", &bot, "--seat", &bot,
        ])
        .args(["--games", "100000", "--seed", "1", "--quiet", "--log-dir"])
        .arg(dir.path())
        .arg("--record")
        .arg(&rec)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_lines(&rec, 5, &mut child);
    let (code, stderr) = signal_and_wait(child, libc::SIGINT);
    assert_eq!(code, Some(130), "{stderr}");
    let written = std::fs::read_to_string(&rec).unwrap().lines().count();
    assert!(
        stderr.contains(&format!("interrupted: {written} of 100000 games played, recorded in")),
        "{stderr}"
    );
    assert!(processes_like(&unique).is_empty(), "every bot was reaped");
    croupier().arg("replay").arg(&rec).assert().success();
}

/// A run that is stopping starts no bot (issue 28, item 7): a bot that crashes after SIGTERM
/// is not started again for the game in play (which ends with its seat's substitutes), so the
/// run does not wait out a new process's start-up. Counted by the bot's own starts, not timed.
#[test]
fn a_stopping_run_restarts_no_bot() {
    let dir = tempfile::tempdir().unwrap();
    let exe = assert_cmd::cargo::cargo_bin("croupier");
    let (starts, asked, go) = (
        dir.path().join("starts"),
        dir.path().join("asked"),
        dir.path().join("go"),
    );
    // At its second `act` the bot says so, waits for the test's go (sent after SIGTERM), and
    // crashes; else it plays the first legal action.
    let bot = dir.path().join("late_crash.sh");
    std::fs::write(
        &bot,
        format!(
            r#"echo start >> {starts}
acts=0
while read -r id cmd rest; do
  case "$cmd" in
    hello) echo "=$id late_crash 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act)
      acts=$((acts + 1))
      if [ $acts -eq 2 ]; then
        : > {asked}
        while [ ! -e {go} ]; do sleep 0.01; done
        exit 3
      fi
      set -- $rest
      echo "=$id $3" ;;
    [0-9]*) echo "=$id" ;;
  esac
done"#,
            starts = starts.display(),
            asked = asked.display(),
            go = go.display()
        ),
    )
    .unwrap();
    let mut child = std::process::Command::new(&exe)
        .args(["play", "kul", "--games", "3", "--seed", "4", "--quiet", "--seat"])
        .arg(format!("sh {}", bot.display()))
        .args([
            "--seat",
            "simple",
            "--seat",
            "simple",
            "--move-time",
            "60s",
            "--startup-time",
            "60s",
        ])
        .arg("--log-dir")
        .arg(dir.path().join("logs"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while !asked.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before the second act"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: kill has no memory-safety preconditions; the pid is our own running child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    // The signal is taken before the bot crashes: croupier says so on stderr first.
    let mut stderr = child.stderr.take().unwrap();
    let mut said = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&said).contains("terminated (SIGTERM)") {
        use std::io::Read;
        if stderr.read(&mut byte).unwrap() == 0 {
            break;
        }
        said.push(byte[0]);
    }
    std::fs::write(&go, "").unwrap();
    let out = child.wait_with_output().unwrap();
    let starts = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert_eq!(starts, 1, "the bot was started again while croupier stopped");
    assert_eq!(out.status.code(), Some(143));
}

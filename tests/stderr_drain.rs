//! A bot's last stderr lines (issue 28, defect 1): what a bot writes just before it exits
//! reaches its log, every time, and the crash's fault names the last of it.

mod common;
use common::{croupier, log_files, records};

use std::collections::BTreeMap;
use std::path::Path;

/// Writes a shell bot and returns its seat spec.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    format!("sh {}", p.display())
}

/// Lines of `text` of the form `note K/N from PID`, counted by PID.
fn notes_by_pid(text: &str) -> BTreeMap<u32, Vec<String>> {
    let mut by = BTreeMap::new();
    for l in text.lines() {
        if let Some(pid) = l.strip_prefix("note ").and_then(|r| r.rsplit_once(" from ")) {
            by.entry(pid.1.parse::<u32>().unwrap())
                .or_insert_with(Vec::new)
                .push(l.to_string());
        }
    }
    by
}

/// A bot that, asked for its move, writes five lines to stderr and exits at once: over 30
/// games (some two hundred crashes, each a new process), every line of every process is in
/// the log, and every crash's fault names that process's last line. Before the fix, about
/// one process in twelve lost all five (stderr was read only while croupier waited for an
/// answer, and a crashed bot was killed and replaced without a look at its stderr).
#[test]
fn a_crashing_bots_last_stderr_lines_reach_its_log_and_its_fault() {
    let dir = tempfile::tempdir().unwrap();
    let bot = script(
        dir.path(),
        "crasher.sh",
        r#"while read -r id cmd rest; do
  case "$cmd" in
    hello) echo "=$id crasher 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) for k in 1 2 3 4 5; do echo "note $k/5 from $$" >&2; done; exit 3 ;;
  esac
done"#,
    );
    let rec = dir.path().join("r.jsonl");
    let logs = dir.path().join("logs");
    let out = croupier()
        .args(["play", "rikken", "--seed", "5", "--games", "30"])
        // Generous clocks: the bot must crash, never time out, on a loaded machine.
        .args(["--move-time", "20s", "--startup-time", "20s"])
        .args([
            "--seat", &bot, "--seat", "simple", "--seat", "simple", "--seat", "simple",
        ])
        .arg("--record")
        .arg(&rec)
        .arg("--log-dir")
        .arg(&logs)
        .assert()
        .success()
        .get_output()
        .clone();
    let printed = String::from_utf8_lossy(&out.stdout);

    let files = log_files(&logs);
    assert_eq!(files.len(), 1, "{files:?}");
    let logged = notes_by_pid(&std::fs::read_to_string(&files[0]).unwrap());

    let mut crashes = 0;
    for r in records(&rec) {
        for f in r["faults"].as_array().unwrap() {
            assert_eq!(f["kind"], "crash", "{f}");
            crashes += 1;
            let message = f["message"].as_str().unwrap();
            // The message names the process's last line: `… last stderr: …, "note 5/5 from PID")`.
            let last = message
                .split("\"note 5/5 from ")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_else(|| panic!("no last stderr line in the fault: {message}"));
            assert!(message.contains("exit code 3; last stderr: "), "{message}");
            let pid: u32 = last.parse().unwrap();
            let lines = logged
                .get(&pid)
                .unwrap_or_else(|| panic!("nothing of process {pid} in the log; its fault: {message}"));
            let want: Vec<String> = (1..=5).map(|k| format!("note {k}/5 from {pid}")).collect();
            assert_eq!(lines, &want, "the log of process {pid}");
            assert!(printed.contains(message), "the fault is printed as recorded: {message}");
        }
    }
    assert!(crashes > 100, "{crashes} crashes");
    // One process per crash, each with all its lines in the log.
    assert_eq!(logged.len(), crashes, "processes in the log");
    assert!(logged.values().all(|l| l.len() == 5));
}

/// A bot that dies before its handshake: croupier's error names what it wrote last (a
/// traceback's last line), also where it gives up on the bot.
#[test]
fn a_bot_that_dies_before_its_handshake_is_named_with_its_last_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let bot = script(
        dir.path(),
        "broken.sh",
        r#"echo 'Traceback (most recent call last):' >&2
printf '  File "bot.py", line 1, in <module>\n' >&2
echo "ModuleNotFoundError: No module named 'numpy'" >&2
exit 1"#,
    );
    let out = croupier()
        .args(["play", "rikken", "--seed", "5", "--games", "1", "--startup-time", "20s"])
        .args([
            "--seat", &bot, "--seat", "simple", "--seat", "simple", "--seat", "simple",
        ])
        .assert()
        .failure()
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("exited before the handshake (exit code 1; last stderr: "),
        "{err}"
    );
    assert!(
        err.contains(r#""ModuleNotFoundError: No module named 'numpy'""#),
        "{err}"
    );
}

/// What a bot writes to its stderr reaches the fault escaped and cut short: no control
/// characters from a bot on croupier's output, five lines at most, blank lines left out.
#[test]
fn the_lines_in_a_fault_are_escaped_cut_and_few() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(1000);
    let bot = script(
        dir.path(),
        "noisy.sh",
        &format!(
            r#"for k in 1 2 3 4 5 6 7; do echo "early $k" >&2; done
printf 'bell \007 and escape \033[2J\n\n   \n' >&2
echo {long} >&2
exit 2"#
        ),
    );
    let out = croupier()
        .args(["play", "rikken", "--seed", "5", "--games", "1", "--startup-time", "20s"])
        .args([
            "--seat", &bot, "--seat", "simple", "--seat", "simple", "--seat", "simple",
        ])
        .assert()
        .failure()
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    let tail = err.split("last stderr: ").nth(1).unwrap_or_else(|| panic!("{err}"));
    assert!(
        tail.starts_with(r#""early 5", "early 6", "early 7", "bell \u{7} and escape \u{1b}[2J", "xxx"#),
        "{tail}"
    );
    assert!(tail.contains(&format!("{}…\"", "x".repeat(160))), "{tail}");
    assert!(!tail.contains(&"x".repeat(161)), "{tail}");
}

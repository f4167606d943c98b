//! Real bot processes: the bundled bots play, misbehaving bots become recorded faults, and no
//! bot inherits a file descriptor or sees a card it may not see.

mod common;
use common::{croupier, log_files, records};

use serde_json::Value;
use std::path::{Path, PathBuf};

fn exe() -> String {
    env!("CARGO_BIN_EXE_croupier").to_string()
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Writes a shell bot script and returns its seat spec.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    format!("sh {}", p.display())
}

/// The loop of a shell bot that answers hello and quit, and runs `$ACT` on act requests.
fn bot_loop(on_act: &str) -> String {
    format!(
        r#"while read -r id cmd a b rest; do
  case "$cmd" in
    hello) echo "=$id shbot 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) {on_act} ;;
  esac
done"#
    )
}

#[test]
fn bundled_bots_play_as_processes() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let py = format!("python3 {}", repo().join("bots/python/croupier_bot.py").display());
    let sh = format!("bash {}", repo().join("bots/bash/random_bot.sh").display());
    let own = format!("{} bot simple", exe());
    croupier()
        .args([
            "play",
            "rikken",
            "--games",
            "6",
            "--seed",
            "2",
            "--strict",
            "--seat",
            &py,
            "--seat",
            &sh,
            "--seat",
            &own,
            "--seat",
            "croupier bot random",
            "--record",
        ])
        .arg(&rec)
        .arg("--log-dir")
        .arg(dir.path().join("logs"))
        .assert()
        .success();
    let recs = records(&rec);
    assert_eq!(recs.len(), 6);
    for r in &recs {
        assert_eq!(r["faults"].as_array().unwrap().len(), 0, "{}", r["faults"]);
        assert_eq!(r["seats"][0]["name"], "pybot");
        assert_eq!(r["seats"][1]["name"], "bashbot");
        assert_eq!(r["seats"][2]["name"], "simple");
        assert_eq!(r["seats"][3]["name"], "random");
    }
    croupier().arg("replay").arg(&rec).assert().success();
}

fn play_with(dir: &Path, seat0: &str, extra: &[&str]) -> (Vec<Value>, std::process::Output) {
    let rec = dir.join("r.jsonl");
    let _ = std::fs::remove_file(&rec);
    let out = croupier()
        .args([
            "play",
            "rikken",
            "--seed",
            "4",
            "--move-time",
            "300ms",
            "--startup-time",
            "5s",
            "--seat",
            seat0,
            "--seat",
            "simple",
            "--seat",
            "simple",
            "--seat",
            "simple",
            "--record",
        ])
        .arg(&rec)
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .args(extra)
        .output()
        .unwrap();
    (records(&rec), out)
}

fn fault_kinds(r: &Value) -> Vec<String> {
    r["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn illegal_answers_are_faults_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let bot = script(dir.path(), "illegal.sh", &bot_loop(r#"echo "=$id XX""#));
    let (recs, out) = play_with(dir.path(), &bot, &[]);
    assert!(out.status.success());
    let kinds = fault_kinds(&recs[0]);
    assert!(!kinds.is_empty() && kinds.iter().all(|k| k == "illegal"), "{kinds:?}");
    let msg = recs[0]["faults"][0]["message"].as_str().unwrap();
    assert!(msg.contains("illegal action 'XX'") && msg.contains("instead"), "{msg}");
    // Substitutes are marked and the game still replays.
    assert!(recs[0]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["substitute"] == true));
    croupier()
        .arg("replay")
        .arg(dir.path().join("r.jsonl"))
        .assert()
        .success();
    // --strict turns faults into exit code 4.
    let (_, out) = play_with(dir.path(), &bot, &["--strict"]);
    assert_eq!(out.status.code(), Some(4));
}

#[test]
fn crashing_and_hanging_bots_are_restarted() {
    let dir = tempfile::tempdir().unwrap();
    // Crashes on its first decision, every time it is started.
    let crash = script(dir.path(), "crash.sh", &bot_loop("echo dying >&2; exit 3"));
    let (recs, out) = play_with(dir.path(), &crash, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let kinds = fault_kinds(&recs[0]);
    assert!(kinds.iter().any(|k| k == "crash"), "{kinds:?}");
    let log = log_files(&dir.path().join("logs"))[0].clone();
    assert!(
        std::fs::read_to_string(log).unwrap().contains("dying"),
        "stderr goes to the log"
    );
    // Hangs once (then answers with the first legal action).
    let marker = dir.path().join("hung");
    let hang = script(
        dir.path(),
        "hang.sh",
        &bot_loop(&format!(
            r#"if [ ! -e {m} ]; then touch {m}; sleep 30; fi; echo "=$id $rest" | cut -d' ' -f1,2"#,
            m = marker.display()
        )),
    );
    let start = std::time::Instant::now();
    let (recs, out) = play_with(dir.path(), &hang, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(start.elapsed().as_secs() < 20, "a hung bot must not hang the referee");
    let kinds = fault_kinds(&recs[0]);
    assert_eq!(
        kinds,
        vec!["timeout".to_string()],
        "one timeout, then the restarted bot plays on"
    );
    // The message says how late croupier itself took its last look (protocol.md §3.2).
    let message = recs[0]["faults"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("no answer within") && message.contains("ms after the deadline"),
        "{message}"
    );
}

#[test]
fn garbage_and_floods_are_faults() {
    let dir = tempfile::tempdir().unwrap();
    let chatty = script(
        dir.path(),
        "chatty.sh",
        &bot_loop(r#"echo "thinking hard"; echo "=$id $rest" | cut -d' ' -f1,2"#),
    );
    let (recs, out) = play_with(dir.path(), &chatty, &[]);
    assert!(out.status.success());
    // Garbage lines are not fatal: the answers still count. Each decision with garbage is
    // recorded as a `garbage` fault naming the line, and the bot is told with a `fault` line.
    let actions = recs[0]["actions"].as_array().unwrap();
    assert!(actions.iter().all(|a| a["substitute"] != true));
    let seat0 = actions.iter().filter(|a| a["seat"] == 0).count();
    let faults = recs[0]["faults"].as_array().unwrap();
    assert_eq!(faults.len(), seat0, "{faults:?}");
    for f in faults {
        assert_eq!(f["kind"], "garbage");
        assert!(f["message"].as_str().unwrap().contains("'thinking hard'"), "{f}");
    }
    let strict = play_with(dir.path(), &chatty, &["--strict"]).1;
    assert_eq!(
        strict.status.code(),
        Some(4),
        "a garbage line is a fault under --strict"
    );
    croupier()
        .arg("replay")
        .arg(dir.path().join("r.jsonl"))
        .assert()
        .success();
    let flood = script(dir.path(), "flood.sh", &bot_loop(r#"yes garbage | head -c 3000000"#));
    let (recs, out) = play_with(dir.path(), &flood, &[]);
    assert!(out.status.success());
    assert!(
        fault_kinds(&recs[0]).iter().any(|k| k == "flood"),
        "{:?}",
        fault_kinds(&recs[0])
    );
}

#[test]
fn bots_inherit_no_file_descriptors() {
    let dir = tempfile::tempdir().unwrap();
    let lister = script(
        dir.path(),
        "fds.sh",
        &format!(
            "python3 -c 'import os,sys; sys.stderr.write(\" \".join(os.listdir(\"/proc/%d/fd\" % os.getppid())))'\n{}",
            bot_loop(r#"echo "=$id $rest" | cut -d' ' -f1,2"#)
        ),
    );
    let (recs, out) = play_with(dir.path(), &lister, &[]);
    assert!(out.status.success());
    assert_eq!(recs[0]["faults"].as_array().unwrap().len(), 0);
    let log = log_files(&dir.path().join("logs"))[0].clone();
    let fds: Vec<String> = std::fs::read_to_string(log)
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    // The shell (listed by a child, so that no redirection of its own shows) has 0, 1, 2 and
    // possibly one fd of its own for the script file.
    let extra: Vec<&String> = fds.iter().filter(|f| !["0", "1", "2"].contains(&f.as_str())).collect();
    assert!(extra.len() <= 1, "unexpected inherited fds: {fds:?}");
}

#[test]
fn a_seat_never_receives_another_seats_hidden_cards() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut seats = Vec::new();
    for s in 0..4 {
        let log = dir.path().join(format!("seat{s}.txt"));
        seats.push(format!("sh -c 'tee -a {} | {} bot random'", log.display(), exe()));
    }
    let mut cmd = croupier();
    cmd.args(["play", "rikken", "--games", "12", "--seed", "99", "--quiet", "--record"])
        .arg(&rec);
    for s in &seats {
        cmd.args(["--seat", s]);
    }
    cmd.assert().success();
    let recs = records(&rec);
    let mut lines_by_seat = Vec::new();
    for s in 0..4 {
        lines_by_seat.push(std::fs::read_to_string(dir.path().join(format!("seat{s}.txt"))).unwrap());
    }
    // Split each seat's stream into games.
    for s in 0..4 {
        let games: Vec<&str> = lines_by_seat[s].split("game rikken\n").skip(1).collect();
        assert_eq!(games.len(), recs.len());
        for (g, text) in games.iter().enumerate() {
            let r = &recs[g];
            let contract = r["result"]["detail"]["contract"].as_str().unwrap_or("").to_string();
            let open_all = contract.contains("praatje") || contract == "open_piek_totaal";
            let mut deal = 0usize;
            let mut played: std::collections::HashSet<String> = Default::default();
            for line in text.lines() {
                let w: Vec<&str> = line.split_whitespace().collect();
                match w.first().copied() {
                    Some("deal") => {
                        deal = w[1].parse::<usize>().unwrap();
                        played.clear();
                    }
                    Some("hand") => {
                        let own: Vec<String> = r["deals"][deal - 1]["hands"][s]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|c| c.as_str().unwrap().to_string())
                            .collect();
                        let mut own = own;
                        own.sort();
                        let mut got: Vec<String> = w[1..].iter().map(|c| c.to_string()).collect();
                        got.sort();
                        assert_eq!(got, own, "seat {s} got a hand that is not its own");
                    }
                    Some("move") => {
                        played.insert(w[2].to_string());
                    }
                    Some("exposed") => {
                        let owner: usize = w[1].parse().unwrap();
                        assert_ne!(owner, s, "a seat is never sent its own hand as exposed");
                        let declarers = &r["result"]["detail"]["declarers"];
                        let owner_declares = declarers
                            .as_array()
                            .map(|d| d.iter().any(|x| x.as_u64() == Some(owner as u64)))
                            .unwrap_or(false);
                        assert!(
                            open_all || (contract.starts_with("open_") && owner_declares),
                            "game {g}: exposed {owner} under {contract}"
                        );
                    }
                    Some("partner") => {
                        // Before the called card is played only its holder may learn the partner.
                        let partner: usize = w[1].parse().unwrap();
                        let called = r["result"]["detail"]["called"].as_str().unwrap_or("");
                        if contract.starts_with("rik") && !played.contains(called) {
                            assert_eq!(partner, s, "game {g}: seat {s} learned the secret partner");
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn the_bundled_bots_own_tests_pass() {
    // bots/python/test_bots.py drives both example bots through scripted sessions.
    let out = std::process::Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/bots/python/test_bots.py"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_passes_good_bots_and_names_what_a_bad_one_gets_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let py = format!("python3 {}", repo().join("bots/python/croupier_bot.py").display());
    let own = format!("{} bot simple", exe());
    for bot in [py, own] {
        croupier()
            .args(["check", &bot, "--game", "rikken", "--log-dir"])
            .arg(dir.path())
            .assert()
            .success()
            .stdout(predicates::str::contains("all checks passed"));
    }
    // A bot that ignores unknown requests and answers every act with garbage.
    let bad = script(dir.path(), "bad.sh", &bot_loop(r#"echo "=$id nonsense""#));
    let out = croupier()
        .args(["check", &bad, "--game", "kul", "--move-time", "300ms", "--log-dir"])
        .arg(dir.path())
        .assert()
        .code(1);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("ok    answers hello: shbot 1"), "{stdout}");
    assert!(
        stdout.contains("FAIL  answers an unknown request with ?<id>: no answer"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAIL  plays a game of kul") && stdout.contains("illegal action 'nonsense'"),
        "{stdout}"
    );
}

/// protocol.md §5: a bot restarted after a fault gets the handshake, then every line of the game
/// so far ending with the `fault` line, then the substitute's `move`.
#[test]
fn a_restarted_bot_is_caught_up_and_then_told_its_fault() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started-once");
    let log = dir.path().join("second.txt");
    let body = format!(
        r#"if [ -e {m} ]; then
  while read -r line; do
    echo "$line" >> {l}
    set -- $line
    case "$2" in
      hello) echo "=$1 shbot 1" ;;
      quit) echo "=$1"; exit 0 ;;
      act) echo "=$1 $5" ;;
    esac
  done
else
  touch {m}
  {hang}
fi"#,
        m = marker.display(),
        l = log.display(),
        hang = bot_loop("sleep 5")
    );
    let bot = script(dir.path(), "once.sh", &body);
    let (recs, out) = play_with(dir.path(), &bot, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(fault_kinds(&recs[0])[0], "timeout");
    let seen = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = seen.lines().collect();
    assert_eq!(lines[0], "1 hello 1");
    assert_eq!(lines[1], "game rikken", "{seen}");
    let f = lines
        .iter()
        .position(|l| l.starts_with("fault timeout "))
        .expect("the fault line");
    assert!(
        !lines[..f].iter().any(|l| l.contains(" act ")),
        "no old request is replayed"
    );
    let at = recs[0]["faults"][0]["action"].as_u64().unwrap() as usize;
    let sub = &recs[0]["actions"].as_array().unwrap()[at];
    assert_eq!(
        (sub["seat"].as_u64(), sub["substitute"].as_bool()),
        (Some(0), Some(true))
    );
    assert_eq!(lines[f + 1], format!("move 0 {} bid", sub["action"].as_str().unwrap()));
}

/// Shutting down a table gives every bot the same grace period at once: a bot that exits on
/// end of input gets it while a bot that ignores `quit` is still being waited for, not only
/// after that one was killed (issue 13: 4 bots ignoring quit took 2.5 s instead of 0.7 s).
#[test]
fn shutdown_grace_periods_overlap() {
    let dir = tempfile::tempdir().unwrap();
    let pid0 = dir.path().join("pid0");
    let seen = dir.path().join("seen-at-eof");
    let stubborn = script(
        dir.path(),
        "stubborn.sh",
        &format!(
            r#"echo $$ > {pid}
while read -r id cmd a b rest; do
  case "$cmd" in
    hello) echo "=$id stubborn 1" ;;
    act) echo "=$id $rest" | cut -d' ' -f1,2 ;;
    quit) exec sleep 30 ;;
  esac
done
exec sleep 30"#,
            pid = pid0.display()
        ),
    );
    let eof_checker = script(
        dir.path(),
        "eof.sh",
        &format!(
            r#"while read -r id cmd a b rest; do
  case "$cmd" in
    hello) echo "=$id eofbot 1" ;;
    act) echo "=$id $rest" | cut -d' ' -f1,2 ;;
  esac
done
if kill -0 "$(cat {pid})" 2>/dev/null; then echo alive > {seen}; else echo dead > {seen}; fi"#,
            pid = pid0.display(),
            seen = seen.display()
        ),
    );
    croupier()
        .args(["play", "rikken", "--seed", "3", "--games", "1", "--quiet"])
        .args([
            "--seat",
            &stubborn,
            "--seat",
            &eof_checker,
            "--seat",
            "simple",
            "--seat",
            "simple",
        ])
        .arg("--log-dir")
        .arg(dir.path().join("logs"))
        .assert()
        .success();
    let at_eof = std::fs::read_to_string(&seen).expect("the second bot saw the end of its input");
    assert_eq!(
        at_eof.trim(),
        "alive",
        "stdin closed only after the first bot's grace period ran out"
    );
}

/// Only an answer to the request asked counts (issue 13, item 6): an id too large for any
/// request is not "no id", and a line written before the request (a guess at the next id) is
/// not its answer.
#[test]
fn only_an_answer_to_the_request_asked_counts() {
    let dir = tempfile::tempdir().unwrap();
    let huge = script(
        dir.path(),
        "huge.sh",
        &bot_loop(r#"echo "=123456789012345678901234567890 XX"; echo "=$id $rest" | cut -d' ' -f1,2"#),
    );
    let (recs, out) = play_with(dir.path(), &huge, &[]);
    assert!(out.status.success());
    let actions = recs[0]["actions"].as_array().unwrap();
    assert!(
        actions.iter().all(|a| a["substitute"] != true),
        "the real answers count"
    );
    assert!(
        fault_kinds(&recs[0]).iter().all(|k| k == "garbage"),
        "{:?}",
        fault_kinds(&recs[0])
    );
    assert!(!fault_kinds(&recs[0]).is_empty());

    let early = script(
        dir.path(),
        "early.sh",
        // One write holds the answer and a guess at the next request's answer.
        &bot_loop(r#"t=$(echo "$rest" | cut -d' ' -f1); printf '=%s %s\n=%s XX\n' "$id" "$t" "$((id+1))""#),
    );
    let (recs, out) = play_with(dir.path(), &early, &[]);
    assert!(out.status.success());
    assert_eq!(
        fault_kinds(&recs[0]),
        Vec::<String>::new(),
        "the early guess is not taken as an answer"
    );
    let actions = recs[0]["actions"].as_array().unwrap();
    assert!(actions.iter().all(|a| a["substitute"] != true && a["action"] != "XX"));
}

/// A bot that cannot be restarted plays substitutes until the next game, then gets one new
/// start (protocol.md §5): not one attempt per decision (issue 13, item 3: 587 attempts in
/// 80 games).
#[test]
fn a_bot_that_cannot_restart_is_tried_again_once_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started");
    let starts = dir.path().join("starts.txt");
    let bot = script(
        dir.path(),
        "once.sh",
        &format!(
            r#"echo start >> {starts}
if [ -e {m} ]; then exit 1; fi
touch {m}
{lp}"#,
            starts = starts.display(),
            m = marker.display(),
            lp = bot_loop("exit 3")
        ),
    );
    let rec = dir.path().join("r.jsonl");
    croupier()
        .args([
            "play",
            "rikken",
            "--seed",
            "5",
            "--games",
            "3",
            "--quiet",
            "--startup-time",
            "2s",
        ])
        .args([
            "--seat", &bot, "--seat", "simple", "--seat", "simple", "--seat", "simple",
        ])
        .arg("--record")
        .arg(&rec)
        .arg("--log-dir")
        .arg(dir.path().join("logs"))
        .assert()
        .success();
    let n = std::fs::read_to_string(&starts).unwrap().lines().count();
    // The first start, the failed restart after the crash, one attempt as games 2 and 3 begin.
    assert_eq!(n, 4, "starts of the bot");
    let recs = records(&rec);
    assert_eq!(fault_kinds(&recs[0])[..2], ["crash", "restart"]);
    for r in &recs {
        assert!(r["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["seat"] == 0)
            .all(|a| a["substitute"] == true));
    }
}

/// A bot's exit is seen when it happens, also when a child it forked still holds its stdout
/// (that was a `timeout` after the whole move time); a bot that closes its stdout but runs on
/// is reported as such, not as "exited" (issue 13, item 4).
#[test]
fn exits_are_seen_at_once_and_a_closed_stdout_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let forker = script(dir.path(), "forker.sh", &bot_loop("sleep 30 & exit 3"));
    let (recs, _) = play_with(dir.path(), &forker, &[]);
    let f = &recs[0]["faults"][0];
    assert_eq!(f["kind"], "crash", "{f}");
    assert!(f["message"].as_str().unwrap().contains("exited (exit code 3)"), "{f}");
    let closer = script(dir.path(), "closer.sh", &bot_loop("exec 1>&-; sleep 30"));
    let (recs, _) = play_with(dir.path(), &closer, &[]);
    let f = &recs[0]["faults"][0];
    assert_eq!(f["kind"], "crash", "{f}");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("closed its standard output but did not exit"),
        "{f}"
    );
}

/// Nothing a bot starts outlives it: a child that escapes the bot's process group with setsid
/// is ended when the bot is stopped (croupier is its subreaper), at a restart and at the end
/// (issue 13, item 1: 51 orphans after a 50-deal match).
#[test]
fn a_bots_setsid_children_do_not_survive_it() {
    let dir = tempfile::tempdir().unwrap();
    // A number no other test uses, to find the escapees in the process table.
    let (tag_end, tag_crash) = (31337 + std::process::id() % 1000, 41337 + std::process::id() % 1000);
    let escaper = script(
        dir.path(),
        "escaper.sh",
        &bot_loop(&format!(
            r#"setsid sleep {tag_end} </dev/null >/dev/null 2>&1 & echo "=$id $rest" | cut -d' ' -f1,2"#
        )),
    );
    let crasher = script(
        dir.path(),
        "crasher.sh",
        &bot_loop(&format!(
            r#"setsid sleep {tag_crash} </dev/null >/dev/null 2>&1 & exit 3"#
        )),
    );
    for (bot, tag) in [(&escaper, tag_end), (&crasher, tag_crash)] {
        let (_, out) = play_with(dir.path(), bot, &[]);
        assert!(out.status.success());
        let left = std::process::Command::new("pgrep")
            .args(["-f", &format!("sleep {tag}")])
            .output();
        let Ok(left) = left else {
            eprintln!("skipped: pgrep is not installed");
            return;
        };
        let pids = String::from_utf8_lossy(&left.stdout).trim().to_string();
        if !pids.is_empty() {
            let _ = std::process::Command::new("pkill")
                .args(["-f", &format!("sleep {tag}")])
                .status();
        }
        assert!(pids.is_empty(), "left running: {pids}");
    }
}

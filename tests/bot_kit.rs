//! The bot kit (bots/): every bundled example bot passes `croupier check` (the handshake, an
//! unknown request, notifications, a whole game of every game in every seat, `quit`), and the
//! Python kit's own unit tests pass. Bots that need a tool this machine lacks (python3, bash, a C
//! compiler) are skipped with a message on stderr, never passed silently.

mod common;
use common::croupier;

use std::path::{Path, PathBuf};
use std::process::Command;

fn bots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bots")
}

/// Is `program` installed (does `program --version` run)?
fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

const GAMES: [&str; 6] = ["rikken", "zwikken", "svangknack", "kul", "skwitz", "schwimmen"];

/// Runs `croupier check SPEC` (every game, or only `games[0]` when `games` has one) and returns
/// (exit code, stdout).
fn check(spec: &str, games: &[&str], logs: &Path) -> (Option<i32>, String) {
    let only: &[&str] = match games {
        [one] => &["--game", one],
        _ => &[],
    };
    let out = croupier()
        .args(["check", spec])
        .args(only)
        .arg("--log-dir")
        .arg(logs)
        .env_remove("PYTHONUNBUFFERED") // a bot that forgets to flush must fail
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// Everything the bots wrote to their standard error under `dir` (croupier's log files).
fn logs(dir: &Path) -> String {
    let mut all = String::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            all += &logs(&p);
        } else {
            all += &std::fs::read_to_string(&p).unwrap_or_default();
        }
    }
    all
}

/// `croupier check` passes every step, a game of each of the six games included, and the
/// bot's strategy never needed the kit's fallback (no "decision error" in its log). Returns the
/// bot's log.
fn assert_passes(spec: &str, name: &str) -> String {
    let log = assert_check_passes(spec, name, &GAMES);
    assert!(
        !log.contains("decision error (") && !log.contains("error on line"),
        "{spec}:\n{log}"
    );
    log
}

/// `croupier check` passes every step, a game of each of `games` included; the bot's log.
fn assert_check_passes(spec: &str, name: &str, games: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout) = check(spec, games, dir.path());
    assert_eq!(code, Some(0), "{spec}:\n{stdout}");
    let hello = format!("ok    answers hello: {name}");
    assert!(
        stdout
            .lines()
            .any(|l| l == hello || l.starts_with(&format!("{hello},"))),
        "{spec}: no '{hello}':\n{stdout}"
    );
    for game in games {
        let line = format!("ok    plays a game of {game} in every seat");
        assert!(stdout.contains(&line), "{spec}: no '{line}':\n{stdout}");
    }
    assert!(!stdout.contains("FAIL"), "{spec}:\n{stdout}");
    assert!(stdout.contains("all checks passed"), "{spec}:\n{stdout}");
    logs(dir.path())
}

fn python_bot(file: &str) -> String {
    format!("python3 {}", bots().join("python").join(file).display())
}

#[test]
fn the_python_example_bots_pass_check() {
    if !have("python3") {
        eprintln!("SKIPPED the_python_example_bots_pass_check: no python3 on this machine");
        return;
    }
    assert_passes(&python_bot("croupier_bot.py"), "pybot 1.0");
    assert_passes(&python_bot("trick_bot.py"), "trickbot 1.0");
}

#[test]
fn the_bash_bot_passes_check() {
    if !have("bash") {
        eprintln!("SKIPPED the_bash_bot_passes_check: no bash on this machine");
        return;
    }
    let spec = format!("bash {}", bots().join("bash/random_bot.sh").display());
    assert_passes(&spec, "bashbot 1.0");
}

#[test]
fn the_c_bot_compiles_and_passes_check() {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    if !have(&cc) {
        eprintln!("SKIPPED the_c_bot_compiles_and_passes_check: no C compiler ('{cc}'; set CC)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("lowbot");
    // The command bots/README.md gives, with the warnings on: the example compiles cleanly.
    let out = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o"])
        .arg(&exe)
        .arg(bots().join("c/lowbot.c"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{cc} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_passes(&exe.display().to_string(), "lowbot 1.0");
}

#[test]
fn the_python_kit_unit_tests_pass() {
    if !have("python3") {
        eprintln!("SKIPPED the_python_kit_unit_tests_pass: no python3 on this machine");
        return;
    }
    // -B: no __pycache__ in the source tree. Discovery runs test_kit.py (the kit's helpers and
    // its loop) and test_bots.py (the bundled bots as processes).
    let out = Command::new("python3")
        .args(["-B", "-m", "unittest", "-v"])
        .current_dir(bots().join("python"))
        .env_remove("PYTHONUNBUFFERED")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "python3 -m unittest failed:\n{report}");
    // Discovery found the kit's tests (a renamed file would otherwise pass with "Ran 0 tests").
    for test in [
        "test_card_parses_rank_and_suit",
        "test_svangknack_pairs",
        "test_setup_view_and_act",
    ] {
        assert!(report.contains(test), "{test} did not run:\n{report}");
    }
    assert!(report.contains("\nOK"), "{report}");
}

/// A bot written with the kit whose strategy is broken (it raises, or answers a token that is
/// not legal) fails `check`, which names the error (issue 28, item 4: the kit used to play the
/// first legal action and check passed it). With `forgive_errors = True` it plays on legally
/// and passes, its errors in its log.
#[test]
fn a_kit_bot_with_a_broken_strategy_fails_check_unless_it_forgives_its_errors() {
    if !have("python3") {
        eprintln!("SKIPPED a_kit_bot_with_a_broken_strategy_fails_check_unless_it_forgives_its_errors: no python3");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for forgive in [false, true] {
        let bot = dir.path().join(format!("broken_{forgive}.py"));
        std::fs::write(
            &bot,
            format!(
                r#"import sys
sys.path.insert(0, {kit:?})
from croupier_kit import Bot

class Broken(Bot):
    name = "broken"
    forgive_errors = {py}

    def choose(self, decision, legal):
        if self.seat % 2 == 1:
            raise KeyError("oops")
        return "surely_not_legal"

Broken().run()
"#,
                kit = bots().join("python").display().to_string(),
                py = if forgive { "True" } else { "False" },
            ),
        )
        .unwrap();
        let spec = format!("python3 -B {}", bot.display());
        if forgive {
            let log = assert_check_passes(&spec, "broken 1.0", &["rikken"]);
            // The first error of each game is logged, naming the decision and the exception.
            assert!(log.contains("broken: decision error (bid): KeyError('oops')"), "{log}");
            assert!(log.contains("'surely_not_legal' is not legal"), "{log}");
        } else {
            let logs = tempfile::tempdir().unwrap();
            let (code, stdout) = check(&spec, &["rikken"], logs.path());
            assert_eq!(code, Some(1), "{stdout}");
            assert!(
                stdout.contains("FAIL  plays a game of rikken in every seat"),
                "{stdout}"
            );
            assert!(stdout.contains("decision error (bid)"), "{stdout}");
        }
    }
}

/// The example of bots/README.md ("Writing a bot with the kit") is a working bot.
#[test]
fn the_readme_example_bot_passes_check() {
    if !have("python3") {
        eprintln!("SKIPPED the_readme_example_bot_passes_check: no python3 on this machine");
        return;
    }
    let readme = std::fs::read_to_string(bots().join("README.md")).unwrap();
    let section = &readme[readme.find("## Writing a bot with the kit").expect("the section")..];
    let code = section.split("```python\n").nth(1).expect("a python block");
    let code = &code[..code.find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("mybot.py");
    // Next to the kit as the README says: a copy of it in the same directory.
    std::fs::write(&bot, code).unwrap();
    std::fs::copy(
        bots().join("python/croupier_kit.py"),
        dir.path().join("croupier_kit.py"),
    )
    .unwrap();
    assert_passes(&format!("python3 -B {}", bot.display()), "mybot 1.0");
}

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

/// Runs `croupier check SPEC` and returns (exit code, stdout).
fn check(spec: &str, logs: &Path) -> (Option<i32>, String) {
    let out = croupier()
        .args(["check", spec, "--log-dir"])
        .arg(logs)
        .env_remove("PYTHONUNBUFFERED") // a bot that forgets to flush must fail
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// `croupier check` passes every step, a game of each of the six games included.
fn assert_passes(spec: &str, name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout) = check(spec, dir.path());
    assert_eq!(code, Some(0), "{spec}:\n{stdout}");
    let hello = format!("ok    answers hello: {name}");
    assert!(
        stdout
            .lines()
            .any(|l| l == hello || l.starts_with(&format!("{hello},"))),
        "{spec}: no '{hello}':\n{stdout}"
    );
    for game in ["rikken", "zwikken", "svangknack", "kul", "skwitz", "schwimmen"] {
        let line = format!("ok    plays a game of {game} in every seat");
        assert!(stdout.contains(&line), "{spec}: no '{line}':\n{stdout}");
    }
    assert!(!stdout.contains("FAIL"), "{spec}:\n{stdout}");
    assert!(stdout.contains("all checks passed"), "{spec}:\n{stdout}");
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
/// not legal) still passes check: the kit answers the first legal action and logs the error.
#[test]
fn a_kit_bot_with_a_broken_strategy_still_plays_legally() {
    if !have("python3") {
        eprintln!("SKIPPED a_kit_bot_with_a_broken_strategy_still_plays_legally: no python3");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("broken.py");
    std::fs::write(
        &bot,
        format!(
            r#"import sys
sys.path.insert(0, {kit:?})
from croupier_kit import Bot

class Broken(Bot):
    name = "broken"

    def choose(self, decision, legal):
        if decision == "play":
            raise KeyError("oops")
        return "surely_not_legal"

Broken().run()
"#,
            kit = bots().join("python").display().to_string()
        ),
    )
    .unwrap();
    let spec = format!("python3 -B {}", bot.display());
    assert_passes(&spec, "broken 1.0");
}

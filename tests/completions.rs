//! `croupier completions SHELL` and `croupier man`: generated from the command-line definition,
//! checked the way a user meets them (bash completing a word, man rendering the page).

mod common;

use common::croupier;
use std::process::Command;

fn stdout_of(args: &[&str]) -> String {
    let out = croupier().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "croupier {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What bash offers for the words typed so far (the last one being completed).
fn bash_completes(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let words_q: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let cmd = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={cword}; _croupier croupier '{}' '{prev}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words_q.join(" "),
        words[cword],
    );
    let out = Command::new("bash").args(["-c", &cmd]).output().unwrap();
    assert!(out.status.success(), "bash: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty()) // printf prints one empty line for no words
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_commands_and_options() {
    if !have("bash") {
        eprintln!("SKIPPED: bash is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("croupier.bash");
    std::fs::write(&script, stdout_of(&["completions", "bash"])).unwrap();
    assert_eq!(bash_completes(&script, &["croupier", "pl"]), ["play"]);
    let all = bash_completes(&script, &["croupier", ""]);
    for sub in [
        "play",
        "match",
        "compare",
        "stats",
        "check",
        "replay",
        "show",
        "completions",
        "man",
    ] {
        assert!(all.iter().any(|w| w == sub), "'{sub}' not offered: {all:?}");
    }
    let opts = bash_completes(&script, &["croupier", "match", "--con"]);
    assert_eq!(opts, ["--concurrency"]);
    let shells = bash_completes(&script, &["croupier", "completions", "f"]);
    assert_eq!(shells, ["fish"]);
}

/// Games and built-in bots are offered by name where they are asked for; a bot that is a
/// command or a path is still typed freely (bash falls back to file names when no name matches).
#[test]
fn bash_completes_games_and_built_in_bots() {
    if !have("bash") {
        eprintln!("SKIPPED: bash is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("croupier.bash");
    std::fs::write(&script, stdout_of(&["completions", "bash"])).unwrap();
    let games = ["rikken", "zwikken", "svangknack", "kul", "skwitz", "schwimmen"];
    for words in [
        &["croupier", "match", ""][..],
        &["croupier", "play", ""],
        &["croupier", "tournament", ""],
        &["croupier", "compare", ""],
        &["croupier", "rules", ""],
        &["croupier", "check", "x", "--game", ""],
    ] {
        let offered = bash_completes(&script, words);
        for g in games {
            assert!(
                offered.iter().any(|w| w == g),
                "{words:?}: '{g}' not offered: {offered:?}"
            );
        }
    }
    assert_eq!(bash_completes(&script, &["croupier", "match", "ri"]), ["rikken"]);
    assert_eq!(bash_completes(&script, &["croupier", "rules", "sk"]), ["skwitz"]);

    let bots = bash_completes(&script, &["croupier", "match", "rikken", "--bot", ""]);
    assert_eq!(bots, ["random", "simple", "mix:p=0.7", "pimc", "ismcts"]);
    assert_eq!(
        bash_completes(&script, &["croupier", "match", "rikken", "--bot", "s"]),
        ["simple"]
    );
    // `human` only where a person can sit: play.
    let play = bash_completes(&script, &["croupier", "play", "rikken", "--bot", ""]);
    assert!(play.iter().any(|w| w == "human"), "{play:?}");
    for words in [
        &["croupier", "tournament", "kul", "--bot", "si"][..],
        &["croupier", "compare", "kul", "--candidate", "si"],
        &["croupier", "compare", "kul", "--baseline", "si"],
        &["croupier", "compare", "kul", "--field", "si"],
        &["croupier", "ask", "r.jsonl", "--bot", "si"],
        &["croupier", "regress", "s.suite", "--bot", "si"],
        &["croupier", "play", "kul", "--seat", "si"],
        &["croupier", "bot", "si"],
        &["croupier", "check", "si"],
    ] {
        assert_eq!(bash_completes(&script, words), ["simple"], "{words:?}");
    }
    // No name matches a path: nothing is offered, and bash's default (file names) takes over.
    assert!(bash_completes(&script, &["croupier", "match", "kul", "--bot", "./my"]).is_empty());
}

/// The names are only hints for the shells: what croupier accepts is unchanged, so a bot is
/// still any spec and an unknown game gets croupier's own message, not a list of values.
#[test]
fn completion_names_do_not_narrow_what_croupier_accepts() {
    croupier()
        .args(["play", "kul", "--players", "2", "--seed", "1", "--bot", "a=mix:p=0.9"])
        .args(["--bot", "croupier bot simple"])
        .assert()
        .success();
    croupier()
        .args([
            "match",
            "kul",
            "--players",
            "2",
            "--deals",
            "1",
            "--seed",
            "1",
            "--quiet",
        ])
        .args(["--bot", "m=mix:p=0.9", "--bot", "s=croupier bot simple"])
        .assert()
        .success();
    let out = croupier().args(["rules", "bridge"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("possible values"), "{err}");
    let help = stdout_of(&["match", "--help"]);
    assert!(!help.contains("possible values"), "{help}");
}

#[test]
fn zsh_and_fish_offer_the_names_with_their_lines() {
    let zsh = stdout_of(&["completions", "zsh"]);
    assert!(zsh.contains(r#"((rikken\:"auction"#), "no game names for zsh");
    assert!(
        zsh.contains(r#"simple\:"deterministic rule-based play"#),
        "no bot names for zsh"
    );
    let fish = stdout_of(&["completions", "fish"]);
    assert!(fish.contains(r"kul\t'5 cards"), "no game names for fish");
    assert!(
        fish.contains(r"simple\t'deterministic rule-based play"),
        "no bot names for fish"
    );
}

#[test]
fn every_shell_gets_a_script_and_a_bad_shell_is_a_usage_error() {
    for (shell, needle) in [
        ("zsh", "#compdef croupier"),
        ("fish", "complete -c croupier"),
        ("elvish", "croupier"),
        ("powershell", "croupier"),
    ] {
        let s = stdout_of(&["completions", shell]);
        assert!(s.contains(needle), "{shell}: no '{needle}' in its script");
        assert!(s.contains("concurrency"), "{shell}: the match options are missing");
    }
    common::assert_usage_error(&["completions", "tcsh"], &["tcsh", "bash"]);
}

#[test]
fn the_manual_renders_with_every_command_and_the_exit_codes() {
    let page = stdout_of(&["man"]);
    assert!(
        page.contains(".TH croupier 1"),
        "not a roff page: {}",
        &page[..page.len().min(200)]
    );
    let text = if have("man") {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("croupier.1");
        std::fs::write(&f, &page).unwrap();
        let out = Command::new("man")
            .arg("-l")
            .arg(&f)
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "100")
            .output()
            .unwrap();
        assert!(out.status.success(), "man -l: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    } else {
        eprintln!("man is not installed: checking the roff source only");
        page.replace("\\-", "-")
    };
    for sub in [
        "croupier-play(1)",
        "croupier-match(1)",
        "croupier-replay(1)",
        "croupier-man(1)",
    ] {
        assert!(text.contains(sub), "'{sub}' missing from the manual:\n{text}");
    }
    // man justifies its lines: compare with the spaces collapsed.
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("Exit codes: 0 success"),
        "the exit codes are missing:\n{text}"
    );
}

#[test]
fn man_dir_writes_a_page_per_command_with_its_options() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    croupier().args(["man", "--dir"]).arg(&out).assert().success();
    let play = std::fs::read_to_string(out.join("croupier-play.1")).unwrap();
    assert!(play.contains("\\-\\-seat"), "croupier-play.1 lacks --seat");
    for page in [
        "croupier.1",
        "croupier-match.1",
        "croupier-compare.1",
        "croupier-stats.1",
        "croupier-show.1",
    ] {
        assert!(out.join(page).is_file(), "{page} not written");
    }
    // A directory that cannot be made is a usage error naming it.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let o = croupier()
        .args(["man", "--dir"])
        .arg(file.join("sub"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a-file"));
}

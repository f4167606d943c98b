//! Limits on bot processes (issue 13): `--bot-cpu` and `--bot-memory` (rlimits) end a bot that
//! passes them with a crash fault that names the limit; `--bot-user` runs bots as another user.

mod common;
use common::{croupier, records};
use std::path::Path;

/// A bot script in `dir` that answers the handshake and `quit`, and does `on_act` when asked
/// to act (`$id` and the first legal action `$first` are set).
fn bot(dir: &Path, name: &str, on_act: &str) -> String {
    let body = format!(
        r#"while read -r id cmd a b first rest; do
  case "$cmd" in
    hello) echo "=$id {name} 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) {on_act} ;;
  esac
done"#
    );
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

/// One short Kul game (2 players, one mark) with `seat` in seat 0; returns its record.
fn one_game(dir: &Path, seat: &str, extra: &[&str]) -> serde_json::Value {
    let rec = dir.join("r.jsonl");
    let _ = std::fs::remove_file(&rec);
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
        .args(["--seed", "1", "--quiet", "--seat", seat, "--seat", "simple", "--record"])
        .arg(&rec)
        .args(["--log-dir", &dir.join("logs").display().to_string()])
        .args(extra)
        .assert()
        .success();
    records(&rec).remove(0)
}

#[test]
fn a_bot_over_its_cpu_limit_is_killed_and_the_fault_names_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let burner = bot(dir.path(), "burner", "while :; do :; done");
    // The move time is far longer than the limit: only the limit can end the loop in time.
    let r = one_game(
        dir.path(),
        &burner,
        &[
            "--bot-cpu",
            "1s",
            "--move-time",
            "60s",
            "--rule",
            "max_deals_per_game=1",
        ],
    );
    let f = &r["faults"][0];
    assert_eq!(f["kind"], "crash", "{f}");
    let m = f["message"].as_str().unwrap();
    assert!(
        m.contains("SIGXCPU") && m.contains("--bot-cpu limit of 1s is spent"),
        "{m}"
    );
    assert_eq!(
        r["result"]["scores"].as_array().unwrap().len(),
        2,
        "the game was finished"
    );
}

#[test]
fn a_bot_over_its_memory_limit_fails_to_allocate_and_the_fault_names_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    // 1 GiB of memory the bot would touch, under a limit of 256M: the allocation fails.
    let hog = bot(
        dir.path(),
        "hog",
        r#"python3 -c 'bytearray(1 << 30)' || exit 3; echo "=$id $first""#,
    );
    let r = one_game(dir.path(), &hog, &["--bot-memory", "256M"]);
    let f = &r["faults"][0];
    assert_eq!(f["kind"], "crash", "{f}");
    let m = f["message"].as_str().unwrap();
    assert!(m.contains("exit code 3; it ran under --bot-memory 256M"), "{m}");
    // Without the limit the same bot plays its cards.
    let r = one_game(dir.path(), &hog, &[]);
    assert_eq!(r["faults"].as_array().unwrap().len(), 0, "{}", r["faults"]);
}

#[test]
fn limits_are_checked_as_arguments() {
    common::assert_usage_error(
        &["play", "kul", "--bot-memory", "12X"],
        &["--bot-memory", "12X", "512M"],
    );
    common::assert_usage_error(&["play", "kul", "--bot-memory", "100K"], &["too small"]);
    common::assert_usage_error(
        &["match", "kul", "--bot", "simple", "--bot-cpu", "soon"],
        &["--bot-cpu", "soon"],
    );
}

/// As root, `--bot-user` starts the bots as that user; anyone else is told it needs root.
#[test]
fn bot_user_runs_bots_as_that_user() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        common::assert_usage_error(&["play", "kul", "--bot-user", "nobody"], &["must run as root"]);
        eprintln!("skipped the rest: --bot-user needs root, and this test does not run as root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("uid.txt");
    // The bot's script and output file must be reachable by `nobody`.
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    let teller = bot(
        dir.path(),
        "teller",
        &format!(r#"id -u > {o}; echo "=$id $first""#, o = out.display()),
    );
    one_game(dir.path(), &teller, &["--bot-user", "nobody"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap().trim(), "65534");
    common::assert_usage_error(&["play", "kul", "--bot-user", "root"], &["is root"]);
    common::assert_usage_error(
        &["play", "kul", "--bot-user", "no-such-user-here"],
        &["no user 'no-such-user-here'"],
    );
}

//! What a bot must not reach (protocol.md §13): croupier's memory and open files through
//! /proc, and the run's seed (issue 13, "Secrets").

mod common;
use common::{croupier, records};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// A bot that notes what it could open of its parent (croupier) in /proc, what it sees of the
/// seed, then plays the first legal action.
fn spy(dir: &Path) -> String {
    let out = dir.join("spy.txt");
    let body = format!(
        r#"p=$PPID
if ( exec 3< /proc/$p/mem ) 2>/dev/null; then echo "mem open" >> {o}; else echo "mem denied" >> {o}; fi
if ls /proc/$p/fd >/dev/null 2>&1; then echo "fd open" >> {o}; else echo "fd denied" >> {o}; fi
echo "env ${{CROUPIER_SEED:-unset}}" >> {o}
tr '\0' ' ' < /proc/$p/cmdline >> {o}; echo >> {o}
while read -r id cmd a b rest; do
  case "$cmd" in
    hello) echo "=$id spy 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) echo "=$id $rest" | cut -d' ' -f1,2 ;;
  esac
done"#,
        o = out.display()
    );
    let path = dir.join("spy.sh");
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

/// Runs `croupier play` with the spy in seat 0. As root the run drops to `nobody` (root may
/// read any process), so croupier and the bot are one ordinary user, as on a desktop.
fn run_spied(dir: &Path, seed_args: &[&str], env_seed: Option<&str>) -> (String, std::process::Output) {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let exe = env!("CARGO_BIN_EXE_croupier");
    let mut args: Vec<String> = vec![
        "play".into(),
        "rikken".into(),
        "--games".into(),
        "1".into(),
        "--quiet".into(),
    ];
    args.extend(seed_args.iter().map(|s| s.to_string()));
    args.extend(["--seat".into(), spy(dir)]);
    for _ in 0..3 {
        args.extend(["--seat".into(), "simple".into()]);
    }
    args.extend(["--log-dir".into(), dir.join("logs").display().to_string()]);
    args.extend(["--record".into(), dir.join("r.jsonl").display().to_string()]);
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let mut cmd = if root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", exe]);
        c
    } else {
        std::process::Command::new(exe)
    };
    cmd.args(&args);
    if let Some(s) = env_seed {
        cmd.env("CROUPIER_SEED", s);
    }
    let out = cmd.output().unwrap();
    let seen = std::fs::read_to_string(dir.join("spy.txt")).unwrap_or_default();
    (seen, out)
}

#[test]
fn a_bot_of_the_same_user_cannot_read_croupiers_memory_or_files() {
    if std::process::Command::new("setpriv").arg("--version").output().is_err() {
        eprintln!("skipped: setpriv (util-linux) is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (seen, out) = run_spied(dir.path(), &["--seed", "7"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(seen.contains("mem denied"), "{seen}");
    assert!(seen.contains("fd denied"), "{seen}");
}

#[test]
fn the_seed_can_stay_off_the_command_line() {
    if std::process::Command::new("setpriv").arg("--version").output().is_err() {
        eprintln!("skipped: setpriv (util-linux) is not installed");
        return;
    }
    // From a file: @FILE.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("seed");
    std::fs::write(&file, "31337\n").unwrap();
    let at = format!("@{}", file.display());
    let (seen, out) = run_spied(dir.path(), &["--seed", &at], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!seen.contains("31337"), "the bot saw the seed: {seen}");
    assert_eq!(records(&dir.path().join("r.jsonl"))[0]["seats"][0]["name"], "spy");
    let from_file = records(&dir.path().join("r.jsonl"))[0]["seed"].clone();
    // From the environment, which bots do not inherit; the same seed deals the same game.
    let dir2 = tempfile::tempdir().unwrap();
    let (seen, out) = run_spied(dir2.path(), &[], Some("31337"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(seen.contains("env unset") && !seen.contains("31337"), "{seen}");
    assert_eq!(records(&dir2.path().join("r.jsonl"))[0]["seed"], from_file);
    // And the same as --seed 31337 on the command line.
    let dir3 = tempfile::tempdir().unwrap();
    let rec = dir3.path().join("r.jsonl");
    croupier()
        .args([
            "play", "rikken", "--games", "1", "--quiet", "--seed", "31337", "--record",
        ])
        .arg(&rec)
        .arg("--log-dir")
        .arg(dir3.path())
        .assert()
        .success();
    assert_eq!(records(&rec)[0]["seed"], from_file);
    // A bad seed file is a usage error naming the file.
    std::fs::write(&file, "lots\n").unwrap();
    let out = croupier()
        .args(["play", "rikken", "--games", "1", "--seed", &at])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&file.display().to_string()));
}

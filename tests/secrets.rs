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

/// A bot that appends every `rngseed` it is told to `out`, then plays the first legal action.
fn seed_teller(dir: &Path, out: &Path) -> String {
    let body = format!(
        r#"while read -r id cmd a b rest; do
  case "$id" in
    rngseed) echo "$cmd" >> {o} ;;
  esac
  case "$cmd" in
    hello) echo "=$id teller 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) echo "=$id $rest" | cut -d' ' -f1,2 ;;
  esac
done"#,
        o = out.display()
    );
    let path = dir.join("teller.sh");
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

/// Plays 2 Rikken games with the seed teller in seat 0 and returns the rngseeds it was told
/// and the records' `bot_seed`s.
fn told_seeds(dir: &Path, extra: &[&str]) -> (Vec<String>, Vec<Option<String>>) {
    let out = dir.join("seeds.txt");
    let _ = std::fs::remove_file(&out);
    let rec = dir.join("seeds.jsonl");
    let _ = std::fs::remove_file(&rec);
    let bot = seed_teller(dir, &out);
    croupier()
        .args([
            "play", "rikken", "--games", "2", "--quiet", "--seed", "4242", "--seat", &bot,
        ])
        .args(["--seat", "random", "--seat", "random", "--seat", "random"])
        .args(["--log-dir", &dir.join("logs").display().to_string()])
        .args(["--record", &rec.display().to_string()])
        .args(extra)
        .assert()
        .success();
    let told = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let recorded = records(&rec)
        .iter()
        .map(|r| r.get("bot_seed").and_then(|s| s.as_str()).map(String::from))
        .collect();
    (told, recorded)
}

/// A process bot's rngseed is not a function of --seed (so it is no key to the deal): two runs
/// with the same --seed tell different rngseeds; each record keeps the bot seed, and giving it
/// back with --bot-seed tells the same rngseeds again. The deals stay those of --seed.
#[test]
fn a_process_bots_rngseed_is_no_key_to_the_deal() {
    let dir = tempfile::tempdir().unwrap();
    let (first, keys) = told_seeds(dir.path(), &[]);
    let (second, _) = told_seeds(dir.path(), &[]);
    assert_eq!(first.len(), 2, "one rngseed per game: {first:?}");
    assert_ne!(first, second, "the same --seed must not give the same rngseeds");
    let key = keys[0].clone().expect("the record names the bot seed");
    assert_eq!(keys, vec![Some(key.clone()); 2], "one bot seed for the run");
    let (again, keys_again) = told_seeds(dir.path(), &["--bot-seed", &key]);
    assert_eq!(again, first, "--bot-seed reproduces the rngseeds");
    assert_eq!(keys_again, keys);

    // Only built-in bots: nothing outside croupier sees a seed, and the record has no bot_seed.
    let rec = dir.path().join("builtin.jsonl");
    croupier()
        .args(["play", "rikken", "--games", "1", "--quiet", "--seed", "4242"])
        .args(["--record", &rec.display().to_string()])
        .assert()
        .success();
    assert!(records(&rec)[0].get("bot_seed").is_none());
}

/// `match --resume` goes on with the bot seed the record holds (one bot seed per run, so
/// `--bot-seed` reruns all of it), and refuses another one.
#[test]
fn a_resumed_match_keeps_its_bot_seed() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("m.jsonl");
    let bot = format!("{} bot random", env!("CARGO_BIN_EXE_croupier"));
    let run = |games: &str, extra: &[&str]| {
        let mut c = croupier();
        c.args([
            "match",
            "kul",
            "--players",
            "2",
            "--bot",
            &format!("p={bot}"),
            "--bot",
            "simple",
        ])
        .args(["--games", games, "--seed", "3", "--quiet", "--record"])
        .arg(&rec)
        .args(["--log-dir", &dir.path().join("logs").display().to_string()])
        .args(extra);
        c
    };
    run("4", &[]).assert().success();
    let first = records(&rec);
    let key = first[0]["bot_seed"].as_str().expect("a bot_seed").to_string();
    // Interrupted after the first deal: its two games are kept, the rest is played again.
    let text = std::fs::read_to_string(&rec).unwrap();
    let kept: String = text.split_inclusive('\n').take(2).collect();
    std::fs::write(&rec, kept).unwrap();
    run("4", &["--resume"]).assert().success();
    let all = records(&rec);
    assert_eq!(all.len(), 8, "4 deals, 2 seatings each");
    assert!(
        all.iter().all(|r| r["bot_seed"] == key.as_str()),
        "one bot seed for the run"
    );
    run("4", &["--resume", "--bot-seed", "12345"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--bot-seed 12345 differs from the bot seed"));
    assert_eq!(records(&rec).len(), 8, "nothing written");
}

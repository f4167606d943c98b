//! `--sandbox`: a bot that tries to get out (tests/support/escape_bot.py) is held in, the match
//! completes, and nothing it started outlives it, also when croupier is SIGKILLed. Skips, saying
//! why, where bubblewrap is missing or the kernel refuses its namespaces.

mod common;

use common::{croupier, records};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn exe() -> PathBuf {
    assert_cmd::cargo::cargo_bin("croupier")
}

/// Whether a sandbox can be made here; else why not (the test then skips).
fn sandbox_works() -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let out = croupier()
        .args([
            "play",
            "rikken",
            "--seat",
            "croupier bot random",
            "--seat",
            "random",
            "--seat",
            "random",
        ])
        .args(["--seat", "random", "--games", "1", "--quiet", "--sandbox", "--log-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    if out.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(said.contains("--sandbox"), "a refusal names --sandbox: {said}");
    Err(said)
}

/// Processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(marker) && !cmd.contains("escape_bot.py") {
                found.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// A listener on loopback that counts the connections it gets.
fn listener() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let c = count.clone();
    std::thread::spawn(move || {
        for s in l.incoming() {
            if s.is_ok() {
                c.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    (port, count)
}

/// The play command with seats 0 and 2 the escape bot (then `croupier bot simple`): two
/// sandboxed bots at one table, neither of which may see the other. Run in `dir`.
fn play(dir: &Path, port: u16, marker: &str, games: &str) -> Command {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/escape_bot.py");
    let record = dir.join("r.jsonl");
    let logs = dir.join("logs");
    // The escape bot is told croupier's pid: the command runs croupier itself, via exec.
    // A fork bomb only where each bot has a uid of its own (croupier as root): the limit on
    // processes counts a user's.
    // SAFETY: geteuid has no preconditions.
    let forks = if unsafe { libc::geteuid() } == 0 { 500 } else { 0 };
    let seat = format!(
        "python3 {} {port} PID {} {} {marker} {forks} {} bot simple",
        script.display(),
        record.display(),
        logs.display(),
        exe().display()
    );
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(format!(
            "exec \"$0\" play rikken --seat \"${{1//PID/$$}}\" --seat random --seat \"${{1//PID/$$}}\" --seat random \
             --games {games} --seed 3 --sandbox --record r.jsonl --log-dir logs --quiet"
        ))
        .arg(exe())
        .arg(seat)
        .current_dir(dir);
    cmd
}

/// The escape bot's report, from its stderr log.
fn report(dir: &Path) -> String {
    let mut text = String::new();
    for run in std::fs::read_dir(dir.join("logs")).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(run.path()).into_iter().flatten().flatten() {
            text += &std::fs::read_to_string(f.path()).unwrap_or_default();
        }
    }
    text
}

#[test]
fn a_bot_that_tries_to_get_out_is_held_in_and_the_match_completes() {
    if let Err(why) = sandbox_works() {
        eprintln!("skipped: {why}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (port, connections) = listener();
    let marker = format!("escape-marker-{}", std::process::id());
    let out = play(dir.path(), port, &marker, "2").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = report(dir.path());
    for name in [
        "network",
        "environ",
        "memory",
        "signal",
        "record",
        "logs",
        "write-cwd",
        "write-usr",
        "children",
    ] {
        assert!(said.contains(&format!("escape {name}: blocked")), "{name}: {said}");
    }
    assert!(!said.contains("OPEN"), "{said}");
    assert_eq!(
        connections.load(Ordering::SeqCst),
        0,
        "no connection reached the test's listener"
    );
    assert!(
        !dir.path().join(&marker).exists(),
        "nothing written into croupier's directory"
    );
    assert!(!Path::new("/usr").join(&marker).exists());
    assert_eq!(records(&dir.path().join("r.jsonl")).len(), 2);
    croupier()
        .arg("replay")
        .arg(dir.path().join("r.jsonl"))
        .assert()
        .success();
    assert!(processes_with(&marker).is_empty(), "{:?}", processes_with(&marker));
}

#[test]
fn nothing_a_sandboxed_bot_started_outlives_a_sigkilled_croupier() {
    if let Err(why) = sandbox_works() {
        eprintln!("skipped: {why}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (port, _) = listener();
    let marker = format!("escape-marker-k{}", std::process::id());
    let mut child = play(dir.path(), port, &marker, "100000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(60);
    while !report(dir.path()).contains("escape children:") || processes_with(&marker).is_empty() {
        assert!(
            Instant::now() < end,
            "the escape bot never got going: {}",
            report(dir.path())
        );
        std::thread::sleep(common::POLL);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let end = Instant::now() + Duration::from_secs(30);
    while !processes_with(&marker).is_empty() {
        assert!(Instant::now() < end, "left running: {:?}", processes_with(&marker));
        std::thread::sleep(common::POLL);
    }
}

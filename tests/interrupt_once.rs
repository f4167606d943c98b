//! One interrupt is one interrupt (issue 28, defect 5): `timeout -s INT` sends its signal to
//! croupier and again to its process group, croupier included, and croupier took the copy for
//! a second Ctrl-C ("again: stopping at once"). A second interrupt sent after croupier says it
//! is stopping still stops it at once.

mod common;
use common::{croupier, wait_for_lines};

use std::io::Read;
use std::process::{Command, Stdio};

fn exe() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("croupier")
}

fn sigint(pid: u32) {
    // SAFETY: kill has no memory-safety preconditions; the pid is a child of this test.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGINT) }, 0);
}

/// `timeout -s INT` stops a `compare` gracefully, once: its signal reaches croupier twice (to
/// the command, then to timeout's own process group) and is one interrupt. The signal is
/// timeout's own: the test sends SIGINT to `timeout` once the run is under way (a marker, not
/// a clock), and timeout passes it on just as when its time is up (the same code in coreutils:
/// to the command, then to its group). Several runs: before the fix, about one in three read
/// the copy as a second Ctrl-C and stopped at once.
#[test]
fn one_timeout_is_one_interrupt() {
    if Command::new("timeout").arg("--version").output().is_err() {
        eprintln!("skipped: no `timeout` command (coreutils) on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = format!("{} bot simple --seed 5", exe().display());
    for run in 0..12 {
        let rec = dir.path().join(format!("c{run}.jsonl"));
        let mut child = Command::new("timeout")
            .args(["-s", "INT", "600"])
            .arg(exe())
            // Identical bots and bounds around 0: no decision, the run goes on until stopped.
            .args([
                "compare",
                "rikken",
                "--candidate",
                &bot,
                "--baseline",
                &bot,
                "--sprt",
                "-1,1",
            ])
            .args(["--games", "1000000", "--seed", "1", "--quiet", "--log-dir"])
            .arg(dir.path())
            .arg("--record")
            .arg(&rec)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        assert!(wait_for_lines(&rec, 10, &mut child), "the run ended early");
        sigint(child.id());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("again: stopping at once"), "run {run}: {stderr}");
        assert!(stderr.contains("interrupted: no decision after"), "run {run}: {stderr}");
        // timeout exits with the command's code: croupier's for SIGINT.
        assert_eq!(out.status.code(), Some(130), "run {run}: {stderr}");
        // Whole records only, every one replayable.
        let text = std::fs::read_to_string(&rec).unwrap();
        assert!(text.ends_with('\n'), "run {run}: a torn last line");
        croupier().arg("replay").arg(&rec).assert().success();
    }
}

/// Two interrupts, the second sent after croupier says it is stopping (the test waits for that
/// line, not for a time): the second stops croupier at once, while a bot still thinks about
/// the game in play, which a graceful stop would wait for.
#[test]
fn a_second_interrupt_after_the_notice_stops_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let asked = dir.path().join("asked");
    // At its first `act` the bot notes it, then thinks (far longer than the test runs).
    let script = dir.path().join("thinker.sh");
    std::fs::write(
        &script,
        format!(
            r#"while read -r id cmd rest; do
  case "$cmd" in
    hello) echo "=$id thinker 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) touch {a}; sleep 600 ;;
  esac
done"#,
            a = asked.display()
        ),
    )
    .unwrap();
    let bot = format!("sh {}", script.display());
    let rec = dir.path().join("p.jsonl");
    let mut child = Command::new(exe())
        .args(["play", "rikken", "--seat", &bot, "--seat", "simple", "--seat", "simple"])
        .args(["--seat", "simple", "--games", "5", "--seed", "1", "--quiet"])
        .args(["--move-time", "300s", "--startup-time", "300s", "--log-dir"])
        .arg(dir.path())
        .arg("--record")
        .arg(&rec)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while !asked.exists() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    sigint(child.id());
    // Read croupier's stderr until it says it is stopping.
    let mut stderr = child.stderr.take().unwrap();
    let mut said = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&said).contains("finishing the games being played") {
        let n = stderr.read(&mut buf).unwrap();
        assert!(n > 0, "croupier ended: {}", String::from_utf8_lossy(&said));
        said.extend_from_slice(&buf[..n]);
    }
    sigint(child.id());
    stderr.read_to_end(&mut said).unwrap();
    let status = child.wait().unwrap();
    let said = String::from_utf8_lossy(&said);
    assert!(
        said.contains("croupier: interrupted (SIGINT) again: stopping at once"),
        "{said}"
    );
    assert_eq!(status.code(), Some(130), "{said}");
    // The game in play was not finished.
    assert_eq!(std::fs::read_to_string(&rec).unwrap_or_default(), "");
}

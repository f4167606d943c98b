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

/// Returns from the test, saying why, where no sandbox can be made here.
macro_rules! skip_without_sandbox {
    () => {
        if let Err(why) = sandbox_works() {
            eprintln!("skipped: {why}");
            return;
        }
    };
}

/// The control groups of the croupier run `pid` that are still there.
fn groups_left(pid: u32) -> Vec<PathBuf> {
    ["/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids"]
        .iter()
        .flat_map(|root| walk_dirs(Path::new(root)))
        .filter(|d| d.ends_with(format!("croupier-{pid}")))
        .collect()
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

/// [`listener`], and a word for the escape bot's children's command lines that is this test's
/// own (`tag`) and this process's.
fn listener_and_marker(tag: &str) -> (u16, Arc<AtomicUsize>, String) {
    let (port, count) = listener();
    (port, count, format!("escape-marker-{tag}{}", std::process::id()))
}

/// A listener on loopback that counts the connections it gets.
fn listener() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    (port, count_connections(l))
}

/// Serves `l` on a thread of its own, counting the connections it accepts.
fn count_connections(l: TcpListener) -> Arc<AtomicUsize> {
    let count = Arc::new(AtomicUsize::new(0));
    let c = count.clone();
    std::thread::spawn(move || {
        for s in l.incoming() {
            if s.is_ok() {
                c.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    count
}

/// Whether this test runs as root (then each sandboxed bot has a uid and control groups of its
/// own, and the fork bomb and the memory hog are tried: without root they count against the
/// user's own processes and each process's own address space).
fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The escape bot's command line (then `croupier bot simple`), with `PID` for croupier's pid:
/// it connects to `connect`, and `extra` adds to what it tries.
fn escape_seat(dir: &Path, connect: &[String], marker: &str, extra: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/escape_bot.py");
    let mut words = vec![
        "python3".to_string(),
        script.display().to_string(),
        "--connect".into(),
        connect.join(","),
        "--croupier".into(),
        "PID".into(),
        "--record".into(),
        dir.join("r.jsonl").display().to_string(),
        "--logs".into(),
        dir.join("logs").display().to_string(),
        "--marker".into(),
        marker.into(),
    ];
    words.extend(extra.iter().map(|w| w.to_string()));
    words.extend(["--".into(), exe().display().to_string(), "bot".into(), "simple".into()]);
    words.join(" ")
}

/// `croupier play rikken` (run through `prefix`, e.g. `ip netns exec NS`) with seats 0 and 2
/// `seat` (two bots at one table, neither of which may see the other), seats 1 and 3 random,
/// `flags` after. Run in `dir`, recording r.jsonl, logs in logs/. The escape bot is told
/// croupier's pid: bash puts its own there, and becomes croupier (exec).
fn play_with(dir: &Path, prefix: &[&str], seat: &str, games: &str, flags: &str) -> Command {
    let mut cmd = Command::new(prefix.first().copied().unwrap_or("bash"));
    if !prefix.is_empty() {
        cmd.args(&prefix[1..]).arg("bash");
    }
    cmd.arg("-c")
        .arg(format!(
            "exec \"$0\" play rikken --seat \"${{1//PID/$$}}\" --seat random --seat \"${{1//PID/$$}}\" --seat random \
             --games {games} --seed 3 --record r.jsonl --log-dir logs --quiet {flags}"
        ))
        .arg(exe())
        .arg(seat)
        .current_dir(dir);
    cmd
}

/// The sandboxed play command with the escape bot at seats 0 and 2, trying everything: a
/// fork bomb of 500 and (with `--bot-memory 256M`) three children of 128 MiB each, as root.
fn play(dir: &Path, port: u16, marker: &str, games: &str) -> Command {
    let extra: &[&str] = if root() {
        &["--forks", "500", "--hog", "134217728"]
    } else {
        &[]
    };
    let seat = escape_seat(dir, &[format!("127.0.0.1:{port}")], marker, extra);
    play_with(dir, &[], &seat, games, "--sandbox --bot-memory 256M")
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
    skip_without_sandbox!();
    let dir = tempfile::tempdir().unwrap();
    let (port, connections, marker) = listener_and_marker("");
    let out = play(dir.path(), port, &marker, "2").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = report(dir.path());
    let mut tried = vec![
        format!("network 127.0.0.1:{port}"),
        "processes".into(),
        "environ".into(),
        "memory".into(),
        "ptrace".into(),
        "signal".into(),
        "record".into(),
        "logs".into(),
        "write-cwd".into(),
        "write-usr".into(),
        "children".into(),
    ];
    if root() {
        tried.extend(["fork-bomb".into(), "memory-tree".into()]);
    }
    for name in tried {
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
    skip_without_sandbox!();
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
    let pid = child.id();
    child.kill().unwrap();
    child.wait().unwrap();
    let end = Instant::now() + Duration::from_secs(30);
    while !processes_with(&marker).is_empty() {
        assert!(Instant::now() < end, "left running: {:?}", processes_with(&marker));
        std::thread::sleep(common::POLL);
    }
    // The control groups a SIGKILLed run leaves go at the next sandboxed run once they are
    // empty (the kernel ends the namespaces' last processes on its own time: a group still
    // busy then is left for a later run), and so does its scratch root (a later run with its
    // pid would find it in the way).
    let scratch = std::env::temp_dir().join(format!("croupier-sandbox-{pid}"));
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        sandbox_works().unwrap();
        let left = groups_left(pid);
        if left.is_empty() && !scratch.exists() {
            break;
        }
        assert!(
            Instant::now() < end,
            "left: control groups {left:?}, scratch root there: {}",
            scratch.exists()
        );
        std::thread::sleep(common::POLL);
    }
}

/// The value of `count` once it has reached `n` (a connection is counted when the listener's
/// thread accepts it, which may be after the bot that made it has gone on): waits up to 30 s.
fn reached(count: &AtomicUsize, n: usize) -> usize {
    let end = Instant::now() + Duration::from_secs(30);
    while count.load(Ordering::SeqCst) < n && Instant::now() < end {
        std::thread::sleep(common::POLL);
    }
    count.load(Ordering::SeqCst)
}

/// A listener bound in network namespace `ns` of `pair` on `addr` (port 0: any), counting its
/// connections; its address.
fn listener_in(pair: &common::netns::NetnsPair, ns: &str, addr: &str) -> (String, Arc<AtomicUsize>) {
    let l = pair
        .run_in(ns, || TcpListener::bind(format!("{addr}:0")).unwrap())
        .unwrap();
    let at = l.local_addr().unwrap().to_string();
    (at, count_connections(l))
}

#[test]
fn a_sandboxed_bot_reaches_no_address_that_an_unsandboxed_one_reaches() {
    skip_without_sandbox!();
    // croupier on "machine" a, with a listener on its loopback and one on machine b's address
    // (a network namespace this test makes: no address off this machine).
    let pair = match common::netns::NetnsPair::create() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let (a, b) = (pair.a.clone(), pair.b.clone());
    let (local, local_count) = listener_in(&pair, &a, "127.0.0.1");
    let (remote, remote_count) = listener_in(&pair, &b, &pair.addr_b.to_string());
    let targets = [local.clone(), remote.clone()];
    let run = |flags: &str| {
        let dir = tempfile::tempdir().unwrap();
        let marker = format!("escape-marker-n{}", std::process::id());
        let seat = escape_seat(dir.path(), &targets, &marker, &["--only", "network"]);
        let out = play_with(dir.path(), &["ip", "netns", "exec", &a], &seat, "1", flags)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        report(dir.path())
    };
    // Without the sandbox both addresses are reached (the test can tell a blocked bot from
    // one that is not): two bots, each once.
    let said = run("");
    for t in &targets {
        assert_eq!(said.matches(&format!("escape network {t}: OPEN")).count(), 2, "{said}");
    }
    assert_eq!((reached(&local_count, 2), reached(&remote_count, 2)), (2, 2));
    let said = run("--sandbox");
    for t in &targets {
        assert_eq!(
            said.matches(&format!("escape network {t}: blocked")).count(),
            2,
            "{said}"
        );
    }
    assert_eq!(
        (local_count.load(Ordering::SeqCst), remote_count.load(Ordering::SeqCst)),
        (2, 2),
        "no sandboxed connection got through"
    );
}

/// A bot that answers `hello`, then at its first `act` holds 1 GiB (it never answers).
const HOG: &str = r#"
import sys
for line in sys.stdin:
    w = line.split()
    if len(w) > 1 and w[1] == "hello":
        print(f"={w[0]} hog 1", flush=True)
    elif len(w) > 1 and w[1] == "act":
        x = bytearray(1 << 30)
        for i in range(0, len(x), 4096):
            x[i] = 1
"#;

#[test]
fn a_bot_past_its_memory_limit_faults_naming_it_and_the_game_goes_on() {
    skip_without_sandbox!();
    if !root() {
        eprintln!("skipped: the limit of a bot's whole tree needs cgroups, which need root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hog.py"), HOG).unwrap();
    let hog = format!("python3 {}", dir.path().join("hog.py").display());
    let child = Command::new(exe())
        .current_dir(dir.path())
        .args(["play", "kul", "--seat", &hog, "--seat", "random", "--seat", "random"])
        .args(["--games", "1", "--seed", "5", "--sandbox", "--bot-memory", "128M"])
        .args(["--record", "r.jsonl", "--log-dir", "logs", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let recs = records(&dir.path().join("r.jsonl"));
    assert_eq!(recs.len(), 1, "the game was played to its end");
    let faults = recs[0]["faults"].as_array().unwrap();
    let crash = faults
        .iter()
        .find(|f| f["kind"] == "crash")
        .unwrap_or_else(|| panic!("{faults:?}"));
    let message = crash["message"].as_str().unwrap();
    assert!(
        message.contains("OOM killer") && message.contains("memory limit of 128M"),
        "{message}"
    );
    // The run's control groups are gone with it.
    let left = groups_left(pid);
    assert!(left.is_empty(), "control groups left: {left:?}");
}

/// The directories under `root`, two levels deep (where croupier's run groups are made).
fn walk_dirs(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut level = vec![root.to_path_buf()];
    for _ in 0..3 {
        let mut next = Vec::new();
        for d in &level {
            for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
                if e.path().is_dir() {
                    next.push(e.path());
                }
            }
        }
        found.extend(next.iter().cloned());
        level = next;
    }
    found
}

#[test]
fn a_trusted_bot_runs_outside_the_sandbox_and_the_others_in_it() {
    skip_without_sandbox!();
    let dir = tempfile::tempdir().unwrap();
    let (port, connections, marker) = listener_and_marker("t");
    let seat = escape_seat(
        dir.path(),
        &[format!("127.0.0.1:{port}")],
        &marker,
        &["--only", "network"],
    )
    .replace("--croupier PID ", "");
    // Seat 0 named `mine` and trusted; seat 2 a stranger.
    let out = Command::new("bash")
        .arg("-c")
        .arg(
            "exec \"$0\" play rikken --seat \"mine=$1\" --seat random --seat \"stranger=$1\" --seat random \
             --games 1 --seed 3 --log-dir logs --quiet --sandbox --trust mine",
        )
        .arg(exe())
        .arg(&seat)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = report(dir.path());
    let name = format!("escape network 127.0.0.1:{port}");
    assert_eq!(said.matches(&format!("{name}: OPEN")).count(), 1, "{said}");
    assert_eq!(said.matches(&format!("{name}: blocked")).count(), 1, "{said}");
    assert_eq!(reached(&connections, 1), 1);
    // A name that is no bot of the run is refused before anything starts.
    croupier()
        .current_dir(dir.path())
        .args([
            "play",
            "kul",
            "--seat",
            "random",
            "--seat",
            "random",
            "--sandbox",
            "--trust",
            "nobody",
            "--games",
            "1",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--trust nobody: no bot of this run is named nobody",
        ));
}

#[test]
fn check_ask_and_regress_run_their_bot_in_the_sandbox() {
    skip_without_sandbox!();
    let dir = tempfile::tempdir().unwrap();
    let (port, connections, marker) = listener_and_marker("c");
    croupier()
        .current_dir(dir.path())
        .args([
            "play", "kul", "--games", "1", "--seed", "7", "--record", "r.jsonl", "--quiet",
        ])
        .assert()
        .success();
    let seat = escape_seat(
        dir.path(),
        &[format!("127.0.0.1:{port}")],
        &marker,
        &["--only", "network,record"],
    )
    .replace("--croupier PID ", "");
    let suite = dir.path().join("s.suite");
    std::fs::write(&suite, "r.jsonl 1 1 expect recorded\n").unwrap();
    let runs: [&[&str]; 3] = [
        &["check", &seat, "--game", "kul", "--log-dir", "logs"],
        &["ask", "r.jsonl", "--action", "1", "--bot", &seat],
        &["regress", "s.suite", "--bot", &seat],
    ];
    for args in runs {
        let out = croupier()
            .current_dir(dir.path())
            .args(args)
            .arg("--sandbox")
            .output()
            .unwrap();
        assert!(
            out.status.success() || out.status.code() == Some(1),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let said = [report(dir.path()), logs_of(&dir.path().join("croupier-logs"))].concat();
    assert!(said.contains("escape record: blocked"), "{said}");
    assert!(!said.contains("OPEN"), "{said}");
    assert_eq!(connections.load(Ordering::SeqCst), 0);
}

/// Every file under `dir`, read.
fn logs_of(dir: &Path) -> String {
    let mut text = String::new();
    for e in walk_dirs(dir) {
        for f in std::fs::read_dir(e).into_iter().flatten().flatten() {
            if f.path().is_file() {
                text += &std::fs::read_to_string(f.path()).unwrap_or_default();
            }
        }
    }
    text
}

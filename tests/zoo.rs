//! The zoo (issue 13): bots that crash at random, hang, answer late, write garbage and invalid
//! UTF-8, send a 10 MB line, flood stderr with 100 MB, play illegal actions, answer with wrong
//! (future) ids, ignore `quit` and SIGTERM, leave setsid children behind, close their output,
//! stop reading their input. A match mixing them with a normal bot finishes with every game in
//! the record, every fault of the kind its bot earns, no referee panic, a record that replays,
//! and nothing of theirs left running: also when croupier is sent SIGTERM in the middle. After
//! a SIGKILL of croupier (which no program can follow) the bots themselves die too; what they
//! started is what protocol.md §2 says survives.

mod common;
use common::records;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The zoo's bots, `(name, body of the act case)`: each a small sh script around one loop
/// (`ok` answers the first legal action).
const ZOO: &[(&str, &str)] = &[
    // Crashes on every third decision.
    ("crashy", r#"n=$((n+1)); [ $((n % 3)) = 0 ] && exit 7; ok"#),
    // Hangs on every fourth decision.
    ("hangs", r#"n=$((n+1)); [ $((n % 4)) = 0 ] && sleep 30; ok"#),
    // Answers 50 ms after its 100 ms.
    ("late", r#"sleep 0.15; ok"#),
    ("garbage", r#"echo "thinking..."; ok"#),
    ("utf8", r#"printf '\377\376 not utf-8\n'; ok"#),
    // A 10 MB line at its second decision.
    (
        "bigline",
        r#"n=$((n+1)); [ $n = 2 ] && head -c 10000000 /dev/zero | tr '\0' x && echo; ok"#,
    ),
    // 100 MB to stderr at its first decision.
    (
        "stderr",
        r#"n=$((n+1)); [ $n = 1 ] && head -c 100000000 /dev/zero >&2; ok"#,
    ),
    // Answers with the id of a request that does not exist yet.
    ("wrongid", r#"echo "=$((id+7)) $first""#),
    ("illegal", r#"echo "=$id XX""#),
    // Starts a child in a session of its own at every decision.
    (
        "setsid",
        r#"setsid sh -c "sleep 300; : $0" </dev/null >/dev/null 2>&1 & ok"#,
    ),
    // Closes its standard output at its third decision and lives on.
    ("closer", r#"n=$((n+1)); [ $n = 3 ] && exec 1>&- && sleep 30; ok"#),
    // Answers once, then never reads its input again.
    ("deaf", r#"ok; sleep 30"#),
];

/// A zoo bot: answers hello, ignores `quit` and SIGTERM, runs its act case on each request.
fn zoo_bot(dir: &Path, name: &str, act: &str) -> String {
    let path = dir.join(format!("zoo-{name}.sh"));
    let body = format!(
        r#"trap '' TERM
n=0
ok() {{ echo "=$id $first"; }}
while read -r id cmd a b first rest; do
  case "$cmd" in
    hello) echo "=$id {name} 1" ;;
    act) {act} ;;
    quit) sleep 30 ;;
  esac
done
sleep 30
"#
    );
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

/// A Svängknack match of the zoo and `simple`, 13 seats, one round per game, 100 ms per move.
fn zoo_match(dir: &Path, rec: &Path, games: u32) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_croupier"));
    cmd.args([
        "match",
        "svangknack",
        "--players",
        "13",
        "--no-duplicate",
        "--seed",
        "13",
    ])
    .args([
        "--games",
        &games.to_string(),
        "--rule",
        "rounds=1",
        "--rule",
        "extra_rounds_cap=0",
    ])
    .args(["--move-time", "100ms", "--startup-time", "3s", "--quiet", "--record"])
    .arg(rec)
    .arg("--log-dir")
    .arg(dir.join("logs"))
    // Nothing of the bots' may hold the test's pipes: only croupier writes to them.
    .stdin(Stdio::null());
    for (name, act) in ZOO {
        cmd.args(["--bot", &format!("{name}={}", zoo_bot(dir, name, act))]);
    }
    cmd.args(["--bot", "simple"]);
    cmd
}

/// Processes whose command line names `dir` (every zoo bot and what it started does).
fn survivors(dir: &Path) -> Vec<(i32, String)> {
    let mut left = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if text.contains(&dir.display().to_string()) {
            left.push((pid, text));
        }
    }
    left
}

/// Waits up to 5 s for the zoo's processes to be gone (exits are not instant); returns what is
/// left.
fn survivors_after_a_moment(dir: &Path) -> Vec<(i32, String)> {
    let start = Instant::now();
    loop {
        let left = survivors(dir);
        if left.is_empty() || start.elapsed() > Duration::from_secs(5) {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn kinds_of(recs: &[Value], bot: &str) -> Vec<String> {
    let mut kinds = Vec::new();
    for r in recs {
        for f in r["faults"].as_array().unwrap() {
            let seat = f["seat"].as_u64().unwrap() as usize;
            if r["tags"]["bots"][seat] == bot {
                kinds.push(f["kind"].as_str().unwrap().to_string());
            }
        }
    }
    kinds
}

#[test]
fn a_match_of_the_zoo_finishes_with_every_game_and_fault_and_leaves_nothing_running() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("zoo.jsonl");
    let out = zoo_match(dir.path(), &rec, 3).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let recs = records(&rec);
    assert_eq!(recs.len(), 3, "every game is in the record");
    for (bot, kind) in [
        ("crashy", "crash"),
        ("hangs", "timeout"),
        ("late", "timeout"),
        ("garbage", "garbage"),
        ("utf8", "garbage"),
        ("bigline", "flood"),
        ("wrongid", "timeout"),
        ("illegal", "illegal"),
        ("closer", "crash"),
        ("deaf", "timeout"),
    ] {
        let kinds = kinds_of(&recs, bot);
        assert!(kinds.iter().any(|k| k == kind), "{bot}: {kinds:?}");
        assert!(
            // (A busy machine can make any of them slow: timeouts are the one other kind.)
            kinds
                .iter()
                .all(|k| [kind, "restart", "dead", "timeout"].contains(&k.as_str())),
            "{bot} earns {kind} faults only: {kinds:?}"
        );
    }
    // The 100 MB of stderr are cut at the log's 10 MiB; the setsid children are no fault (on a
    // busy machine writing 100 MB or forking can outlast the 100 ms of a move: a timeout).
    assert!(
        kinds_of(&recs, "simple").is_empty(),
        "simple: {:?}",
        kinds_of(&recs, "simple")
    );
    for bot in ["stderr", "setsid"] {
        let kinds = kinds_of(&recs, bot);
        assert!(kinds.iter().all(|k| k == "timeout"), "{bot}: {kinds:?}");
    }
    let logs: u64 = std::fs::read_dir(dir.path().join("logs"))
        .unwrap()
        .flatten()
        .flat_map(|run| std::fs::read_dir(run.path()).unwrap().flatten())
        .map(|f| f.metadata().unwrap().len())
        .sum();
    assert!(logs < 12 << 20, "stderr logs are capped: {logs} bytes");
    let replay = Command::new(env!("CARGO_BIN_EXE_croupier"))
        .arg("replay")
        .arg(&rec)
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    let left = survivors_after_a_moment(dir.path());
    assert!(left.is_empty(), "left running: {left:?}");
}

/// Starts a zoo match and sends croupier `signal` once its first game is recorded.
fn signalled_zoo(dir: &Path, signal: i32) -> (std::process::ExitStatus, Vec<String>) {
    let rec = dir.join("zoo.jsonl");
    let mut child = zoo_match(dir, &rec, 40)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::read_to_string(&rec).map_or(true, |t| t.lines().count() < 1) {
        assert!(start.elapsed() < Duration::from_secs(120), "no game recorded");
        assert!(child.try_wait().unwrap().is_none(), "croupier ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a signal to our own child.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let status = child.wait().unwrap();
    let lines = std::fs::read_to_string(&rec)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    (status, lines)
}

#[test]
fn sigterm_in_the_middle_of_a_zoo_match_leaves_whole_records_and_nothing_running() {
    let dir = tempfile::tempdir().unwrap();
    let (status, lines) = signalled_zoo(dir.path(), libc::SIGTERM);
    assert_eq!(status.code(), Some(143), "{status:?}");
    assert!(
        !lines.is_empty() && lines.len() < 40,
        "stopped midway: {} games",
        lines.len()
    );
    for l in &lines {
        let v: Value = serde_json::from_str(l).expect("a whole record");
        assert_eq!(v["format"], "croupier-record");
    }
    let left = survivors_after_a_moment(dir.path());
    assert!(left.is_empty(), "left running: {left:?}");
}

/// SIGKILL cannot be caught: croupier cannot quit its bots. Each bot dies with it (its
/// parent-death signal); what a bot started itself is not croupier's to end any more
/// (protocol.md §2), and the test ends it.
#[test]
fn after_a_sigkill_of_croupier_its_bots_die_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let (status, lines) = signalled_zoo(dir.path(), libc::SIGKILL);
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGKILL)
    );
    for l in &lines[..lines.len() - 1] {
        serde_json::from_str::<Value>(l).expect("every record but a torn last one is whole");
    }
    let left = survivors_after_a_moment(dir.path());
    let bot_command = format!("sh {}/zoo-", dir.path().display());
    let bots: Vec<_> = left
        .iter()
        .filter(|(_, cmd)| cmd.starts_with(&bot_command))
        .cloned()
        .collect();
    for (pid, _) in &left {
        // SAFETY: ending leftovers of this test.
        unsafe {
            libc::kill(*pid, libc::SIGKILL);
        }
    }
    assert!(bots.is_empty(), "bots outlived croupier: {bots:?}");
}

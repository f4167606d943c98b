//! Memory that does not grow with a run's length or a file's size (issue 12): a match makes its
//! deals as the tables take them and folds finished deals into its totals; `stats`, `replay`,
//! `show` and `match --resume` read record files a line at a time.
//!
//! Peak memory is the kernel's count for the child (`ru_maxrss` from `wait4`), compared between
//! a short and a long run of the same command, with generous margins: the growth these tests
//! catch is many times the margin. No test here measures time.
//!
//! A child's `ru_maxrss` starts from its parent's peak resident size when it was spawned
//! (Linux counts the memory the process had before `exec`): the tests in this file therefore
//! never hold much themselves (inputs are written and fed a line at a time), and [`measure`]
//! checks that this process stayed smaller than what it measures.

mod common;
use common::croupier;

use serde_json::Value;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// The binary under test as a plain `std::process::Command`.
fn exe() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("croupier"))
}

/// What a finished child left: exit code (`None` when a signal ended it), peak resident memory
/// in KiB, stdout and stderr.
struct Run {
    code: Option<i32>,
    max_rss_kib: i64,
    stdout: String,
    stderr: String,
}

/// What a test writes on a child's standard input.
type Feed = Box<dyn FnOnce(&mut dyn Write) + Send>;

/// This test process's peak resident memory in KiB (`VmHWM`: its own, while `ru_maxrss`
/// would also count the cargo process that started it).
fn own_max_rss_kib() -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Panics print their message only: a backtrace would load this binary's debug information,
/// tens of MiB that every later measurement would count (see above).
fn plain_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(|info| eprintln!("{info}"))));
}

// wait4 reaps the child (std's `wait` cannot report its memory).
#[allow(clippy::zombie_processes)]
fn measure(mut cmd: Command, input: Option<Feed>) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    cmd.stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() });
    let mut child = cmd.spawn().unwrap();
    let feeder = input.map(|write| {
        let mut stdin = std::io::BufWriter::new(child.stdin.take().unwrap());
        std::thread::spawn(move || write(&mut stdin))
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 writes both out-parameters.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our own child, not waited for yet; the pointers are to live locals.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4");
    if let Some(f) = feeder {
        f.join().unwrap();
    }
    let own = own_max_rss_kib();
    assert!(
        own < usage.ru_maxrss,
        "this test process ({own} KiB) must stay smaller than what it measures ({} KiB)",
        usage.ru_maxrss
    );
    Run {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        max_rss_kib: usage.ru_maxrss,
        stdout: std::fs::read_to_string(&out).unwrap(),
        stderr: std::fs::read_to_string(&err).unwrap(),
    }
}

/// A command whose address space is limited to `bytes`: a program that tries to hold what does
/// not fit fails there, instead of filling the machine.
fn limited(mut cmd: Command, bytes: u64) -> Command {
    // SAFETY: the closure only calls setrlimit, which is async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

const LIMIT: u64 = 512 << 20;

fn match_args(games: &str) -> Vec<String> {
    [
        "match",
        "rikken",
        "--bot",
        "a=random",
        "--bot",
        "b=random",
        "--no-duplicate",
        "--games",
        games,
        "--seed",
        "3",
        "--quiet",
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The numbers of a result, without the timings.
fn numbers(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    for b in v["bots"].as_array_mut().unwrap() {
        let o = b.as_object_mut().unwrap();
        o.remove("ms_per_decision");
        o.remove("max_ms");
    }
    v
}

#[test]
fn a_long_match_and_its_resume_hold_no_memory_per_deal() {
    plain_panics();
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let run = |games: &str, rec: &Path, resume: bool| {
        let mut c = exe();
        c.args(match_args(games))
            .arg("--log-dir")
            .arg(&logs)
            .arg("--record")
            .arg(rec);
        if resume {
            c.arg("--resume");
        }
        let r = measure(c, None);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        r
    };
    let (short, long) = (dir.path().join("short.jsonl"), dir.path().join("long.jsonl"));
    let (a, b) = (run("800", &short, false), run("8000", &long, false));
    assert_eq!(numbers(&b.stdout)["deals"], 8000);
    // Before: the deals' list and every deal's statistics were kept, ~1.2 KiB a deal (8.4 MiB).
    let grew = b.max_rss_kib - a.max_rss_kib;
    assert!(
        grew < 3 * 1024,
        "7200 more deals took {grew} KiB more ({} → {} KiB)",
        a.max_rss_kib,
        b.max_rss_kib
    );
    // Resuming a finished run reads its record (8000 games, ~20 MB) and plays nothing.
    let (ra, rb) = (run("800", &short, true), run("8000", &long, true));
    assert_eq!(numbers(&rb.stdout), numbers(&b.stdout), "the record's numbers");
    assert_eq!(numbers(&ra.stdout), numbers(&a.stdout));
    let size = std::fs::metadata(&long).unwrap().len() as i64 / 1024;
    let grew = rb.max_rss_kib - ra.max_rss_kib;
    // Before: the whole file and all its records were held, several times its size.
    assert!(
        grew < 3 * 1024,
        "resuming from {size} KiB of records instead of a tenth of them took {grew} KiB more"
    );
}

#[test]
fn a_match_of_a_trillion_deals_starts_at_once_and_stops_on_sigterm() {
    plain_panics();
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut c = exe();
    c.args(match_args("1000000000000"))
        .arg("--log-dir")
        .arg(dir.path())
        .arg("--record")
        .arg(&rec);
    // Before, the deals were listed before the first was played: far beyond this limit.
    let mut child = limited(c, LIMIT)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        let lines = std::fs::read_to_string(&rec).map(|t| t.lines().count()).unwrap_or(0);
        if lines >= 20 || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: kill has no memory-safety preconditions; the pid is our own child (a zombie at
    // worst, which kill accepts).
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    let written = std::fs::read_to_string(&rec).unwrap().lines().count();
    assert!(
        stderr.contains(&format!(
            "interrupted: {written} of 1000000000000 games recorded in {}",
            rec.display()
        )),
        "{stderr}"
    );
}

#[test]
fn compare_with_a_trillion_deals_at_most_stops_when_it_decides() {
    plain_panics();
    let dir = tempfile::tempdir().unwrap();
    let mut c = exe();
    c.args([
        "compare",
        "rikken",
        "--candidate",
        "simple",
        "--baseline",
        "random",
        "--games",
        "1000000000000",
        "--seed",
        "1",
        "--quiet",
        "--json",
        "--log-dir",
    ])
    .arg(dir.path());
    let r = measure(limited(c, LIMIT), None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["result"], "pass");
    assert!(v["deals"].as_u64().unwrap() < 1000, "{v}");
}

/// Writes a record file of `n` games made from the first line of `template`, a line at a
/// time: each a distinct deal (its own set and seed) when `distinct`, else the same game again
/// and again. A reader that stops early closes the pipe: that is its business, not an error.
fn many_games(template: &Path, n: usize, distinct: bool, out: &mut dyn Write) {
    let text = std::fs::read_to_string(template).unwrap();
    let mut first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    for i in 0..n {
        if distinct {
            first["seed"] = Value::from((1_000_000 + i).to_string());
            first["tags"]["set"] = Value::from(i);
        }
        let mut line = serde_json::to_vec(&first).unwrap();
        line.push(b'\n');
        if out.write_all(&line).is_err() {
            return;
        }
    }
    let _ = out.flush();
}

/// Counts the bytes written to it.
struct Counter(usize);

impl Write for Counter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0 += b.len();
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn one_record(dir: &Path) -> std::path::PathBuf {
    let rec = dir.join("one.jsonl");
    croupier()
        .args(match_args("1"))
        .arg("--log-dir")
        .arg(dir)
        .arg("--record")
        .arg(&rec)
        .assert()
        .success();
    rec
}

#[test]
fn stats_streams_standard_input_in_little_memory() {
    plain_panics();
    let dir = tempfile::tempdir().unwrap();
    let rec = one_record(dir.path());
    let run = |n: usize| {
        let mut c = exe();
        c.args(["stats", "--json", "-"]);
        let template = rec.clone();
        let r = measure(c, Some(Box::new(move |w| many_games(&template, n, true, w))));
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert_eq!(numbers(&r.stdout)["deals"], n);
        r.max_rss_kib
    };
    // The allocator (mimalloc) keeps freed pages for reuse: its footprint grows over the first
    // few thousand records to a plateau (~22 MiB for Rikken), flat from there. Both runs are
    // past that warm-up, so what differs is what the input itself costs.
    let (small, big) = (run(4000), run(16000));
    let mut counted = Counter(0);
    many_games(&rec, 12000, true, &mut counted);
    let size = counted.0 as i64 / 1024;
    // Before: the whole input and every record were held (~6 times the input).
    assert!(
        big - small < size / 3,
        "{size} KiB more input took {} KiB more ({small} → {big} KiB)",
        big - small
    );
}

#[test]
fn replay_and_show_read_a_record_file_a_line_at_a_time() {
    plain_panics();
    let dir = tempfile::tempdir().unwrap();
    let rec = one_record(dir.path());
    let file = |n: usize| {
        let p = dir.path().join(format!("{n}.jsonl"));
        let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
        many_games(&rec, n, false, &mut f);
        p
    };
    let (small, big) = (file(400), file(4000));
    let size = (std::fs::metadata(&big).unwrap().len() - std::fs::metadata(&small).unwrap().len()) as i64 / 1024;
    let run = |args: &[&str], p: &Path| {
        let mut c = exe();
        c.args(args).arg(p);
        let r = measure(c, None);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        r
    };
    let (a, b) = (run(&["replay"], &small), run(&["replay"], &big));
    assert!(b.stdout.contains("replayed 4000 game(s)"), "{}", b.stdout);
    let grew = b.max_rss_kib - a.max_rss_kib;
    assert!(grew < size / 3, "replay: {size} KiB more records took {grew} KiB more");
    let (a, b) = (
        run(&["show", "--index", "400"], &small),
        run(&["show", "--index", "4000"], &big),
    );
    assert_eq!(a.stdout, b.stdout, "the same game");
    let grew = b.max_rss_kib - a.max_rss_kib;
    assert!(grew < size / 3, "show: {size} KiB more records took {grew} KiB more");
}

#[test]
fn resume_refuses_a_record_that_holds_a_game_twice_naming_the_line() {
    plain_panics();
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let args = |c: &mut assert_cmd::Command| {
        c.args([
            "match",
            "kul",
            "--bot",
            "a=simple",
            "--bot",
            "b=random",
            "--games",
            "6",
            "--seed",
            "4",
            "--quiet",
            "--log-dir",
        ])
        .arg(dir.path())
        .arg("--record")
        .arg(&rec);
    };
    let mut c = croupier();
    args(&mut c);
    c.assert().success();
    // A file joined from two copies of a run: its games are in it twice. Before, resume
    // counted them twice in the result.
    let text = std::fs::read_to_string(&rec).unwrap();
    let lines = text.lines().count();
    std::fs::write(&rec, format!("{text}{text}")).unwrap();
    let mut c = croupier();
    args(&mut c);
    let out = c.arg("--resume").assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains(&format!(
            "{}:{}: deal 0 seating 'r0' is already in the file",
            rec.display(),
            lines + 1
        )),
        "{stderr}"
    );
}

//! Network seats on this machine's loopback: a `remote:NAME` seat played by `croupier connect`,
//! a `tcp://` seat played by `croupier serve-bot`, strangers without the secret (and the limit
//! on their attempts), a link at 50 ms round trip with 1 % loss and a link cut mid-game
//! (through an in-test relay, tests/common/netrelay.rs, standing in for `tc netem`), and a bot host in another network namespace where the machine
//! lets the test make one. Every wait has a deadline; no assertion depends on speed.

mod common;

use common::netrelay::{Relay, RelayOptions};
use common::{croupier, records};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn exe() -> PathBuf {
    assert_cmd::cargo::cargo_bin("croupier")
}

/// Waits (up to 60 s) until `cond` holds; panics saying `what` otherwise.
fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let end = Instant::now() + Duration::from_secs(60);
    while !cond() {
        assert!(Instant::now() < end, "gave up waiting for {what}");
        std::thread::sleep(common::POLL);
    }
}

/// Seats 1 to 3 (random) and the seeds of every game played here.
const OTHERS: [&str; 10] = [
    "--seat",
    "random",
    "--seat",
    "random",
    "--seat",
    "random",
    "--seed",
    "5",
    "--bot-seed",
    "9",
];

/// `croupier play rikken` with seat 0 remote:alice (three random seats), listening on a free
/// loopback port, keys and logs in `dir`; `extra` arguments added.
fn play(dir: &Path, extra: &[&str]) -> Child {
    Command::new(exe())
        .args(["play", "rikken", "--seat", "remote:alice"])
        .args(OTHERS)
        .args(["--listen", "127.0.0.1:0"])
        .arg("--keys")
        .arg(dir.join("keys"))
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .arg("--record")
        .arg(dir.join("r.jsonl"))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Seat alice's token, once the referee has written it.
fn token(dir: &Path) -> PathBuf {
    let t = dir.join("keys/alice.token");
    wait_until("the token file", || t.exists());
    t
}

/// The referee's network log, once it exists.
fn net_log(dir: &Path) -> String {
    let logs = dir.join("logs");
    std::fs::read_dir(&logs)
        .ok()
        .and_then(|mut d| d.next())
        .and_then(|e| std::fs::read_to_string(e.ok()?.path().join("network.log")).ok())
        .unwrap_or_default()
}

/// `croupier connect` with `token` (to `address` when given), running `bot`.
fn connect(token: &Path, address: Option<&str>, bot: &[&str], extra: &[&str]) -> Child {
    let mut c = Command::new(exe());
    c.arg("connect")
        .args(address)
        .arg("--token-file")
        .arg(token)
        .args(extra);
    c.arg("--")
        .args(bot)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn finish(child: Child) -> (Option<i32>, String, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The records without what differs from run to run (times, and the seat's spec).
fn games(path: &Path) -> Vec<Value> {
    records(path)
        .into_iter()
        .map(|mut r| {
            let o = r.as_object_mut().unwrap();
            o.remove("duration_ms");
            o.remove("seats");
            for a in o["actions"].as_array_mut().unwrap() {
                a.as_object_mut().unwrap().remove("ms");
            }
            r
        })
        .collect()
}

/// The times (ms) of seat `s`'s decisions in a record.
fn decisions(rec: &Value, s: u64) -> Vec<f64> {
    rec["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["seat"].as_u64() == Some(s))
        .filter_map(|a| a["ms"].as_f64())
        .collect()
}

#[test]
fn a_remote_seat_plays_and_its_record_replays() {
    let dir = tempfile::tempdir().unwrap();
    let transcripts = dir.path().join("t");
    let referee = play(
        dir.path(),
        &["--games", "3", "--transcript", transcripts.to_str().unwrap()],
    );
    let simple = exe().to_string_lossy().into_owned();
    let relay = connect(
        &token(dir.path()),
        None,
        &[&simple, "bot", "simple"],
        &["--retry-for", "3s"],
    );
    let (code, out, err) = finish(referee);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("listening on 127.0.0.1:") && err.contains("croupier connect --token-file"),
        "{err}"
    );
    assert!(out.contains("seat 0 simple"), "the remote bot's own name: {out}");
    let recs = records(&dir.path().join("r.jsonl"));
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[0]["seats"][0]["spec"], "remote:alice", "{}", recs[0]["seats"]);
    croupier()
        .arg("replay")
        .arg(dir.path().join("r.jsonl"))
        .assert()
        .success();
    // The seat's transcript is a local seat's: the lines both ways, seat 0 only.
    let files: Vec<String> = std::fs::read_dir(&transcripts)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files.len(), 3, "one per game of the process seat: {files:?}");
    assert!(files.iter().all(|f| f.contains("seat0")), "{files:?}");
    let first = std::fs::read_to_string(transcripts.join(&files[0])).unwrap();
    assert!(first.contains(" > ") && first.contains(" < "), "{first}");
    // The relay ends once the referee is gone, having played its link.
    let (code, _, err) = finish(relay);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("connected to 127.0.0.1:") && err.contains("link ended"),
        "{err}"
    );
    // The same games as a local `croupier bot simple` in that seat.
    let local = tempfile::tempdir().unwrap();
    let rec = local.path().join("r.jsonl");
    croupier()
        .args(["play", "rikken", "--seat", "croupier bot simple"])
        .args(OTHERS)
        .args(["--games", "3", "--quiet", "--log-dir"])
        .arg(local.path())
        .arg("--record")
        .arg(&rec)
        .assert()
        .success();
    assert_eq!(games(&rec), games(&dir.path().join("r.jsonl")));
}

#[test]
fn strangers_without_the_secret_get_nothing_and_a_held_seat_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let go = dir.path().join("go");
    let referee = play(dir.path(), &["--games", "2", "--startup-time", "60s"]);
    let token_path = token(dir.path());
    // The real bot waits for `go` before it starts: the seat is held meanwhile.
    let gated = format!(
        "while [ ! -e '{}' ]; do sleep 0.05; done; exec '{}' bot simple",
        go.display(),
        exe().display()
    );
    let relay = connect(&token_path, None, &["bash", "-c", &gated], &["--retry-for", "3s"]);
    wait_until("the relay to hold the seat", || {
        net_log(dir.path()).contains("seat alice: handed to its process")
    });
    // A stranger with the right certificate pin and the seat's name, but another secret.
    let text = std::fs::read_to_string(&token_path).unwrap();
    let mut forged: Value = serde_json::from_str(&text).unwrap();
    forged["secret"] = Value::String("ab".repeat(32));
    let forged_path = dir.path().join("forged.token");
    std::fs::write(&forged_path, forged.to_string()).unwrap();
    std::fs::set_permissions(&forged_path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let (code, _, err) = finish(connect(&forged_path, None, &["cat"], &["--retry-for", "1s"]));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("refused: not authorized"), "{err}");
    // The real token a second time, while the seat is held: refused, and says why.
    let (code, _, err) = finish(connect(&token_path, None, &["cat"], &["--retry-for", "1s"]));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("seat alice is taken"), "{err}");
    // Four more failed attempts from this address make five in a minute: the next connection
    // is closed at once, before any challenge.
    for _ in 0..4 {
        let (code, _, err) = finish(connect(&forged_path, None, &["cat"], &["--retry-for", "1s"]));
        assert!(code == Some(1) && err.contains("not authorized"), "{err}");
    }
    let (code, _, err) = finish(connect(&forged_path, None, &["cat"], &["--retry-for", "1s"]));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        !err.contains("not authorized") && err.contains("closed the connection"),
        "{err}"
    );
    // A token file others may read is refused before anything is sent.
    std::fs::set_permissions(&forged_path, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    let (code, _, err) = finish(connect(&forged_path, None, &["cat"], &[]));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("chmod 600"), "{err}");
    std::fs::write(&go, "").unwrap();
    let (code, _, err) = finish(referee);
    assert_eq!(code, Some(0), "{err}");
    let _ = finish(relay);
    let log = net_log(dir.path());
    assert!(log.contains("a wrong proof"), "the stranger is logged: {log}");
    assert!(log.contains("refused, the seat is taken"), "{log}");
    assert!(log.contains("turned away (too many failed attempts"), "{log}");
    // The match is the one it would have been: no fault, the stranger cost it nothing.
    let recs = records(&dir.path().join("r.jsonl"));
    assert_eq!(recs.len(), 2);
    assert!(
        recs.iter().all(|r| r["faults"].as_array().is_none_or(|f| f.is_empty())),
        "{recs:?}"
    );
}

#[test]
fn network_time_counts_against_the_bot_at_50_ms_round_trip_and_1_percent_loss() {
    let dir = tempfile::tempdir().unwrap();
    let referee = play(dir.path(), &["--games", "2", "--time", "60s+0s"]);
    let token_path = token(dir.path());
    let text = std::fs::read_to_string(&token_path).unwrap();
    let target: Value = serde_json::from_str(&text).unwrap();
    let relay = Relay::start(
        target["address"].as_str().unwrap().parse().unwrap(),
        RelayOptions {
            one_way_delay: Duration::from_millis(25),
            loss: 0.01,
            ..RelayOptions::default()
        },
    );
    let addr = relay.addr().to_string();
    let simple = exe().to_string_lossy().into_owned();
    let bot = connect(
        &token_path,
        Some(&addr),
        &[&simple, "bot", "simple"],
        &["--retry-for", "3s"],
    );
    let (code, _, err) = finish(referee);
    assert_eq!(code, Some(0), "{err}");
    let _ = finish(bot);
    for rec in records(&dir.path().join("r.jsonl")) {
        let remote = decisions(&rec, 0);
        assert!(!remote.is_empty());
        // Each decision's time is the referee's: the round trip is in it.
        assert!(
            remote.iter().all(|&ms| ms >= 50.0),
            "remote decisions at 50 ms round trip: {remote:?}"
        );
        assert!(
            rec["faults"].as_array().is_none_or(|f| f.is_empty()),
            "{}",
            rec["faults"]
        );
    }
    // With less time for a decision than the round trip, every remote decision times out.
    let dir = tempfile::tempdir().unwrap();
    let referee = play(dir.path(), &["--games", "1", "--move-time", "30ms"]);
    let token_path = token(dir.path());
    let text = std::fs::read_to_string(&token_path).unwrap();
    let target: Value = serde_json::from_str(&text).unwrap();
    let relay = Relay::start(
        target["address"].as_str().unwrap().parse().unwrap(),
        RelayOptions {
            one_way_delay: Duration::from_millis(25),
            ..RelayOptions::default()
        },
    );
    let addr = relay.addr().to_string();
    let bot = connect(
        &token_path,
        Some(&addr),
        &[&simple, "bot", "simple"],
        &["--retry-for", "3s"],
    );
    let (code, _, err) = finish(referee);
    assert_eq!(code, Some(0), "{err}");
    let _ = finish(bot);
    let rec = &records(&dir.path().join("r.jsonl"))[0];
    let faults = rec["faults"].as_array().unwrap();
    assert!(
        !faults.is_empty() && faults.iter().all(|f| f["seat"] == 0),
        "{faults:?}"
    );
    assert!(faults.iter().any(|f| f["kind"] == "timeout"), "{faults:?}");
}

#[test]
fn a_cut_link_is_a_crash_and_the_reconnect_restarts_the_seat() {
    let dir = tempfile::tempdir().unwrap();
    let referee = play(dir.path(), &["--games", "3", "--startup-time", "30s"]);
    let token_path = token(dir.path());
    let text = std::fs::read_to_string(&token_path).unwrap();
    let target: Value = serde_json::from_str(&text).unwrap();
    let relay = Relay::start(
        target["address"].as_str().unwrap().parse().unwrap(),
        RelayOptions::default(),
    );
    // Cut once the referee has sent about a game's worth of lines (mid-match).
    relay.cut_after_bytes_down(3000);
    let addr = relay.addr().to_string();
    let simple = exe().to_string_lossy().into_owned();
    let bot = connect(
        &token_path,
        Some(&addr),
        &[&simple, "bot", "simple"],
        &["--retry-for", "5s"],
    );
    let (code, _, err) = finish(referee);
    assert_eq!(code, Some(0), "{err}");
    let (_, _, relay_err) = finish(bot);
    assert!(relay.connections() >= 2, "the relay connected again: {relay_err}");
    let recs = records(&dir.path().join("r.jsonl"));
    assert_eq!(recs.len(), 3);
    let faults: Vec<&Value> = recs
        .iter()
        .flat_map(|r| r["faults"].as_array().unwrap().iter())
        .collect();
    assert!(
        faults.iter().any(|f| f["seat"] == 0 && f["kind"] == "crash"),
        "the cut is a crash of seat 0: {faults:?}"
    );
    let crash = faults.iter().find(|f| f["kind"] == "crash").unwrap();
    let said = crash.to_string();
    assert!(said.contains("remote:alice") || said.contains("link"), "{said}");
    croupier()
        .arg("replay")
        .arg(dir.path().join("r.jsonl"))
        .assert()
        .success();
    // The seat was played by its bot again after the reconnect: its later decisions are its own.
    let last = recs.last().unwrap();
    assert!(
        last["faults"].as_array().unwrap().is_empty(),
        "the last game is clean: {}",
        last["faults"]
    );
}

/// `croupier serve-bot` of `croupier bot simple` run by `cmd` (the binary, or it in a
/// namespace) on `listen`, its keys in `dir`: the host and the `tcp://` seat it serves.
fn serve_bot(mut cmd: Command, listen: &str, dir: &Path) -> (Child, String) {
    let mut host = cmd
        .args(["serve-bot", "--listen", listen, "--keys"])
        .arg(dir.join("host-keys"))
        .arg("--")
        .arg(exe())
        .args(["bot", "simple"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(host.stdout.take().unwrap());
    let mut facts = std::collections::HashMap::new();
    for _ in 0..3 {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut out, &mut line).unwrap();
        let (k, v) = line.trim().split_once(' ').unwrap();
        facts.insert(k.to_string(), v.to_string());
    }
    let seat = format!("tcp://{}?token={}", facts["listening"], facts["token"]);
    (host, seat)
}

#[test]
fn a_tcp_seat_plays_against_a_bot_host() {
    let dir = tempfile::tempdir().unwrap();
    let (mut host, seat) = serve_bot(Command::new(exe()), "127.0.0.1:0", dir.path());
    let rec = dir.path().join("r.jsonl");
    croupier()
        .args([
            "play", "rikken", "--seat", &seat, "--seat", "random", "--seat", &seat, "--seat", "random",
        ])
        .args(["--games", "2", "--seed", "3", "--quiet", "--log-dir"])
        .arg(dir.path().join("logs"))
        .arg("--record")
        .arg(&rec)
        .assert()
        .success();
    let recs = records(&rec);
    assert_eq!(recs[0]["seats"][2]["spec"], seat.as_str());
    assert!(recs.iter().all(|r| r["faults"].as_array().unwrap().is_empty()));
    croupier().arg("replay").arg(&rec).assert().success();
    // `check` speaks to a bot host as to any bot.
    croupier().args(["check", &seat, "--game", "rikken"]).assert().success();
    let _ = host.kill();
    let _ = host.wait();
}

#[test]
fn a_bot_host_in_another_network_namespace() {
    let pair = match common::netns::NetnsPair::create() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut host, seat) = serve_bot(pair.command(&pair.b, exe()), &format!("{}:0", pair.addr_b), dir.path());
    let rec = dir.path().join("r.jsonl");
    let status = pair
        .command(&pair.a, exe())
        .args([
            "play", "rikken", "--seat", &seat, "--seat", "random", "--seat", "random", "--seat", "random",
        ])
        .args(["--games", "2", "--seed", "3", "--quiet", "--log-dir"])
        .arg(dir.path().join("logs"))
        .arg("--record")
        .arg(&rec)
        .status()
        .unwrap();
    let _ = host.kill();
    let _ = host.wait();
    assert!(status.success());
    let recs = records(&rec);
    assert_eq!(recs.len(), 2);
    assert!(recs.iter().all(|r| r["faults"].as_array().unwrap().is_empty()));
}

//! Links on loopback: a bot host (`serve`) running `cat`, reached with its token, a wrong
//! secret, a wrong pin; and the hub's rule of one link per seat.

use croupier_net::dial::dial;
use croupier_net::keys::Token;
use croupier_net::relay::{serve, Serve};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// A bot host running `cat` on a free port: its address and its token.
fn cat_host(dir: &std::path::Path, max_bots: usize) -> (SocketAddr, PathBuf) {
    let (tx, rx) = mpsc::channel();
    let s = Serve {
        listen: "127.0.0.1:0".into(),
        keys: dir.join("keys"),
        argv: vec!["cat".into()],
        max_bots,
        log: Some(dir.join("net.log")),
    };
    std::thread::spawn(move || {
        let ready = move |a: SocketAddr, _: &str, p: &std::path::Path| tx.send((a, p.to_path_buf())).unwrap();
        serve(s, &ready, Arc::new(|_: &str| {})).unwrap();
    });
    rx.recv_timeout(Duration::from_secs(30)).unwrap()
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(20)
}

#[test]
fn a_token_opens_a_link_that_carries_lines_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, path) = cat_host(dir.path(), 4);
    let token = Token::read(&path).unwrap();
    let mut link = dial(&addr.to_string(), &token, soon()).unwrap();
    for line in ["1 hello 1", "2 play", &"x".repeat(100_000)] {
        link.write_line(line).unwrap();
        assert_eq!(link.read_line_up_to(soon(), 200_000).unwrap(), line);
    }
}

#[test]
fn a_wrong_secret_or_a_wrong_pin_gets_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, path) = cat_host(dir.path(), 4);
    let token = Token::read(&path).unwrap();
    // Another secret, the right pin: refused with the words every stranger gets.
    let forged = Token::generate(&token.name, &token.address, &token.fingerprint).unwrap();
    let err = dial(&addr.to_string(), &forged, soon()).map(|_| ()).unwrap_err();
    assert!(err.contains("refused: not authorized"), "{err}");
    // An unknown seat name: the same words.
    let other = Token::generate("mallory", &token.address, &token.fingerprint).unwrap();
    let err2 = dial(&addr.to_string(), &other, soon()).map(|_| ()).unwrap_err();
    assert!(err2.contains("refused: not authorized"), "{err2}");
    // Another pin: the client stops at the certificate, before it proves anything.
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    json["fingerprint"] = serde_json::Value::String("0".repeat(64));
    let pinned = dir.path().join("pinned.token");
    croupier_net::keys::write_private(&pinned, json.to_string().as_bytes()).unwrap();
    let err = dial(&addr.to_string(), &Token::read(&pinned).unwrap(), soon())
        .map(|_| ())
        .unwrap_err();
    assert!(err.contains("not the pinned"), "{err}");
    // The failures are logged; the host still serves the right token. (It logs a refusal
    // after sending it, so on a loaded machine the log may trail the client's error: read it
    // until both lines are there or the deadline passes.)
    let read_log = || std::fs::read_to_string(dir.path().join("net.log")).unwrap_or_default();
    let logged = |log: &str| log.contains("a wrong proof") && log.contains("no seat 'mallory'");
    let deadline = soon();
    while !logged(&read_log()) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let log = read_log();
    assert!(logged(&log), "{log}");
    let mut link = dial(&addr.to_string(), &token, soon()).unwrap();
    link.write_line("still here").unwrap();
    assert_eq!(link.read_line(soon()).unwrap(), "still here");
}

#[test]
fn a_busy_host_refuses_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, path) = cat_host(dir.path(), 1);
    let token = Token::read(&path).unwrap();
    let mut first = dial(&addr.to_string(), &token, soon()).unwrap();
    first.write_line("a").unwrap();
    assert_eq!(first.read_line(soon()).unwrap(), "a");
    let err = dial(&addr.to_string(), &token, soon()).map(|_| ()).unwrap_err();
    assert!(err.contains("busy"), "{err}");
}

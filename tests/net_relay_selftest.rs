//! The test support for the network seats does what it says: the relay of tests/common/netrelay.rs
//! forwards bytes intact, delays them, "loses" them and cuts connections; the namespace pair of
//! tests/common/netns.rs gives two namespaces a working link. Timings are checked only from
//! below (a loaded machine makes things slower, never faster), every blocking read has a
//! timeout, and deadlines are generous.

mod common;

use common::netns::NetnsPair;
use common::netrelay::{Relay, RelayOptions};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// The read timeout of every client socket: far above anything the relay should take.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Starts an echo server on 127.0.0.1:0 (a thread per connection, each sending back what it
/// reads until the end of the stream); returns its address. Its threads end with the test
/// binary (or after a minute without traffic).
fn echo_server() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            std::thread::spawn(move || {
                conn.set_nodelay(true).unwrap();
                conn.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
                let mut buf = vec![0u8; 32 << 10];
                loop {
                    match conn.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => {
                            if conn.write_all(&buf[..n]).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        }
    });
    addr
}

/// A client connection to `addr` with TCP_NODELAY and [`READ_TIMEOUT`].
fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_nodelay(true).unwrap();
    s.set_read_timeout(Some(READ_TIMEOUT)).unwrap();
    s.set_write_timeout(Some(READ_TIMEOUT)).unwrap();
    s
}

/// Sends one byte and waits for it to come back; returns the round trip.
fn ping(s: &mut TcpStream, byte: u8) -> Duration {
    let t = Instant::now();
    s.write_all(&[byte]).unwrap();
    let mut b = [0u8; 1];
    s.read_exact(&mut b).expect("the echo within the read timeout");
    assert_eq!(b[0], byte);
    t.elapsed()
}

/// Reads until the end of the stream or an error; returns what came and whether it ended by
/// itself (false = the read timed out).
fn read_to_end_or_error(s: &mut TcpStream) -> (Vec<u8>, bool) {
    let mut got = Vec::new();
    let mut buf = vec![0u8; 32 << 10];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return (got, true),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => return (got, false),
            Err(_) => return (got, true),
        }
    }
}

/// Bytes that are not all alike, so a reordering or a loss would show.
fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
}

/// (a) A megabyte goes through and comes back equal, and the counters saw it both ways.
#[test]
fn bytes_pass_both_ways_intact() {
    let relay = Relay::start(echo_server(), RelayOptions::default());
    let mut c = connect(relay.addr());
    let data = pattern(1 << 20);
    let mut w = c.try_clone().unwrap();
    let sent = data.clone();
    // Write from another thread while this one reads, so neither side's buffers fill up.
    let writer = std::thread::spawn(move || w.write_all(&sent).unwrap());
    let mut got = vec![0u8; data.len()];
    c.read_exact(&mut got)
        .expect("the whole megabyte back within the read timeout");
    writer.join().unwrap();
    assert!(got == data, "the echoed bytes differ from those sent");
    assert_eq!(relay.connections(), 1);
    assert_eq!(relay.bytes_up(), data.len() as u64);
    assert_eq!(relay.bytes_down(), data.len() as u64);
}

/// The end of the stream passes through: a client that half-closes gets the rest and then EOF.
#[test]
fn half_close_passes_through() {
    let relay = Relay::start(
        echo_server(),
        RelayOptions {
            one_way_delay: Duration::from_millis(10),
            ..RelayOptions::default()
        },
    );
    let mut c = connect(relay.addr());
    c.write_all(b"hello").unwrap();
    c.shutdown(std::net::Shutdown::Write).unwrap();
    let (got, ended) = read_to_end_or_error(&mut c);
    assert!(ended, "no EOF within {READ_TIMEOUT:?}");
    assert_eq!(got, b"hello");
}

/// (b) With a one-way delay of 25 ms, each round trip takes at least 50 ms; bytes sent in a
/// burst keep their order.
#[test]
fn delay_adds_to_each_direction() {
    let delay = Duration::from_millis(25);
    let relay = Relay::start(
        echo_server(),
        RelayOptions {
            one_way_delay: delay,
            ..RelayOptions::default()
        },
    );
    let mut c = connect(relay.addr());
    for i in 0..5 {
        let rtt = ping(&mut c, i);
        assert!(
            rtt >= 2 * delay,
            "round trip {i} took {rtt:?}, less than {:?}",
            2 * delay
        );
    }
    // Many small writes in a row: the delays overlap (they are not served one after another)
    // and the order is kept.
    let data = pattern(2000);
    for chunk in data.chunks(100) {
        c.write_all(chunk).unwrap();
    }
    let mut got = vec![0u8; data.len()];
    c.read_exact(&mut got).expect("the burst back within the read timeout");
    assert!(got == data, "the burst came back out of order or changed");
}

/// (c) `cut()` ends the open connection: the client's next read sees EOF or an error (not the
/// read timeout); a new connection afterwards is forwarded as before.
#[test]
fn cut_ends_open_connections_and_new_ones_still_work() {
    let relay = Relay::start(echo_server(), RelayOptions::default());
    let mut c = connect(relay.addr());
    ping(&mut c, 1);
    relay.cut();
    let t = Instant::now();
    let (got, ended) = read_to_end_or_error(&mut c);
    assert!(ended, "the cut connection was still open after {:?}", t.elapsed());
    assert!(got.is_empty(), "bytes after the cut: {got:?}");

    let mut c2 = connect(relay.addr());
    ping(&mut c2, 2);
    assert_eq!(relay.connections(), 2);
}

/// (d) `cut_after_bytes_down(n)` delivers exactly `n` bytes down, then cuts; the trigger fires
/// once, so the next connection is left alone.
#[test]
fn cut_after_bytes_down_cuts_there() {
    let n = 10_000u64;
    let relay = Relay::start(echo_server(), RelayOptions::default());
    relay.cut_after_bytes_down(n);
    let mut c = connect(relay.addr());
    let data = pattern(100_000);
    let mut w = c.try_clone().unwrap();
    let sent = data.clone();
    // The writes fail once the connection is cut; that is expected.
    let writer = std::thread::spawn(move || {
        let _ = w.write_all(&sent);
    });
    let (got, ended) = read_to_end_or_error(&mut c);
    assert!(ended, "no cut within {READ_TIMEOUT:?}; {} bytes came", got.len());
    assert_eq!(got.len() as u64, n, "bytes that came down before the cut");
    assert!(
        got[..] == data[..n as usize],
        "the bytes before the cut differ from those sent"
    );
    assert_eq!(relay.bytes_down(), n);
    drop(c);
    writer.join().unwrap();

    let mut c2 = connect(relay.addr());
    for i in 0..3 {
        ping(&mut c2, i);
    }
    assert_eq!(relay.bytes_down(), n + 3);
}

/// (e) With loss 1.0 every chunk is "lost": each arrives at least `loss_penalty` late, so a
/// round trip takes at least twice the penalty (plus twice the delay).
#[test]
fn loss_one_delays_every_chunk_by_the_penalty() {
    let penalty = Duration::from_millis(60);
    let delay = Duration::from_millis(5);
    let relay = Relay::start(
        echo_server(),
        RelayOptions {
            one_way_delay: delay,
            loss: 1.0,
            loss_penalty: penalty,
            seed: 7,
        },
    );
    let mut c = connect(relay.addr());
    for i in 0..3 {
        let rtt = ping(&mut c, i);
        let least = 2 * (penalty + delay);
        assert!(rtt >= least, "round trip {i} took {rtt:?}, less than {least:?}");
    }
    // And the bytes are still all there, in order.
    let data = pattern(50_000);
    let mut w = c.try_clone().unwrap();
    let sent = data.clone();
    let writer = std::thread::spawn(move || w.write_all(&sent).unwrap());
    let mut got = vec![0u8; data.len()];
    c.read_exact(&mut got).expect("the bytes back within the read timeout");
    writer.join().unwrap();
    assert!(got == data, "bytes lost or reordered");
}

/// Dropping the relay with a connection open ends that connection and returns (it joins its
/// threads, so a thread blocked for good would hang this test).
#[test]
fn drop_cuts_connections_and_returns() {
    let relay = Relay::start(
        echo_server(),
        RelayOptions {
            one_way_delay: Duration::from_millis(20),
            ..RelayOptions::default()
        },
    );
    let mut c = connect(relay.addr());
    ping(&mut c, 9);
    // Bytes still queued in the relay when it goes.
    c.write_all(b"in flight").unwrap();
    drop(relay);
    let (_, ended) = read_to_end_or_error(&mut c);
    assert!(ended, "the connection outlived the relay");
}

/// (f) Two namespaces joined by a veth pair reach each other: `ping` from `a` to `b` where
/// there is a ping, and a TCP connection from `a` (made by bash, run with `command`) to a
/// listener in `b` (made with `run_in`) that carries a line.
#[test]
fn netns_pair_links_two_namespaces() {
    let pair = match NetnsPair::create() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let has = |prog: &str| {
        std::process::Command::new("sh")
            .args(["-c", &format!("command -v {prog}")])
            .stdout(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if has("ping") {
        let out = pair
            .command(&pair.a, "ping")
            .args(["-c1", "-W2", &pair.addr_b.to_string()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "ping {} from {}: {}{}",
            pair.addr_b,
            pair.a,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    let listener = pair
        .run_in(&pair.b, || TcpListener::bind((pair.addr_b, 0)))
        .unwrap()
        .expect("a listener on b's address inside b");
    let port = listener.local_addr().unwrap().port();
    let line = "hello-from-a";
    std::thread::scope(|scope| {
        // From a: bash's /dev/tcp run with `command`, or std's connect in `run_in` without bash.
        let connector = scope.spawn(|| {
            if has("bash") {
                let out = pair
                    .command(&pair.a, "bash")
                    .args([
                        "-c",
                        &format!("exec 3<>/dev/tcp/{}/{port} && echo {line} >&3", pair.addr_b),
                    ])
                    .output()
                    .unwrap();
                assert!(out.status.success(), "bash: {}", String::from_utf8_lossy(&out.stderr));
            } else {
                pair.run_in(&pair.a, || {
                    let to = SocketAddr::from((pair.addr_b, port));
                    let mut s = TcpStream::connect_timeout(&to, READ_TIMEOUT).unwrap();
                    writeln!(s, "{line}").unwrap();
                })
                .unwrap();
            }
        });

        // Accept with a deadline (a non-blocking listener polled every 20 ms).
        listener.set_nonblocking(true).unwrap();
        let deadline = Instant::now() + READ_TIMEOUT;
        let mut conn = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                Err(e) => panic!("no connection from {} within {READ_TIMEOUT:?}: {e}", pair.a),
            }
        };
        conn.set_nonblocking(false).unwrap();
        conn.set_read_timeout(Some(READ_TIMEOUT)).unwrap();
        let (got, ended) = read_to_end_or_error(&mut conn);
        assert!(ended, "the connection from {} did not end", pair.a);
        assert_eq!(String::from_utf8_lossy(&got), format!("{line}\n"));
        connector.join().unwrap();
    });
}

//! The knock: before any TLS, the connecting end proves in the clear that it holds a seat's
//! secret, so that a stranger is turned away before it costs a TLS handshake, and so that the
//! listener knows which seat a connection is for (the referee's hub hands the connection to
//! that seat's process, which does the TLS).
//!
//! The listener sends `croupier-link 1 challenge NONCE` (32 fresh random bytes in hex); the
//! connecting end answers `croupier-link 1 knock NAME PROOF`, PROOF being
//! HMAC-SHA256(secret, "knock" 0 NAME 0 nonce) in hex; the listener answers
//! `croupier-link 1 tls` (TLS begins, the connecting end as its client) or
//! `croupier-link 1 refused REASON` and closes. The knock proves the secret only to route and to
//! filter: someone on the path could pass it on, which is why the link's own proof
//! ([`crate::auth`]) is made again inside TLS and bound to its session.

use crate::auth::{check_claim, clip, hex, proof, unhex, NOT_AUTHORIZED, PREFIX};
use crate::keys::SECRET_BYTES;
use ring::rand::{SecureRandom, SystemRandom};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// The longest line of the knock.
const MAX_LINE: usize = 256;

/// Reads one line, a byte at a time (what follows it, TLS, stays in the socket), by `deadline`.
fn read_line(sock: &mut TcpStream, deadline: Instant) -> Result<String, String> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err("no answer in time".to_string());
        }
        let _ = sock.set_read_timeout(Some(left));
        match sock.read(&mut byte) {
            Ok(0) => return Err("the other end closed the connection".to_string()),
            Ok(_) if byte[0] == b'\n' => break,
            Ok(_) if line.len() >= MAX_LINE => return Err("a line too long".to_string()),
            Ok(_) => line.push(byte[0]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return Err("no answer in time".to_string())
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    let _ = sock.set_read_timeout(None);
    Ok(String::from_utf8_lossy(&line).trim_end_matches('\r').to_string())
}

fn write_line(sock: &mut TcpStream, line: &str) -> Result<(), String> {
    sock.write_all(format!("{line}\n").as_bytes())
        .map_err(|e| e.to_string())
}

/// The connecting end: answers the listener's challenge for seat `name` and waits for its
/// word. Ok when TLS may begin; the error says what the listener answered.
pub fn knock(sock: &mut TcpStream, name: &str, secret: &[u8; SECRET_BYTES], deadline: Instant) -> Result<(), String> {
    let line = read_line(sock, deadline)?;
    let nonce = line
        .strip_prefix(PREFIX)
        .and_then(|r| r.trim_start().strip_prefix("challenge "))
        .and_then(|n| unhex(n.trim()))
        .ok_or_else(|| format!("the other end is not a croupier link (it said '{}')", clip(&line)))?;
    write_line(
        sock,
        &format!("{PREFIX} knock {name} {}", proof(secret, "knock", name, &nonce)),
    )?;
    let word = read_line(sock, deadline)?;
    match word.strip_prefix(PREFIX).map(str::trim_start) {
        Some("tls") => Ok(()),
        Some(r) if r.starts_with("refused") => Err(format!("refused: {}", r["refused".len()..].trim())),
        _ => Err(format!(
            "the other end is not a croupier link (it said '{}')",
            clip(&word)
        )),
    }
}

/// A connection whose knock proved a seat's secret.
pub struct Knocked {
    pub name: String,
    pub secret: [u8; SECRET_BYTES],
}

/// The listening end: challenges the connection and checks its knock against the secret
/// `secret_of` gives for its seat. A wrong proof, an unknown seat or a garbled line is told
/// [`NOT_AUTHORIZED`] (the same words for each) and is an error; a good knock is answered by
/// [`go_tls`] or [`refuse`].
pub fn challenge(
    sock: &mut TcpStream,
    secret_of: impl Fn(&str) -> Option<[u8; SECRET_BYTES]>,
    deadline: Instant,
) -> Result<Knocked, String> {
    let mut nonce = [0u8; 32];
    SystemRandom::new()
        .fill(&mut nonce)
        .map_err(|_| "no random numbers from the system".to_string())?;
    write_line(sock, &format!("{PREFIX} challenge {}", hex(&nonce)))?;
    let line = read_line(sock, deadline)?;
    let words = line
        .strip_prefix(PREFIX)
        .and_then(|r| r.trim_start().strip_prefix("knock "))
        .unwrap_or("");
    match check_claim(words, &line, "knock", "knock", &nonce, secret_of) {
        Ok((name, secret)) => Ok(Knocked { name, secret }),
        Err(why) => {
            let _ = refuse(sock, NOT_AUTHORIZED);
            Err(why)
        }
    }
}

/// Lets a knocked connection on to TLS.
pub fn go_tls(sock: &mut TcpStream) -> Result<(), String> {
    write_line(sock, &format!("{PREFIX} tls"))
}

/// Turns a connection away in the clear, saying why.
pub fn refuse(sock: &mut TcpStream, reason: &str) -> Result<(), String> {
    write_line(sock, &format!("{PREFIX} refused {reason}"))
}

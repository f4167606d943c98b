//! The link handshake after TLS: each end proves that it holds the seat's secret, without
//! sending it.
//!
//! Both ends derive the same 32 bytes from their TLS session (an exporter, RFC 8446 §7.5,
//! label `EXPORTER-croupier-link-1`): fresh for every connection, and different on the two
//! sides of anyone in the middle. The connecting end sends
//! `croupier-link 1 NAME PROOF`, PROOF being HMAC-SHA256(secret, "client" 0 NAME 0 exporter)
//! in hex; the listening end answers `croupier-link 1 ok PROOF'` (the same with "server"), or
//! `croupier-link 1 refused REASON` and closes. A proof is worth nothing on another connection,
//! and neither line tells a stranger anything about the secret.

use crate::keys::SECRET_BYTES;
use ring::hmac;
use rustls::Connection;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// The exporter's label.
pub const LABEL: &[u8] = b"EXPORTER-croupier-link-1";
/// The first word of a handshake line, and the version.
pub const PREFIX: &str = "croupier-link 1";
/// What a connection without the right secret is told (the same for an unknown seat).
pub const NOT_AUTHORIZED: &str = "not authorized";
/// The longest handshake line read.
const MAX_LINE: usize = 512;

/// A TLS connection over TCP, used blocking during the handshake.
pub struct Link {
    pub conn: Connection,
    pub sock: TcpStream,
    /// Plain bytes read past the handshake's last line: the first protocol bytes.
    pub early: Vec<u8>,
}

impl Link {
    pub fn new(conn: impl Into<Connection>, sock: TcpStream) -> Link {
        let mut conn = conn.into();
        // What is buffered is bounded by the callers (the bridge reads its plain side only when
        // the last of it is sent); rustls's own cap would make a long line a write error.
        conn.set_buffer_limit(None);
        Link {
            conn,
            sock,
            early: Vec::new(),
        }
    }

    /// Completes the TLS handshake by `deadline`.
    pub fn handshake(&mut self, deadline: Instant) -> Result<(), String> {
        while self.conn.is_handshaking() {
            self.timeout(deadline)?;
            self.conn
                .complete_io(&mut self.sock)
                .map_err(|e| io_words("the TLS handshake", &e))?;
        }
        Ok(())
    }

    fn timeout(&self, deadline: Instant) -> Result<(), String> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err("no answer in time".to_string());
        }
        let _ = self.sock.set_read_timeout(Some(left));
        let _ = self.sock.set_write_timeout(Some(left));
        Ok(())
    }

    /// Sends one line (a `\n` is added).
    pub fn write_line(&mut self, line: &str) -> Result<(), String> {
        self.conn
            .writer()
            .write_all(format!("{line}\n").as_bytes())
            .map_err(|e| io_words("sending", &e))?;
        while self.conn.wants_write() {
            self.conn
                .write_tls(&mut self.sock)
                .map_err(|e| io_words("sending", &e))?;
        }
        Ok(())
    }

    /// Reads one handshake line by `deadline` (bytes after it are kept in `early`).
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, String> {
        self.read_line_up_to(deadline, MAX_LINE)
    }

    /// Reads one line of at most `max` bytes by `deadline` (bytes after it are kept in `early`).
    pub fn read_line_up_to(&mut self, deadline: Instant, max: usize) -> Result<String, String> {
        loop {
            if let Some(i) = self.early.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.early.drain(..=i).collect();
                return Ok(String::from_utf8_lossy(&line[..i]).trim_end_matches('\r').to_string());
            }
            if self.early.len() > max {
                return Err(format!("a line longer than {max} bytes"));
            }
            let mut buf = [0u8; 1024];
            match self.conn.reader().read(&mut buf) {
                Ok(0) => return Err("the other end closed the link".to_string()),
                Ok(n) => {
                    self.early.extend_from_slice(&buf[..n]);
                    continue;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(e) => return Err(io_words("reading", &e)),
            }
            self.timeout(deadline)?;
            match self.conn.read_tls(&mut self.sock) {
                Ok(0) => return Err("the other end closed the link".to_string()),
                Ok(_) => {}
                Err(e) => return Err(io_words("reading", &e)),
            }
            self.conn.process_new_packets().map_err(|e| format!("TLS: {e}"))?;
        }
    }

    /// The session's exporter value (the challenge both ends answer).
    fn exporter(&self) -> Result<[u8; 32], String> {
        self.conn
            .export_keying_material([0u8; 32], LABEL, None)
            .map_err(|e| format!("TLS exporter: {e}"))
    }

    /// Clears the socket's timeouts (the bridge polls).
    pub fn untimed(&self) {
        let _ = self.sock.set_read_timeout(None);
        let _ = self.sock.set_write_timeout(None);
    }
}

/// Words for an I/O error, a timeout said as one.
fn io_words(doing: &str, e: &std::io::Error) -> String {
    match e.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => format!("{doing}: no answer in time"),
        _ => format!("{doing}: {e}"),
    }
}

/// What a proof signs: ROLE 0x00 NAME 0x00 DATA (DATA: the exporter value, or the knock's nonce).
fn message(role: &str, name: &str, data: &[u8]) -> Vec<u8> {
    [role.as_bytes(), &[0], name.as_bytes(), &[0], data].concat()
}

/// A proof of `secret`, in lowercase hex: HMAC-SHA256(secret, ROLE 0x00 NAME 0x00 DATA).
pub(crate) fn proof(secret: &[u8; SECRET_BYTES], role: &str, name: &str, data: &[u8]) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret);
    hex(hmac::sign(&key, &message(role, name, data)).as_ref())
}

/// Whether `hex` is the [`proof`] of `secret` for ROLE, NAME and DATA (compared in constant time).
/// A claim `NAME PROOF` (`words`, from the line `line` called `what` in messages): the seat's
/// name and secret when PROOF is its proof for `role` over `data`, else why not, in words that
/// name the seat but never its secret. The caller tells the peer [`NOT_AUTHORIZED`] either way
/// it fails (the same words for each).
pub(crate) fn check_claim(
    words: &str,
    line: &str,
    what: &str,
    role: &str,
    data: &[u8],
    secret_of: impl Fn(&str) -> Option<[u8; SECRET_BYTES]>,
) -> Result<(String, [u8; SECRET_BYTES]), String> {
    let mut words = words.split_whitespace();
    let (Some(name), Some(proof), None) = (words.next(), words.next(), words.next()) else {
        return Err(format!("a garbled {what} '{}'", clip(line)));
    };
    match secret_of(name) {
        Some(secret) if verify(&secret, role, name, data, proof) => Ok((name.to_string(), secret)),
        Some(_) => Err(format!("seat '{}': a wrong proof (not its secret)", clip(name))),
        None => Err(format!("no seat '{}'", clip(name))),
    }
}

pub(crate) fn verify(secret: &[u8; SECRET_BYTES], role: &str, name: &str, data: &[u8], hex: &str) -> bool {
    let Some(bytes) = unhex(hex) else { return false };
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret);
    hmac::verify(&key, &message(role, name, data), &bytes).is_ok()
}

pub(crate) fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// The connecting end: proves it holds `secret` for seat `name` and checks that the listening
/// end holds it too. Errors say what the other end answered.
pub fn client_hello(link: &mut Link, name: &str, secret: &[u8; SECRET_BYTES], deadline: Instant) -> Result<(), String> {
    let exporter = link.exporter()?;
    link.write_line(&format!("{PREFIX} {name} {}", proof(secret, "client", name, &exporter)))?;
    let line = link.read_line(deadline)?;
    let rest = line
        .strip_prefix(PREFIX)
        .map(str::trim_start)
        .ok_or_else(|| format!("the other end is not a croupier link (it said '{}')", clip(&line)))?;
    if let Some(reason) = rest.strip_prefix("refused") {
        return Err(format!("refused: {}", reason.trim()));
    }
    match rest.strip_prefix("ok ") {
        Some(p) if verify(secret, "server", name, &exporter, p.trim()) => Ok(()),
        _ => Err("the other end does not hold this seat's secret: not the referee of this token".to_string()),
    }
}

/// What a connecting end asked for, once its proof is checked.
pub struct Hello {
    pub name: String,
    pub secret: [u8; SECRET_BYTES],
    exporter: [u8; 32],
}

/// The listening end: reads the connecting end's hello and checks its proof against the secret
/// `secret_of` gives for its seat. A wrong proof, an unknown seat or a garbled line is told
/// [`NOT_AUTHORIZED`] and is an error; a good one is answered by [`welcome`] or [`refuse`].
pub fn accept_hello(
    link: &mut Link,
    secret_of: impl Fn(&str) -> Option<[u8; SECRET_BYTES]>,
    deadline: Instant,
) -> Result<Hello, String> {
    let exporter = link.exporter()?;
    let line = link.read_line(deadline)?;
    match check_claim(
        line.strip_prefix(PREFIX).unwrap_or(""),
        &line,
        "hello",
        "client",
        &exporter,
        secret_of,
    ) {
        Ok((name, secret)) => Ok(Hello { name, secret, exporter }),
        Err(why) => {
            let _ = refuse(link, NOT_AUTHORIZED);
            Err(why)
        }
    }
}

/// Lets a checked connection in: the listening end's own proof.
pub fn welcome(link: &mut Link, hello: &Hello) -> Result<(), String> {
    link.write_line(&format!(
        "{PREFIX} ok {}",
        proof(&hello.secret, "server", &hello.name, &hello.exporter)
    ))
}

/// Turns a connection away, saying why, and closes the TLS session.
pub fn refuse(link: &mut Link, reason: &str) -> Result<(), String> {
    link.write_line(&format!("{PREFIX} refused {reason}"))?;
    link.conn.send_close_notify();
    while link.conn.wants_write() {
        if link.conn.write_tls(&mut link.sock).is_err() {
            break;
        }
    }
    Ok(())
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// At most 60 characters of a line a stranger sent, for messages and logs.
pub(crate) fn clip(s: &str) -> String {
    s.chars().take(60).flat_map(char::escape_default).collect()
}

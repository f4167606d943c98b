//! The listening end's front door, shared by the referee's hub and `croupier serve-bot`: it
//! accepts TCP connections, turns away an address with too many recent failures, and gives each
//! connection a thread of its own for the knock (at most [`MAX_HANDSHAKES`] at once, each with a
//! deadline), so that a slow or silent stranger holds up nobody. A connection that proves a
//! seat's secret is handed on, still before TLS ([`open_tls`] goes on from there); every
//! failure is logged.

use crate::auth::{accept_hello, Hello, Link};
use crate::keys::SECRET_BYTES;
#[cfg(doc)]
use crate::knock::go_tls;
use crate::knock::{challenge, Knocked};
use crate::limiter::Limiter;
use crate::socket;
use rustls::ServerConfig;
use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Knocks in progress at most, and from one address; more connections are closed at once (so
/// that a few silent connections from one place cannot keep everyone else out).
pub const MAX_HANDSHAKES: usize = 32;
pub const MAX_HANDSHAKES_PER_ADDRESS: usize = 4;

/// The knocks in progress, in all and by address.
#[derive(Default)]
struct InProgress {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

impl InProgress {
    /// Counts one more from `ip`, or says why not.
    fn begin(&mut self, ip: IpAddr) -> Result<(), String> {
        let mine = self.by_address.entry(ip).or_default();
        if *mine >= MAX_HANDSHAKES_PER_ADDRESS {
            return Err(format!("{MAX_HANDSHAKES_PER_ADDRESS} knocks in progress from it"));
        }
        if self.total >= MAX_HANDSHAKES {
            return Err(format!("{MAX_HANDSHAKES} knocks in progress"));
        }
        *mine += 1;
        self.total += 1;
        Ok(())
    }

    fn end(&mut self, ip: IpAddr) {
        self.total -= 1;
        if let Some(n) = self.by_address.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                self.by_address.remove(&ip);
            }
        }
    }
}
/// The time a connection has for its knock, and then for its TLS handshake and its hello.
pub const HANDSHAKE_TIME: Duration = Duration::from_secs(10);

/// Where the listening end logs: a file (appended, one line per event) or nowhere.
#[derive(Clone)]
pub struct NetLog(Option<Arc<Mutex<std::fs::File>>>);

impl NetLog {
    /// Opens (appends to) `path`, made 0600; `None` logs nothing.
    pub fn open(path: Option<PathBuf>) -> Result<NetLog, String> {
        use std::os::unix::fs::OpenOptionsExt;
        let Some(p) = path else { return Ok(NetLog(None)) };
        let f = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .mode(0o600)
            .open(&p)
            .map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(NetLog(Some(Arc::new(Mutex::new(f)))))
    }

    /// Logs one line, with the time since the Unix epoch in seconds.
    pub fn line(&self, text: &str) {
        if let Some(f) = &self.0 {
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_secs_f64();
            let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(f, "{t:.3} {text}");
        }
    }
}

/// The secret of a seat, by name (none for a seat that is not there).
pub type SecretOf = dyn Fn(&str) -> Option<[u8; SECRET_BYTES]> + Send + Sync;
/// What is done with a connection whose knock proved its seat's secret (before TLS).
pub type OnKnock = dyn Fn(TcpStream, Knocked, SocketAddr) + Send + Sync;

/// Accepts connections on `listener` forever (in the calling thread): each whose knock proves
/// the secret `secret_of` gives for its seat goes to `on_knock` (in its own thread).
pub fn accept_forever(listener: TcpListener, secret_of: Arc<SecretOf>, on_knock: Arc<OnKnock>, log: NetLog) {
    let limiter = Arc::new(Mutex::new(Limiter::new(Duration::from_secs(60))));
    let busy = Arc::new(Mutex::new(InProgress::default()));
    for conn in listener.incoming() {
        let Ok(sock) = conn else { continue };
        let Ok(peer) = sock.peer_addr() else { continue };
        if !limiter
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .allowed(peer.ip(), Instant::now())
        {
            log.line(&format!(
                "{peer}: turned away (too many failed attempts in the last minute)"
            ));
            continue;
        }
        if let Err(why) = busy.lock().unwrap_or_else(|e| e.into_inner()).begin(peer.ip()) {
            log.line(&format!("{peer}: turned away ({why})"));
            continue;
        }
        socket::tune(&sock);
        let (secret_of, on_knock, log, limiter, busy) = (
            secret_of.clone(),
            on_knock.clone(),
            log.clone(),
            limiter.clone(),
            busy.clone(),
        );
        std::thread::spawn(move || {
            let mut sock = sock;
            let result = challenge(&mut sock, |n| secret_of(n), Instant::now() + HANDSHAKE_TIME);
            busy.lock().unwrap_or_else(|e| e.into_inner()).end(peer.ip());
            match result {
                Ok(knocked) => on_knock(sock, knocked, peer),
                Err(e) => {
                    limiter
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .failed(peer.ip(), Instant::now());
                    log.line(&format!("{peer}: refused: {e}"));
                }
            }
        });
    }
}

/// Goes on from a knock to a link, once the connecting end was told to ([`go_tls`]): TLS as the
/// server with `cfg`, and the connecting end's proof of `knocked`'s secret inside it, by
/// `deadline`. The caller answers the hello ([`welcome`] or [`crate::auth::refuse`]).
///
/// [`welcome`]: crate::auth::welcome
pub fn open_tls(
    sock: TcpStream,
    knocked: &Knocked,
    cfg: Arc<ServerConfig>,
    deadline: Instant,
) -> Result<(Link, Hello), String> {
    let conn = rustls::ServerConnection::new(cfg).map_err(|e| format!("TLS: {e}"))?;
    let mut link = Link::new(conn, sock);
    link.handshake(deadline)?;
    let (name, secret) = (knocked.name.clone(), knocked.secret);
    let hello = accept_hello(&mut link, |n| (n == name).then_some(secret), deadline)?;
    Ok((link, hello))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knocks_in_progress_are_capped_per_address_and_in_all() {
        let mut p = InProgress::default();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..MAX_HANDSHAKES_PER_ADDRESS {
            p.begin(a).unwrap();
        }
        assert!(p.begin(a).unwrap_err().contains("from it"));
        p.end(a);
        p.begin(a).unwrap();
        for i in 0..(MAX_HANDSHAKES - MAX_HANDSHAKES_PER_ADDRESS) {
            p.begin(IpAddr::from([10, 1, (i / 200) as u8, (i % 200) as u8]))
                .unwrap();
        }
        let err = p.begin("10.9.9.9".parse().unwrap()).unwrap_err();
        assert!(err.contains(&format!("{MAX_HANDSHAKES} knocks")), "{err}");
    }
}

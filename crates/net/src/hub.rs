//! The referee's hub (`--listen ADDR`): remote bots connect to it and knock ([`crate::knock`]),
//! and each connection is handed, before TLS, to the local process that stands for its seat at
//! the table (`croupier link remote NAME`, which the referee starts and restarts like any bot).
//! That process does the TLS (with the referee's identity, which the hub gives it), checks the
//! secret again inside it, and carries the lines between the table and the link, so a line
//! crosses no thread of the hub. The table never sees the network: a seat's local process is a
//! bot like any other, with the referee's clocks, faults and transcripts.
//!
//! The local processes reach the hub on a Unix socket in the abstract namespace
//! (`croupier-hub-<referee pid>`). Anything on the machine could connect to it, so the hub
//! asks the kernel who connected (`SO_PEERCRED`) and serves only a process that the referee
//! started as that very seat's link ([`HubConfig::local_ok`]): a local bot cannot take a remote
//! seat's connection, nor learn its secret.
//!
//! A seat name stands for as many local processes as the referee runs for it at once (one,
//! unless the bot sits in several seats or at several tables: [`HubConfig::seats`]), and each
//! takes one connection: a connection beyond that number, held or waiting for its local
//! process, is refused ("seat NAME is taken"). A seat's connection is held until its local
//! process ends.

use crate::fdpass::{recv_fd, send_fd};
use crate::keys::{Identity, Token, SECRET_BYTES};
use crate::knock::{go_tls, refuse, Knocked};
use crate::listener::{accept_forever, open_tls, NetLog, HANDSHAKE_TIME};
use crate::{auth, tls};
use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsFd, AsRawFd};
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr as UnixAddr, UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Whether local process `pid` may stand for seat `name`.
pub type LocalOk = dyn Fn(u32, &str) -> bool + Send + Sync;

/// What a hub needs.
pub struct HubConfig {
    /// `--listen`: the address to listen on (`HOST:PORT`; port 0 picks a free one).
    pub listen: String,
    /// Where the identity and the seats' tokens are kept (made 0700).
    pub keys: PathBuf,
    /// The remote seats' names, each with the number of its local processes at once.
    pub seats: Vec<(String, usize)>,
    /// The log of connections (refusals, joins, ends).
    pub log: Option<PathBuf>,
    /// Whether local process `pid` may stand for seat `name` (the referee started it as that
    /// seat's link).
    pub local_ok: Box<LocalOk>,
}

/// A seat's state at the hub.
#[derive(Default)]
struct Seat {
    secret: [u8; SECRET_BYTES],
    /// Its local processes at once at most: the connections it takes.
    capacity: usize,
    /// Local processes waiting for a connection.
    waiting: VecDeque<UnixStream>,
    /// Knocked connections waiting for a local process.
    ready: VecDeque<TcpStream>,
    /// Connections handed to a local process that is still there.
    held: usize,
}

type Seats = Arc<Mutex<HashMap<String, Seat>>>;

/// A running hub.
pub struct Hub {
    addr: SocketAddr,
    fingerprint: String,
    tokens: Vec<(String, PathBuf)>,
}

/// The name of the hub's local socket for the referee `pid`.
pub fn local_name(pid: u32) -> String {
    format!("croupier-hub-{pid}")
}

/// What the hub hands a seat's process with its connection: the identity (certificate, key)
/// and the seat's secret.
struct Handover {
    identity: Vec<u8>,
}

impl Handover {
    fn new(id: &Identity) -> Handover {
        let mut identity = Vec::new();
        for part in [id.cert.as_ref(), id.key_der()] {
            identity.extend_from_slice(&(part.len() as u32).to_be_bytes());
            identity.extend_from_slice(part);
        }
        Handover { identity }
    }

    fn for_seat(&self, secret: &[u8; SECRET_BYTES]) -> Vec<u8> {
        let mut out = self.identity.clone();
        out.extend_from_slice(secret);
        out
    }
}

/// Reads what [`Handover::for_seat`] wrote.
fn read_handover(bytes: &[u8]) -> Option<(Identity, [u8; SECRET_BYTES])> {
    let mut rest = bytes;
    let mut part = || {
        let n = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let p = rest.get(4..4 + n)?.to_vec();
        rest = &rest[4 + n..];
        Some(p)
    };
    let (cert, key) = (part()?, part()?);
    let secret: [u8; SECRET_BYTES] = rest.try_into().ok()?;
    Some((Identity::from_der(cert, key), secret))
}

impl Hub {
    /// Listens, makes or reads the identity and a token per seat, and serves in background
    /// threads for the rest of the process's life.
    pub fn start(cfg: HubConfig) -> Result<Hub, String> {
        let listener = TcpListener::bind(&cfg.listen).map_err(|e| format!("--listen {}: {e}", cfg.listen))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let id = Identity::load_or_create(&cfg.keys)?;
        let fingerprint = id.fingerprint();
        let address = token_address(&cfg.listen, addr);
        let mut seats = HashMap::new();
        let mut tokens = Vec::new();
        for (name, capacity) in &cfg.seats {
            let path = cfg.keys.join(format!("{name}.token"));
            let t = Token::load_or_create(&path, name, &address, &fingerprint)?;
            seats.insert(
                name.clone(),
                Seat {
                    secret: t.secret(),
                    capacity: (*capacity).max(1),
                    ..Seat::default()
                },
            );
            tokens.push((name.clone(), path));
        }
        let seats: Seats = Arc::new(Mutex::new(seats));
        let log = NetLog::open(cfg.log.clone())?;
        let local = UnixListener::bind_addr(
            &UnixAddr::from_abstract_name(local_name(std::process::id())).map_err(|e| e.to_string())?,
        )
        .map_err(|e| format!("the hub's local socket: {e}"))?;
        let handover = Arc::new(Handover::new(&id));
        let secrets = seats.clone();
        let secret_of = Arc::new(move |n: &str| lock(&secrets).get(n).map(|s| s.secret));
        let (joined, joined_log, joined_handover) = (seats.clone(), log.clone(), handover.clone());
        let on_knock = Arc::new(move |sock: TcpStream, knocked: Knocked, peer: SocketAddr| {
            remote_arrived(&joined, sock, knocked, peer, &joined_log, &joined_handover)
        });
        let tcp_log = log.clone();
        std::thread::spawn(move || accept_forever(listener, secret_of, on_knock, tcp_log));
        let local_ok: Arc<LocalOk> = Arc::from(cfg.local_ok);
        std::thread::spawn(move || serve_local(local, seats, local_ok, log, handover));
        Ok(Hub {
            addr,
            fingerprint,
            tokens,
        })
    }

    /// The address the hub listens on.
    pub fn address(&self) -> SocketAddr {
        self.addr
    }

    /// The fingerprint of its certificate.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// Each seat's token file.
    pub fn tokens(&self) -> &[(String, PathBuf)] {
        &self.tokens
    }
}

fn lock(seats: &Seats) -> std::sync::MutexGuard<'_, HashMap<String, Seat>> {
    seats.lock().unwrap_or_else(|e| e.into_inner())
}

/// The address written in the tokens: `--listen` as given, with the port picked and, for an
/// address that means "every interface", this machine's host name.
fn token_address(listen: &str, bound: SocketAddr) -> String {
    if bound.ip().is_unspecified() {
        let mut buf = [0u8; 256];
        // SAFETY: gethostname writes at most buf.len() bytes into buf.
        let host = if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            String::from_utf8_lossy(&buf[..end]).into_owned()
        } else {
            "localhost".to_string()
        };
        return format!("{host}:{}", bound.port());
    }
    match listen.rsplit_once(':') {
        Some((host, _)) if !host.is_empty() => format!("{host}:{}", bound.port()),
        _ => bound.to_string(),
    }
}

/// A remote bot knocked with its seat's secret: handed to one of the seat's waiting local
/// processes, or it waits for one, or it is refused when the seat's connections are all taken.
fn remote_arrived(seats: &Seats, mut sock: TcpStream, knocked: Knocked, peer: SocketAddr, log: &NetLog, h: &Handover) {
    let name = knocked.name;
    let mut all = lock(seats);
    let Some(seat) = all.get_mut(&name) else { return };
    if seat.held + seat.ready.len() >= seat.capacity {
        drop(all);
        let _ = refuse(&mut sock, &format!("seat {name} is taken"));
        log.line(&format!("{peer}: seat {name}: refused, the seat is taken"));
        return;
    }
    log.line(&format!("{peer}: seat {name}: knocked"));
    // (A waiting process that is gone, its start timed out, is dropped here.)
    while let Some(local) = seat.waiting.pop_front() {
        if alive(&local) {
            seat.held += 1;
            let payload = h.for_seat(&seat.secret);
            drop(all);
            hand_over(seats, &name, local, sock, &payload, log);
            return;
        }
    }
    seat.ready.push_back(sock);
}

/// Hands the connection `sock` to the seat's process at `local` (it goes on to TLS), and holds
/// the seat until that process lets go of it (ends, or asks again after a failed handshake).
fn hand_over(seats: &Seats, name: &str, mut local: UnixStream, mut sock: TcpStream, payload: &[u8], log: &NetLog) {
    let handed = go_tls(&mut sock).and_then(|_| send_fd(&mut local, sock.as_raw_fd(), payload));
    drop(sock);
    match handed {
        Ok(()) => {
            log.line(&format!("seat {name}: handed to its process"));
            // Held while the process keeps its end open: it writes nothing more.
            let mut buf = [0u8; 64];
            while matches!(local.read(&mut buf), Ok(n) if n > 0) {}
            log.line(&format!("seat {name}: its process let the connection go"));
        }
        Err(e) => log.line(&format!("seat {name}: could not hand the connection over: {e}")),
    }
    if let Some(seat) = lock(seats).get_mut(name) {
        seat.held -= 1;
    }
}

/// Serves the local processes: `seat NAME` (a seat's process waits for its connection), each
/// from a process allowed to ask.
fn serve_local(listener: UnixListener, seats: Seats, local_ok: Arc<LocalOk>, log: NetLog, h: Arc<Handover>) {
    for conn in listener.incoming() {
        let Ok(stream) = conn else { continue };
        let (seats, local_ok, log, h) = (seats.clone(), local_ok.clone(), log.clone(), h.clone());
        std::thread::spawn(move || {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let Ok(line) = first_line(&stream) else { return };
            let _ = stream.set_read_timeout(None);
            let pid = peer_pid(&stream);
            let Some(name) = line.trim().strip_prefix("seat ") else {
                return;
            };
            if !pid.is_some_and(|p| local_ok(p, name)) {
                log.line(&format!(
                    "local process {pid:?}: refused for seat '{name}' (not the seat's link)"
                ));
                return;
            }
            local_arrived(&seats, name, stream, &log, &h);
        });
    }
}

/// A seat's local process arrived: handed a waiting connection, or it waits.
fn local_arrived(seats: &Seats, name: &str, stream: UnixStream, log: &NetLog, h: &Handover) {
    let mut all = lock(seats);
    let Some(seat) = all.get_mut(name) else { return };
    // (A connection whose bot gave up waiting is dropped here.)
    while let Some(sock) = seat.ready.pop_front() {
        if alive(&sock) {
            seat.held += 1;
            let payload = h.for_seat(&seat.secret);
            drop(all);
            hand_over(seats, name, stream, sock, &payload, log);
            return;
        }
    }
    seat.waiting.push_back(stream);
}

/// Whether the other end of a socket is still there (it may have sent bytes already: only a
/// hang-up counts).
fn alive(s: &impl AsFd) -> bool {
    let mut fd = libc::pollfd {
        fd: s.as_fd().as_raw_fd(),
        events: libc::POLLRDHUP,
        revents: 0,
    };
    // SAFETY: poll over one pollfd that lives across the call, not waiting.
    let n = unsafe { libc::poll(&mut fd, 1, 0) };
    n == 0 || fd.revents & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR) == 0
}

/// Reads the first line a local process sends, a byte at a time, at most 256 bytes.
fn first_line(mut stream: &UnixStream) -> std::io::Result<String> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while line.len() < 256 {
        if stream.read(&mut byte)? == 0 || byte[0] == b'\n' {
            break;
        }
        line.push(byte[0]);
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}

/// The process id at the other end of a Unix socket, as the kernel says.
fn peer_pid(stream: &UnixStream) -> Option<u32> {
    let mut cred = libc::ucred { pid: 0, uid: 0, gid: 0 };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: getsockopt into a ucred that lives across the call, with its size.
    let rc = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    (rc == 0 && cred.pid > 0).then_some(cred.pid as u32)
}

/// A seat's link, taken by the seat's local process.
pub struct SeatLink {
    pub link: auth::Link,
    /// Held open for as long as the link is the seat's: the hub counts the seat as held.
    pub hub: UnixStream,
}

/// The seat's local process: asks the hub of the referee `hub_pid` for seat `name`'s
/// connection, and does its TLS and the proof inside it. A connection that fails there (its bot
/// went away, or someone on the path passed the knock on) is let go, told to `say`, and the
/// process asks again.
pub fn take_seat(hub_pid: u32, name: &str, say: &dyn Fn(&str)) -> Result<SeatLink, String> {
    let addr = UnixAddr::from_abstract_name(local_name(hub_pid)).map_err(|e| e.to_string())?;
    loop {
        let mut hub = UnixStream::connect_addr(&addr)
            .map_err(|e| format!("no hub for this referee (pid {hub_pid}): {e}; is --listen given?"))?;
        writeln!(hub, "seat {name}").map_err(|e| format!("the hub: {e}"))?;
        let (fd, payload) = recv_fd(&mut hub)?;
        let (id, secret) = read_handover(&payload).ok_or("the hub's handover is garbled")?;
        let knocked = Knocked {
            name: name.to_string(),
            secret,
        };
        let cfg = tls::server_config(&id)?;
        match open_tls(TcpStream::from(fd), &knocked, cfg, Instant::now() + HANDSHAKE_TIME) {
            Ok((mut link, hello)) => match auth::welcome(&mut link, &hello) {
                Ok(()) => return Ok(SeatLink { link, hub }),
                Err(e) => say(&format!("a connection for the seat failed: {e}; waiting for another")),
            },
            Err(e) => say(&format!("a connection for the seat failed: {e}; waiting for another")),
        }
    }
}

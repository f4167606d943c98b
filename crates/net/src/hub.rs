//! The referee's hub (`--listen ADDR`): remote bots connect to it, and each is joined to the
//! local process that stands for its seat at the table (`croupier link remote NAME`, which the
//! referee starts and restarts like any bot). The table never sees the network: a seat's local
//! process is a bot like any other, with the referee's clocks, faults and transcripts.
//!
//! The local processes reach the hub on a Unix socket in the abstract namespace
//! (`croupier-hub-<referee pid>`). Anything on the machine could connect to it, so the hub
//! asks the kernel who connected (`SO_PEERCRED`) and lets in only a process that the referee
//! started as that very seat's link ([`HubConfig::local_ok`]): a local bot cannot take a remote
//! seat's lines.
//!
//! A seat name stands for as many local processes as the referee runs for it at once (one,
//! unless the bot sits in several seats or at several tables: [`HubConfig::seats`]), and each
//! is held by one remote connection: a connection beyond that number, held or waiting for its
//! local process, is refused ("seat NAME is taken").

use crate::auth::{refuse, welcome, Hello, Link};
use crate::bridge::{bridge, Ended};
use crate::keys::{Identity, Token, SECRET_BYTES};
use crate::listener::{accept_forever, NetLog};
use crate::tls;
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener};
use std::os::fd::AsRawFd;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr as UnixAddr, UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
    /// Its local processes at once at most: the remote connections it takes.
    capacity: usize,
    /// Local processes waiting for a remote bot.
    waiting: VecDeque<UnixStream>,
    /// Remote bots waiting for a local process.
    ready: VecDeque<Link>,
    /// Links joined (a bridge runs for each).
    held: usize,
    /// How the seat's last link ended.
    last_end: Option<String>,
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
        let server = tls::server_config(&id)?;
        let secrets = seats.clone();
        let secret_of = Arc::new(move |n: &str| lock(&secrets).get(n).map(|s| s.secret));
        let (joined, joined_log) = (seats.clone(), log.clone());
        let on_hello = Arc::new(move |link: Link, hello: Hello, peer: SocketAddr| {
            remote_arrived(&joined, link, hello, peer, &joined_log)
        });
        let tcp_log = log.clone();
        std::thread::spawn(move || accept_forever(listener, server, secret_of, on_hello, tcp_log));
        let local_ok: Arc<LocalOk> = Arc::from(cfg.local_ok);
        std::thread::spawn(move || serve_local(local, seats, local_ok, log));
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

/// A remote bot proved its seat's secret: it is joined to the seat's waiting local process,
/// or waits for it, or is refused when the seat is held.
fn remote_arrived(seats: &Seats, mut link: Link, hello: Hello, peer: SocketAddr, log: &NetLog) {
    let name = hello.name.clone();
    let mut all = lock(seats);
    let Some(seat) = all.get_mut(&name) else { return };
    if seat.held + seat.ready.len() >= seat.capacity {
        drop(all);
        let _ = refuse(&mut link, &format!("seat {name} is taken"));
        log.line(&format!("{peer}: seat {name}: refused, the seat is taken"));
        return;
    }
    if welcome(&mut link, &hello).is_err() {
        log.line(&format!("{peer}: seat {name}: gone during the handshake"));
        return;
    }
    log.line(&format!("{peer}: seat {name}: connected"));
    // (A waiting process that is gone, its start timed out, is dropped here.)
    while let Some(local) = seat.waiting.pop_front() {
        if alive(&local) {
            seat.held += 1;
            drop(all);
            join(seats, &name, link, local, log);
            return;
        }
    }
    seat.ready.push_back(link);
}

/// Bridges a seat's remote link and its local process until either ends; the seat is then
/// free, and the way it ended is kept for the local process to tell ([`why`]).
fn join(seats: &Seats, name: &str, link: Link, local: UnixStream, log: &NetLog) {
    let fd = local.as_raw_fd();
    let ended = bridge(link, fd, fd);
    let words = match &ended {
        Ended::LocalClosed => "the seat's process ended".to_string(),
        Ended::PeerClosed => "the remote bot closed the link".to_string(),
        Ended::Lost(e) => format!("the link was lost: {e}"),
    };
    log.line(&format!("seat {name}: {words}"));
    if let Some(seat) = lock(seats).get_mut(name) {
        seat.held -= 1;
        seat.last_end = Some(words);
    }
    drop(local);
}

/// Serves the local processes: `seat NAME` (a seat's process waits for its remote bot) and
/// `why NAME` (how the seat's last link ended), each from a process allowed to ask.
fn serve_local(listener: UnixListener, seats: Seats, local_ok: Arc<LocalOk>, log: NetLog) {
    for conn in listener.incoming() {
        let Ok(stream) = conn else { continue };
        let (seats, local_ok, log) = (seats.clone(), local_ok.clone(), log.clone());
        std::thread::spawn(move || {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let Ok(line) = first_line(&stream) else { return };
            let _ = stream.set_read_timeout(None);
            let pid = peer_pid(&stream);
            let (verb, name) = line.trim().split_once(' ').unwrap_or(("", ""));
            if !pid.is_some_and(|p| local_ok(p, name)) {
                log.line(&format!(
                    "local process {pid:?}: refused for seat '{name}' (not the seat's link)"
                ));
                return;
            }
            match verb {
                "seat" => local_arrived(&seats, name, stream, &log),
                "why" => {
                    let words = lock(&seats).get(name).and_then(|s| s.last_end.clone());
                    let mut s = stream;
                    let _ = writeln!(s, "{}", words.unwrap_or_else(|| "no link yet".into()));
                }
                _ => {}
            }
        });
    }
}

/// A seat's local process arrived: joined to its waiting remote bot, or it waits.
fn local_arrived(seats: &Seats, name: &str, stream: UnixStream, log: &NetLog) {
    let mut all = lock(seats);
    let Some(seat) = all.get_mut(name) else { return };
    match seat.ready.pop_front() {
        Some(link) => {
            seat.held += 1;
            drop(all);
            join(seats, name, link, stream, log);
        }
        None => seat.waiting.push_back(stream),
    }
}

/// Whether the process at the other end of a local socket is still there (it may have sent
/// lines already: only a hang-up counts).
fn alive(stream: &UnixStream) -> bool {
    let mut fd = libc::pollfd {
        fd: stream.as_raw_fd(),
        events: libc::POLLRDHUP,
        revents: 0,
    };
    // SAFETY: poll over one pollfd that lives across the call, not waiting.
    let n = unsafe { libc::poll(&mut fd, 1, 0) };
    n == 0 || fd.revents & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR) == 0
}

/// Reads the first line a local process sends, a byte at a time (what follows it is the
/// seat's lines, left in the socket), at most 256 bytes.
fn first_line(mut stream: &UnixStream) -> std::io::Result<String> {
    use std::io::Read;
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while line.len() < 256 {
        if stream.read(&mut byte)? == 0 {
            break;
        }
        if byte[0] == b'\n' {
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

/// The seat's local process: connects to the hub of the referee `hub_pid` and waits there for
/// its remote bot. The stream then carries the seat's lines.
pub fn wait_for_remote(hub_pid: u32, name: &str) -> Result<UnixStream, String> {
    let mut s = connect_local(hub_pid)?;
    writeln!(s, "seat {name}").map_err(|e| format!("the hub: {e}"))?;
    Ok(s)
}

/// How the seat's last link ended, as the hub of the referee `hub_pid` says.
pub fn why(hub_pid: u32, name: &str) -> Option<String> {
    let mut s = connect_local(hub_pid).ok()?;
    writeln!(s, "why {name}").ok()?;
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    let mut line = String::new();
    BufReader::new(s).read_line(&mut line).ok()?;
    Some(line.trim().to_string()).filter(|l| !l.is_empty())
}

fn connect_local(hub_pid: u32) -> Result<UnixStream, String> {
    let addr = UnixAddr::from_abstract_name(local_name(hub_pid)).map_err(|e| e.to_string())?;
    UnixStream::connect_addr(&addr)
        .map_err(|e| format!("no hub for this referee (pid {hub_pid}): {e}; is --listen given?"))
}

//! The bot's end of a link: a bot program, any that speaks the protocol on stdin and stdout,
//! run unchanged with its pipes bridged to the link. `croupier connect` dials a referee's hub
//! and keeps the seat ([`connect`]); `croupier serve-bot` listens and runs a bot per referee
//! that connects ([`serve`]). The bot's stderr stays on its machine (the relay's stderr).

use crate::auth::{welcome, Link, NOT_AUTHORIZED};
use crate::bridge::{bridge, Ended};
use crate::dial::dial;
use crate::keys::{Identity, Token};
use crate::knock::{self, Knocked};
use crate::listener::{accept_forever, open_tls, NetLog, HANDSHAKE_TIME};
use crate::tls;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs the bot `argv` with its stdin and stdout bridged to `link` until either ends. The bot
/// is then ended: its stdin closed, a second to exit, then its process group killed. Returns
/// how the link ended and how the bot did.
pub fn run_bot(link: Link, argv: &[String]) -> Result<(Ended, String), String> {
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start the bot '{}': {e}", argv.join(" ")))?;
    let stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let ended = bridge(link, stdout.as_raw_fd(), stdin.as_raw_fd());
    drop(stdin);
    drop(stdout);
    let give_up = Instant::now() + Duration::from_secs(1);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if Instant::now() < give_up => std::thread::sleep(Duration::from_millis(10)),
            _ => break None,
        }
    };
    // SAFETY: kill on the bot's process group (its pid leads it).
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
    let status = status.or_else(|| child.wait().ok());
    let words = match status {
        Some(s) => match (s.code(), s.signal()) {
            (Some(c), _) => format!("exit code {c}"),
            (_, Some(sig)) => format!("killed by signal {sig}"),
            _ => "ended".to_string(),
        },
        None => "status unknown".to_string(),
    };
    Ok((ended, words))
}

/// `croupier connect`: what it needs.
pub struct Connect {
    /// Where the referee listens (the token's address unless given).
    pub address: String,
    pub token: Token,
    /// The bot's command line.
    pub argv: Vec<String>,
    /// How long to keep trying to connect (at the start, and after a link ends) before giving up.
    pub retry_for: Duration,
    /// End after the first link instead of connecting again.
    pub once: bool,
}

/// Keeps the token's seat at the referee: connects, runs the bot for as long as the link
/// lasts, and connects again (a fresh bot: the referee restarts the seat and catches it up),
/// until the referee has not been reachable for `retry_for`. `say` is told what happens.
/// Ok once it has played at least one link; an error when it never could, or the referee
/// refused the token.
pub fn connect(c: &Connect, say: &dyn Fn(&str)) -> Result<(), String> {
    let mut links = 0u64;
    let mut reachable = Instant::now();
    let mut pause = Duration::from_millis(100);
    let mut last_error = String::new();
    loop {
        match dial(&c.address, &c.token, Instant::now() + Duration::from_secs(10)) {
            Ok(link) => {
                links += 1;
                say(&format!("connected to {} as seat {}", c.address, c.token.name));
                let (ended, bot) = run_bot(link, &c.argv)?;
                let how = match ended {
                    Ended::LocalClosed => "the bot closed its output".to_string(),
                    Ended::PeerClosed => "the referee closed the link".to_string(),
                    Ended::Lost(e) => format!("the link was lost: {e}"),
                };
                say(&format!("link ended: {how}; bot: {bot}"));
                if c.once {
                    return Ok(());
                }
                reachable = Instant::now();
                pause = Duration::from_millis(100);
            }
            Err(e) if e.contains(NOT_AUTHORIZED) => {
                return Err(format!("{e}: the referee does not know this token (an old copy?)"));
            }
            Err(e) => {
                if e != last_error {
                    say(&format!("cannot connect: {e}"));
                    last_error = e.clone();
                }
                if reachable.elapsed() >= c.retry_for {
                    return if links > 0 {
                        say(&format!("the referee has been gone for {:?}: done", c.retry_for));
                        Ok(())
                    } else {
                        Err(format!("could not connect for {:?}: {e}", c.retry_for))
                    };
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_secs(1));
            }
        }
    }
}

/// `croupier serve-bot`: what it needs.
pub struct Serve {
    pub listen: String,
    /// Where its identity and its token are kept.
    pub keys: PathBuf,
    pub argv: Vec<String>,
    /// Bots running at once at most; a referee beyond is refused ("busy").
    pub max_bots: usize,
    pub log: Option<PathBuf>,
}

/// The name in a bot host's token.
pub const SERVE_NAME: &str = "serve-bot";

/// Listens and runs a bot for each referee that proves the token's secret. Calls `ready` with
/// the address, the certificate's fingerprint and the token's path once it listens; serves
/// until the process ends.
pub fn serve(
    s: Serve,
    ready: &dyn Fn(SocketAddr, &str, &std::path::Path),
    say: Arc<dyn Fn(&str) + Send + Sync>,
) -> Result<(), String> {
    let listener = TcpListener::bind(&s.listen).map_err(|e| format!("--listen {}: {e}", s.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let id = Identity::load_or_create(&s.keys)?;
    let path = s.keys.join(format!("{SERVE_NAME}.token"));
    let token = Token::load_or_create(&path, SERVE_NAME, &addr.to_string(), &id.fingerprint())?;
    let secret = token.secret();
    let log = NetLog::open(s.log.clone())?;
    ready(addr, &id.fingerprint(), &path);
    let running = Arc::new(AtomicUsize::new(0));
    let (argv, max) = (s.argv.clone(), s.max_bots);
    let cfg = tls::server_config(&id)?;
    let on_knock = Arc::new(move |mut sock: TcpStream, knocked: Knocked, peer: SocketAddr| {
        if running.fetch_add(1, Ordering::SeqCst) >= max {
            running.fetch_sub(1, Ordering::SeqCst);
            let _ = knock::refuse(&mut sock, &format!("busy: {max} bots running"));
            say(&format!("{peer}: refused, {max} bots running"));
            return;
        }
        let opened = knock::go_tls(&mut sock)
            .and_then(|_| open_tls(sock, &knocked, cfg.clone(), Instant::now() + HANDSHAKE_TIME))
            .and_then(|(mut link, hello)| welcome(&mut link, &hello).map(|_| link));
        match opened {
            Ok(link) => {
                say(&format!("{peer}: a referee connected; starting the bot"));
                match run_bot(link, &argv) {
                    Ok((ended, bot)) => say(&format!("{peer}: link ended ({ended:?}); bot: {bot}")),
                    Err(e) => say(&format!("{peer}: {e}")),
                }
            }
            Err(e) => say(&format!("{peer}: {e}")),
        }
        running.fetch_sub(1, Ordering::SeqCst);
    });
    let secret_of = Arc::new(move |n: &str| (n == SERVE_NAME).then_some(secret));
    accept_forever(listener, secret_of, on_knock, log);
    Ok(())
}

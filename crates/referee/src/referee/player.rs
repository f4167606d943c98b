//! A player at a table: a built-in bot or a bot process, with what the referee keeps about it
//! (its stderr log, the lines of the game in play, the view it asked for); and how a bot
//! process is started and greeted (`hello`).

use super::config::{Config, SeatSpec};
use super::faults::truncate;
use crate::bots::Bot;
use crate::game::SeatView;
use crate::process::{BotProcess, LogTarget, ReadResult};
use crate::protocol::{parse_reply, Hello, Reply, VERSION};
use std::time::Instant;

/// A bot process with what we know about it.
pub(super) struct Proc {
    pub(super) process: Option<BotProcess>,
    pub(super) hello: Hello,
    pub(super) next_id: u64,
    /// A restart failed in this game: the seat plays substitutes, and the bot is started
    /// again only when the next game begins (protocol.md §5), not at every decision.
    pub(super) gave_up: bool,
}

/// How a player's decisions are made: a built-in bot in this process, or a bot process.
pub(super) enum Engine {
    InProcess(Box<dyn Bot>),
    Process(Box<Proc>),
}

/// One player: a bot that can sit in any seat of a game.
pub struct Player {
    pub spec: SeatSpec,
    pub(super) engine: Engine,
    pub(super) log: Option<LogTarget>,
    /// The lines this player was sent in the current game, each ended by `\n` (for catching
    /// up a restarted bot). One string, not a string per line: no allocation per event.
    pub(super) history: String,
    /// The seat view, for process bots that asked for the JSON view.
    pub(super) view: Option<Box<dyn SeatView>>,
}

impl Player {
    pub fn name(&self) -> String {
        match &self.engine {
            Engine::InProcess(b) => b.name().to_string(),
            Engine::Process(p) => p.hello.name.clone(),
        }
    }
    pub fn version(&self) -> String {
        match &self.engine {
            Engine::InProcess(b) => b.version().to_string(),
            Engine::Process(p) => p.hello.version.clone(),
        }
    }
    /// A bot process (not a built-in bot in croupier's process).
    pub fn is_process(&self) -> bool {
        matches!(self.engine, Engine::Process(_))
    }
}

pub(super) fn start_process(p: usize, spec: &SeatSpec, log: Option<LogTarget>, cfg: &Config) -> Result<Proc, String> {
    let process = spawn_process(p, spec, log, cfg)?;
    handshake(
        process,
        spec.argv().unwrap_or_default(),
        Instant::now() + cfg.startup_time,
    )
}

/// Starts player `p`'s bot and sends `hello`; [`handshake`] reads the answer. Split so that a
/// table starts all its bots at once instead of paying each one's startup time in turn.
pub(super) fn spawn_process(
    p: usize,
    spec: &SeatSpec,
    log: Option<LogTarget>,
    cfg: &Config,
) -> Result<BotProcess, String> {
    let argv = spec.argv().unwrap_or_default();
    let mut process = BotProcess::spawn_logged(argv, log, cfg.limits_of(p, spec))?;
    if cfg.transcript.is_some() {
        process.keep_transcript();
    }
    process.send(&format!("1 hello {VERSION}"));
    Ok(process)
}

pub(super) fn handshake(mut process: BotProcess, argv: &[String], deadline: Instant) -> Result<Proc, String> {
    let cmd = shell_words::join(argv);
    loop {
        match process.read_line(deadline) {
            ReadResult::Line(line) => match parse_reply(&line) {
                Reply::Ignored => continue,
                Reply::Success { id, text } if id.is_none() || id == Some(1) => {
                    let hello = Hello::parse(&text).map_err(|e| format!("bot '{cmd}': {e}"))?;
                    return Ok(Proc {
                        process: Some(process),
                        hello,
                        next_id: 2,
                        gave_up: false,
                    });
                }
                Reply::Failure { text, .. } => {
                    return Err(format!("bot '{cmd}' refused the handshake: {text}"));
                }
                _ => {
                    return Err(format!(
                        "bot '{cmd}' answered the handshake with '{}' (expected '=1 <name> <version>')",
                        truncate(&line, 80)
                    ))
                }
            },
            ReadResult::Timeout => {
                return Err(format!(
                    "bot '{cmd}' did not answer the handshake in time (--startup-time)"
                ))
            }
            ReadResult::Exited { status } => {
                return Err(format!(
                    "bot '{cmd}' exited before the handshake{}",
                    status.map(|s| format!(" ({s})")).unwrap_or_default()
                ))
            }
            other => return Err(format!("bot '{cmd}' failed the handshake: {other:?}")),
        }
    }
}

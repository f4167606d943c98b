//! The referee: runs games between seats, routes every event to exactly its audience, asks
//! the seat to move for a decision with a deadline, and turns every bot failure into a
//! recorded fault with a deterministic legal substitute.

use crate::bots::{self, Bot};
use crate::chance::{derive, format_seed, Chance, DealSpec, Purpose, Rng};
use crate::game::{Arg, Event, FaultRuling, Game, GameInfo, GameSpec, Outcome, Seat, SeatView};
use crate::options::Options;
use crate::process::{BotProcess, Limits, LogTarget, ReadResult};
use crate::protocol::{parse_reply, ActLine, Hello, Reply, VERSION};
use crate::record::{ActionRecord, FaultRecord, ForfeitRecord, GameRecord, SeatRecord};
use compact_str::CompactString;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How a seat is played: a built-in bot in our process, or a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatSpec {
    Builtin(String),
    Command(Vec<String>),
}

impl SeatSpec {
    /// A built-in bot's name, or a command line split as a shell splits words (no shell runs).
    /// A command whose program is `croupier` runs this very executable.
    pub fn parse(s: &str) -> Result<SeatSpec, String> {
        if bots::is_builtin(s) {
            // Its parameters are checked here, so that a bad one is a usage error at once.
            bots::builtin(s, 0)?;
            return Ok(SeatSpec::Builtin(s.to_string()));
        }
        let mut argv = shell_words::split(s).map_err(|e| format!("bad seat command '{s}': {e}"))?;
        if argv.is_empty() {
            return Err("empty seat command".into());
        }
        if argv[0] == "croupier" {
            if let Ok(exe) = std::env::current_exe() {
                argv[0] = exe.to_string_lossy().into_owned();
            }
        }
        Ok(SeatSpec::Command(argv))
    }

    /// How the spec is written in records and messages.
    pub fn display(&self) -> String {
        match self {
            SeatSpec::Builtin(n) => n.clone(),
            SeatSpec::Command(argv) => shell_words::join(argv),
        }
    }
}

/// Referee settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Time a bot has for one decision.
    pub move_time: Duration,
    /// Time a bot has to start and answer `hello`.
    pub startup_time: Duration,
    /// Where bots' stderr logs go (created when a bot first writes to stderr): one file per
    /// bot name, `<log_prefix><name>.log`.
    pub log_dir: PathBuf,
    /// Prefix of log file names.
    pub log_prefix: String,
    /// The name of each player's bot (index = player), for its log file; a player without
    /// one is named after its spec.
    pub log_names: Vec<String>,
    /// Set when several tables of one run play at once: their bots share log files, each line
    /// labelled with the table and player.
    pub log_table: Option<usize>,
    /// Seed for built-in bots' own randomness.
    pub bot_seed: u64,
    /// The key of the seats' `rngseed`s. `None`: they are derived from each game's seed (only
    /// for tables of built-in bots, which see nothing a process could). `Some(k)`: they are
    /// derived from `k` and the game's seed, so that a bot cannot work back from its `rngseed`
    /// to the deal; `k` is recorded as the record's `bot_seed`.
    pub bot_key: Option<u64>,
    pub limits: Limits,
    /// `--time BANK+INC`: a clock per seat and game; `None`: only `move_time` limits a decision.
    pub clock: Option<Clock>,
    /// What a fault does to the game (`--on-fault`).
    pub on_fault: FaultPolicy,
    /// `--max-faults N`: a player with more ruled faults in the run is disqualified (abort:
    /// the run stops). `None`: no limit (abort: the first fault stops the run).
    pub max_faults: Option<u64>,
    /// Ruled faults per player over the whole run, shared by the run's tables.
    pub tally: Arc<FaultTally>,
    /// `--transcript DIR`: every line exchanged with each bot process, with times, one file
    /// per game and seat ([`transcript_path`]).
    pub transcript: Option<PathBuf>,
    /// Whether a game's record keeps its outcome's detail (contract, tricks, summary). Off
    /// where nothing reads it (a match that records nothing): the engine then works out the
    /// scores alone ([`Game::scores`]), and the record's detail is `null`.
    pub detail: bool,
    /// Whether a game's record keeps each action's token. Off where nothing reads the actions
    /// (no record line is written): the choice of a built-in bot that chooses by index is
    /// then applied without its token being written out, and the record's actions hold empty
    /// tokens.
    pub tokens: bool,
    /// Whether decisions are timed (the record's times, a report's time per decision). Off
    /// where nothing reads the times: a built-in bot's decisions are then not timed and the
    /// record's times are 0. With a clock (`--time`) every decision is timed.
    pub timing: bool,
}

/// A game clock (`--time BANK+INC`): every seat starts each game with `bank`; the time it takes
/// for a decision is taken off, then `increment` is added. A decision may take at most what is
/// on the clock (and at most `move_time`); past it, the answer is a `timeout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub bank: Duration,
    pub increment: Duration,
}

impl Clock {
    /// `BANK+INC` or `BANK` (durations like `60s`, `1.5s`, `500ms`, `2m`).
    pub fn parse(s: &str) -> Result<Clock, String> {
        let (bank, inc) = s.split_once('+').unwrap_or((s, "0s"));
        let d = |t: &str| match t.trim() {
            "0" | "0s" | "0ms" => Ok(Duration::ZERO),
            t => parse_duration(t).map_err(|e| format!("'{s}': {e}")),
        };
        let clock = Clock {
            bank: d(bank)?,
            increment: d(inc)?,
        };
        if clock.bank.is_zero() {
            return Err(format!("'{s}': the bank must be more than 0"));
        }
        Ok(clock)
    }
}

/// Each seat's thinking time in a game, and its clock (`--time`).
struct SeatTimes {
    /// Milliseconds spent deciding, per seat.
    think: Vec<f64>,
    /// What is left on each seat's clock, with `--time`.
    clock: Option<(Vec<Duration>, Clock)>,
}

impl SeatTimes {
    fn new(n: usize, clock: Option<Clock>) -> SeatTimes {
        SeatTimes {
            think: vec![0.0; n],
            clock: clock.map(|c| (vec![c.bank; n], c)),
        }
    }
    /// What is left on `seat`'s clock (with `--time`).
    fn left(&self, seat: Seat) -> Option<Duration> {
        self.clock.as_ref().map(|(left, _)| left[seat])
    }
    /// `seat` took `ms` for a decision: off its clock, then the increment on.
    fn spent(&mut self, seat: Seat, ms: f64) {
        self.think[seat] += ms;
        if let Some((left, clock)) = &mut self.clock {
            left[seat] = left[seat].saturating_sub(Duration::from_secs_f64(ms / 1000.0)) + clock.increment;
        }
    }
}

/// What a bot's fault does (`--on-fault`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FaultPolicy {
    /// The rules' ruling or a seeded random legal action is played for the seat; play goes on.
    #[default]
    Substitute,
    /// The faulting seat forfeits the game: it ends at once with the game's forfeit scores.
    Forfeit,
    /// The run stops: the game in play is not recorded, croupier exits with code 4.
    Abort,
}

impl FaultPolicy {
    pub fn parse(s: &str) -> Result<FaultPolicy, String> {
        match s {
            "substitute" => Ok(FaultPolicy::Substitute),
            "forfeit" => Ok(FaultPolicy::Forfeit),
            "abort" => Ok(FaultPolicy::Abort),
            _ => Err(format!("'{s}' is not a fault policy: substitute, forfeit or abort")),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            FaultPolicy::Substitute => "substitute",
            FaultPolicy::Forfeit => "forfeit",
            FaultPolicy::Abort => "abort",
        }
    }
}

/// Ruled faults per player (index = player) over a run; tables playing at once share it, so
/// with `--concurrency` above 1 which game a disqualification first touches depends on timing.
#[derive(Debug, Default)]
pub struct FaultTally(Mutex<Vec<u64>>);

impl FaultTally {
    /// Counts one fault of player `p`; returns the player's count now.
    fn add(&self, p: usize) -> u64 {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if v.len() <= p {
            v.resize(p + 1, 0);
        }
        v[p] += 1;
        v[p]
    }
    fn count(&self, p: usize) -> u64 {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(p)
            .copied()
            .unwrap_or(0)
    }
}

/// The error of a run stopped by `--on-fault abort` starts with this.
pub const ABORTED: &str = "aborted (--on-fault abort): ";
/// How the error of [`Table::play`] starts when a person at a `human` seat stopped the run
/// ([`Bot::stopped`]) before choosing anything in the game: it is not finished and not
/// recorded. Once the person has chosen an action, the game ends there as forfeited by their
/// seat instead, so that nothing played is lost, and [`Table::take_left`] says why.
pub const STOPPED: &str = "stopped: ";

/// The fault kind of a person who left a `human` seat (its forfeit's kind): no one is there.
pub const LEFT_FAULT: &str = "dead";

impl Default for Config {
    fn default() -> Config {
        Config {
            move_time: Duration::from_secs(10),
            startup_time: Duration::from_secs(10),
            log_dir: PathBuf::from("croupier-logs"),
            log_prefix: String::new(),
            log_names: Vec::new(),
            log_table: None,
            bot_seed: 0,
            bot_key: None,
            limits: Limits::default(),
            clock: None,
            on_fault: FaultPolicy::default(),
            max_faults: None,
            tally: Arc::default(),
            transcript: None,
            detail: true,
            tokens: true,
            timing: true,
        }
    }
}

/// The `rngseed` told to `seat` in the game of `game_seed` (see [`Config::bot_key`]).
pub fn rngseed(bot_key: Option<u64>, game_seed: u64, seat: Seat) -> u64 {
    let plain = derive(game_seed, Purpose::Bot, seat as u64);
    match bot_key {
        None => plain,
        Some(k) => derive(k, Purpose::Bot, plain),
    }
}

/// A bot process with what we know about it.
struct Proc {
    process: Option<BotProcess>,
    hello: Hello,
    next_id: u64,
    /// A restart failed in this game: the seat plays substitutes, and the bot is started
    /// again only when the next game begins (protocol.md §5), not at every decision.
    gave_up: bool,
}

enum Engine {
    InProcess(Box<dyn Bot>),
    Process(Box<Proc>),
}

/// One player: a bot that can sit in any seat of a game.
pub struct Player {
    pub spec: SeatSpec,
    engine: Engine,
    log: Option<LogTarget>,
    /// The lines this player was sent in the current game, each ended by `\n` (for catching
    /// up a restarted bot). One string, not a string per line: no allocation per event.
    history: String,
    /// The seat view, for process bots that asked for the JSON view.
    view: Option<Box<dyn SeatView>>,
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

/// A bot name or command line made into a file name: the last part of each path, characters
/// other than letters, digits and `._+=-` as `_`, at most 60 bytes.
/// The transcript of the bot in `seat` of the game of `game_seed` (as the record writes the
/// seed): `DIR/game-<seed>-seat<seat>-<name>.txt`, `name` as in its stderr log's name.
pub fn transcript_path(dir: &std::path::Path, game_seed: u64, seat: Seat, name: &str) -> PathBuf {
    dir.join(format!(
        "game-{}-seat{seat}-{}.txt",
        format_seed(game_seed),
        log_file_name(name.to_string())
    ))
}

pub fn log_file_name(name: String) -> String {
    let words: Vec<&str> = name
        .split_whitespace()
        .map(|w| w.trim_end_matches('/').rsplit('/').next().unwrap_or(w))
        .collect();
    let mut out: String = words
        .join("_")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._+=-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.starts_with('.') {
        out.replace_range(..1, "_");
    }
    out.truncate(60); // ASCII only: any length is a character boundary
    if out.is_empty() {
        "bot".into()
    } else {
        out
    }
}

/// A fault seen while asking a bot for a decision.
struct Fault {
    kind: &'static str,
    message: String,
    restart: bool,
}

/// A set of players that play games together (a table). Processes are spawned once and kept
/// across games; a crashed or hung bot is restarted.
pub struct Table {
    pub players: Vec<Player>,
    cfg: Config,
    /// The protocol line of the event being routed, made once for all its process seats.
    line: String,
    /// Why the person at a human seat left during the last game, which ended there (forfeited).
    left: Option<String>,
}

fn start_process(argv: &[String], log: Option<LogTarget>, cfg: &Config) -> Result<Proc, String> {
    let process = spawn_process(argv, log, cfg)?;
    handshake(process, argv, Instant::now() + cfg.startup_time)
}

/// Starts a bot and sends `hello`; [`handshake`] reads the answer. Split so that a table
/// starts all its bots at once instead of paying each one's startup time in turn.
fn spawn_process(argv: &[String], log: Option<LogTarget>, cfg: &Config) -> Result<BotProcess, String> {
    let mut process = BotProcess::spawn_logged(argv, log, cfg.limits)?;
    if cfg.transcript.is_some() {
        process.keep_transcript();
    }
    process.send(&format!("1 hello {VERSION}"));
    Ok(process)
}

/// Milliseconds with microsecond resolution (fast in-process bots are not all 0), as the
/// records hold them. Through a `u64`: `as_micros()` is a `u128`, and its conversion to a
/// float took 3 % of a match of random Kul bots.
pub(crate) fn ms_of(d: Duration) -> f64 {
    (d.as_secs() * 1_000_000 + u64::from(d.subsec_micros())) as f64 / 1000.0
}

fn handshake(mut process: BotProcess, argv: &[String], deadline: Instant) -> Result<Proc, String> {
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

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

impl Table {
    /// Starts every player (spawns processes and does the handshake).
    pub fn new(specs: &[SeatSpec], cfg: Config) -> Result<Table, String> {
        // Spawn every process first, then read the handshakes: startups overlap.
        let logs = Self::log_targets(&cfg, specs);
        let mut spawned: Vec<Option<BotProcess>> = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            spawned.push(match spec {
                SeatSpec::Command(argv) => Some(spawn_process(argv, logs[i].clone(), &cfg)?),
                SeatSpec::Builtin(_) => None,
            });
        }
        let deadline = Instant::now() + cfg.startup_time;
        let mut players = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            let (engine, log) = match spec {
                SeatSpec::Builtin(name) => {
                    let bot = bots::builtin(name, derive(cfg.bot_seed, Purpose::Bot, i as u64))?;
                    (Engine::InProcess(bot), None)
                }
                SeatSpec::Command(argv) => {
                    let process = spawned[i].take().expect("spawned above");
                    (
                        Engine::Process(Box::new(handshake(process, argv, deadline)?)),
                        logs[i].clone(),
                    )
                }
            };
            players.push(Player {
                spec: spec.clone(),
                engine,
                log,
                history: String::new(),
                view: None,
            });
        }
        Ok(Table {
            players,
            cfg,
            line: String::new(),
            left: None,
        })
    }

    /// Why the person at a human seat left during the last game, once: that game ended there,
    /// forfeited by the seat (its record holds what was played), and the run stops.
    pub fn take_left(&mut self) -> Option<String> {
        self.left.take()
    }

    /// The stderr log of each player that is a process: one file per bot name; a file that
    /// several processes write (a bot in two seats, or at several tables) labels each line.
    fn log_targets(cfg: &Config, specs: &[SeatSpec]) -> Vec<Option<LogTarget>> {
        let names: Vec<Option<String>> = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| match spec {
                SeatSpec::Builtin(_) => None,
                SeatSpec::Command(_) => Some(log_file_name(
                    cfg.log_names.get(i).cloned().unwrap_or_else(|| spec.display()),
                )),
            })
            .collect();
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let name = name.as_ref()?;
                let shared = names.iter().filter(|n| n.as_ref() == Some(name)).count() > 1;
                let label = match cfg.log_table {
                    Some(t) => Some(format!("[table {t}, player {i}] ")),
                    None => shared.then(|| format!("[player {i}] ")),
                };
                Some(LogTarget {
                    path: cfg.log_dir.join(format!("{}{name}.log", cfg.log_prefix)),
                    label,
                })
            })
            .collect()
    }

    /// Sends a notification to a player: an in-process bot gets it as a call; a process gets
    /// its protocol line (made by the caller, once per event, into `self.line` when it is
    /// empty), kept for a restart's catch-up, folded into the view it asked for, and queued.
    fn send(&mut self, p: usize, kind: &str, args: &[Arg]) {
        let player = &mut self.players[p];
        match &mut player.engine {
            // After `start`: events only.
            Engine::InProcess(bot) => bot.event(kind, args),
            Engine::Process(proc) => {
                if self.line.is_empty() {
                    crate::protocol::write_notification(&mut self.line, kind, args);
                }
                if let Some(v) = &mut player.view {
                    v.observe(kind, args);
                }
                if let Some(pr) = &mut proc.process {
                    pr.send(&self.line);
                }
                player.history.push_str(&self.line);
                player.history.push('\n');
            }
        }
    }

    /// Sends one event to the players `to`: its line is made at most once.
    fn send_event(&mut self, to: impl IntoIterator<Item = usize>, kind: &str, args: &[Arg]) {
        self.line.clear();
        for p in to {
            self.send(p, kind, args);
        }
    }

    fn notify(&mut self, p: usize, kind: &str, args: Vec<String>) {
        let args: Vec<Arg> = args.into_iter().map(Arg::Text).collect();
        self.send_event([p], kind, &args);
    }

    /// Restarts a process player and catches it up with the current game's lines.
    fn restart(&mut self, p: usize) -> Result<(), String> {
        let cfg = self.cfg.clone();
        let player = &mut self.players[p];
        let SeatSpec::Command(argv) = &player.spec else {
            return Ok(());
        };
        // A stopping run starts no bot: the game in play ends with the seat's substitutes
        // instead of waiting out a new process's start-up.
        if crate::interrupt::requested().is_some() {
            if let Engine::Process(proc) = &mut player.engine {
                if let Some(mut old) = proc.process.take() {
                    old.kill();
                }
            }
            return Err("croupier is stopping: no new start".to_string());
        }
        if let Engine::Process(proc) = &mut player.engine {
            let mut old = proc.process.take();
            if let Some(old) = &mut old {
                old.kill();
            }
            let mut fresh = start_process(argv, player.log.clone(), &cfg)?;
            // The new process's lines go on in the transcript of the game in play.
            if let (Some(pr), Some(old)) = (&mut fresh.process, &mut old) {
                pr.transcript_after(old).map_err(|e| format!("--transcript: {e}"))?;
            }
            **proc = fresh;
            if let Some(pr) = &mut proc.process {
                for line in player.history.lines() {
                    pr.send(line);
                }
            }
        }
        Ok(())
    }

    /// `Some(N)` when player `p` has more than `--max-faults N` faults in this run.
    fn disqualified(&self, p: usize) -> Option<u64> {
        self.cfg.max_faults.filter(|&m| self.cfg.tally.count(p) > m)
    }

    /// Player `p` is disqualified: its process is stopped and never started again.
    fn disqualify(&mut self, p: usize) {
        if let Engine::Process(proc) = &mut self.players[p].engine {
            if let Some(mut old) = proc.process.take() {
                old.kill();
            }
            proc.gave_up = true;
        }
    }

    /// Tells player `p` that a game starts, in seat `s` of `n`: an in-process bot gets the
    /// setup as a value, a process its setup lines (and a fresh view if it asked for views).
    fn set_up(&mut self, p: usize, spec: &GameSpec, options: &Options, n: usize, s: Seat, rngseed: u64) {
        let info = GameInfo {
            game: spec.name.into(),
            options: options.clone(),
            players: n,
            seat: s,
        };
        let player = &mut self.players[p];
        player.history.clear();
        let wants_view = matches!(&player.engine, Engine::Process(pr) if pr.hello.wants_view());
        player.view = wants_view.then(|| (spec.new_view)(&info));
        if let Engine::InProcess(bot) = &mut player.engine {
            // The setup the lines below would spell out, as a value: nothing to re-parse.
            bot.start(&info, rngseed);
            return;
        }
        for (kind, args) in crate::protocol::setup_notifications(spec.name, options, n, s, rngseed) {
            self.notify(p, kind, args);
        }
    }

    /// Puts a position to player `p` (`croupier ask`): the setup of a game of `n` seats with
    /// `p` in seat `s`, the events `s` saw up to a decision, then the decision itself, with
    /// `move_time`. Returns the answer and the milliseconds it took, or the fault in words.
    #[allow(clippy::too_many_arguments)]
    pub fn ask_position(
        &mut self,
        p: usize,
        spec: &GameSpec,
        options: &Options,
        (n, s, rngseed): (usize, Seat, u64),
        events: &[Event],
        decision: &str,
        legal: &[String],
    ) -> Result<(String, f64), String> {
        self.set_up(p, spec, options, n, s, rngseed);
        for ev in events.iter().filter(|e| e.to.contains(s)) {
            self.send_event([p], ev.kind, &ev.args);
        }
        let (answer, ms, garbage) = self.ask(p, decision, legal, self.cfg.move_time);
        let garbage = garbage
            .map(|g| format!(" ({}: {})", g.kind, g.message))
            .unwrap_or_default();
        match answer {
            Ok(a) => Ok((a, ms)),
            Err(f) => Err(format!("{}: {}{garbage}", f.kind, f.message)),
        }
    }

    /// Asks player `p` for a decision. Returns the answer or a fault, the time it took, and a
    /// `garbage` fault when the bot wrote lines that are not protocol while deciding (they do
    /// not void a valid answer, but are recorded and told to the bot).
    fn ask(
        &mut self,
        p: usize,
        decision: &str,
        legal: &[String],
        time: Duration,
    ) -> (Result<String, Fault>, f64, Option<Fault>) {
        let time_ms = time.as_millis() as u64;
        let elapsed = |s: Instant| ms_of(s.elapsed());
        if let Engine::InProcess(bot) = &mut self.players[p].engine {
            // Timed only where the time is read.
            let start = (self.cfg.timing || self.cfg.clock.is_some()).then(Instant::now);
            let a = bot.act(decision, time_ms, legal);
            return (Ok(a), start.map_or(0.0, elapsed), None);
        }
        let start = Instant::now();
        let view_line = self.players[p].view.as_ref().map(|v| {
            let mut j = v.to_json();
            if let Some(o) = j.as_object_mut() {
                o.insert("decision".into(), decision.into());
                o.insert("legal".into(), legal.to_vec().into());
                o.insert("time_ms".into(), time_ms.into());
            }
            format!("view {j}")
        });
        let Engine::Process(proc) = &mut self.players[p].engine else {
            unreachable!("an in-process bot was answered above")
        };
        let Some(pr) = proc.process.as_mut() else {
            let f = Fault {
                kind: "dead",
                message: "the bot is not running".into(),
                restart: !proc.gave_up,
            };
            return (Err(f), 0.0, None);
        };
        // What the bot wrote before this request cannot answer it (an early `=<id> …` guess
        // included): replies are dropped like late ones, garbage is counted.
        let mut garbage = 0usize;
        let mut first_garbage = String::new();
        for line in pr.stale_lines() {
            if let Reply::Garbage(text) = parse_reply(&line) {
                garbage += 1;
                if garbage == 1 {
                    first_garbage = text;
                }
            }
        }
        let id = proc.next_id;
        proc.next_id += 1;
        if let Some(v) = view_line {
            pr.send(&v);
        }
        pr.send_display(ActLine {
            id,
            decision,
            time_ms,
            legal,
        });
        // Everything queued for this bot since its last decision goes out in one write.
        pr.flush();
        let deadline = start + time;
        let fault = |kind: &'static str, message: String, restart: bool| Err(Fault { kind, message, restart });
        let result = loop {
            match pr.read_line(deadline) {
                ReadResult::Line(line) => match parse_reply(&line) {
                    Reply::Ignored => continue,
                    // A late answer to an earlier request.
                    Reply::Success { id: Some(other), .. } | Reply::Failure { id: Some(other), .. } if other != id => {
                        continue
                    }
                    Reply::Success { text, .. } => break Ok(text),
                    Reply::Failure { text, .. } => {
                        break fault(
                            "error",
                            format!("the bot answered an error: {}", truncate(&text, 200)),
                            false,
                        )
                    }
                    Reply::Garbage(text) => {
                        garbage += 1;
                        if garbage == 1 {
                            first_garbage = text;
                        }
                        if garbage > 100 {
                            break fault("flood", "more than 100 unrecognized lines while deciding".into(), true);
                        }
                    }
                },
                ReadResult::Timeout => {
                    let looked = pr.late_look().unwrap_or_default().as_secs_f64() * 1000.0;
                    let clock = if time < self.cfg.move_time {
                        ", all its clock had left"
                    } else {
                        ""
                    };
                    let message = format!(
                        "no answer within {time_ms} ms{clock} (croupier looked {looked:.2} ms after the deadline)"
                    );
                    break fault("timeout", message, true);
                }
                ReadResult::Exited { status: Some(s) } => break fault("crash", format!("the bot exited ({s})"), true),
                ReadResult::Exited { status: None } => {
                    let what = "the bot closed its standard output but did not exit";
                    break fault("crash", what.into(), true);
                }
                ReadResult::Flood(m) => break fault("flood", format!("a line over the size limit: {m}"), true),
                ReadResult::NotReading => break fault("flood", "the bot does not read its input".into(), true),
            }
        };
        let flooded = matches!(&result, Err(f) if f.kind == "flood");
        let garbage = (garbage > 0 && !flooded).then(|| Fault {
            kind: "garbage",
            message: match garbage {
                1 => format!("a line that is not protocol: '{}'", truncate(&first_garbage, 80)),
                k => format!(
                    "{k} lines that are not protocol, the first: '{}'",
                    truncate(&first_garbage, 80)
                ),
            },
            restart: false,
        });
        (result, elapsed(start), garbage)
    }

    /// Plays one game. `seat_of[s]` is the player index in game seat `s`.
    pub fn play(
        &mut self,
        spec: &GameSpec,
        options: &Options,
        game_seed: u64,
        deals: Vec<DealSpec>,
        seat_of: &[usize],
    ) -> Result<GameRecord, String> {
        let n = seat_of.len();
        let started = Instant::now();
        let chance = Chance::given(game_seed, deals).titled(spec.title);
        // Nobody reads the events when every seat is a built-in bot that needs no view.
        let listening = seat_of.iter().any(|&p| match &self.players[p].engine {
            Engine::Process(_) => true,
            Engine::InProcess(bot) => bot.listens(),
        });
        let mut game = (spec.new_game)(n, options, chance, listening)?;
        // A bot that could not be restarted in the last game gets one new start now.
        for &p in seat_of {
            if self.disqualified(p).is_some() {
                continue;
            }
            if let Engine::Process(proc) = &mut self.players[p].engine {
                if proc.process.is_none() {
                    self.players[p].history.clear();
                    if self.restart(p).is_err() {
                        if let Engine::Process(proc) = &mut self.players[p].engine {
                            proc.gave_up = true;
                        }
                    }
                }
            }
        }
        if let Some(dir) = &self.cfg.transcript {
            for (s, &p) in seat_of.iter().enumerate() {
                let name = self
                    .cfg
                    .log_names
                    .get(p)
                    .cloned()
                    .unwrap_or_else(|| self.players[p].spec.display());
                if let Engine::Process(proc) = &mut self.players[p].engine {
                    if let Some(pr) = &mut proc.process {
                        let path = transcript_path(dir, game_seed, s, &name);
                        pr.transcript_to(&path).map_err(|e| format!("--transcript: {e}"))?;
                    }
                }
            }
        }
        // Setup lines.
        for (s, &p) in seat_of.iter().enumerate() {
            let rngseed = rngseed(self.cfg.bot_key, game_seed, s);
            self.set_up(p, spec, options, n, s, rngseed);
        }
        let mut actions: Vec<ActionRecord> = Vec::new();
        let mut faults: Vec<FaultRecord> = Vec::new();
        let mut forfeit: Option<ForfeitRecord> = None;
        let mut time = SeatTimes::new(n, self.cfg.clock);
        // The legal tokens of each decision, written into the same strings every time.
        let mut legal: Vec<String> = Vec::new();
        let mut token_buf = String::new();
        let timed = self.cfg.timing || self.cfg.clock.is_some();
        let mut events: Vec<Event> = Vec::new();
        loop {
            game.take_events_into(&mut events);
            // Read in place, then dropped in place: an event is not moved again.
            for ev in &events {
                self.route(ev, seat_of);
            }
            events.clear();
            let Some(seat) = game.to_move() else { break };
            // A built-in bot that chooses by index (random) needs no tokens: only the one chosen
            // is made, for the record.
            if let (true, Engine::InProcess(bot)) = (game.indexed(), &mut self.players[seat_of[seat]].engine) {
                let count = game.legal_count();
                // The clock is read, and the token written, only for what reads them.
                let start = timed.then(Instant::now);
                if let Some(i) = bot
                    .act_by_index(game.decision(), count, game.typed_legal())
                    .filter(|&i| i < count)
                {
                    let ms = start.map_or(0.0, |s| ms_of(s.elapsed()));
                    time.spent(seat, ms);
                    let deal = game.chance().deals().len();
                    let action = if self.cfg.tokens {
                        token_buf.clear();
                        game.write_legal_token(i, &mut token_buf);
                        CompactString::from(token_buf.as_str())
                    } else {
                        CompactString::default()
                    };
                    game.apply_legal(i)
                        .map_err(|e| format!("internal error: legal action refused: {e}"))?;
                    actions.push(ActionRecord {
                        deal,
                        seat,
                        action,
                        ms,
                        substitute: false,
                    });
                    continue;
                }
            }
            legal_into(game.as_mut(), &mut legal);
            if legal.is_empty() {
                return Err(format!(
                    "internal error: {} offers seat {seat} no legal action",
                    spec.name
                ));
            }
            let decision = game.decision();
            let p = seat_of[seat];
            let disqualified = self.disqualified(p);
            let (answer, ms, garbage) = match disqualified {
                Some(max) => {
                    let message = format!("disqualified: more than {max} faults in this run (--max-faults)");
                    (
                        Err(Fault {
                            kind: "dead",
                            message,
                            restart: false,
                        }),
                        0.0,
                        None,
                    )
                }
                None => {
                    let limit = match (time.left(seat), self.cfg.clock) {
                        (Some(left), Some(clock)) => {
                            if self.players[p].is_process() {
                                let inc = clock.increment.as_millis().to_string();
                                self.notify(p, "clock", vec![left.as_millis().to_string(), inc]);
                            }
                            self.cfg.move_time.min(left)
                        }
                        _ => self.cfg.move_time,
                    };
                    self.ask(p, decision, &legal, limit)
                }
            };
            // A person who ended the input at a human seat's prompt stops the run here. What
            // they played is kept: once they chose an action, the game ends as their forfeit.
            if let Engine::InProcess(bot) = &self.players[p].engine {
                if let Some(why) = bot.stopped() {
                    if !actions.iter().any(|a| a.seat == seat) {
                        return Err(format!("{STOPPED}{why}"));
                    }
                    time.spent(seat, ms);
                    let deal = game.chance().deals().len();
                    let message = format!("{why}: the person left; the game ends here, forfeited");
                    faults.push(self.fault_record(seat, p, deal, actions.len(), LEFT_FAULT, message));
                    forfeit = Some(ForfeitRecord {
                        seat,
                        fault: LEFT_FAULT.to_string(),
                    });
                    self.left = Some(why);
                    break;
                }
            }
            time.spent(seat, ms);
            let deal = game.chance().deals().len();
            if let Some(g) = garbage {
                faults.push(self.fault_record(seat, p, deal, actions.len(), g.kind, g.message.clone()));
                self.notify(p, "fault", vec![g.kind.to_string(), g.message]);
            }
            let mut fault: Option<Fault> = None;
            let mut chosen = None;
            match answer {
                Ok(token) => {
                    if let Some(i) = legal.iter().position(|l| *l == token) {
                        // A typed game applies the action it listed, without reading the token.
                        if game.indexed() {
                            game.apply_legal(i)
                        } else {
                            game.apply(&token)
                        }
                        .map_err(|e| format!("internal error: legal action refused: {e}"))?;
                        chosen = Some(token);
                    } else {
                        let why = match game.apply(&token) {
                            Err(e) => e,
                            Ok(()) => unreachable!("an action missing from the legal list was accepted"),
                        };
                        fault = Some(Fault {
                            kind: "illegal",
                            message: format!("illegal action '{}': {why}", truncate(&token, 60)),
                            restart: false,
                        });
                    }
                }
                Err(f) => fault = Some(f),
            }
            if let Some(f) = &mut fault {
                let count = if disqualified.is_some() {
                    0
                } else {
                    self.cfg.tally.add(p)
                };
                let over = self.cfg.max_faults.is_some_and(|m| count > m);
                match self.cfg.on_fault {
                    FaultPolicy::Abort if self.cfg.max_faults.is_none() || over => {
                        return Err(format!(
                            "{ABORTED}seat {seat} ({}): {}: {}",
                            self.players[p].name(),
                            f.kind,
                            f.message
                        ));
                    }
                    FaultPolicy::Forfeit => {
                        let message = format!("{}; seat {seat} forfeits the game", f.message);
                        faults.push(self.fault_record(seat, p, deal, actions.len(), f.kind, message));
                        self.notify(p, "fault", vec![f.kind.to_string(), f.message.clone()]);
                        forfeit = Some(ForfeitRecord {
                            seat,
                            fault: f.kind.to_string(),
                        });
                    }
                    _ => {}
                }
                if over {
                    self.disqualify(p);
                    f.restart = false;
                }
                if forfeit.is_some() {
                    if f.restart {
                        let _ = self.restart(p);
                    }
                    break;
                }
            }
            let substitute = chosen.is_none();
            let token = match chosen {
                Some(t) => Some(t),
                None => {
                    let kind = fault.as_ref().map(|f| f.kind).unwrap_or("error");
                    substitute_for(game.as_mut(), seat, kind, game_seed, actions.len())?
                }
            };
            if let Some(f) = fault {
                let message = match &token {
                    Some(t) => format!("{}; played {t} instead", f.message),
                    None => format!("{}; the rules settled the turn", f.message),
                };
                faults.push(self.fault_record(seat, p, deal, actions.len(), f.kind, message));
                self.notify(p, "fault", vec![f.kind.to_string(), f.message.clone()]);
                if f.restart {
                    if let Err(e) = self.restart(p) {
                        let message = format!("could not restart the bot: {e}");
                        faults.push(self.fault_record(seat, p, deal, actions.len(), "restart", message));
                        if let Engine::Process(proc) = &mut self.players[p].engine {
                            proc.process = None;
                            proc.gave_up = true;
                        }
                    }
                }
            }
            if let Some(action) = token {
                actions.push(ActionRecord {
                    deal,
                    seat,
                    action: action.into(),
                    ms,
                    substitute,
                });
            }
        }
        let outcome = match &forfeit {
            Some(f) => Outcome {
                scores: (spec.forfeit)(n, f.seat, options),
                detail: serde_json::json!({"forfeit": f.seat, "fault": f.fault}),
            },
            None if self.cfg.detail => game
                .outcome()
                .ok_or_else(|| format!("internal error: {} stopped without an outcome", spec.name))?,
            None => Outcome {
                scores: game
                    .scores()
                    .ok_or_else(|| format!("internal error: {} stopped without an outcome", spec.name))?,
                detail: Value::Null,
            },
        };
        let score_args = crate::protocol::gameover_event_args(&outcome.scores);
        for &p in seat_of {
            self.send_event([p], "gameover", &score_args);
            if let Engine::Process(proc) = &mut self.players[p].engine {
                if let Some(pr) = &mut proc.process {
                    pr.flush_transcript().map_err(|e| format!("--transcript: {e}"))?;
                }
            }
        }
        let seats = seat_of
            .iter()
            .enumerate()
            .map(|(s, &p)| SeatRecord {
                player: p,
                spec: self.players[p].spec.display(),
                name: self.players[p].name(),
                version: self.players[p].version(),
                think_ms: (time.think[s] * 1000.0).round() / 1000.0,
                clock_ms: time.left(s).map(ms_of),
            })
            .collect();
        // The game is over: its deals move into the record (copied only when a bot's search
        // still shares them).
        let source = game.chance().source();
        let deals = game.chance().shared_deals();
        drop(game);
        let deals = std::sync::Arc::try_unwrap(deals).unwrap_or_else(|d| d.as_ref().clone());
        let mut rec = GameRecord::new(
            spec.name,
            n,
            options,
            format_seed(game_seed),
            source,
            seats,
            deals,
            actions,
            faults,
            outcome,
            started.elapsed().as_millis() as u64,
        );
        rec.bot_seed = self.cfg.bot_key.map(format_seed);
        rec.forfeit = forfeit;
        Ok(rec)
    }

    /// The record of a fault of player `p` in `seat`, before action `action` of deal `deal`.
    fn fault_record(
        &self,
        seat: Seat,
        p: usize,
        deal: usize,
        action: usize,
        kind: &str,
        message: String,
    ) -> FaultRecord {
        FaultRecord {
            seat,
            player: p,
            deal,
            action,
            kind: kind.to_string(),
            message: format!("seat {seat} ({}): {message}", self.players[p].name()),
        }
    }

    fn route(&mut self, ev: &Event, seat_of: &[usize]) {
        self.send_event(ev.to.members(seat_of.len()).map(|s| seat_of[s]), ev.kind, &ev.args);
    }

    /// Ends every bot: `quit`, one shared grace period, then SIGKILL.
    pub fn shutdown(&mut self) {
        // Tell every bot first, then wait for all of them at once (process::shutdown_all).
        for player in &mut self.players {
            if let Engine::Process(proc) = &mut player.engine {
                if let Some(pr) = &mut proc.process {
                    pr.send(&format!("{} quit", proc.next_id));
                }
            }
        }
        let mut procs: Vec<BotProcess> = self
            .players
            .iter_mut()
            .filter_map(|player| match &mut player.engine {
                Engine::Process(proc) => proc.process.take(),
                Engine::InProcess(_) => None,
            })
            .collect();
        let mut refs: Vec<&mut BotProcess> = procs.iter_mut().collect();
        crate::process::shutdown_all(&mut refs, Duration::from_millis(500));
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The legal tokens of the seat to move, into `out`: a typed game writes them into the strings
/// `out` already holds (no allocation once they have grown), others make new ones.
fn legal_into(game: &mut dyn Game, out: &mut Vec<String>) {
    if !game.indexed() {
        *out = game.legal_actions();
        return;
    }
    let n = game.legal_count();
    out.truncate(n);
    out.resize_with(n, String::new);
    for (i, token) in out.iter_mut().enumerate() {
        token.clear();
        game.write_legal_token(i, token);
    }
}

/// The action played for a seat that faulted: what the rules say ([`Game::on_fault`]), else a
/// legal action drawn from the game seed and the action's index (so `replay` draws the same).
/// `None` when the rules settled the turn without an action.
pub fn substitute_for(
    game: &mut dyn Game,
    seat: Seat,
    kind: &str,
    game_seed: u64,
    action_index: usize,
) -> Result<Option<String>, String> {
    let t = match game.on_fault(seat, kind) {
        FaultRuling::Handled => return Ok(None),
        FaultRuling::Play(t) => t,
        FaultRuling::Substitute => {
            let legal = game.legal_actions();
            if legal.is_empty() {
                return Err("internal error: no legal action for a substitute".into());
            }
            let i = Rng::few(game_seed, Purpose::Substitute, action_index as u64).below(legal.len() as u64) as usize;
            legal[i].clone()
        }
    };
    game.apply(&t)
        .map_err(|e| format!("internal error: substitute {t} refused: {e}"))?;
    Ok(Some(t))
}

/// The player index of each seat for a plain game (player i sits in seat i).
pub fn identity(n: usize) -> Vec<Seat> {
    (0..n).collect()
}

/// Parses durations like `300ms`, `2s`, `1.5s`, `1m`.
pub fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let t = s.trim();
    let (num, mult) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        return Err(format!(
            "bad duration '{s}': write a number with a unit, like 300ms, 2s or 1m"
        ));
    };
    match num.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(std::time::Duration::from_secs_f64(x * mult)),
        _ => Err(format!(
            "bad duration '{s}': write a positive number with a unit, like 300ms, 2s or 1m"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{identity, log_file_name, ms_of, Config, SeatSpec, Table};
    use crate::options::Options;
    use std::time::Duration;

    /// A table that neither times decisions nor writes tokens plays the very games a table
    /// that does plays: the same deals, seats and scores, as many actions; only the tokens
    /// and times nothing reads are left out.
    #[test]
    fn a_table_that_records_nothing_plays_the_same_games() {
        for (game, bots) in [
            ("rikken", ["random", "random", "random", "random"]),
            ("rikken", ["simple", "random", "simple", "random"]),
            ("kul", ["random", "simple", "random", "simple"]),
        ] {
            let spec = crate::games::find(game).expect("a game");
            let options = Options::resolve::<&str>(&(spec.options)(), spec.name, &[]).expect("default options");
            let seats: Vec<SeatSpec> = bots.iter().map(|b| SeatSpec::Builtin(b.to_string())).collect();
            let quiet = Config {
                tokens: false,
                timing: false,
                ..Config::default()
            };
            let mut full = Table::new(&seats, Config::default()).expect("built-in seats");
            let mut bare = Table::new(&seats, quiet).expect("built-in seats");
            let seat_of = identity(seats.len());
            for seed in 0..20 {
                let a = full.play(&spec, &options, seed, vec![], &seat_of).expect("a game");
                let b = bare.play(&spec, &options, seed, vec![], &seat_of).expect("a game");
                assert_eq!(
                    (&a.deals, &a.result.scores),
                    (&b.deals, &b.result.scores),
                    "{game} seed {seed}"
                );
                assert_eq!(a.actions.len(), b.actions.len());
                assert!(a
                    .actions
                    .iter()
                    .zip(&b.actions)
                    .all(|(x, y)| x.seat == y.seat && x.deal == y.deal));
                assert!(a.actions.iter().all(|x| !x.action.is_empty()));
                // Random seats choose by index: no token written, no clock read.
                let by_index = b.actions.iter().filter(|x| x.action.is_empty()).count();
                assert!(by_index > 0 || !bots.contains(&"random"), "{game} seed {seed}");
                assert!(b.actions.iter().all(|x| x.ms == 0.0) && b.seats.iter().all(|s| s.think_ms == 0.0));
            }
        }
    }

    #[test]
    fn milliseconds_keep_microseconds_and_drop_the_rest() {
        for (d, ms) in [
            (Duration::from_nanos(999), 0.0),
            (Duration::from_nanos(1_999), 0.001),
            (Duration::from_micros(12_345), 12.345),
            (Duration::new(90_061, 250_000_999), 90_061_250.0),
        ] {
            assert_eq!(ms_of(d), ms, "{d:?}");
            assert_eq!(ms_of(d), d.as_micros() as f64 / 1000.0, "{d:?}");
        }
    }

    #[test]
    fn log_file_names_are_plain_file_names() {
        assert_eq!(log_file_name("mine".into()), "mine");
        assert_eq!(
            log_file_name("python3 bots/python/bot.py --level 3".into()),
            "python3_bot.py_--level_3"
        );
        assert_eq!(log_file_name("./mybot".into()), "mybot");
        assert_eq!(log_file_name("../a b/c".into()), "a_c");
        assert_eq!(log_file_name(".hidden".into()), "_hidden");
        assert_eq!(log_file_name("ünï".into()), "_n_");
        assert_eq!(log_file_name("".into()), "bot");
        assert_eq!(log_file_name("x".repeat(100)).len(), 60);
    }
}

//! A referee's settings: how each seat is played ([`SeatSpec`]), the [`Config`] of a table
//! (deadlines, logs, seeds, limits, the clock, what a fault does, what a record keeps), and
//! the policy on faults ([`FaultPolicy`]).

use super::clock::Clock;
use super::faults::FaultTally;
use crate::bots;
use crate::process::Limits;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How a seat is played: a built-in bot in our process, a command, or a bot on another
/// machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatSpec {
    Builtin(String),
    Command(Vec<String>),
    /// A network seat, `remote:NAME` or `tcp://HOST:PORT?token=FILE` (`spec`): played by a
    /// local process of croupier's own (`argv`, `croupier link …`) that carries the seat's
    /// lines over the link, so that the table's clocks, faults, restarts and transcripts are
    /// those of any process seat.
    Remote {
        spec: String,
        argv: Vec<String>,
    },
}

/// This executable, for the commands croupier starts of itself.
fn this_exe() -> String {
    std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "croupier".to_string())
}

/// The command line of a `remote:NAME` seat's local process (the hub lets in only a process
/// started with exactly this).
pub fn remote_link_argv(name: &str) -> Vec<String> {
    vec![this_exe(), "link".into(), "remote".into(), name.into()]
}

impl SeatSpec {
    /// A built-in bot's name, a network seat (`remote:NAME`, `tcp://HOST:PORT?token=FILE`), or
    /// a command line split as a shell splits words (no shell runs). A command whose program
    /// is `croupier` runs this very executable.
    pub fn parse(s: &str) -> Result<SeatSpec, String> {
        if let Some(name) = s.strip_prefix("remote:") {
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
                return Err(format!(
                    "'{s}': a remote seat's name is letters, digits, '-', '_' or '.' (remote:alice)"
                ));
            }
            return Ok(SeatSpec::Remote {
                spec: s.to_string(),
                argv: remote_link_argv(name),
            });
        }
        if let Some(rest) = s.strip_prefix("tcp://") {
            let (addr, token) = rest.split_once("?token=").ok_or_else(|| {
                format!("'{s}': give the bot host's token file: tcp://HOST:PORT?token=FILE (serve-bot wrote it)")
            })?;
            if !addr.contains(':') || token.is_empty() {
                return Err(format!("'{s}': expected tcp://HOST:PORT?token=FILE"));
            }
            let token = std::path::absolute(token).map_err(|e| format!("'{s}': {e}"))?;
            if !token.is_file() {
                return Err(format!("'{s}': no token file {}", token.display()));
            }
            return Ok(SeatSpec::Remote {
                spec: s.to_string(),
                argv: vec![
                    this_exe(),
                    "link".into(),
                    "dial".into(),
                    addr.to_string(),
                    "--token-file".into(),
                    token.to_string_lossy().into_owned(),
                ],
            });
        }
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
            argv[0] = this_exe();
        }
        Ok(SeatSpec::Command(argv))
    }

    /// The command line of a seat played by a process.
    pub fn argv(&self) -> Option<&[String]> {
        match self {
            SeatSpec::Builtin(_) => None,
            SeatSpec::Command(argv) | SeatSpec::Remote { argv, .. } => Some(argv),
        }
    }

    /// The name of a `remote:NAME` seat.
    pub fn remote_name(&self) -> Option<&str> {
        match self {
            SeatSpec::Remote { spec, .. } => spec.strip_prefix("remote:"),
            _ => None,
        }
    }

    /// How the spec is written in records and messages.
    pub fn display(&self) -> String {
        match self {
            SeatSpec::Builtin(n) => n.clone(),
            SeatSpec::Command(argv) => shell_words::join(argv),
            SeatSpec::Remote { spec, .. } => spec.clone(),
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
    /// `--trust NAME`: the players (by name, as in `log_names`) whose processes run without the
    /// sandbox that `limits` asks for.
    pub trusted: Vec<String>,
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
    /// per game and seat ([`transcript_path`](super::files::transcript_path)).
    pub transcript: Option<PathBuf>,
    /// Whether a game's record keeps its outcome's detail (contract, tricks, summary). Off
    /// where nothing reads it (a match that records nothing): the engine then works out the
    /// scores alone ([`Game::scores`](crate::game::Game::scores)), and the record's detail is `null`.
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

impl Config {
    /// Player `p`'s name: its bot's name (`log_names`), else its spec as written.
    pub fn name_of(&self, p: usize, spec: &SeatSpec) -> String {
        self.log_names.get(p).cloned().unwrap_or_else(|| spec.display())
    }

    /// The limits player `p`'s processes run under: without the sandbox for a trusted bot
    /// (`--trust`) and for a network seat, whose process is croupier's own link (it needs the
    /// network and the hub; the bot at the other end is sandboxed on its own machine, if at all).
    pub fn limits_of(&self, p: usize, spec: &SeatSpec) -> Limits {
        let mut limits = self.limits;
        if matches!(spec, SeatSpec::Remote { .. }) || self.trusted.contains(&self.name_of(p, spec)) {
            limits.sandbox = false;
        }
        limits
    }

    /// Whether a decision is timed: with `timing`, and always with a clock.
    pub fn timed(&self) -> bool {
        self.timing || self.clock.is_some()
    }
}

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
            trusted: Vec::new(),
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

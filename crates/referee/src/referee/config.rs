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

//! The options of a run that `match`, `tournament` and `compare` share: its table
//! ([`TableArgs`]: seed, bots, rules, concurrency, logs, output) and its record and shard
//! ([`RunArgs`]).

use crate::arena;
use crate::cli::exit::usage;
use clap::Args;
use std::path::PathBuf;

// Options shared by `match` and `compare`. (`//`: a doc comment would become the about of the
// deferred subcommands that flatten it.)
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Run seed: fixes every deal (decimal or 0x-hex). `@FILE` reads it from FILE; the
    /// environment variable CROUPIER_SEED also sets it (bots do not inherit it): both keep it
    /// off the command line, which other local users can read. Default: drawn from the OS and
    /// recorded.
    #[arg(long, env = "CROUPIER_SEED", allow_hyphen_values = true, value_parser = crate::cli::args::seed_arg)]
    pub(crate) seed: Option<String>,
    #[command(flatten)]
    pub(crate) bots: crate::cli::bot_args::BotArgs,
    /// A rule option, name=value (see `croupier rules GAME`); repeatable.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    pub(crate) rules: Vec<String>,
    /// Tables playing at once, each with its own bot processes.
    #[arg(long, default_value = "1", allow_hyphen_values = true, value_parser = crate::cli::args::at_least_one_usize)]
    pub(crate) concurrency: usize,
    /// Directory for the bots' stderr logs: each run writes DIR/<UTC time>-<pid>/<bot>.log.
    #[arg(long, default_value = "croupier-logs")]
    pub(crate) log_dir: PathBuf,
    /// Exit with code 4 if any bot faulted.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Print the result as one JSON object instead of text (its keys: README, "JSON output").
    #[arg(long)]
    pub(crate) json: bool,
    /// No progress bar or progress lines on stderr.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

// Where the records of a `match` or `tournament` go, and which part of the run this process
// plays. (`//`: a doc comment would become the about of the deferred subcommands that flatten
// it.)
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Write one JSON line per finished game to FILE, flushed, the games of a deal together.
    /// A FILE that is not empty is refused, unless --resume continues the run it holds. `-`
    /// writes them to standard output; the result then goes to stderr.
    #[arg(long, value_name = "FILE|-")]
    pub record: Option<PathBuf>,
    /// Continue an interrupted run: read --record, drop a torn last line, play what is missing.
    #[arg(long, requires = "record")]
    pub resume: bool,
    /// Play only the sets (a deal; in a tournament, a deal at one table) whose index is K mod N
    /// (0 <= K < N); merge the shards' records with `croupier stats`.
    #[arg(long, value_name = "K/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
}

impl RunArgs {
    /// `--shard K/N`, checked.
    pub fn shard(&self) -> Result<Option<(u64, u64)>, (u8, String)> {
        self.shard
            .as_deref()
            .map(|s| arena::parse_shard(s).map_err(usage))
            .transpose()
    }
}

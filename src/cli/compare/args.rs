//! The options of `croupier compare`.

use crate::cli::arena::{RunArgs, TableArgs};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The game (see `croupier games`).
    pub(super) game: String,
    /// The bot under test (built-in name or command line).
    #[arg(long)]
    pub(super) candidate: String,
    /// The bot it must not be worse than.
    #[arg(long)]
    pub(super) baseline: String,
    /// The other seats (default: the baseline).
    #[arg(long)]
    pub(super) field: Option<String>,
    /// Number of players (default: the game's default).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::cli::args::at_least_one_usize)]
    pub(super) players: Option<usize>,
    /// The most deals to play before giving up without a decision (exit 3); each deal is
    /// several games (the candidate's and the baseline's in every seat). `--games` is its old
    /// name.
    #[arg(long, visible_alias = "games", default_value = "5000", allow_hyphen_values = true,
          value_parser = crate::cli::args::at_least_one)]
    pub(super) deals: u64,
    /// The sequential test's bounds on the mean paired difference per deal and seat:
    /// "difference <= LOWER" (fail) against "difference >= UPPER" (pass). Default per game.
    #[arg(long, value_name = "LOWER,UPPER", allow_hyphen_values = true, value_parser = parse_sprt)]
    pub(super) sprt: Option<(f64, f64)>,
    /// Probability of passing a candidate whose true difference is LOWER.
    #[arg(long, default_value = "0.05", allow_hyphen_values = true, value_parser = crate::cli::args::probability)]
    pub(super) alpha: f64,
    /// Probability of failing a candidate whose true difference is UPPER.
    #[arg(long, default_value = "0.05", allow_hyphen_values = true, value_parser = crate::cli::args::probability)]
    pub(super) beta: f64,
    /// Play all --deals deals and print the estimate, without the test's verdict (result
    /// "estimate", exit 0): to learn how far apart two bots are, e.g. before choosing --sprt.
    #[arg(long)]
    pub(super) no_test: bool,
    #[command(flatten)]
    pub(super) run: RunArgs,
    /// Also write the verdict as a JUnit XML report (one test case) for CI systems. `-` writes
    /// it to standard output; the result then goes to stderr.
    #[arg(long, value_name = "FILE|-")]
    pub(super) junit: Option<PathBuf>,
    #[command(flatten)]
    pub(super) table: TableArgs,
}

/// `--sprt LOWER,UPPER`.
fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let bad = || "write LOWER,UPPER with LOWER < UPPER, like -1,0".to_string();
    let (l, u) = s.split_once(',').ok_or_else(bad)?;
    let (l, u) = (
        l.trim().parse::<f64>().map_err(|_| bad())?,
        u.trim().parse::<f64>().map_err(|_| bad())?,
    );
    if l.is_finite() && u.is_finite() && l < u {
        Ok((l, u))
    } else {
        Err(bad())
    }
}

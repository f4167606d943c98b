//! The command line: `play`, `match`, `compare`, `stats`, `check`, `replay`, `show`, `games`, `rules`, `bot`, `ask`, `regress`,
//! `connect`, `serve-bot`, `completions`, `man`.
//!
//! This file is the command tree (clap) and its dispatch. Each command is in a file of its own
//! (`match` in match.rs, `regress` in regress.rs, …); what several of them share is in sibling
//! files: exit.rs (exit codes), output.rs (`outln!`), args.rs and bot_args.rs (options), io.rs
//! (inputs and outputs), games.rs (finding a game), and arena/ for `match`, `tournament` and
//! `compare`.

#[macro_use]
mod output;

mod arena;
mod args;
mod ask;
mod bot;
mod bot_args;
mod check;
mod compare;
mod completions;
mod connect;
pub mod exit;
mod games;
mod html;
mod io;
mod link;
mod listen;
mod man;
mod r#match;
mod play;
mod recorded_test;
mod regress;
mod report_html;
mod sandbox_args;
mod serve_bot;
mod show;
mod stats;
mod tournament;

pub use arena::{resume_command, run_stopped};
pub use args::{
    at_least_one, at_least_one_usize, non_negative, parse_bytes, parse_duration, parse_user, probability, seed_arg,
};
pub use bot_args::{bot_key, bot_seed_note, shard_needs_bot_seed, BotArgs};
pub use exit::Outcome;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

const AFTER_HELP: &str = "Exit codes: 0 success (compare: the candidate passes); 1 a check failed (replay \
mismatch; compare: the candidate fails, a regression); 2 usage, configuration or input error; 3 compare reached \
no decision within --deals; 4 a bot faulted under --strict; 130/143 play, match, tournament or compare stopped by Ctrl-C \
(SIGINT) or SIGTERM after the games being played (match, tournament or compare print the command \
that resumes the run).\nProtocol for bot authors: \
protocol.md.";

#[derive(Parser, Debug)]
#[command(name = "croupier", version, about = "A headless referee for card-game bots", after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
#[command(defer = true)]
enum Command {
    /// Play games between bots and print a summary of each.
    Play(play::PlayArgs),
    /// Play many games between named bots, on duplicate deals, and print statistics.
    Match(r#match::MatchArgs),
    /// Many bots at a schedule of tables (round robin or gauntlet) on duplicate deals: one
    /// rating per bot with a 95 % interval.
    Tournament(tournament::TournamentArgs),
    /// The CI gate: is the candidate at least as good as the baseline? Exit 0 pass, 1 fail, 3 undecided.
    Compare(compare::CompareArgs),
    /// Statistics of record files (shards, resumed runs), as `match` prints them; --html: a report page with charts.
    Stats(stats::StatsArgs),
    /// Check that a bot speaks the protocol: handshake, unknown requests, notifications, a game
    /// of every game, quit. Exit 0 when every check passes, 1 otherwise.
    Check(check::CheckArgs),
    /// Re-run every game of record files through the rules; exit 1 at the first mismatch.
    Replay {
        /// Record files (JSON Lines); `-` reads standard input.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Print a recorded game for people, or what one seat saw; --html: a web page that replays it.
    Show(show::ShowArgs),
    /// Put one recorded decision to a bot and print its answer.
    ///
    /// Replays a game up to a decision, starts the bot, tells it what its seat saw, asks it and
    /// prints its answer beside the record's; a built-in search bot (pimc, ismcts) also shows each
    /// legal action's value and its gain on the playout policy's choice. Exit 0 when it answers a
    /// legal action, 1 otherwise.
    Ask(ask::AskArgs),
    /// Run a suite of recorded positions with the answers expected or forbidden there.
    ///
    /// One position per line: `FILE GAME ACTION expect|forbid A[,B…]  # comment`, FILE relative
    /// to the suite, GAME and ACTION counted from 1 (as `ask --index K --action N`), `recorded`
    /// for the record's own action (example: bots/regress/). Exit 0
    /// when every position passes, 1 otherwise, 2 for a suite that does not parse.
    Regress(regress::RegressArgs),
    /// Play a referee's remote:NAME seat with a bot on this machine (the bot runs unchanged).
    ///
    /// Connects to the referee (`--listen`) with the seat's token file, runs the bot for as long
    /// as the link lasts, and connects again after it ends (the referee restarts the seat).
    Connect(connect::ConnectArgs),
    /// Serve a bot on this machine to referees that connect (`--seat tcp://HOST:PORT?token=FILE`).
    ///
    /// Each referee that proves the token's secret gets a fresh process of the bot.
    ServeBot(serve_bot::ServeBotArgs),
    /// The local process of a network seat (started by the referee, not by people).
    #[command(hide = true, subcommand)]
    Link(link::LinkCmd),
    /// List the games.
    Games,
    /// List a game's rule options with their defaults.
    Rules {
        /// The game.
        game: String,
    },
    /// Run a built-in bot on standard input/output (the protocol in protocol.md).
    Bot {
        /// random, simple, mix:p=P, pimc (with its budget: pimc:samples=N,playouts=N,replays=N,ms=N,sure=Z,infer=W) or ismcts (ismcts:iterations=N,worlds=N,ms=N,...).
        name: String,
        /// Seed for the bot's own randomness (decimal or 0x-hex).
        #[arg(long, default_value = "0", allow_hyphen_values = true, value_parser = seed_arg)]
        seed: String,
    },
    /// Print a shell completion script.
    ///
    /// `source <(croupier completions bash)`, or save it where your shell looks (bash:
    /// ~/.local/share/bash-completion/completions/croupier; zsh: a file `_croupier` on $fpath;
    /// fish: ~/.config/fish/completions/croupier.fish).
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff).
    ///
    /// `croupier man | man -l -`; with --dir, one page per command (croupier.1,
    /// croupier-play.1, …) is written into DIR.
    Man {
        /// Write croupier.1 and a page per command into this directory (created if missing).
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

/// Runs the command line; errors are printed here with their exit code.
pub fn main() -> ExitCode {
    // Not dumpable: a bot running as the same user cannot read croupier's memory (every hand)
    // in /proc/<pid>/mem, nor its open files in /proc/<pid>/fd, nor its environment.
    // SAFETY: prctl with integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
    // Whatever a bot leaves running outside its process group is ended with it.
    crate::process::become_subreaper();
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Command::Play(_) | Command::Match(_) | Command::Tournament(_) | Command::Compare(_)
    ) {
        crate::interrupt::install();
    }
    let result = match cli.command {
        Command::Play(args) => play::run(args),
        Command::Match(args) => r#match::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Compare(args) => compare::run_compare(args),
        Command::Stats(args) => stats::run(args),
        Command::Check(args) => check::run(args),
        Command::Replay { files } => show::replay_files(&files),
        Command::Show(args) => show::run(args),
        Command::Ask(args) => ask::run_ask(args),
        Command::Regress(args) => regress::run(args),
        Command::Connect(args) => connect::run(args),
        Command::ServeBot(args) => serve_bot::run(args),
        Command::Link(cmd) => link::run(cmd),
        Command::Games => games::list(),
        Command::Rules { game } => games::rules(&game),
        Command::Bot { name, seed } => bot::run(&name, &seed),
        Command::Completions { shell } => completions::run(shell, Cli::command()),
        Command::Man { dir } => man::run(dir.as_deref(), Cli::command()),
    };
    crate::process::sandbox::clean_up();
    match result {
        Ok(code) => ExitCode::from(code),
        Err((code, msg)) => {
            eprintln!("croupier: {msg}");
            ExitCode::from(code)
        }
    }
}

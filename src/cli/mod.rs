//! The command line: `play`, `match`, `compare`, `stats`, `check`, `replay`, `show`, `games`, `rules`, `bot`, `ask`, `regress`,
//! `completions`, `man`.

/// `println!` for command output: a closed stdout (`croupier … | head`) ends croupier quietly,
/// as it ends `ls` or `rg`, instead of a panic.
macro_rules! outln {
    () => {
        $crate::cli::out_line(String::new())
    };
    ($($t:tt)*) => {
        $crate::cli::out_line(format!($($t)*))
    };
}

mod arena;
mod ask;
mod check;
mod compare;
mod html;
mod io;
mod play;
mod report_html;
mod show;
mod stats;
mod tournament;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exit codes (documented in `--help` and the README).
pub mod exit {
    /// Success.
    pub const OK: u8 = 0;
    /// A check failed: `replay` found a mismatch.
    pub const CHECK_FAILED: u8 = 1;
    /// Usage, configuration or input error.
    pub const USAGE: u8 = 2;
    /// `compare` reached no decision within `--deals`.
    pub const UNDECIDED: u8 = 3;
    /// A bot faulted and `--strict` was given.
    pub const BOT_FAULT: u8 = 4;
}

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
    Match(arena::MatchArgs),
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
    /// prints its answer beside the record's. Exit 0 when it answers a legal action, 1 otherwise.
    Ask(ask::AskArgs),
    /// Run a suite of recorded positions with the answers expected or forbidden there.
    ///
    /// One position per line: `FILE GAME ACTION expect|forbid A[,B…]  # comment`, FILE relative
    /// to the suite, GAME and ACTION counted from 1 (as `ask --index K --action N`), `recorded`
    /// for the record's own action (example: bots/regress/). Exit 0
    /// when every position passes, 1 otherwise, 2 for a suite that does not parse.
    Regress(ask::RegressArgs),
    /// List the games.
    Games,
    /// List a game's rule options with their defaults.
    Rules {
        /// The game.
        game: String,
    },
    /// Run a built-in bot on standard input/output (the protocol in protocol.md).
    Bot {
        /// random, simple, mix:p=P or pimc (with its budget: pimc:samples=N,playouts=N,ms=N,sure=Z,infer=W).
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
        Command::Match(args) => arena::run_match(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Compare(args) => compare::run_compare(args),
        Command::Stats(args) => stats::run(args),
        Command::Check(args) => check::run(args),
        Command::Replay { files } => show::replay_files(&files),
        Command::Show(args) => show::run(args),
        Command::Ask(args) => ask::run_ask(args),
        Command::Regress(args) => ask::run_regress(args),
        Command::Games => games(),
        Command::Rules { game } => rules(&game),
        Command::Bot { name, seed } => bot(&name, &seed),
        Command::Completions { shell } => completions(shell),
        Command::Man { dir } => man(dir.as_deref()),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err((code, msg)) => {
            eprintln!("croupier: {msg}");
            ExitCode::from(code)
        }
    }
}

/// Set when standard output carries data (`--record -`, `--junit -`): what croupier prints
/// for people then goes to stderr, so the data can be piped on unmixed.
static STDOUT_IS_DATA: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sends the output for people (`outln!`) to stderr from now on: stdout carries data.
pub(crate) fn stdout_is_data() {
    STDOUT_IS_DATA.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Writes one line to stdout (to stderr when stdout carries data); exits quietly (status 0)
/// when the reader has gone away.
pub(crate) fn out_line(line: String) {
    use std::io::Write;
    if STDOUT_IS_DATA.load(std::sync::atomic::Ordering::SeqCst) {
        let _ = writeln!(std::io::stderr(), "{line}");
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("croupier: writing to stdout: {e}");
        std::process::exit(2);
    }
}

/// A command's result: an exit code, or an exit code with a message for stderr.
pub type Outcome = Result<u8, (u8, String)>;

pub(crate) fn usage<E: std::fmt::Display>(e: E) -> (u8, String) {
    (exit::USAGE, e.to_string())
}

pub(crate) fn find_game(name: &str) -> Result<crate::game::GameSpec, (u8, String)> {
    crate::games::find(name).ok_or_else(|| {
        let names: Vec<&str> = crate::games::all().iter().map(|g| g.name).collect();
        usage(format!("unknown game '{name}'; games: {}", names.join(", ")))
    })
}

/// `4` or `3-16`.
pub(crate) fn player_range(g: &crate::game::GameSpec) -> String {
    if g.min_players == g.max_players {
        g.min_players.to_string()
    } else {
        format!("{}-{}", g.min_players, g.max_players)
    }
}

fn games() -> Outcome {
    let rows: Vec<[String; 3]> = crate::games::all()
        .iter()
        .map(|g| {
            [
                g.name.to_string(),
                format!("{} players", player_range(g)),
                g.summary.to_string(),
            ]
        })
        .collect();
    for l in table(&rows) {
        outln!("{l}");
    }
    Ok(exit::OK)
}

fn rules(game: &str) -> Outcome {
    let g = find_game(game)?;
    outln!("{} ({}): {}", g.title, g.name, g.summary);
    let players = if g.min_players == g.max_players {
        format!("{}", g.min_players)
    } else {
        format!("{}-{} (default {})", g.min_players, g.max_players, g.default_players)
    };
    outln!("players: {players}");
    let (lo, hi) = g.compare_bounds;
    outln!("compare: default --sprt {lo},{hi} (mean paired score difference per game and seat)");
    outln!();
    outln!("Options (--rule name=value):");
    let rows: Vec<[String; 3]> = (g.options)()
        .iter()
        .map(|o| {
            [
                format!("{} = {}", o.name, o.values_text()),
                format!("default {}", o.default),
                o.help.to_string(),
            ]
        })
        .collect();
    for l in table(&rows) {
        outln!("  {l}");
    }
    if !g.notes.is_empty() {
        outln!();
        outln!("{}", g.notes.trim_end());
    }
    Ok(exit::OK)
}

/// Rows as left-aligned columns two spaces apart, each as wide as its widest cell (the last
/// column is not padded).
pub(crate) fn table<const N: usize>(rows: &[[String; N]]) -> Vec<String> {
    let mut w = [0usize; N];
    for r in rows {
        for (k, cell) in r.iter().enumerate() {
            w[k] = w[k].max(cell.chars().count());
        }
    }
    rows.iter()
        .map(|r| {
            let mut line = String::new();
            for (k, cell) in r.iter().enumerate() {
                if k + 1 == N {
                    line.push_str(cell);
                } else {
                    line.push_str(&format!("{cell:<width$}  ", width = w[k]));
                }
            }
            line.trim_end().to_string()
        })
        .collect()
}

fn completions(shell: clap_complete::Shell) -> Outcome {
    use clap::CommandFactory;
    let mut out = Vec::new();
    // Built first: the subcommands' arguments are deferred (`Command`'s `defer`, for start-up)
    // and exist only once built.
    let mut cmd = Cli::command();
    cmd.build();
    clap_complete::generate(shell, &mut with_names(cmd), "croupier", &mut out);
    write_stdout(&out)
}

/// The command line as the completion scripts see it: a game's argument offers the games, a
/// bot's (`--bot`, `--candidate`, `--baseline`, `--field`, `check SPEC`, `bot NAME`) the
/// built-in bots, with their lines as help where a shell shows it. Only the scripts see these
/// names, as static hints: the parser that runs is `Cli`'s, untouched, so a bot stays any spec
/// (`mix:p=0.9`, `NAME=SPEC`, a command line) and an unknown game keeps croupier's own message.
/// (Static rather than clap_complete's dynamic engine: the script stays self-contained and the
/// same in all five shells, needs no unstable feature and does not run croupier at each Tab.)
fn with_names(cmd: clap::Command) -> clap::Command {
    use clap::builder::{PossibleValue, PossibleValuesParser};
    let games: Vec<PossibleValue> = crate::games::all()
        .iter()
        .map(|g| PossibleValue::new(g.name).help(g.summary))
        .collect();
    // `mix` needs its p: offered with one, as the help's example gives it.
    let bots = |human: bool| -> Vec<PossibleValue> {
        crate::bots::BUILTIN
            .iter()
            .filter(|(name, _)| human || *name != "human")
            .map(|&(name, help)| PossibleValue::new(if name == "mix" { "mix:p=0.7" } else { name }).help(help))
            .collect()
    };
    let name = cmd.get_name().to_string();
    let hinted: Vec<(clap::Id, Vec<PossibleValue>)> = cmd
        .get_arguments()
        .filter_map(|a| {
            let id = a.get_id().as_str();
            let bot = matches!(a.get_long(), Some("bot" | "candidate" | "baseline" | "field"))
                || (name == "check" && id == "spec")
                || (name == "bot" && id == "name");
            if id == "game" {
                Some((a.get_id().clone(), games.clone()))
            } else if bot {
                Some((a.get_id().clone(), bots(name == "play")))
            } else {
                None
            }
        })
        .collect();
    let mut cmd = cmd;
    let any = !hinted.is_empty();
    for (id, names) in hinted {
        cmd = cmd.mut_arg(id, |a| a.value_parser(PossibleValuesParser::new(names)));
    }
    // The command is built, so its `--help` is already there, made before the hints: made again
    // as clap makes it for a command whose values have help lines, and kept last, after the
    // hinted arguments (`mut_arg` moves an argument to the end), as in the scripts before `defer`.
    if any && cmd.get_arguments().any(|a| a.get_id() == "help") {
        cmd = cmd.mut_arg("help", |a| {
            a.help("Print help (see more with '--help')")
                .long_help("Print help (see a summary with '-h')")
        });
    }
    let subcommands: Vec<String> = cmd.get_subcommands().map(|c| c.get_name().to_string()).collect();
    for sub in subcommands {
        cmd = cmd.mut_subcommand(sub, with_names);
    }
    cmd
}

/// The manual from the command-line definition itself (clap_mangen), so it cannot drift from
/// `--help`.
fn man(dir: Option<&std::path::Path>) -> Outcome {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let Some(dir) = dir else {
        let mut out = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut out).map_err(usage)?;
        return write_stdout(&out);
    };
    std::fs::create_dir_all(dir).map_err(|e| usage(format!("{}: {e}", dir.display())))?;
    clap_mangen::generate_to(cmd, dir).map_err(|e| usage(format!("{}: {e}", dir.display())))?;
    outln!("wrote the manual pages into {}", dir.display());
    Ok(exit::OK)
}

/// Writes generated bytes to stdout; a reader that went away ends croupier quietly.
fn write_stdout(bytes: &[u8]) -> Outcome {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(usage(format!("writing to stdout: {e}"))),
        _ => Ok(exit::OK),
    }
}

fn bot(name: &str, seed: &str) -> Outcome {
    let seed = crate::chance::parse_seed(seed).map_err(usage)?;
    let mut b = crate::bots::builtin(name, seed).map_err(usage)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    crate::bots::stdio::run(b.as_mut(), stdin.lock(), stdout.lock()).map_err(|e| usage(format!("bot i/o: {e}")))?;
    Ok(exit::OK)
}

/// `--deals`, `--games`, `--concurrency`, `--players`: a whole number of at least 1 (clap reports the
/// value and the option: `invalid value '-3' for '--deals <DEALS>': …`).
pub fn at_least_one(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("write a whole number of at least 1".into()),
    }
}

/// [`at_least_one`] as a `usize`.
pub fn at_least_one_usize(s: &str) -> Result<usize, String> {
    at_least_one(s).and_then(|n| usize::try_from(n).map_err(|_| "too large".to_string()))
}

/// `--seed`: checked here (so clap names the option), kept as written. `@FILE` reads the seed
/// from FILE, so that it is not on the command line, which every local user can read in /proc.
pub fn seed_arg(s: &str) -> Result<String, String> {
    if let Some(path) = s.strip_prefix('@') {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let seed = crate::chance::parse_seed(text.trim()).map_err(|e| format!("{path}: {e}"))?;
        return Ok(seed.to_string());
    }
    crate::chance::parse_seed(s).map(|_| s.to_string())
}

/// The key of a run's `rngseed`s ([`crate::referee::Config::bot_key`]): `--bot-seed` when
/// given, else the one a resumed run recorded, else fresh from the OS when a bot process sits
/// at the table; none for built-in bots only (their seeds follow the deal seed).
pub fn bot_key(
    given: Option<&str>,
    recorded: Option<&str>,
    seats: &[crate::referee::SeatSpec],
) -> Result<Option<u64>, String> {
    let recorded = recorded
        .map(|r| crate::chance::parse_seed(r).map_err(|e| format!("the record's bot_seed: {e}")))
        .transpose()?;
    match (given.map(crate::chance::parse_seed).transpose()?, recorded) {
        (Some(g), Some(r)) if g != r => Err(format!(
            "--bot-seed {g} differs from the bot seed {r} of the run being resumed: leave it out"
        )),
        (Some(k), _) | (None, Some(k)) => Ok(Some(k)),
        (None, None) if seats.iter().any(|s| matches!(s, crate::referee::SeatSpec::Command(_))) => {
            Ok(Some(rand::random()))
        }
        (None, None) => Ok(None),
    }
}

/// A shard of a run with a bot process at the table reproduces its part of the unsharded run
/// only with the run's bot seed: without `--bot-seed` (or a resumed record's) each shard would
/// draw its own. Refused, with a fresh seed to pass to every shard.
pub fn shard_needs_bot_seed(
    shard: Option<(u64, u64)>,
    given: Option<&str>,
    recorded: Option<&str>,
    seats: &[crate::referee::SeatSpec],
) -> Result<(), String> {
    let process = seats.iter().any(|s| matches!(s, crate::referee::SeatSpec::Command(_)));
    if shard.is_none() || given.is_some() || recorded.is_some() || !process {
        return Ok(());
    }
    Err(format!(
        "--shard with a bot process at the table needs --bot-seed (or CROUPIER_BOT_SEED), the same \
         for every shard: each shard would draw its own and the shards would not add up to one \
         run. For example --bot-seed {}, drawn now",
        rand::random::<u64>()
    ))
}

/// This run's command line with `--resume` (added unless it is there), quoted for a shell:
/// what an interrupted `match`, `tournament` or `compare` prints, to be run as it is. The seed
/// and the bot seed need not be on it: a resumed run reads them from its record.
pub fn resume_command() -> String {
    let mut args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    if !args.iter().skip(1).any(|a| a == "--resume") {
        args.push("--resume".to_string());
    }
    shell_words::join(args)
}

/// `, bot seed N` for a run's summary when its bots' rngseeds have a key (see [`bot_key`]).
pub fn bot_seed_note(key: Option<u64>) -> String {
    key.map(|k| format!(", bot seed {k}")).unwrap_or_default()
}

// How the bots of `play`, `match` and `compare` are run: time limits and clock, what a fault
// does, limits on bot processes, the bots' seed. (`//`, not a doc comment: under the deferred
// subcommands of `Command` a flattened struct's doc would become the subcommand's about.)
#[derive(clap::Args, Debug)]
pub struct BotArgs {
    /// Seed of the bots' `rngseed`s (decimal, 0x-hex, or `@FILE`). With a bot process at the
    /// table it is drawn from the OS unless given, and recorded as each record's `bot_seed`,
    /// so that no bot can work back from its rngseed to the deal (protocol.md §13); with
    /// built-in bots only, their seeds follow --seed.
    #[arg(long, env = "CROUPIER_BOT_SEED", allow_hyphen_values = true, value_parser = seed_arg)]
    pub bot_seed: Option<String>,
    /// Time a bot has for one decision, like 300ms or 2s.
    #[arg(long, default_value = "10s", allow_hyphen_values = true, value_parser = parse_duration)]
    pub move_time: std::time::Duration,
    /// Cap on each bot process's memory (its address space), like 512M or 2G: allocations past
    /// it fail, and a bot that dies of it faults as a crash that names the limit.
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub bot_memory: Option<u64>,
    /// Cap on each bot process's CPU time over its whole life (all its games), like 300s: when
    /// spent the bot is killed (SIGXCPU) and faults as a crash that names the limit.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true, value_parser = parse_duration)]
    pub bot_cpu: Option<std::time::Duration>,
    /// Run every bot process as USER (a name or a uid, with its primary group): such a bot
    /// cannot read croupier's files or signal its processes (protocol.md §13). Needs root.
    #[arg(long, value_name = "USER", value_parser = parse_user)]
    pub bot_user: Option<(u32, u32)>,
    /// What a bot's fault does: `substitute` (the rules or a seeded random legal action play
    /// for it, and the game goes on), `forfeit` (its seat forfeits the game, scored as the
    /// game's rules say under "Forfeit"), or `abort` (the run stops; exit code 4).
    #[arg(long, value_name = "POLICY", default_value = "substitute", value_parser = crate::referee::FaultPolicy::parse)]
    pub on_fault: crate::referee::FaultPolicy,
    /// A bot with more than N faults in the run is disqualified: it is not asked again, its
    /// seats are played as --on-fault says (substitutes, or forfeits); with abort the run stops.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = non_negative)]
    pub max_faults: Option<u64>,
    /// A game clock per seat, like 60s+1s: every seat starts each game with BANK, the time
    /// it takes for a decision is taken off, INC is added after it. A decision may take at most
    /// what is left (and at most --move-time); running out is a timeout. Sent to bot processes
    /// as `clock <ms left> <increment ms>` before each `act`.
    #[arg(long, value_name = "BANK+INC", value_parser = crate::referee::Clock::parse)]
    pub time: Option<crate::referee::Clock>,
    /// Time a bot has to start and answer the handshake.
    #[arg(long, default_value = "10s", allow_hyphen_values = true, value_parser = parse_duration)]
    pub startup_time: std::time::Duration,
    /// Write every line exchanged with each bot process into DIR, one file per game and seat:
    /// `DIR/game-<seed>-seat<S>-<bot>.txt`, each line `<seconds since the bot started> <dir>
    /// <line>` with `>` for croupier to the bot, `<` for the bot's answers, `#` for a read that
    /// ended without a line (timeout, exit). The seed and seat are the record's.
    #[arg(long, value_name = "DIR")]
    pub transcript: Option<std::path::PathBuf>,
}

impl BotArgs {
    /// `--transcript DIR`, made now: a directory that cannot be made is an error before the
    /// first game.
    pub fn transcript_dir(&self) -> Result<Option<std::path::PathBuf>, (u8, String)> {
        let Some(dir) = &self.transcript else {
            return Ok(None);
        };
        std::fs::create_dir_all(dir).map_err(|e| usage(format!("--transcript {}: {e}", dir.display())))?;
        Ok(Some(dir.clone()))
    }

    /// The [`Limits`](crate::process::Limits) of `--bot-memory`, `--bot-cpu` and `--bot-user`.
    pub fn limits(&self) -> crate::process::Limits {
        crate::process::Limits {
            memory_bytes: self.bot_memory,
            // RLIMIT_CPU counts whole seconds: round up, at least one.
            cpu_seconds: self.bot_cpu.map(|d| d.as_secs_f64().ceil().max(1.0) as u64),
            user: self.bot_user,
            ..crate::process::Limits::default()
        }
    }
}

/// `--bot-memory`: a size like `512M`, `2G`, `65536K` or a number of bytes, at least 1M.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mult) = match t.char_indices().last() {
        Some((i, 'K' | 'k')) => (&t[..i], 1u64 << 10),
        Some((i, 'M' | 'm')) => (&t[..i], 1 << 20),
        Some((i, 'G' | 'g')) => (&t[..i], 1 << 30),
        _ => (t, 1),
    };
    let bytes = num
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("'{s}' is not a size: write one like 512M or 2G"))?;
    if bytes < 1 << 20 {
        return Err(format!("'{s}' is too small for a process: give at least 1M"));
    }
    Ok(bytes)
}

/// `--bot-user`: a user name or uid, as (uid, primary gid). Only root can run a process as
/// another user, so anyone else is told so here.
pub fn parse_user(s: &str) -> Result<(u32, u32), String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Err("croupier must run as root to start bots as another user".into());
    }
    let name = std::ffi::CString::new(s).map_err(|_| format!("'{s}' is not a user name"))?;
    // SAFETY: getpwnam/getpwuid return a pointer to static storage or null; it is read at once,
    // before any other call that could overwrite it (argument parsing is single-threaded).
    let pw = unsafe {
        match s.parse::<u32>() {
            Ok(uid) => libc::getpwuid(uid),
            Err(_) => libc::getpwnam(name.as_ptr()),
        }
    };
    if pw.is_null() {
        return Err(format!("no user '{s}' on this machine"));
    }
    // SAFETY: non-null, points to a valid passwd entry (see above).
    let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
    if uid == 0 {
        return Err(format!("'{s}' is root: bots must run as an ordinary user"));
    }
    Ok((uid, gid))
}

/// The exit code and message of a run that stopped early: 4 when `--on-fault abort` stopped it
/// at a bot's fault, else 2.
pub fn run_stopped(what: &str, e: String) -> (u8, String) {
    let code = if e.contains(crate::referee::ABORTED) { 4 } else { 2 };
    (code, format!("{what} stopped: {e}"))
}

/// A whole number, 0 or more.
pub fn non_negative(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("'{s}' is not a whole number of 0 or more"))
}

/// `--alpha`, `--beta`: a probability strictly between 0 and 1.
pub fn probability(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if p > 0.0 && p < 1.0 => Ok(p),
        _ => Err("write a probability between 0 and 1 (both excluded), like 0.05".into()),
    }
}

/// Durations as flags write them (the referee's clocks read them too, so it lives there).
pub use crate::referee::parse_duration;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("300ms").unwrap(), Duration::from_millis(300));
        assert_eq!(parse_duration("2s").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("1m").unwrap(), Duration::from_secs(60));
        assert!(parse_duration("300").unwrap_err().contains("300ms"));
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("xs").is_err());
    }
}

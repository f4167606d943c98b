//! How the bots of `play`, `match`, `tournament` and `compare` are run ([`BotArgs`]: time
//! limits and clock, what a fault does, limits on bot processes, transcripts), and the key of
//! their seeds.

use super::args::{non_negative, parse_bytes, parse_duration, parse_user, seed_arg};
use super::exit::usage;

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
        (None, None) if seats.iter().any(|s| s.argv().is_some()) => Ok(Some(rand::random())),
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
    let process = seats.iter().any(|s| s.argv().is_some());
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
    /// it fail, and a bot that dies of it faults as a crash that names the limit. With
    /// --sandbox as root (cgroups): the resident memory of the bot and all it starts together,
    /// past which the kernel's OOM killer ends a process (the fault says so).
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
    /// Listen on ADDR (HOST:PORT) for the bots of `remote:NAME` seats, which connect from other
    /// machines with `croupier connect` (README, "A bot on another machine").
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// Where the certificate of --listen and the remote seats' tokens (NAME.token, mode 0600)
    /// are kept, made at the first run and kept after.
    #[arg(long, default_value = "croupier-keys", value_name = "DIR")]
    pub keys: std::path::PathBuf,
    #[command(flatten)]
    pub sandbox: super::sandbox_args::SandboxArgs,
    /// With --sandbox: run the bot NAME (a `--bot NAME`, or a seat's `NAME=`/command as given;
    /// `candidate`, `baseline` or `field` in `compare`) outside the sandbox, e.g. your own
    /// reference bot beside strangers' bots. Repeatable.
    #[arg(long, value_name = "NAME", requires = "sandbox")]
    pub trust: Vec<String>,
}

impl BotArgs {
    /// `--trust`, checked against the run's bot names: each must name one of them.
    pub fn trusted(&self, names: &[String]) -> Result<Vec<String>, (u8, String)> {
        for t in &self.trust {
            if !names.contains(t) {
                let mut known: Vec<String> = Vec::new();
                for n in names {
                    if !known.contains(n) {
                        known.push(n.clone());
                    }
                }
                return Err(usage(format!(
                    "--trust {t}: no bot of this run is named {t} (its bots: {})",
                    known.join(", ")
                )));
            }
        }
        Ok(self.trust.clone())
    }

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
            ..self.sandbox.limits()
        }
    }
}

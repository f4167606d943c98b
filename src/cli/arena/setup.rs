//! What a run is made of before it plays: its game, options, players and referee settings
//! ([`Common`]), the bots it is given, its seed, the bots' seed key, and the arguments that
//! make its fingerprint.

use super::args::{RunArgs, TableArgs};
use super::tags::tag_str;
use crate::arena::RunSpec;
use crate::chance::{derive, parse_seed, Purpose};
use crate::cli::exit::usage;
use crate::cli::games::{find_game, player_range};
use crate::options::Options;
use crate::record::GameRecord;
use crate::referee::{Config, SeatSpec};
use serde_json::Value;
use std::collections::BTreeMap;

/// What every run at tables starts from: the game, its rule options, the number of players
/// and the referee's settings.
pub(crate) struct Common {
    pub(crate) spec: crate::game::GameSpec,
    pub(crate) options: Options,
    pub(crate) players: usize,
    pub(crate) config: Config,
}

/// The [`Common`] of a run of `game` for `players` (default: the game's), with the table
/// options `t` and the run seed `seed` (the bots' seeds derive from it).
pub(crate) fn common(game: &str, t: &TableArgs, players: Option<usize>, seed: u64) -> Result<Common, (u8, String)> {
    let spec = find_game(game)?;
    let players = players.unwrap_or(spec.default_players);
    if players < spec.min_players || players > spec.max_players {
        return Err(usage(format!(
            "{} is played by {} players, not {players}",
            spec.name,
            player_range(&spec)
        )));
    }
    let options = Options::resolve(&(spec.options)(), spec.name, &t.rules).map_err(usage)?;
    let config = Config {
        move_time: t.bots.move_time,
        startup_time: t.bots.startup_time,
        log_dir: t.log_dir.clone(),
        bot_seed: derive(seed, Purpose::Bot, u64::MAX),
        limits: t.bots.limits(),
        // Checked against the run's bot names when its bots are known (start_run_hub).
        trusted: t.bots.trust.clone(),
        on_fault: t.bots.on_fault,
        clock: t.bots.time,
        max_faults: t.bots.max_faults,
        transcript: t.bots.transcript_dir()?,
        ..Config::default()
    };
    Ok(Common {
        spec,
        options,
        players,
        config,
    })
}

/// The bot limits that change results (a bot killed by one faults), in a run's fingerprint when
/// set: a resumed run keeps them. Runs without limits keep the fingerprints they had.
pub(crate) fn limits_canon(canonical: &mut Value, config: &Config) {
    if let Some(m) = config.limits.memory_bytes {
        canonical["bot_memory"] = m.into();
    }
    if let Some(c) = config.limits.cpu_seconds {
        canonical["bot_cpu_s"] = c.into();
    }
    if config.on_fault != crate::referee::FaultPolicy::Substitute {
        canonical["on_fault"] = config.on_fault.name().into();
    }
    if let Some(m) = config.max_faults {
        canonical["max_faults"] = m.into();
    }
    if let Some(c) = config.clock {
        canonical["time_ms"] = serde_json::json!([c.bank.as_millis() as u64, c.increment.as_millis() as u64]);
    }
}

/// A bot's spec, checked.
pub(crate) fn parse_spec(s: &str) -> Result<SeatSpec, (u8, String)> {
    SeatSpec::parse(s).map_err(usage)
}

/// `NAME=SPEC` as (Some(NAME), SPEC); anything else is a SPEC alone.
pub(crate) fn split_name(b: &str) -> (Option<&str>, &str) {
    match b.split_once('=') {
        // `pimc:samples=64`, `mix:p=0.7` are specs, not names: a name has no colon.
        Some((n, s)) if !n.is_empty() && !n.contains(' ') && !n.contains(':') => (Some(n), s),
        _ => (None, b),
    }
}

/// `--bot NAME=SPEC` (or just SPEC, its own name) in order; names must differ.
pub(crate) fn parse_bots(args: &[String]) -> Result<Vec<(String, String)>, (u8, String)> {
    let mut bots: Vec<(String, String)> = Vec::new();
    for b in args {
        let (name, spec) = match split_name(b) {
            (Some(n), s) => (n.to_string(), s.to_string()),
            (None, _) => (b.clone(), b.clone()),
        };
        if bots.iter().any(|(n, _)| *n == name) {
            return Err(usage(format!(
                "--bot {name} is given twice: give each bot a distinct NAME="
            )));
        }
        parse_spec(&spec)?;
        bots.push((name, spec));
    }
    Ok(bots)
}

/// The run seed: given, else the resumed file's, else fresh.
pub(crate) fn run_seed(given: Option<&str>, previous: Option<&GameRecord>) -> Result<u64, (u8, String)> {
    match (given, previous) {
        (Some(s), _) => parse_seed(s).map_err(usage),
        (None, Some(r)) => parse_seed(&tag_str(r, "match_seed")).map_err(|e| usage(format!("resuming: {e}"))),
        (None, None) => Ok(rand::random::<u64>()),
    }
}

/// The key of the bots' rngseeds of a run ([`crate::cli::bot_key`]): `--bot-seed`, else the
/// one `previous` (the run being resumed) recorded, else fresh when a bot process sits at the
/// table. A shard with a bot process needs it given ([`crate::cli::shard_needs_bot_seed`]).
pub(crate) fn run_bot_key(
    t: &TableArgs,
    previous: Option<&GameRecord>,
    shard: Option<(u64, u64)>,
    players: &[SeatSpec],
) -> Result<Option<u64>, (u8, String)> {
    let recorded_key = previous.and_then(|r| r.bot_seed.as_deref());
    crate::cli::bot_args::shard_needs_bot_seed(shard, t.bots.bot_seed.as_deref(), recorded_key, players)
        .map_err(usage)?;
    crate::cli::bot_args::bot_key(t.bots.bot_seed.as_deref(), recorded_key, players).map_err(usage)
}

/// The [`RunSpec`] of a match or a tournament: `players` at each table, each one's log named
/// after its `--bot NAME` (`log_names`); record lines when the run is recorded, facts for the
/// report, and the records themselves when it is resumed (the sets it had begun are completed
/// and put together).
#[allow(clippy::too_many_arguments)]
pub(crate) fn bots_run(
    c: &Common,
    table: &TableArgs,
    run: &RunArgs,
    players: Vec<SeatSpec>,
    log_names: Vec<String>,
    bot_key: Option<u64>,
    seed: u64,
    tags: BTreeMap<String, Value>,
) -> RunSpec {
    RunSpec {
        game: c.spec.name.to_string(),
        options: c.options.clone(),
        players,
        config: Config {
            log_names,
            bot_key,
            ..c.config.clone()
        },
        seed,
        tags,
        concurrency: table.concurrency,
        record_lines: run.record.is_some(),
        set_facts: true,
        keep_records: run.resume,
        set_value: None,
    }
}

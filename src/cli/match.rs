//! `croupier match`: named bots at one table on duplicate deals, and their statistics (what it
//! shares with `tournament` and `compare` is in arena/).

use super::arena::{
    bots_run, common, finish, limits_canon, parse_bots, parse_spec, play_plan, previous_run, report, run_bot_key,
    run_seed, run_tags, Common, Plan, Played, RunArgs, TableArgs,
};
use super::bot_args::bot_seed_note;
use super::exit::{usage, Outcome};
use super::io;
use crate::arena::report::MatchInfo;
use crate::arena::{self, Job};
use crate::chance::format_seed;
use crate::referee::SeatSpec;
use clap::Args;
use serde_json::{json, Value};
use std::collections::BTreeSet;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game (see `croupier games`).
    game: String,
    /// A bot: NAME=SPEC, or just SPEC (a built-in bot's name or a command line); repeatable.
    #[arg(long = "bot", value_name = "NAME=SPEC", required = true)]
    bots: Vec<String>,
    /// Bot names in seat order, comma-separated; every --bot must have a seat (default: the
    /// bots cycled over the seats).
    #[arg(long, value_name = "NAME,…")]
    lineup: Option<String>,
    /// Number of players (default: the --lineup's length, else the game's default).
    #[arg(long, allow_hyphen_values = true, value_parser = super::args::at_least_one_usize)]
    players: Option<usize>,
    /// Number of distinct deals, each played under every rotation of the lineup (a game per
    /// seating). `--games` is its old name.
    #[arg(long, visible_alias = "games", default_value = "100", allow_hyphen_values = true,
          value_parser = super::args::at_least_one)]
    deals: u64,
    /// Play every deal under every rotation of the lineup (the default when the lineup has
    /// more than one distinct bot).
    #[arg(long, conflicts_with = "no_duplicate")]
    duplicate: bool,
    /// Play each deal once, in the lineup's seating.
    #[arg(long)]
    no_duplicate: bool,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    table: TableArgs,
}

/// The bots of `--bot`, as (NAME, SPEC) in order.
type Bots = [(String, String)];

/// The spec of the bot named `name`.
fn spec_of(bots: &Bots, name: &str) -> Option<String> {
    bots.iter().find(|(n, _)| n == name).map(|(_, s)| s.clone())
}

pub fn run(mut a: MatchArgs) -> Outcome {
    a.table.log_dir = io::run_log_dir(&a.table.log_dir)?;
    let bots = parse_bots(&a.bots)?;
    let previous = previous_run(a.run.record.as_ref(), a.run.resume)?;
    let seed = run_seed(a.table.seed.as_deref(), previous.as_ref())?;
    let given: Vec<String> = match &a.lineup {
        Some(l) => l.split(',').map(|s| s.trim().to_string()).collect(),
        None => Vec::new(),
    };
    let c = common(
        &a.game,
        &a.table,
        a.players.or((!given.is_empty()).then_some(given.len())),
        seed,
    )?;
    let lineup = seat_lineup(&bots, given, &c)?;
    let distinct: BTreeSet<&String> = lineup.iter().collect();
    let duplicate = a.duplicate || (!a.no_duplicate && distinct.len() > 1);
    let seatings = if duplicate {
        arena::rotations(&lineup)
    } else {
        vec![(0..c.players).collect()]
    };
    let shard = a.run.shard()?;
    let canonical = canonical(&c, &bots, &lineup, a.deals, seed, duplicate);
    let fp = arena::fingerprint(&canonical.to_string());
    let shard_tag = shard.map(|(k, m)| format!("{k}/{m}")).unwrap_or_default();
    let all_jobs = seating_jobs(&seatings, &lineup);
    let plan = Plan {
        sets: a.deals,
        shard,
        canonical: canonical.clone(),
        keys: all_jobs.iter().map(|j| j.key.clone()).collect(),
        reference: None,
    };
    let mut tags = run_tags(&fp, seed, &canonical, &shard_tag);
    tags.insert("lineup".to_string(), Value::from(lineup.clone()));
    let players: Vec<SeatSpec> = lineup
        .iter()
        .map(|l| parse_spec(&spec_of(&bots, l).unwrap()))
        .collect::<Result<_, _>>()?;
    let bot_key = run_bot_key(&a.table, previous.as_ref(), shard, &players)?;
    crate::cli::listen::start_run_hub(&a.table, &players, &lineup, a.run.record.as_deref())?;
    let run = bots_run(&c, &a.table, &a.run, players, lineup.clone(), bot_key, seed, tags);
    let Played { acc, already, played } = play_plan(
        &plan,
        move |_| all_jobs.clone(),
        &run,
        a.run.record.as_ref(),
        a.run.resume,
        a.table.quiet,
        "match",
    )?;
    let info = MatchInfo {
        game: c.spec.name.to_string(),
        id: fp.clone(),
        seed: Some(format_seed(seed)),
        lineup: lineup.clone(),
        shard: (!shard_tag.is_empty()).then(|| shard_tag.clone()),
    };
    let faults = report(&a.table, &info, &acc, |out| {
        out.push(format!(
            "{}: {} deal(s), {} game(s) ({}), seed {seed}{}, lineup {}, match {fp}",
            c.spec.name,
            acc.sets,
            acc.games,
            how_played(duplicate, seatings.len(), &shard_tag),
            bot_seed_note(bot_key),
            lineup.join(",")
        ));
        if already > 0 {
            out.push(format!("({already} game(s) read from the record, {played} played now)"));
        }
    });
    finish(&a.table, faults)
}

/// Who sits where: `given` (the names of `--lineup`) or, without it, the bots cycled over the
/// seats. Every name must be a `--bot`, every `--bot` seated, and the seats those of the game.
fn seat_lineup(bots: &Bots, given: Vec<String>, c: &Common) -> Result<Vec<String>, (u8, String)> {
    let n = c.players;
    let names: Vec<&str> = bots.iter().map(|(n, _)| n.as_str()).collect();
    if given.is_empty() && bots.len() > n {
        let more = if bots.len() <= c.spec.max_players {
            format!(", or seat them all with --players {}", bots.len())
        } else {
            String::new()
        };
        return Err(usage(format!(
            "{} bots ({}) for the {n} seats of this {} table: give at most {n} --bot, or choose the {n} \
             to seat with --lineup NAME,…{more}; for more bots than seats, play `croupier tournament`",
            bots.len(),
            names.join(", "),
            c.spec.name,
        )));
    }
    let lineup: Vec<String> = if given.is_empty() {
        (0..n).map(|s| bots[s % bots.len()].0.clone()).collect()
    } else {
        given
    };
    if lineup.len() != n {
        return Err(usage(format!("--lineup names {} seats for {n} players", lineup.len())));
    }
    for name in &lineup {
        if spec_of(bots, name).is_none() {
            return Err(usage(format!(
                "--lineup names '{name}', which is not a --bot (bots: {})",
                names.join(", ")
            )));
        }
    }
    let unseated: Vec<&str> = names
        .iter()
        .copied()
        .filter(|b| !lineup.iter().any(|l| l == b))
        .collect();
    if !unseated.is_empty() {
        return Err(usage(format!(
            "--lineup {} leaves --bot {} without a seat: seat every --bot or leave it out (for more \
             bots than seats, play `croupier tournament`)",
            lineup.join(","),
            unseated.join(", ")
        )));
    }
    Ok(lineup)
}

/// The arguments the match's fingerprint is made of.
fn canonical(c: &Common, bots: &Bots, lineup: &[String], deals: u64, seed: u64, duplicate: bool) -> Value {
    let mut canonical = json!({
        "game": c.spec.name, "options": c.options.to_json(), "players": c.players,
        "lineup": lineup.iter().map(|l| json!([l, spec_of(bots, l)])).collect::<Vec<_>>(),
        // `games` is the key of the deals' number since the option's old name: kept, so that
        // the fingerprints of earlier runs do not change.
        "games": deals, "seed": format_seed(seed), "duplicate": duplicate,
        // The time limits change results too (a slow bot's timeouts): a resumed run keeps them.
        "move_time_ms": c.config.move_time.as_millis() as u64,
        "startup_time_ms": c.config.startup_time.as_millis() as u64,
    });
    limits_canon(&mut canonical, &c.config);
    canonical
}

/// The games of every deal: one per seating, `r0`, `r1`, …, each player seated as its seating
/// says, with the lineup's bot.
fn seating_jobs(seatings: &[Vec<usize>], lineup: &[String]) -> Vec<Job> {
    seatings
        .iter()
        .enumerate()
        .map(|(r, seat_of)| Job {
            key: format!("r{r}"),
            seat_of: seat_of.clone(),
            bots: seat_of.iter().map(|&p| lineup[p].clone()).collect(),
        })
        .collect()
}

/// How the deals were played, for the result's first line: `duplicate, 2 seating(s) per
/// deal` or `not duplicate`, and the shard.
fn how_played(duplicate: bool, seatings: usize, shard_tag: &str) -> String {
    let dup = if duplicate {
        format!("duplicate, {seatings} seating(s) per deal")
    } else {
        "not duplicate".to_string()
    };
    let shard = if shard_tag.is_empty() {
        String::new()
    } else {
        format!(", shard {shard_tag}")
    };
    format!("{dup}{shard}")
}

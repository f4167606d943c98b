//! `croupier tournament`: many bots at a schedule of tables on duplicate deals, one rating per
//! bot (the schedule and the report in `arena::tournament`, the model in `ratings`).

use super::arena::{
    bots_run, common, finish, limits_canon, parse_bots, parse_spec, play_plan, previous_run, run_bot_key, run_seed,
    run_tags, Common, Plan, Played, RunArgs, TableArgs,
};
use super::bot_args::bot_seed_note;
use super::exit::{usage, Outcome};
use super::io;
use crate::arena;
use crate::arena::report::MatchInfo;
use crate::arena::tournament::{schedule, tournament_json, tournament_lines, Tournament};
use crate::chance::format_seed;
use crate::referee::SeatSpec;
use clap::Args;
use serde_json::{json, Value};

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The game (see `croupier games`).
    game: String,
    /// A bot: NAME=SPEC, or just SPEC (a built-in bot's name or a command line); at least two.
    #[arg(long = "bot", value_name = "NAME=SPEC", required = true)]
    bots: Vec<String>,
    /// Seats per table (default: the game's default). Every combination of this many distinct
    /// bots is a table; with fewer bots than seats there is one table, the bots cycled.
    #[arg(long, allow_hyphen_values = true, value_parser = super::args::at_least_one_usize)]
    players: Option<usize>,
    /// Only the tables of bot NAME: NAME with every combination of the others.
    #[arg(long, value_name = "NAME")]
    gauntlet: Option<String>,
    /// The bot whose rating is 0: the others' are their mean score per deal and seat above
    /// it (default: the first --bot).
    #[arg(long, value_name = "NAME")]
    reference: Option<String>,
    /// Deals per table, each played under every rotation of the table's lineup (a game per
    /// seating). `--games` is its old name.
    #[arg(long, visible_alias = "games", default_value = "100", allow_hyphen_values = true,
          value_parser = super::args::at_least_one)]
    deals: u64,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    table: TableArgs,
}

pub fn run(mut a: TournamentArgs) -> Outcome {
    a.table.log_dir = io::run_log_dir(&a.table.log_dir)?;
    let bots = parse_bots(&a.bots)?;
    let names: Vec<String> = bots.iter().map(|(n, _)| n.clone()).collect();
    let (gauntlet, reference) = roles(&names, a.gauntlet.as_deref(), a.reference.as_ref())?;
    let previous = previous_run(a.run.record.as_ref(), a.run.resume)?;
    let seed = run_seed(a.table.seed.as_deref(), previous.as_ref())?;
    let c = common(&a.game, &a.table, a.players, seed)?;
    let n = c.players;
    let tables = schedule(bots.len(), n, gauntlet);
    let tour = Tournament::new(names.clone(), tables);
    let shard = a.run.shard()?;
    let bot_pairs: Vec<Value> = bots.iter().map(|(n, s)| json!([n, s])).collect();
    let canonical = canonical(&c, &bot_pairs, &a, seed);
    let fp = arena::fingerprint(&canonical.to_string());
    let shard_tag = shard.map(|(k, m)| format!("{k}/{m}")).unwrap_or_default();
    let plan = Plan {
        sets: tour.sets(a.deals),
        shard,
        canonical: canonical.clone(),
        keys: tour.keys(),
        reference: Some(reference.clone()),
    };
    let mut tags = run_tags(&fp, seed, &canonical, &shard_tag);
    tags.insert("tournament".to_string(), Value::from(bot_pairs));
    let player_bots = tour.player_bots();
    let players: Vec<SeatSpec> = player_bots
        .iter()
        .map(|&b| parse_spec(&bots[b].1))
        .collect::<Result<_, _>>()?;
    let bot_key = run_bot_key(&a.table, previous.as_ref(), shard, &players)?;
    let player_names: Vec<String> = player_bots.iter().map(|&b| names[b].clone()).collect();
    crate::cli::listen::start_run_hub(&a.table, &players, &player_names, a.run.record.as_deref())?;
    let run = bots_run(&c, &a.table, &a.run, players, player_names, bot_key, seed, tags);
    let tables = tour.tables.len();
    let jobs = tour.clone();
    let Played { acc, already, played } = play_plan(
        &plan,
        move |i| jobs.jobs(i),
        &run,
        a.run.record.as_ref(),
        a.run.resume,
        a.table.quiet,
        "tournament",
    )?;
    let info = MatchInfo {
        game: c.spec.name.to_string(),
        id: fp.clone(),
        seed: Some(format_seed(seed)),
        lineup: names.clone(),
        shard: (!shard_tag.is_empty()).then(|| shard_tag.clone()),
    };
    let faults: u64 = acc.bot_totals().iter().map(|b| b.3).sum();
    if a.table.json {
        outln!("{}", tournament_json(&info, &acc, &reference));
    } else {
        let shard = if shard_tag.is_empty() {
            String::new()
        } else {
            format!(", shard {shard_tag}")
        };
        outln!(
            "{}: tournament of {} bots, {tables} table(s) of {n} ({}), {} deal(s), {} game(s){shard}, seed {seed}{}, tournament {fp}",
            c.spec.name,
            bots.len(),
            schedule_kind(a.gauntlet.as_deref(), bots.len(), n),
            acc.sets,
            acc.games,
            bot_seed_note(bot_key),
        );
        if already > 0 {
            outln!("({already} game(s) read from the record, {played} played now)");
        }
        for l in tournament_lines(&acc, &reference) {
            outln!("{l}");
        }
    }
    finish(&a.table, faults)
}

/// The gauntlet's bot (its index among `names`, the --bot names) and the reference bot
/// (default: the first), each a --bot; a tournament needs at least two bots.
fn roles(
    names: &[String],
    gauntlet: Option<&str>,
    reference: Option<&String>,
) -> Result<(Option<usize>, String), (u8, String)> {
    if names.len() < 2 {
        return Err(usage(format!(
            "a tournament needs at least two bots (got --bot {}): give another --bot",
            names.join(", ")
        )));
    }
    let index_of = |what: &str, name: &str| {
        names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| usage(format!("{what} {name} is not a --bot (bots: {})", names.join(", "))))
    };
    let gauntlet = gauntlet.map(|g| index_of("--gauntlet", g)).transpose()?;
    let reference = match reference {
        Some(r) => {
            index_of("--reference", r)?;
            r.clone()
        }
        None => names[0].clone(),
    };
    Ok((gauntlet, reference))
}

/// The arguments the tournament's fingerprint is made of (`bot_pairs`: each --bot as
/// `[NAME, SPEC]`).
fn canonical(c: &Common, bot_pairs: &[Value], a: &TournamentArgs, seed: u64) -> Value {
    let mut canonical = json!({
        "tournament": c.spec.name, "options": c.options.to_json(), "players": c.players, "bots": bot_pairs,
        "gauntlet": a.gauntlet, "games": a.deals, "seed": format_seed(seed),
        "move_time_ms": c.config.move_time.as_millis() as u64,
        "startup_time_ms": c.config.startup_time.as_millis() as u64,
    });
    limits_canon(&mut canonical, &c.config);
    canonical
}

/// Which tables were played, for the result's first line: a gauntlet, the bots cycled over
/// the seats of one table, or a round robin.
fn schedule_kind(gauntlet: Option<&str>, bots: usize, players: usize) -> String {
    match gauntlet {
        Some(g) => format!("gauntlet of {g}"),
        None if bots <= players => "the bots cycled over the seats".to_string(),
        None => "round robin".to_string(),
    }
}

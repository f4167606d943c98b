//! `croupier compare` from its arguments to its exit code: the run set up, its deals played
//! until the test decides, the result.

use super::args::CompareArgs;
use super::deals::{deal_difference, deal_jobs, sets_to_play, Deals};
use super::result::{interrupted, verdict, Finished};
use super::resume::{read_compare_resume, ComparePart};
use crate::arena::{self, Control, RunSpec, Set};
use crate::chance::format_seed;
use crate::cli::arena::{
    common, finish, limits_canon, parse_spec, previous_run, run_bot_key, run_seed, run_stopped, run_tags, Common,
    Progress, Sink,
};
use crate::cli::exit::{self, usage, Outcome};
use crate::cli::io;
use crate::record::GameRecord;
use crate::referee::{Config, SeatSpec};
use crate::sequential::BettingTest;
use crate::stats::{fmt_interval, Decision};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Instant;

pub fn run_compare(mut a: CompareArgs) -> Outcome {
    a.table.log_dir = io::run_log_dir(&a.table.log_dir)?;
    io::distinct_outputs(&[("--record", a.run.record.as_deref()), ("--junit", a.junit.as_deref())])?;
    let previous = previous_run(a.run.record.as_ref(), a.run.resume)?;
    let seed = run_seed(a.table.seed.as_deref(), previous.as_ref())?;
    let shard = a.run.shard()?;
    let c = common(&a.game, &a.table, a.players, seed)?;
    let n = c.players;
    let field = a.field.clone().unwrap_or_else(|| a.baseline.clone());
    let (lower, upper) = a.sprt.unwrap_or(c.spec.compare_bounds);
    let test = BettingTest::try_new(lower, upper, a.alpha, a.beta)
        .map_err(|e| usage(format!("--sprt/--alpha/--beta: {e}")))?;
    let players = seat_specs(&a, &field, n)?;
    // With the baseline as the field, every baseline game is the same game: play it once.
    let shared_base = field == a.baseline;
    let jobs = deal_jobs(n, shared_base);
    let canonical = canonical(&c, &a, &field, seed);
    let id = arena::fingerprint(&canonical.to_string());
    let shard_tag = shard.map(|(k, m)| format!("{k}/{m}")).unwrap_or_default();
    let mut tags = run_tags(&id, seed, &canonical, &shard_tag);
    // The sequential test, so that a report can draw it as this run ran it.
    tags.insert(
        "sprt".to_string(),
        json!({"method": "betting", "lower": lower, "upper": upper, "alpha": a.alpha, "beta": a.beta}),
    );
    let bot_key = run_bot_key(&a.table, previous.as_ref(), shard, &players)?;
    let names: Vec<String> = (0..players.len()).map(compare_name).collect();
    crate::cli::listen::start_run_hub(&a.table, &players, &names, a.run.record.as_deref())?;
    let keys: Vec<String> = jobs.iter().map(|j| j.key.clone()).collect();
    // The sets of this run (its shard's), and what a resumed record already holds of them.
    let (first, step) = shard.unwrap_or((0, 1));
    let in_plan = |i: u64| i < a.deals && i % step == first;
    let resumed = match (&a.run.record, a.run.resume) {
        (Some(p), true) => read_compare_resume(p, &canonical, &shard_tag, in_plan, &keys, n, shared_base)?,
        _ => ComparePart::default(),
    };
    let game = c.spec.name;
    let run = run_spec(c, players, bot_key, seed, tags, &a, shared_base);
    // The report is written at the end, but its file is opened now: a path that cannot be
    // written is an error before the first game, not after the last.
    let mut junit = a.junit.as_deref().map(|p| io::open_report(p, "--junit")).transpose()?;
    let started = Instant::now();
    let ComparePart {
        pending,
        partial,
        already,
    } = resumed;
    // A shard cannot decide (the test takes every deal in order): it plays its share, and
    // `croupier stats` runs the test over the merged shards.
    let deciding = !a.no_test && shard.is_none();
    let mut deals = Deals::new(test, pending, partial, (first, step), deciding, (n, shared_base));
    let planned = if first < a.deals {
        (a.deals - 1 - first) / step + 1
    } else {
        0
    };
    let to_play = if deals.decision == Decision::Continue {
        planned - deals.pending.len() as u64 - (deals.next - first) / step
    } else {
        0
    };
    let sets = sets_to_play(&jobs, &deals, a.deals, to_play);
    let (played, faults) = play_deals(&run, sets, to_play, to_play * jobs.len() as u64, &mut deals, &a)?;
    if let Some(sig) =
        crate::interrupt::requested().filter(|_| deals.decision == Decision::Continue && deals.next < a.deals)
    {
        return Err((
            crate::interrupt::exit_code(sig),
            interrupted(a.run.record.as_ref(), deals.test.summary().n(), played),
        ));
    }
    let result = Finished {
        a: &a,
        game,
        id,
        seed,
        bot_key,
        field,
        lower,
        upper,
        verdict: verdict(deals.decision, shard.is_some(), a.no_test),
        test: &deals.test,
        played,
        faults,
        already,
        shard,
        shard_tag,
    };
    result.print(a.table.json);
    if let Some(out) = &mut junit {
        result.write_junit(out, started.elapsed())?;
    }
    finish(&a.table, faults)?;
    Ok(match deals.decision {
        Decision::AcceptUpper => exit::OK,
        Decision::AcceptLower => exit::CHECK_FAILED,
        Decision::Continue if a.no_test || shard.is_some() => exit::OK,
        Decision::Continue => exit::UNDECIDED,
    })
}

/// The players of a compare table: 0 the candidate, 1 the baseline, 2.. the field (n-1
/// copies).
fn seat_specs(a: &CompareArgs, field: &str, n: usize) -> Result<Vec<SeatSpec>, (u8, String)> {
    let mut players = vec![parse_spec(&a.candidate)?, parse_spec(&a.baseline)?];
    for _ in 1..n {
        players.push(parse_spec(field)?);
    }
    Ok(players)
}

/// The arguments the run's fingerprint is made of.
fn canonical(c: &Common, a: &CompareArgs, field: &str, seed: u64) -> Value {
    let mut canonical = json!({
        "compare": c.spec.name, "options": c.options.to_json(), "players": c.players, "candidate": a.candidate,
        "baseline": a.baseline, "field": field, "seed": format_seed(seed),
        "move_time_ms": c.config.move_time.as_millis() as u64,
        "startup_time_ms": c.config.startup_time.as_millis() as u64,
    });
    limits_canon(&mut canonical, &c.config);
    canonical
}

/// The run's tables: player 0 the candidate, 1 the baseline, the others the field; each
/// deal's value ([`deal_difference`]) worked out on its table.
fn run_spec(
    c: Common,
    players: Vec<SeatSpec>,
    bot_key: Option<u64>,
    seed: u64,
    tags: BTreeMap<String, Value>,
    a: &CompareArgs,
    shared_base: bool,
) -> RunSpec {
    let n = c.players;
    RunSpec {
        game: c.spec.name.to_string(),
        options: c.options.clone(),
        // Player 0 is the candidate, 1 the baseline, the others the field: their logs' names.
        config: Config {
            bot_key,
            log_names: (0..players.len()).map(compare_name).collect(),
            ..c.config
        },
        players,
        seed,
        tags,
        concurrency: a.table.concurrency,
        record_lines: a.run.record.is_some(),
        set_facts: false,
        // The test reads one number of each deal, worked out on its table; a resumed run
        // completes the deals it had begun, whose records are put together.
        keep_records: a.run.resume,
        set_value: Some(Box::new(move |recs: &[GameRecord]| {
            deal_difference(recs, n, shared_base)
        })),
    }
}

/// Plays `sets` (`to_play` deals of `games` games) on the run's tables, writing each finished
/// deal to the record and handing it to `deals`, with progress, until the test decides.
/// Returns the games played and the bots' faults.
fn play_deals(
    run: &RunSpec,
    sets: impl Iterator<Item = Set> + Send,
    to_play: u64,
    games: u64,
    deals: &mut Deals,
    a: &CompareArgs,
) -> Result<(u64, u64), (u8, String)> {
    let mut faults = 0u64;
    let mut played = 0u64;
    let mut sink = Sink::open(a.run.record.as_ref())?;
    let mut progress = Progress::new(games, a.table.quiet);
    let result = arena::run(run, sets, to_play, |set| {
        sink.write(&deals.finished(set.index, set.records, set.lines, set.value))?;
        played += set.games;
        faults += set.faults;
        progress.update(played, || {
            let diffs = deals.test.summary();
            let (lo, hi) = diffs.ci(0.95);
            Some(format!("candidate − baseline {}", fmt_interval(diffs.mean(), lo, hi)))
        });
        Ok(if deals.decision == Decision::Continue {
            Control::Continue
        } else {
            Control::Stop
        })
    });
    progress.finish();
    // Undecided (interrupted, a table failed): the deals played out of turn are kept too.
    let kept = sink.write(&deals.unwritten());
    result.map_err(|e| run_stopped("compare", e))?;
    kept.map_err(|e| run_stopped("compare", e))?;
    Ok((played, faults))
}

/// Player `p`'s name in a compare run (its log's, and what `--trust` names): player 0 is the
/// candidate, 1 the baseline, the others the field.
fn compare_name(p: usize) -> String {
    ["candidate", "baseline"].get(p).unwrap_or(&"field").to_string()
}

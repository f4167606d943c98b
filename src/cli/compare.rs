//! `croupier compare`: the CI gate. The candidate and the baseline on the same deals, the test
//! by betting of [`crate::sequential`] deciding deal by deal in order.

use super::arena::{
    args_tag, common, faults_note, limits_canon, parse_spec, previous_run, repeated_game, resumed_records, run_seed,
    tag_str, Progress, RunArgs, Sink, TableArgs,
};
use super::exit::{self, usage, Outcome};
use super::io;
use crate::arena::report::signed;
use crate::arena::{self, Control, Job, RunSpec, Set};
use crate::chance::format_seed;
use crate::record::GameRecord;
use crate::referee::Config;
use crate::sequential::BettingTest;
use crate::stats::{fmt_interval, Decision};
use clap::Args;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The game (see `croupier games`).
    game: String,
    /// The bot under test (built-in name or command line).
    #[arg(long)]
    candidate: String,
    /// The bot it must not be worse than.
    #[arg(long)]
    baseline: String,
    /// The other seats (default: the baseline).
    #[arg(long)]
    field: Option<String>,
    /// Number of players (default: the game's default).
    #[arg(long, allow_hyphen_values = true, value_parser = super::args::at_least_one_usize)]
    players: Option<usize>,
    /// The most deals to play before giving up without a decision (exit 3); each deal is
    /// several games (the candidate's and the baseline's in every seat). `--games` is its old
    /// name.
    #[arg(long, visible_alias = "games", default_value = "5000", allow_hyphen_values = true,
          value_parser = super::args::at_least_one)]
    deals: u64,
    /// The sequential test's bounds on the mean paired difference per deal and seat:
    /// "difference <= LOWER" (fail) against "difference >= UPPER" (pass). Default per game.
    #[arg(long, value_name = "LOWER,UPPER", allow_hyphen_values = true, value_parser = parse_sprt)]
    sprt: Option<(f64, f64)>,
    /// Probability of passing a candidate whose true difference is LOWER.
    #[arg(long, default_value = "0.05", allow_hyphen_values = true, value_parser = super::args::probability)]
    alpha: f64,
    /// Probability of failing a candidate whose true difference is UPPER.
    #[arg(long, default_value = "0.05", allow_hyphen_values = true, value_parser = super::args::probability)]
    beta: f64,
    /// Play all --deals deals and print the estimate, without the test's verdict (result
    /// "estimate", exit 0): to learn how far apart two bots are, e.g. before choosing --sprt.
    #[arg(long)]
    no_test: bool,
    #[command(flatten)]
    run: RunArgs,
    /// Also write the verdict as a JUnit XML report (one test case) for CI systems. `-` writes
    /// it to standard output; the result then goes to stderr.
    #[arg(long, value_name = "FILE|-")]
    junit: Option<PathBuf>,
    #[command(flatten)]
    table: TableArgs,
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
    let mut test = BettingTest::try_new(lower, upper, a.alpha, a.beta)
        .map_err(|e| usage(format!("--sprt/--alpha/--beta: {e}")))?;
    // Players: 0 candidate, 1 baseline, 2.. the field (n-1 copies).
    let mut players = vec![parse_spec(&a.candidate)?, parse_spec(&a.baseline)?];
    for _ in 1..n {
        players.push(parse_spec(&field)?);
    }
    let others = |s: usize, me: usize, me_name: &str| -> (Vec<usize>, Vec<String>) {
        let mut k = 2;
        let mut seat_of = Vec::new();
        let mut names = Vec::new();
        for t in 0..n {
            if t == s {
                seat_of.push(me);
                names.push(me_name.to_string());
            } else {
                seat_of.push(k);
                names.push("field".to_string());
                k += 1;
            }
        }
        (seat_of, names)
    };
    // With the baseline as the field, every baseline game is the same game: play it once.
    let shared_base = field == a.baseline;
    let mut jobs = Vec::new();
    for s in 0..n {
        let (seat_of, bots) = others(s, 0, "candidate");
        jobs.push(Job {
            key: format!("cand@{s}"),
            seat_of,
            bots,
        });
        if shared_base && s == 0 {
            // Every seat holds the baseline: `stats` then compares the candidate with it seat by seat.
            let (seat_of, _) = others(s, 1, "baseline");
            jobs.push(Job {
                key: "base".into(),
                seat_of,
                bots: vec!["baseline".into(); n],
            });
        } else if !shared_base {
            let (seat_of, bots) = others(s, 1, "baseline");
            jobs.push(Job {
                key: format!("base@{s}"),
                seat_of,
                bots,
            });
        }
    }
    let mut tags = BTreeMap::new();
    let mut canonical = json!({
        "compare": c.spec.name, "options": c.options.to_json(), "players": n, "candidate": a.candidate,
        "baseline": a.baseline, "field": field, "seed": format_seed(seed),
        "move_time_ms": c.config.move_time.as_millis() as u64,
        "startup_time_ms": c.config.startup_time.as_millis() as u64,
    });
    limits_canon(&mut canonical, &c.config);
    let canonical = canonical;
    let id = arena::fingerprint(&canonical.to_string());
    tags.insert("match".to_string(), Value::from(id.clone()));
    tags.insert("match_seed".to_string(), Value::from(format_seed(seed)));
    tags.insert("args".to_string(), args_tag(&canonical));
    let shard_tag = shard.map(|(k, m)| format!("{k}/{m}")).unwrap_or_default();
    tags.insert("shard".to_string(), Value::from(shard_tag.clone()));
    // The sequential test, so that a report can draw it as this run ran it.
    tags.insert(
        "sprt".to_string(),
        json!({"method": "betting", "lower": lower, "upper": upper, "alpha": a.alpha, "beta": a.beta}),
    );
    let recorded_key = previous.as_ref().and_then(|r| r.bot_seed.as_deref());
    super::bot_args::shard_needs_bot_seed(shard, a.table.bots.bot_seed.as_deref(), recorded_key, &players)
        .map_err(usage)?;
    let bot_key = super::bot_args::bot_key(a.table.bots.bot_seed.as_deref(), recorded_key, &players).map_err(usage)?;
    let keys: Vec<String> = jobs.iter().map(|j| j.key.clone()).collect();
    // The sets of this run (its shard's), and what a resumed record already holds of them.
    let (first, step) = shard.unwrap_or((0, 1));
    let in_plan = |i: u64| i < a.deals && i % step == first;
    let resumed = match (&a.run.record, a.run.resume) {
        (Some(p), true) => read_compare_resume(p, &canonical, &shard_tag, in_plan, &keys, n, shared_base)?,
        _ => ComparePart::default(),
    };
    let run = RunSpec {
        game: c.spec.name.to_string(),
        options: c.options.clone(),
        // Player 0 is the candidate, 1 the baseline, the others the field: their logs' names.
        config: Config {
            bot_key,
            log_names: (0..players.len())
                .map(|p| ["candidate", "baseline"].get(p).unwrap_or(&"field").to_string())
                .collect(),
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
    };
    // The report is written at the end, but its file is opened now: a path that cannot be
    // written is an error before the first game, not after the last.
    let mut junit = match &a.junit {
        Some(p) => {
            if io::is_dash(p) {
                super::output::stdout_is_data();
            }
            Some(io::open_output(p, "--junit", false)?)
        }
        None => None,
    };
    let started = Instant::now();
    // A shard cannot decide (the test takes every deal in order): it plays its share, and
    // `croupier stats` runs the test over the merged shards.
    let deciding = !a.no_test && shard.is_none();
    // Sets finish in any order; the test takes them in deal order, the resumed ones first.
    let ComparePart {
        mut pending,
        mut partial,
        already,
    } = resumed;
    let mut next = first;
    let mut faults = 0u64;
    let mut played = 0u64;
    // The deals waiting for their turn, taken in order by the test until it decides.
    let take = |test: &mut BettingTest, pending: &mut BTreeMap<u64, [f64; 2]>, next: &mut u64| {
        while let Some([d, scale]) = pending.remove(next) {
            *next += step;
            if test.push(d, scale) != Decision::Continue && deciding {
                return test.decision();
            }
        }
        Decision::Continue
    };
    let mut decision = take(&mut test, &mut pending, &mut next);
    let planned = if first < a.deals {
        (a.deals - 1 - first) / step + 1
    } else {
        0
    };
    let to_play = if decision == Decision::Continue {
        planned - pending.len() as u64 - (next - first) / step
    } else {
        0
    };
    let have: BTreeMap<u64, BTreeSet<String>> = partial
        .iter()
        .map(|(i, recs)| (*i, recs.iter().map(|r| tag_str(r, "job")).collect()))
        .collect();
    let waiting: BTreeSet<u64> = pending.keys().copied().collect();
    // The sets are made as the tables take them: a run of any length needs no list of them.
    let sets = (next..a.deals)
        .step_by(usize::try_from(step).unwrap_or(usize::MAX))
        .filter(|i| !waiting.contains(i))
        .take(usize::try_from(to_play).unwrap_or(usize::MAX))
        .map(|i| Set {
            index: i,
            jobs: jobs
                .iter()
                .filter(|j| have.get(&i).is_none_or(|h| !h.contains(&j.key)))
                .cloned()
                .collect(),
        });
    let mut sink = Sink::open(a.run.record.as_ref())?;
    let mut progress = Progress::new(to_play * jobs.len() as u64, a.table.quiet);
    let result = arena::run(&run, sets, to_play, |set| {
        sink.write(set.lines)?;
        played += set.games;
        faults += set.faults;
        let value = match partial.remove(&set.index) {
            // A deal begun before: its games of then and of now, together.
            Some(mut old) => {
                old.append(set.records);
                deal_difference(&old, n, shared_base)
            }
            None => set.value.expect("compare gives its run a set_value"),
        };
        pending.insert(set.index, value);
        if decision == Decision::Continue {
            decision = take(&mut test, &mut pending, &mut next);
        }
        progress.update(played, || {
            let diffs = test.summary();
            let (lo, hi) = diffs.ci(0.95);
            Some(format!("candidate − baseline {}", fmt_interval(diffs.mean(), lo, hi)))
        });
        Ok(if decision == Decision::Continue {
            Control::Continue
        } else {
            Control::Stop
        })
    });
    progress.finish();
    result.map_err(|e| super::arena::run_stopped("compare", e))?;
    if let Some(sig) = crate::interrupt::requested().filter(|_| decision == Decision::Continue && next < a.deals) {
        let kept = match &a.run.record {
            Some(p) if io::is_dash(p) => " games, written to standard output)".to_string(),
            Some(p) => format!(
                " games, recorded in {}); run the same command with --resume to go on:\n  {}",
                p.display(),
                super::arena::resume_command()
            ),
            None => " games)".to_string(),
        };
        return Err((
            crate::interrupt::exit_code(sig),
            format!(
                "interrupted: no decision after {} deal(s) ({played}{kept}",
                test.summary().n()
            ),
        ));
    }
    let diffs = test.summary();
    let (lo, hi) = diffs.ci(0.95);
    let verdict = match decision {
        Decision::AcceptUpper => "pass",
        Decision::AcceptLower => "fail",
        Decision::Continue if shard.is_some() => "shard",
        Decision::Continue if a.no_test => "estimate",
        Decision::Continue => "no decision",
    };
    let (a_bound, b_bound) = test.bounds();
    let (log_pass, log_fail) = test.log_wealth();
    if a.table.json {
        // The words of the text: candidate, baseline, field; deals, games; the difference's
        // mean and 95 % interval; the test's lower/upper, alpha/beta, evidence and its bounds,
        // the two wealths' logarithms, and the differences outside its assumed range.
        outln!(
            "{}",
            json!({
                "game": c.spec.name, "match": id, "seed": format_seed(seed),
                "candidate": a.candidate, "baseline": a.baseline, "field": field,
                "deals": diffs.n(), "games": played, "mean": diffs.mean(), "ci95": [lo, hi],
                "lower": lower, "upper": upper, "alpha": a.alpha, "beta": a.beta,
                "evidence": test.evidence(), "evidence_bounds": [a_bound, b_bound],
                "log_wealth": {"pass": log_pass, "fail": log_fail},
                "surprises": test.surprises(),
                "result": verdict, "faults": faults, "shard": shard.map(|_| shard_tag.clone()),
                "read": already,
            })
        );
    } else {
        outln!(
            "{}: candidate {} against baseline {} (field {}), seed {seed}{}",
            c.spec.name,
            a.candidate,
            a.baseline,
            field,
            super::bot_args::bot_seed_note(bot_key)
        );
        if already > 0 {
            outln!("({already} game(s) read from the record, {played} played now)");
        }
        if !shard_tag.is_empty() {
            outln!(
                "shard {shard_tag}: its deals only, no verdict (the test takes every deal in order): \
                 merge the shards' records with `croupier stats`, which runs the test on them"
            );
        }
        outln!(
            "candidate − baseline per deal and seat: {} over {} deal(s) ({} games)",
            fmt_interval(diffs.mean(), lo, hi),
            diffs.n(),
            played
        );
        let surprises = match test.surprises() {
            0 => String::new(),
            k => format!("; {k} difference(s) fell outside the range it assumed, each cut its wealth"),
        };
        outln!(
            "sequential test by betting, H0: difference <= {} against H1: difference >= {} (alpha {}, beta {}): evidence {} in [{:.2}, {:.2}] (wealth: pass {:.3}, fail {:.3}{surprises})",
            signed(lower),
            signed(upper),
            a.alpha,
            a.beta,
            signed(test.evidence()),
            a_bound,
            b_bound,
            log_pass.exp(),
            log_fail.exp(),
        );
        outln!("result: {verdict}");
    }
    if let Some(out) = &mut junit {
        let estimate = format!(
            "candidate − baseline per deal and seat {} over {} deal(s); test bounds {},{}",
            fmt_interval(diffs.mean(), lo, hi),
            diffs.n(),
            lower,
            upper
        );
        let xml = junit_xml(
            c.spec.name,
            &a.candidate,
            &a.baseline,
            verdict,
            &estimate,
            started.elapsed(),
        );
        out.write(xml.as_bytes()).map_err(|e| {
            usage(format!(
                "--junit {}: {e}",
                a.junit.as_deref().unwrap_or(Path::new("")).display()
            ))
        })?;
    }
    if faults > 0 {
        eprintln!("{}", faults_note(&a.table, faults));
        if a.table.strict {
            return Err((exit::BOT_FAULT, format!("{faults} bot fault(s) under --strict")));
        }
    }
    Ok(match decision {
        Decision::AcceptUpper => exit::OK,
        Decision::AcceptLower => exit::CHECK_FAILED,
        Decision::Continue if a.no_test || shard.is_some() => exit::OK,
        Decision::Continue => exit::UNDECIDED,
    })
}

/// What the record of a compare run being resumed holds: the values of its whole deals (by
/// deal), the games of deals only partly written, and how many records were read.
#[derive(Default)]
struct ComparePart {
    pending: BTreeMap<u64, [f64; 2]>,
    partial: BTreeMap<u64, Vec<GameRecord>>,
    already: u64,
}

/// Reads the record of a compare run being resumed ([`resumed_records`]): every record must be
/// one of this run's games, there once.
fn read_compare_resume(
    path: &Path,
    canonical: &Value,
    shard: &str,
    in_plan: impl Fn(u64) -> bool,
    keys: &[String],
    players: usize,
    shared_base: bool,
) -> Result<ComparePart, (u8, String)> {
    let mut out = ComparePart::default();
    out.already = resumed_records(path, canonical, shard, |name, line, r| {
        let set = r.tags.get("set").and_then(|v| v.as_u64()).unwrap_or(u64::MAX);
        let job = tag_str(&r, "job");
        if !in_plan(set) || !keys.contains(&job) {
            return Err(usage(format!(
                "{name}:{line}: deal {set} game '{job}' is not one of this run's: use another file"
            )));
        }
        if out.pending.contains_key(&set) {
            return Err(repeated_game(name, line, set, &job));
        }
        let recs = out.partial.entry(set).or_default();
        if recs.iter().any(|x| tag_str(x, "job") == job) {
            return Err(repeated_game(name, line, set, &job));
        }
        recs.push(r);
        if recs.len() == keys.len() {
            let recs = out.partial.remove(&set).unwrap_or_default();
            out.pending.insert(set, deal_difference(&recs, players, shared_base));
        }
        Ok(())
    })?;
    Ok(out)
}

/// A JUnit XML report with one test case: the compare verdict (a failure unless it passed).
fn junit_xml(game: &str, candidate: &str, baseline: &str, verdict: &str, estimate: &str, took: Duration) -> String {
    let case = io::JunitCase {
        classname: format!("croupier.compare.{game}"),
        name: format!("{candidate} is not worse than {baseline}"),
        seconds: took.as_secs_f64(),
        failure: (verdict != "pass").then(|| (format!("result: {verdict}"), estimate.to_string())),
        output: estimate.to_string(),
    };
    io::junit_xml(&format!("croupier compare {game}"), &[case], took.as_secs_f64())
}

/// The candidate's mean score per seat minus the baseline's on the same cards in the same seat,
/// and the largest absolute score of a seat in the deal's games (the test's scale).
fn deal_difference(recs: &[GameRecord], n: usize, shared_base: bool) -> [f64; 2] {
    let find = |key: &str| recs.iter().find(|r| tag_str(r, "job") == key);
    let mut sum = 0.0;
    for s in 0..n {
        let cand = find(&format!("cand@{s}")).map(|r| r.result.scores[s]).unwrap_or(0.0);
        let key = if shared_base {
            "base".to_string()
        } else {
            format!("base@{s}")
        };
        let base = find(&key).map(|r| r.result.scores[s]).unwrap_or(0.0);
        sum += cand - base;
    }
    let scale = recs
        .iter()
        .flat_map(|r| r.result.scores.iter())
        .fold(0.0f64, |m, s| m.max(s.abs()));
    [sum / n as f64, scale]
}

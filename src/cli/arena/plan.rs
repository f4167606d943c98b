//! Playing a run's sets: a [`Plan`] (its sets, shard and job keys) played on the tables with
//! a resumed record completed, each set written to the record ([`Sink`]) as it finishes.

use super::progress::Progress;
use super::resume::{jobs_held, read_resume, seating, Resumed};
use super::stopped::{interrupted, run_stopped};
use crate::arena::accumulator::Accumulator;
use crate::arena::{self, Control, Job, RunSpec, Set};
use crate::cli::exit::usage;
use crate::cli::io;
use serde_json::Value;
use std::path::PathBuf;

/// The sets of a run and the job keys of each: what `match` and `tournament` share.
pub(crate) struct Plan {
    /// The run's sets are 0..sets (deal indexes in a match).
    pub sets: u64,
    /// Play only the sets whose index is K mod N.
    pub shard: Option<(u64, u64)>,
    /// The arguments the run's fingerprint is made of (every record's `match` tag).
    pub canonical: Value,
    /// The keys of every set's games, in the order they are counted.
    pub keys: Vec<String>,
    /// A tournament's reference bot: the progress line shows the standings, each bot's rating
    /// relative to it (`None`: a match, the first pair's difference).
    pub reference: Option<String>,
}

/// What [`play_plan`] leaves: the statistics of the plan's sets, the records read from the
/// file being resumed and the games played now.
pub(crate) struct Played {
    pub acc: Accumulator,
    pub already: u64,
    pub played: u64,
}

/// Plays the sets of `plan` (its shard) that `record` does not hold yet, `jobs_of(i)` making
/// the games of set `i`: reads the file of a resumed run (whole sets go to the statistics, the
/// games of partly written ones are completed), writes each finished set to `record`, shows
/// progress, and says what was kept when Ctrl-C or SIGTERM stopped it (`what`: the command).
/// A resumed run needs [`RunSpec::keep_records`]: the records of a partly written set are put
/// together with the games played now.
pub(crate) fn play_plan(
    plan: &Plan,
    jobs_of: impl Fn(u64) -> Vec<Job> + Send,
    run: &RunSpec,
    record: Option<&PathBuf>,
    resume: bool,
    quiet: bool,
    what: &str,
) -> Result<Played, (u8, String)> {
    let (sets, keys) = (plan.sets, &plan.keys);
    let shard_tag = plan.shard.map(|(k, m)| format!("{k}/{m}")).unwrap_or_default();
    // The sets of this run (of its shard), in the order they are made and summed.
    let (first, step) = plan.shard.unwrap_or((0, 1));
    let in_plan = |i: u64| i < sets && i % step == first;
    let planned = if first < sets { (sets - 1 - first) / step + 1 } else { 0 };
    let mut acc = Accumulator::in_order(first, step);
    // What the record already holds: whole sets go to the statistics as it is read.
    let resumed = match (record, resume) {
        (Some(p), true) => read_resume(p, &plan.canonical, &shard_tag, in_plan, keys, &mut acc)?,
        _ => Resumed::default(),
    };
    let already = resumed.already;
    let mut partial = resumed.partial;
    if !partial.is_empty() && !run.keep_records {
        return Err(usage(
            "internal error: a resumed run must keep its records (RunSpec::keep_records)",
        ));
    }
    let to_play = planned - resumed.complete;
    let total: u64 = to_play * keys.len() as u64 - partial.values().map(|v| v.len() as u64).sum::<u64>();
    // The sets are made as the tables take them: a run of any length needs no list of them.
    let (folded_to, ahead) = (acc.next_index(), acc.waiting_indexes());
    let have = jobs_held(&partial);
    let to_make = (first..sets)
        .step_by(usize::try_from(step).unwrap_or(usize::MAX))
        .filter(move |i| *i >= folded_to && !ahead.contains(i))
        .map(move |i| Set {
            index: i,
            jobs: jobs_of(i)
                .into_iter()
                .filter(|j| have.get(&i).is_none_or(|h| !h.contains(&j.key)))
                .collect(),
        });
    let mut sink = Sink::open(record)?;
    let mut progress = Progress::new(total, quiet);
    let mut played = 0u64;
    let result = arena::run(run, to_make, to_play, |set| {
        sink.write(set.lines)?;
        played += set.games;
        match partial.remove(&set.index) {
            Some(old) => {
                // The set's games in the order of its seatings, as one run plays them.
                set.records.extend(old);
                set.records.sort_by_key(|r| seating(keys, r));
                acc.add_set(set.index, set.records);
            }
            None => set.add_to(&mut acc),
        }
        progress.update(played, || match &plan.reference {
            Some(r) => crate::arena::tournament::standings(&acc, r),
            None => acc.leading(),
        });
        Ok(Control::Continue)
    });
    progress.finish();
    result.map_err(|e| run_stopped(what, e))?;
    if let Some(sig) = crate::interrupt::requested().filter(|_| played < total) {
        let msg = interrupted(record, already, played, total);
        return Err((crate::interrupt::exit_code(sig), msg));
    }
    Ok(Played { acc, already, played })
}

/// An append-only record file (or standard output) written a set at a time.
pub(crate) struct Sink(Option<io::Output>);

impl Sink {
    /// Opens the record before the first game; `-` is standard output, which then carries only
    /// the records (the result goes to stderr).
    pub(crate) fn open(path: Option<&PathBuf>) -> Result<Sink, (u8, String)> {
        let Some(p) = path else { return Ok(Sink(None)) };
        if io::is_dash(p) {
            crate::cli::output::stdout_is_data();
        }
        Ok(Sink(Some(io::open_output(p, "--record", true)?)))
    }

    /// Writes the record lines of one set (made by its table, [`RunSpec::record_lines`])
    /// with one write, then flushes.
    pub(crate) fn write(&mut self, lines: &[u8]) -> Result<(), String> {
        if let Some(out) = &mut self.0 {
            out.write(lines).map_err(|e| format!("writing the record: {e}"))?;
        }
        Ok(())
    }
}

//! A run: sets played on worker tables ([`super::worker`]) and handed to the caller as they
//! finish ([`run`]), each as a [`Finished`] set.

use super::accumulator::Accumulator;
use super::batch::{Msg, SetDone};
use super::facts::SetFacts;
use super::sets::Set;
use super::spec::RunSpec;
use super::worker::worker;
use crate::record::GameRecord;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// What the caller wants after a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Stop: sets still being played are dropped (their records are not handed over).
    Stop,
}

/// A finished set, as [`run`] hands it to the caller.
pub struct Finished<'a> {
    /// The set's index.
    pub index: u64,
    /// How many games of it were played now.
    pub games: u64,
    /// How many faults its games had (every seat's, rulings of [`crate::record::FaultRecord`]).
    pub faults: u64,
    /// [`RunSpec::set_value`] of it.
    pub value: Option<[f64; 2]>,
    /// Its games' records, in the order of its jobs (empty unless [`RunSpec::keep_records`]).
    pub records: &'a mut Vec<GameRecord>,
    /// Their JSON lines (one per record, each with its newline; empty unless
    /// [`RunSpec::record_lines`]).
    pub lines: &'a [u8],
    facts: Option<SetFacts>,
    /// The table that played it and the names its facts refer to.
    table: usize,
    names: &'a [String],
}

impl Finished<'_> {
    /// Adds the set to `acc` under its index: the facts its table made, else (without
    /// [`RunSpec::set_facts`]) made from the records now.
    pub fn add_to(&mut self, acc: &mut Accumulator) {
        match self.facts.take() {
            Some(f) => acc.add_made(self.index, f, self.table, self.names),
            None => acc.add_set(self.index, self.records),
        }
    }
}

/// Plays the `count` sets that `sets` makes (taken in its order, one at a time or, by a table
/// whose sets are fast, up to 16 at once) and calls
/// `on_set` with each finished set, in completion order. Returns an error if a table
/// cannot start or a game cannot be played (records handed over before that are the caller's
/// to keep). After Ctrl-C or SIGTERM ([`crate::interrupt`]) no new game starts and `run`
/// returns once the games being played are over; sets left incomplete are not handed over.
pub fn run<I>(
    spec: &RunSpec,
    sets: I,
    count: u64,
    mut on_set: impl FnMut(&mut Finished<'_>) -> Result<Control, String>,
) -> Result<(), String>
where
    I: Iterator<Item = Set> + Send,
{
    if count == 0 {
        return Ok(());
    }
    let workers = spec.concurrency.clamp(1, usize::try_from(count).unwrap_or(usize::MAX));
    let queue = Mutex::new(sets);
    let stop = AtomicBool::new(false);
    // Finished sets wait here for the caller; a full queue holds the tables back.
    let (tx, rx) = mpsc::sync_channel::<Msg>(2 * workers);
    // Consumed sets go back to their table to be freed there: a record is many small
    // allocations, and freeing them on this thread (another thread's memory) took this thread
    // a tenth of a match of random bots, time that two tables have no core for.
    let mut give_back = Vec::new();
    // Per table, the names its sets' facts refer to.
    let mut names: Vec<Vec<String>> = vec![Vec::new(); workers];
    let mut result = Ok(());
    std::thread::scope(|scope| {
        for w in 0..workers {
            let (queue, stop) = (&queue, &stop);
            let tx = tx.clone();
            let (back_tx, back) = mpsc::channel::<Vec<SetDone>>();
            give_back.push(back_tx);
            let mut cfg = spec.config.clone();
            // Only a record line shows a game's detail and its actions' tokens (the report
            // reads their times).
            cfg.detail &= spec.record_lines;
            cfg.tokens &= spec.record_lines;
            if workers > 1 {
                cfg.log_table = Some(w);
            }
            scope.spawn(move || worker(w, spec, cfg, queue, stop, &tx, &back));
        }
        drop(tx);
        for msg in rx.iter() {
            if stop.load(Ordering::SeqCst) {
                continue; // drain until every worker has finished its current game
            }
            let control = match msg {
                Msg::Done(w, mut sets, new_names) => {
                    names[w].extend(new_names);
                    let mut control = Ok(Control::Continue);
                    for set in &mut sets {
                        control = on_set(&mut Finished {
                            index: set.index,
                            games: u64::from(set.games),
                            faults: u64::from(set.faults),
                            value: set.value,
                            records: &mut set.records,
                            lines: &set.lines,
                            facts: set.facts.take(),
                            table: w,
                            names: &names[w],
                        });
                        if !matches!(control, Ok(Control::Continue)) {
                            break;
                        }
                    }
                    // (A table that has stopped left its sets to be freed here.)
                    let _ = give_back[w].send(sets);
                    control
                }
                Msg::Failed(e) => Err(e),
            };
            match control {
                Ok(Control::Continue) => {}
                Ok(Control::Stop) => stop.store(true, Ordering::SeqCst),
                Err(e) => {
                    result = Err(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::sets::Job;
    use crate::options::Options;
    use crate::referee::{Config, SeatSpec};
    use std::collections::BTreeMap;

    /// A match of random Rikken bots on `tables` tables, 40 sets of two seatings each.
    /// Per set: index, games, records handed over, facts or not, and its value (the first
    /// seat's scores summed, checked against the records when they are handed over).
    fn sets_of(keep_records: bool, set_facts: bool, tables: usize) -> Vec<(u64, u64, usize, bool, i64)> {
        let game = crate::games::find("rikken").unwrap();
        let bots = vec!["random".to_string(); 4];
        let spec = RunSpec {
            game: "rikken".into(),
            options: Options::resolve::<&str>(&(game.options)(), "rikken", &[]).unwrap(),
            players: vec![SeatSpec::Builtin("random".into()); 4],
            config: Config::default(),
            seed: 7,
            tags: BTreeMap::new(),
            concurrency: tables,
            record_lines: false,
            set_facts,
            keep_records,
            set_value: Some(Box::new(|recs| [recs.iter().map(|r| r.result.scores[0]).sum(), 0.0])),
        };
        let job = |key: &str, seat_of: Vec<usize>| Job {
            key: key.into(),
            seat_of,
            bots: bots.clone(),
        };
        let sets = (0..40).map(|index| Set {
            index,
            jobs: vec![job("r0", vec![0, 1, 2, 3]), job("r1", vec![1, 2, 3, 0])],
        });
        let mut seen = Vec::new();
        let mut acc = Accumulator::default();
        run(&spec, sets, 40, |set| {
            let value = set.value.expect("a value for every set");
            if keep_records {
                assert_eq!(value[0], set.records.iter().map(|r| r.result.scores[0]).sum::<f64>());
                assert_eq!(
                    set.faults,
                    set.records.iter().map(|r| r.faults.len() as u64).sum::<u64>()
                );
            }
            seen.push((
                set.index,
                set.games,
                set.records.len(),
                set.facts.is_some(),
                value[0] as i64,
            ));
            set.add_to(&mut acc);
            Ok(Control::Continue)
        })
        .unwrap();
        seen.sort();
        if set_facts || keep_records {
            assert_eq!(acc.games, 80, "every game is counted, from facts or from records");
        }
        seen
    }

    #[test]
    fn records_reach_the_caller_only_when_it_keeps_them() {
        for tables in [1, 2] {
            // Kept (a resumed run): every game's record, with or without facts.
            let kept = sets_of(true, true, tables);
            let values: Vec<i64> = kept.iter().map(|s| s.4).collect();
            assert!(
                values.iter().any(|&v| v != 0),
                "the values are the sets' own: {values:?}"
            );
            let expect = |records, facts| {
                (0..40)
                    .map(|i| (i, 2, records, facts, values[i as usize]))
                    .collect::<Vec<_>>()
            };
            assert_eq!(kept, expect(2, true));
            assert_eq!(sets_of(true, false, tables), expect(2, false));
            // Facts and values made on the tables, records dropped there: the caller gets
            // counts, facts and the same values.
            assert_eq!(sets_of(false, true, tables), expect(0, true));
            assert_eq!(sets_of(false, false, tables), expect(0, false));
        }
    }
}

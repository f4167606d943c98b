//! A worker table: one thread with its own table of bots, taking sets from the run's shared
//! queue, playing their games, making what the caller needs of each finished set (record
//! lines, facts, the set's value) and handing the sets over in batches ([`super::batch`]).

use super::batch::{hand_over_now, Msg, SetDone, BATCH_FACTS, BATCH_SETS, BATCH_WAIT, TAKE_FAST};
use super::facts::FactMaker;
use super::sets::{game_seed, Set};
use super::spec::RunSpec;
use crate::game::GameSpec;
use crate::options::Options;
use crate::record::GameRecord;
use crate::referee::{Config, Table};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

/// Runs worker table `w` until the queue is empty, the caller stops the run, or a game
/// cannot be played (then the sets finished before are handed over and the error sent).
pub(super) fn worker(
    w: usize,
    spec: &RunSpec,
    cfg: Config,
    queue: &Mutex<impl Iterator<Item = Set>>,
    stop: &AtomicBool,
    tx: &mpsc::SyncSender<Msg>,
    back: &mpsc::Receiver<Vec<SetDone>>,
) {
    let Some(game) = crate::games::find(&spec.game) else {
        let _ = tx.send(Msg::Failed(format!("unknown game '{}'", spec.game)));
        return;
    };
    let table = match Table::new(&spec.players, cfg) {
        Ok(t) => t,
        Err(e) => {
            let _ = tx.send(Msg::Failed(e));
            return;
        }
    };
    let most = if spec.keep_records { BATCH_SETS } else { BATCH_FACTS };
    let mut worker = Worker {
        w,
        spec,
        game,
        // Options of this table's own: see Options::detached.
        options: spec.options.detached(),
        table,
        queue,
        stop,
        tx,
        back,
        most,
        done: Vec::with_capacity(most),
        taken: VecDeque::new(),
        take: 1,
        first_unsent: Instant::now(),
        maker: spec.set_facts.then(FactMaker::default),
        names_sent: 0,
        spare: Vec::new(),
    };
    worker.work();
}

/// A worker table and what it holds between sets.
struct Worker<'a, Q> {
    w: usize,
    spec: &'a RunSpec,
    game: GameSpec,
    options: Options,
    table: Table,
    queue: &'a Mutex<Q>,
    stop: &'a AtomicBool,
    tx: &'a mpsc::SyncSender<Msg>,
    back: &'a mpsc::Receiver<Vec<SetDone>>,
    /// The most sets in a batch.
    most: usize,
    /// Finished sets not handed over yet.
    done: Vec<SetDone>,
    /// Sets taken from the queue and not played yet, and how many to take next time.
    taken: VecDeque<Set>,
    take: usize,
    /// When the first set of `done` finished.
    first_unsent: Instant,
    maker: Option<FactMaker>,
    /// How many of the maker's names the caller has been sent.
    names_sent: usize,
    /// Batches are made at their full size and their buffers come back from the caller to be
    /// used again: a batch grown set by set went through a dozen sizes, each of which kept
    /// memory of its own in the allocator (with 1,024-set batches, two tables of random bots
    /// took 35 MiB grown so, 19 MiB made at full size and 17 MiB with 64-set batches).
    spare: Vec<Vec<SetDone>>,
}

impl<Q: Iterator<Item = Set>> Worker<'_, Q> {
    fn work(&mut self) {
        while !self.stopping() {
            let Some(set) = self.next_set() else {
                break;
            };
            let started = Instant::now();
            let records = match self.play_set(&set) {
                Ok(records) => records,
                Err(e) => {
                    // The sets finished before this one are the caller's to keep.
                    self.hand_over();
                    let _ = self.tx.send(Msg::Failed(e));
                    self.table.shutdown();
                    return;
                }
            };
            if records.len() == set.jobs.len() && !self.finish_set(set.index, records, started) {
                break;
            }
        }
        self.hand_over();
        self.table.shutdown();
    }

    /// A stop from the caller, or Ctrl-C/SIGTERM: no new game starts.
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst) || crate::interrupt::requested().is_some()
    }

    /// The next set to play, taken from the queue with others when sets are fast; the
    /// buffers of batches the caller is done with are freed and kept on the way.
    fn next_set(&mut self) -> Option<Set> {
        while let Ok(mut sets) = self.back.try_recv() {
            sets.clear();
            self.spare.push(sets);
        }
        if self.taken.is_empty() {
            let mut queue = self.queue.lock().expect("queue lock");
            self.taken.extend(queue.by_ref().take(self.take));
        }
        self.taken.pop_front()
    }

    /// Plays the set's games, tagged with the set, job and bots. Stops early when the run
    /// stops (fewer records than jobs); an error names the set and job.
    fn play_set(&mut self, set: &Set) -> Result<Vec<GameRecord>, String> {
        let seed = game_seed(self.spec.seed, set.index);
        let mut records = Vec::new();
        for job in &set.jobs {
            if self.stopping() {
                break;
            }
            let mut rec = self
                .table
                .play(&self.game, &self.options, seed, vec![], &job.seat_of)
                .map_err(|e| format!("set {} ({}): {e}", set.index, job.key))?;
            if self.spec.record_lines {
                rec.tags.extend(self.spec.tags.clone());
            }
            rec.tags.insert("set".into(), set.index.into());
            rec.tags.insert("job".into(), job.key.clone().into());
            rec.tags.insert("bots".into(), job.bots.clone().into());
            records.push(rec);
        }
        Ok(records)
    }

    /// Makes what the caller wants of a finished set, here where its records are, and adds
    /// it to the batch; hands the batch over when it is due. False when the caller is gone.
    fn finish_set(&mut self, index: u64, mut records: Vec<GameRecord>, started: Instant) -> bool {
        if self.done.is_empty() {
            self.first_unsent = Instant::now();
        }
        let spec = self.spec;
        let mut lines = Vec::new();
        if spec.record_lines {
            for r in &records {
                r.write_line(&mut lines);
            }
        }
        let facts = self.maker.as_mut().map(|m| m.set_facts(&records));
        let games = u32::try_from(records.len()).unwrap_or(u32::MAX);
        let faults = records.iter().map(|r| r.faults.len()).sum::<usize>();
        let value = spec.set_value.as_ref().map(|f| f(&records));
        if !spec.keep_records {
            records = Vec::new(); // freed here, on the thread that made them
        }
        self.done.push(SetDone {
            index,
            games,
            faults: u32::try_from(faults).unwrap_or(u32::MAX),
            value,
            records,
            lines,
            facts,
        });
        let took = started.elapsed();
        self.take = if took < BATCH_WAIT / 20 { TAKE_FAST } else { 1 };
        !hand_over_now(took, self.done.len(), self.most, self.first_unsent.elapsed()) || self.hand_over()
    }

    /// Sends the finished sets to the caller (with the names their facts use that it has
    /// not been sent yet). False when the caller is gone.
    fn hand_over(&mut self) -> bool {
        if self.done.is_empty() {
            return true;
        }
        let names = self
            .maker
            .as_ref()
            .map_or(Vec::new(), |m| m.names_from(self.names_sent).to_vec());
        self.names_sent += names.len();
        let next = self.spare.pop().unwrap_or_else(|| Vec::with_capacity(self.most));
        let batch = std::mem::replace(&mut self.done, next);
        self.tx.send(Msg::Done(self.w, batch, names)).is_ok()
    }
}

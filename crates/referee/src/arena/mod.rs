//! Many games between bots: matches with duplicate deals, the compare gate, statistics.
//!
//! A run is a list of *sets*. A set is one deal seed (game index `i`) played as one or more
//! games with the same cards and different seatings (the rotations of a duplicate match, or
//! the candidate/baseline games of `compare`). Sets are independent: their cards depend only on
//! the run seed and `i`, so results do not depend on the order, the concurrency or sharding.
//! [`run`] plays sets on worker threads, each with its own table of bot processes (spawned
//! once per table), and hands every finished set to the caller, who writes all of its records
//! at once: a record never appears while another game of its set is still being played.
//! Sets are made as the tables take them (a few at a time for fast ones), and finished sets
//! wait in a short queue for the caller: a run's memory does not grow with its number of sets.
//! What the caller needs of a set (its record lines, the statistics' facts, `compare`'s paired
//! difference) is made on its table's thread; the records themselves go over only to a caller
//! that reads them. So two tables of fast bots keep both cores: the caller's thread wakes a few
//! times per thousand sets and folds small facts.

pub mod accumulator;
pub mod facts;
pub mod report;
pub mod tournament;

use crate::chance::{derive, Purpose};
use crate::options::Options;
use crate::record::GameRecord;
use crate::referee::{Config, SeatSpec, Table};
use report::{Accumulator, FactMaker, SetFacts};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// One game of a set: who sits where.
#[derive(Clone, Debug)]
pub struct Job {
    /// Identifies the game within its set (`r0`, `r1`, … or `cand@2`, `base`, …).
    pub key: String,
    /// The table player in each seat.
    pub seat_of: Vec<usize>,
    /// The name of the bot in each seat (for statistics).
    pub bots: Vec<String>,
}

/// The games of one deal seed.
#[derive(Clone, Debug)]
pub struct Set {
    pub index: u64,
    pub jobs: Vec<Job>,
}

/// What a run plays with.
pub struct RunSpec {
    pub game: String,
    pub options: Options,
    /// The table's players (one process or in-process bot each), indexed by `Job::seat_of`.
    pub players: Vec<SeatSpec>,
    pub config: Config,
    /// The run seed: game `i`'s cards come from `derive(seed, Game, i)`.
    pub seed: u64,
    /// Tags written into every record line (the match fingerprint and the like). Records
    /// handed over without lines (no [`RunSpec::record_lines`]) carry only the tags of their
    /// set: `set`, `job` and `bots`; copying these into every game was a tenth of a table's
    /// work in a match of random bots that records nothing.
    pub tags: BTreeMap<String, Value>,
    pub concurrency: usize,
    /// Whether the caller writes the records: each set's record lines are then made on its
    /// table's thread, and the caller only writes them (serializing on the caller's thread
    /// bounded a recorded match of fast bots to one core, whatever its tables).
    pub record_lines: bool,
    /// Whether the caller folds the sets into statistics ([`Finished::add_to`]): each set's
    /// facts are then made on its table's thread.
    pub set_facts: bool,
    /// Whether the caller reads the records themselves ([`Finished::records`]). Without it, a
    /// table drops each set's records once their lines, facts and value are made, and hands
    /// over up to 256 sets at a time (`BATCH_FACTS`): the caller's thread then wakes once per
    /// 256 sets of a fast match instead of once per 64. Each wake-up took a core from a table;
    /// in all they took a twentieth of two tables of random bots.
    pub keep_records: bool,
    /// Two numbers the caller wants of each set (`compare`: the paired difference and the
    /// largest score), worked out on its table's thread from the set's records
    /// ([`Finished::value`]).
    pub set_value: Option<SetValue>,
}

/// See [`RunSpec::set_value`].
pub type SetValue = Box<dyn Fn(&[GameRecord]) -> [f64; 2] + Send + Sync>;

/// The seed of the cards of set `i`.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    derive(seed, Purpose::Game, i)
}

/// What the caller wants after a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Stop: sets still being played are dropped (their records are not handed over).
    Stop,
}

/// A finished set: how many games and faults it had; its games' records with
/// [`RunSpec::keep_records`]; their lines with [`RunSpec::record_lines`]; with
/// [`RunSpec::set_facts`], what the statistics need of it; its [`RunSpec::set_value`].
struct SetDone {
    index: u64,
    games: u32,
    faults: u32,
    value: Option<[f64; 2]>,
    records: Vec<GameRecord>,
    lines: Vec<u8>,
    facts: Option<SetFacts>,
}

enum Msg {
    /// Finished sets, from the worker with this index, and the names its facts use that it
    /// had not sent before.
    Done(usize, Vec<SetDone>, Vec<String>),
    Failed(String),
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

/// A worker hands a set that took [`BATCH_WAIT`]/20 or more over at once; faster sets go in
/// batches of up to [`BATCH_SETS`] (of [`BATCH_FACTS`] when their records stay on the table,
/// see [`RunSpec::keep_records`]), handed over when the first of them has waited
/// [`BATCH_WAIT`]. A message per set woke the caller's thread once per game of a fast match (a
/// futex wake-up and a cross-core interrupt each), which took a fifth of the two cores from
/// two tables of random bots. A batch with records is kept short: they are most of a match's
/// memory.
const BATCH_SETS: usize = 64;
const BATCH_FACTS: usize = 256;
const BATCH_WAIT: Duration = Duration::from_millis(20);

/// A table takes up to this many sets from the shared queue at once while its sets are fast
/// (under [`BATCH_WAIT`]/20 each), one at a time otherwise: taking the queue's lock for every
/// set of a fast match moved its cache lines from core to core several times per game.
const TAKE_FAST: usize = 16;

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

/// Whether a worker hands its finished sets over now: the last one took `took`, `batched`
/// are waiting (the last one included), the first of them for `waited`; a batch holds up to
/// `most` sets.
fn hand_over_now(took: Duration, batched: usize, most: usize, waited: Duration) -> bool {
    took >= BATCH_WAIT / 20 || batched >= most || waited >= BATCH_WAIT
}

fn worker(
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
    // Options of this table's own: see Options::detached.
    let options = spec.options.detached();
    let mut table = match Table::new(&spec.players, cfg) {
        Ok(t) => t,
        Err(e) => {
            let _ = tx.send(Msg::Failed(e));
            return;
        }
    };
    // A stop from the caller, or Ctrl-C/SIGTERM: no new game starts.
    let stopping = || stop.load(Ordering::SeqCst) || crate::interrupt::requested().is_some();
    let most = if spec.keep_records { BATCH_SETS } else { BATCH_FACTS };
    let mut done: Vec<SetDone> = Vec::with_capacity(most);
    // Sets taken from the queue and not played yet, and how many to take next time.
    let mut taken = std::collections::VecDeque::new();
    let mut take = 1;
    let mut first_unsent = std::time::Instant::now();
    let mut maker = spec.set_facts.then(FactMaker::default);
    let mut names_sent = 0;
    // Batches are made at their full size and their buffers come back from the caller to be
    // used again: a batch grown set by set went through a dozen sizes, each of which kept
    // memory of its own in the allocator (with 1,024-set batches, two tables of random bots
    // took 35 MiB grown so, 19 MiB made at full size and 17 MiB with 64-set batches).
    let mut spare: Vec<Vec<SetDone>> = Vec::new();
    let mut hand_over = |done: &mut Vec<SetDone>, spare: &mut Vec<Vec<SetDone>>, maker: &Option<FactMaker>| {
        if done.is_empty() {
            return true;
        }
        let names = maker.as_ref().map_or(Vec::new(), |m| m.names_from(names_sent).to_vec());
        names_sent += names.len();
        let next = spare.pop().unwrap_or_else(|| Vec::with_capacity(most));
        tx.send(Msg::Done(w, std::mem::replace(done, next), names)).is_ok()
    };
    loop {
        if stopping() {
            break;
        }
        // Free the sets the caller is done with, and keep their buffer.
        while let Ok(mut sets) = back.try_recv() {
            sets.clear();
            spare.push(sets);
        }
        if taken.is_empty() {
            taken.extend(queue.lock().expect("queue lock").by_ref().take(take));
        }
        let Some(set) = taken.pop_front() else {
            break;
        };
        let seed = game_seed(spec.seed, set.index);
        let started = std::time::Instant::now();
        let mut records = Vec::new();
        for job in &set.jobs {
            if stopping() {
                break;
            }
            match table.play(&game, &options, seed, vec![], &job.seat_of) {
                Ok(mut rec) => {
                    if spec.record_lines {
                        rec.tags.extend(spec.tags.clone());
                    }
                    rec.tags.insert("set".into(), set.index.into());
                    rec.tags.insert("job".into(), job.key.clone().into());
                    rec.tags.insert("bots".into(), job.bots.clone().into());
                    records.push(rec);
                }
                Err(e) => {
                    // The sets finished before this one are the caller's to keep.
                    hand_over(&mut done, &mut spare, &maker);
                    let _ = tx.send(Msg::Failed(format!("set {} ({}): {e}", set.index, job.key)));
                    table.shutdown();
                    return;
                }
            }
        }
        if records.len() == set.jobs.len() {
            if done.is_empty() {
                first_unsent = std::time::Instant::now();
            }
            let mut lines = Vec::new();
            if spec.record_lines {
                for r in &records {
                    r.write_line(&mut lines);
                }
            }
            let facts = maker.as_mut().map(|m| m.set_facts(&records));
            let games = u32::try_from(records.len()).unwrap_or(u32::MAX);
            let faults = records.iter().map(|r| r.faults.len()).sum::<usize>();
            let value = spec.set_value.as_ref().map(|f| f(&records));
            if !spec.keep_records {
                records = Vec::new(); // freed here, on the thread that made them
            }
            done.push(SetDone {
                index: set.index,
                games,
                faults: u32::try_from(faults).unwrap_or(u32::MAX),
                value,
                records,
                lines,
                facts,
            });
            let took = started.elapsed();
            take = if took < BATCH_WAIT / 20 { TAKE_FAST } else { 1 };
            if hand_over_now(took, done.len(), most, first_unsent.elapsed())
                && !hand_over(&mut done, &mut spare, &maker)
            {
                break;
            }
        }
    }
    hand_over(&mut done, &mut spare, &maker);
    table.shutdown();
}

/// A stable 64-bit FNV-1a hash, printed as 16 hex digits (identifies a match's arguments).
pub fn fingerprint(canonical: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in canonical.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The distinct rotations of a lineup over the seats: rotation `r` puts lineup position
/// `(s + r) % n` in seat `s`. Rotations that seat the same bots in the same seats as an
/// earlier one (a lineup like A,B,A,B) are left out.
pub fn rotations(lineup: &[String]) -> Vec<Vec<usize>> {
    let n = lineup.len();
    let mut seen: Vec<Vec<&String>> = Vec::new();
    let mut out = Vec::new();
    for r in 0..n {
        let seat_of: Vec<usize> = (0..n).map(|s| (s + r) % n).collect();
        let names: Vec<&String> = seat_of.iter().map(|&p| &lineup[p]).collect();
        if !seen.contains(&names) {
            seen.push(names);
            out.push(seat_of);
        }
    }
    out
}

/// Parses `K/N` (0 <= K < N).
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("bad shard '{s}': write K/N with 0 <= K < N, like 0/4");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_sets_go_at_once_fast_ones_in_batches() {
        let ms = Duration::from_millis;
        let fast = Duration::from_micros(20);
        for most in [BATCH_SETS, BATCH_FACTS] {
            // A set that took a while (a process bot's game) is not held back for the next one.
            assert!(hand_over_now(ms(5), 1, most, ms(0)));
            assert!(hand_over_now(BATCH_WAIT / 20, 1, most, ms(0)));
            // Fast sets wait for company, but not for long and not in large numbers.
            assert!(!hand_over_now(fast, 1, most, ms(0)));
            assert!(!hand_over_now(fast, most - 1, most, BATCH_WAIT / 2));
            assert!(hand_over_now(fast, most, most, ms(0)));
            assert!(hand_over_now(fast, 2, most, BATCH_WAIT));
        }
        // Sets whose records are handed over go in the shorter batches.
        assert!(hand_over_now(fast, BATCH_SETS, BATCH_SETS, ms(0)));
        assert!(!hand_over_now(fast, BATCH_SETS, BATCH_FACTS, ms(0)));
    }

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

    #[test]
    fn rotations_skip_repeated_seatings() {
        let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(rotations(&l(&["a", "b", "c", "d"])).len(), 4);
        let r = rotations(&l(&["a", "b", "a", "b"]));
        assert_eq!(r, vec![vec![0, 1, 2, 3], vec![1, 2, 3, 0]]);
        assert_eq!(rotations(&l(&["a", "a", "a"])).len(), 1);
        // Every bot sits in every seat exactly once over the rotations of a distinct lineup.
        let r = rotations(&l(&["a", "b", "c"]));
        for s in 0..3 {
            let mut seen: Vec<usize> = r.iter().map(|so| so[s]).collect();
            seen.sort();
            assert_eq!(seen, vec![0, 1, 2]);
        }
    }

    #[test]
    fn shards_and_fingerprints() {
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        assert!(parse_shard("4/4").unwrap_err().contains("0 <= K < N"));
        assert!(parse_shard("x").is_err());
        assert_eq!(fingerprint("abc"), fingerprint("abc"));
        assert_ne!(fingerprint("abc"), fingerprint("abd"));
        assert_eq!(fingerprint("").len(), 16);
    }
}

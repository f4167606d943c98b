//! The statistics of a run, folded set by set ([`Accumulator`]): per bot its per-set means,
//! per pair the paired differences, per table the moments the ratings need. Sets are folded
//! in the order of their index, so the sums are the same whatever order they finished in.
//!
//! Memory does not grow with the number of sets: a set is reduced to a few numbers per bot
//! ([`SetFacts`]) and folded into running totals in the order of its index, so the sums are
//! the same whatever order sets finished in (any `--concurrency`, any `--shard`). Only sets
//! that finished ahead of their turn wait, which is O(concurrency) in a match.

use super::facts::{note, Names, SetFacts};
use crate::ratings::{Fit, TableMoments};
use crate::record::GameRecord;
use crate::stats::{fmt_interval, Summary};
use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};

/// The level of every interval of a report.
pub(super) const LEVEL: f64 = 0.95;

/// How far ahead of its turn a set may wait in [`Accumulator::ahead`] (in the plan's steps);
/// sets further ahead wait in a map, so that one stray index cannot make a huge ring.
const AHEAD_MAX: usize = 1 << 16;

/// A bot's totals over the folded sets.
#[derive(Clone, Debug, Default)]
pub(super) struct BotTotals {
    /// Its per-set means.
    pub(super) per_set: Summary,
    pub(super) games: u64,
    pub(super) faults: u64,
    pub(super) ms_sum: f64,
    pub(super) ms_n: u64,
    pub(super) ms_max: f64,
}

/// Statistics folded set by set. Sets are summed in the order of their index: with a plan
/// ([`Accumulator::in_order`]) each set is folded as soon as every set before it is, else they
/// wait until the result is asked for.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    names: Names,
    /// Bots in the order they were first seen, sets taken in index order.
    order: Vec<u32>,
    /// Per bot of `order`, the spec where it was first seen and its totals.
    bots: Vec<(u32, BotTotals)>,
    /// Paired differences by (first, second) in `order`.
    pairs: BTreeMap<(u32, u32), Summary>,
    /// Per table (its bots' name ids, sorted) the moments of their per-set means: what the
    /// rating model of a tournament needs ([`crate::ratings`]).
    tables: BTreeMap<Vec<u32>, TableMoments>,
    /// The next index to fold and the step to the one after it (`None`: wait for the result).
    next: Option<(u64, u64)>,
    /// Sets of the plan waiting for their turn: slot `k` holds set `next + k * step`. Two
    /// tables hand over every other run of sets, so half of a match's sets wait here; a
    /// search tree for them took a third of the caller's work.
    ahead: VecDeque<Option<SetFacts>>,
    /// Other sets waiting: without a plan, off its steps, or too far ahead of its turn.
    pending: BTreeMap<u64, SetFacts>,
    /// The first pair's differences in the order sets arrived, for the progress line, which
    /// must not sum every set again after each one; `arrived`: the bots until that pair is known.
    running: Option<((u32, u32), Summary)>,
    arrived: Vec<u32>,
    /// Per [`FactMaker`] ([`Accumulator::add_made`]), its name ids mapped to ours.
    makers: Vec<Vec<u32>>,
    /// Buffers: the name id of each seat of a record; a set's bots and their means.
    seats: Vec<u32>,
    #[allow(clippy::type_complexity)]
    table_buf: (Vec<(u32, f64)>, Vec<u32>, Vec<f64>),
    pub sets: u64,
    pub games: u64,
    /// The most games in one set (the seatings per deal of a match).
    pub seatings: u64,
}

impl Accumulator {
    /// An accumulator that folds the sets `first`, `first + step`, … as they become ready:
    /// only sets that arrive ahead of their turn are held.
    pub fn in_order(first: u64, step: u64) -> Accumulator {
        Accumulator {
            next: Some((first, step.max(1))),
            ..Accumulator::default()
        }
    }

    /// Adds one game to the facts of its set (the games of a set in the order they count).
    pub fn note(&mut self, facts: &mut SetFacts, rec: &GameRecord) {
        note(&mut self.names, &mut self.seats, facts, rec);
    }

    /// The name of a bot by its id ([`SetFacts::means`]).
    pub fn name(&self, id: u32) -> &str {
        self.names.get(id)
    }

    /// Adds one set's games (the games of one deal seed) under its index.
    pub fn add_set(&mut self, index: u64, recs: &[GameRecord]) {
        let mut facts = SetFacts::default();
        for r in recs {
            self.note(&mut facts, r);
        }
        self.add_facts(index, facts);
    }

    /// Adds one set whose facts a [`FactMaker`](super::facts::FactMaker) made: `names` are the maker's names (at least
    /// those the facts refer to), `maker` tells makers apart (their ids differ).
    pub fn add_made(&mut self, index: u64, mut facts: SetFacts, maker: usize, names: &[String]) {
        if self.makers.len() <= maker {
            self.makers.resize_with(maker + 1, Vec::new);
        }
        let map = &mut self.makers[maker];
        for n in &names[map.len().min(names.len())..] {
            map.push(self.names.id(n));
        }
        let n = (facts.len as usize).min(2);
        for b in facts.first[..n].iter_mut().chain(&mut facts.more) {
            b.name = map[b.name as usize];
            b.spec = map[b.spec as usize];
        }
        self.add_facts(index, facts);
    }

    /// Adds one set under its index; it is folded into the totals in index order.
    pub fn add_facts(&mut self, index: u64, facts: SetFacts) {
        if facts.games == 0 {
            return;
        }
        self.sets += 1;
        self.games += u64::from(facts.games);
        self.seatings = self.seatings.max(u64::from(facts.games));
        if self.running.is_none() {
            for b in facts.bots() {
                if !self.arrived.contains(&b.name) {
                    self.arrived.push(b.name);
                }
            }
            if self.arrived.len() >= 2 {
                self.running = Some(((self.arrived[0], self.arrived[1]), Summary::default()));
            }
        }
        if let Some(((a, b), sum)) = &mut self.running {
            if let (Some(x), Some(y)) = (facts.get(*a), facts.get(*b)) {
                sum.push(x.mean() - y.mean());
            }
        }
        match (self.slot(index), self.next) {
            // Its turn (always, with one table): no need to hold it.
            (Some(0), Some((next, step))) if self.ahead.is_empty() => {
                self.fold(&facts);
                self.next = Some((next.saturating_add(step), step));
                return;
            }
            (Some(k), _) => {
                if self.ahead.len() <= k {
                    self.ahead.resize_with(k + 1, || None);
                }
                self.ahead[k] = Some(facts);
            }
            (None, _) => {
                self.pending.insert(index, facts);
            }
        }
        // Fold every set whose turn has come.
        while let Some((next, step)) = self.next {
            let f = match self.ahead.front_mut().and_then(Option::take) {
                Some(f) => f,
                None => match self.pending.remove(&next) {
                    Some(f) => f,
                    None => break,
                },
            };
            self.ahead.pop_front();
            self.fold(&f);
            self.next = Some((next.saturating_add(step), step));
        }
    }

    /// The sets added but not folded yet (waiting for a set before them).
    pub fn waiting(&self) -> usize {
        self.pending.len() + self.ahead.iter().flatten().count()
    }

    /// The indexes of the sets waiting.
    pub fn waiting_indexes(&self) -> std::collections::BTreeSet<u64> {
        let mut all: std::collections::BTreeSet<u64> = self.pending.keys().copied().collect();
        all.extend(
            self.ahead
                .iter()
                .enumerate()
                .filter(|(_, f)| f.is_some())
                .map(|(k, _)| self.ahead_index(k)),
        );
        all
    }

    /// The slot of [`Accumulator::ahead`] that holds set `index` while it waits, if any.
    fn slot(&self, index: u64) -> Option<usize> {
        let (next, step) = self.next?;
        let k = index.checked_sub(next).filter(|d| d % step == 0)? / step;
        usize::try_from(k).ok().filter(|&k| k < AHEAD_MAX)
    }

    /// The index of the set that slot `k` of [`Accumulator::ahead`] is for.
    fn ahead_index(&self, k: usize) -> u64 {
        let (next, step) = self.next.unwrap_or((0, 1));
        next + k as u64 * step
    }

    /// The next index of the plan to fold: every set of the plan before it is folded (0
    /// without a plan).
    pub fn next_index(&self) -> u64 {
        self.next.map_or(0, |(n, _)| n)
    }

    /// Whether set `index` of the plan was added (folded or waiting).
    pub fn holds(&self, index: u64) -> bool {
        index < self.next_index()
            || self.pending.contains_key(&index)
            || self
                .slot(index)
                .is_some_and(|k| self.ahead.get(k).is_some_and(Option::is_some))
    }

    /// Folds every waiting set, in index order: the totals then cover every set added.
    pub fn finish(&mut self) {
        for (k, f) in std::mem::take(&mut self.ahead).into_iter().enumerate() {
            if let Some(f) = f {
                self.pending.insert(self.ahead_index(k), f);
            }
        }
        for (_, f) in std::mem::take(&mut self.pending) {
            self.fold(&f);
        }
    }

    /// The accumulator with every set folded (a copy only when some are still waiting).
    pub(super) fn settled(&self) -> Cow<'_, Accumulator> {
        if self.pending.is_empty() && self.ahead.is_empty() {
            Cow::Borrowed(self)
        } else {
            let mut all = self.clone();
            all.finish();
            Cow::Owned(all)
        }
    }

    fn fold(&mut self, set: &SetFacts) {
        // The set's bots by name id, and their means (buffers kept from set to set).
        let (mut by_id, mut ids, mut values) = std::mem::take(&mut self.table_buf);
        by_id.clear();
        by_id.extend(set.bots().map(|b| (b.name, b.mean())));
        by_id.sort_unstable_by_key(|x| x.0);
        ids.clear();
        ids.extend(by_id.iter().map(|x| x.0));
        values.clear();
        values.extend(by_id.iter().map(|x| x.1));
        match self.tables.get_mut(&ids[..]) {
            Some(t) => t.push(&values),
            None => {
                let mut t = TableMoments::new(ids.iter().map(|&i| i as usize).collect());
                t.push(&values);
                self.tables.insert(ids.clone(), t);
            }
        }
        self.table_buf = (by_id, ids, values);
        for b in set.bots() {
            let at = match self.order.iter().position(|&n| n == b.name) {
                Some(at) => at,
                None => {
                    self.order.push(b.name);
                    self.bots.push((b.spec, BotTotals::default()));
                    self.order.len() - 1
                }
            };
            let t = &mut self.bots[at].1;
            t.per_set.push(b.mean());
            t.games += u64::from(b.games);
            t.faults += u64::from(b.faults);
            t.ms_sum += b.ms_sum;
            t.ms_n += u64::from(b.ms_n);
            t.ms_max = t.ms_max.max(b.ms_max);
        }
        for (i, &a) in self.order.iter().enumerate() {
            for &b in &self.order[i + 1..] {
                if let (Some(x), Some(y)) = (set.get(a), set.get(b)) {
                    self.pairs.entry((a, b)).or_default().push(x.mean() - y.mean());
                }
            }
        }
    }

    /// The first pair's difference with its interval, for progress lines (constant time).
    pub fn leading(&self) -> Option<String> {
        let ((a, b), s) = self.running.as_ref().filter(|(_, s)| s.n() > 0)?;
        let (lo, hi) = s.ci(LEVEL);
        Some(format!(
            "{} − {} {}",
            self.names.get(*a),
            self.names.get(*b),
            fmt_interval(s.mean(), lo, hi)
        ))
    }

    /// The rating model fitted to every folded set ([`crate::ratings`]), `reference` at 0:
    /// the bots in report order with the fit (indexes into that order). `None` without sets, or
    /// when `reference` is not one of the bots.
    pub fn ratings(&self, reference: &str) -> Option<(Vec<String>, Fit)> {
        let acc = self.settled();
        let names: Vec<String> = acc.order.iter().map(|&id| acc.names.get(id).to_string()).collect();
        let r = names.iter().position(|n| n == reference)?;
        // Bots numbered by report order (fold order: the same in every run of the same sets),
        // tables in the order of their bots: the fit sums in the same order whatever the
        // order the names were first seen in.
        let mut tables: Vec<TableMoments> = acc
            .tables
            .values()
            .map(|t| t.renamed(|b| acc.order.iter().position(|&id| id as usize == b).expect("a folded bot")))
            .collect();
        tables.sort_by(|x, y| x.bots.cmp(&y.bots));
        Some((names, crate::ratings::fit(acc.order.len(), &tables, r)))
    }

    /// The number of tables (distinct sets of bots at a set) seen.
    pub fn table_count(&self) -> usize {
        self.settled().tables.len()
    }

    /// Per bot in report order: name, spec, games, faults, mean ms per decision, max ms.
    pub fn bot_totals(&self) -> Vec<(String, String, u64, u64, f64, f64)> {
        let acc = self.settled();
        acc.bot_rows()
            .map(|(name, spec, b)| {
                let ms = if b.ms_n > 0 { b.ms_sum / b.ms_n as f64 } else { 0.0 };
                (name.to_string(), spec.to_string(), b.games, b.faults, ms, b.ms_max)
            })
            .collect()
    }

    /// The paired differences of every pair of bots that shared sets (head to head), in
    /// report order.
    pub fn head_to_head(&self) -> Vec<(String, String, Summary)> {
        let acc = self.settled();
        acc.pair_list()
            .map(|(a, b, s)| (a.to_string(), b.to_string(), s.clone()))
            .collect()
    }

    /// The bots in report order, each with its name, spec and totals.
    pub(super) fn bot_rows(&self) -> impl Iterator<Item = (&str, &str, &BotTotals)> {
        self.order
            .iter()
            .zip(&self.bots)
            .map(|(&id, (spec, totals))| (self.names.get(id), self.names.get(*spec), totals))
    }

    /// The pairs in report order (the first bot of the pair first in `order`).
    pub(super) fn pair_list(&self) -> impl Iterator<Item = (&str, &str, &Summary)> {
        self.order.iter().enumerate().flat_map(move |(i, &a)| {
            self.order[i + 1..].iter().filter_map(move |&b| {
                self.pairs
                    .get(&(a, b))
                    .map(|s| (self.names.get(a), self.names.get(b), s))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::facts::FactMaker;
    use crate::record::GameRecord;
    use serde_json::json;

    fn rec(bots: &[&str], scores: &[f64]) -> GameRecord {
        let mut r: GameRecord = serde_json::from_value(json!({
            "format": "croupier-record", "version": 1, "croupier": "t", "game": "rikken", "players": bots.len(),
            "options": {}, "seed": "1", "deal_source": "seed", "tags": {"bots": bots},
            "seats": bots.iter().map(|b| json!({"player": 0, "spec": b, "name": b, "version": "1"})).collect::<Vec<_>>(),
            "deals": [], "actions": [], "faults": [],
            "result": {"scores": scores, "detail": {}}, "duration_ms": 0
        }))
        .unwrap();
        r.players = bots.len();
        r
    }

    #[test]
    fn a_set_gives_one_value_per_bot_and_one_difference_per_pair() {
        let mut acc = Accumulator::default();
        // Two rotations of a,b,a,b: a scores 3 and 1 per seat → mean 2; b scores -2.
        acc.add_set(
            0,
            &[
                rec(&["a", "b", "a", "b"], &[3.0, -3.0, 3.0, -3.0]),
                rec(&["b", "a", "b", "a"], &[-1.0, 1.0, -1.0, 1.0]),
            ],
        );
        acc.add_set(
            1,
            &[
                rec(&["a", "b", "a", "b"], &[1.0, -1.0, 1.0, -1.0]),
                rec(&["b", "a", "b", "a"], &[-1.0, 1.0, -1.0, 1.0]),
            ],
        );
        let j = acc.to_json();
        assert_eq!(j["deals"], 2);
        assert_eq!(j["games"], 4);
        assert_eq!(j["bots"][0]["bot"], "a");
        assert_eq!(j["bots"][0]["mean"], 1.5); // sets: 2 and 1
        assert_eq!(j["bots"][0]["games"], 4);
        assert_eq!(j["bots"][1]["mean"], -1.5);
        assert_eq!(j["pairs"][0]["mean"], 3.0); // 4 and 2
        let (lo, hi) = (
            j["pairs"][0]["ci95"][0].as_f64().unwrap(),
            j["pairs"][0]["ci95"][1].as_f64().unwrap(),
        );
        // t(0.975, 1) = 12.706; sd of [4, 2] = 1.414; stderr = 1 → 3 ± 12.706.
        assert!(
            (lo - (3.0 - 12.7062)).abs() < 1e-3 && (hi - (3.0 + 12.7062)).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert!(acc.leading().unwrap().starts_with("a − b +3.00"));
        assert!(acc.lines().iter().any(|l| l.contains("a − b: +3.00")));
    }

    /// Set `i` of a duplicate a,b match with fractional scores (their sums depend on order).
    fn set_of(i: u64) -> Vec<GameRecord> {
        let x = (i as f64 * 0.37).sin() * 3.1;
        vec![
            rec(&["a", "b", "a", "b"], &[x, -x / 3.0, x / 7.0, 0.1]),
            rec(&["b", "a", "b", "a"], &[-x, x / 11.0, 0.3, x * 1.7]),
        ]
    }

    #[test]
    fn facts_made_on_tables_with_their_own_name_ids_add_up_to_the_same_numbers() {
        // A three-bot field, so that the makers meet the names in different orders.
        let set = |i: u64| {
            let x = (i as f64 * 0.61).cos() * 2.3;
            let (a, b) = if i.is_multiple_of(2) { ("a", "b") } else { ("c", "a") };
            vec![
                rec(&[a, b, a, b], &[x, -x / 3.0, x / 7.0, 0.1]),
                rec(&[b, a, b, a], &[-x, x / 11.0, 0.3, x * 1.7]),
            ]
        };
        let mut from_records = Accumulator::in_order(0, 1);
        let mut made = Accumulator::in_order(0, 1);
        let mut makers = [FactMaker::default(), FactMaker::default()];
        for i in 0..200u64 {
            from_records.add_set(i, &set(i));
            // Table 1 takes the odd sets and meets c first; table 0 the even ones.
            let t = (i % 2) as usize;
            let facts = makers[t].set_facts(&set(i));
            made.add_made(i, facts, t, makers[t].names_from(0));
        }
        assert_eq!(makers[1].names_from(0)[0], "c");
        assert_eq!(makers[0].names_from(1), &makers[0].names_from(0)[1..]);
        assert_eq!(
            made.to_json(),
            from_records.to_json(),
            "the same numbers to the last bit"
        );
        assert_eq!(made.lines(), from_records.lines());
        assert_eq!(
            format!("{:?}", made.ratings("a")),
            format!("{:?}", from_records.ratings("a"))
        );
    }

    #[test]
    fn sets_finishing_out_of_order_are_folded_in_index_order_and_only_early_ones_wait() {
        let mut by_index = Accumulator::default();
        for i in 0..300 {
            by_index.add_set(i, &set_of(i));
        }
        // Sets arrive as four tables finish them: shuffled within windows of four.
        let mut folded = Accumulator::in_order(0, 1);
        for w in (0..300u64).step_by(4) {
            for i in [w + 2, w + 3, w, w + 1] {
                folded.add_set(i, &set_of(i));
                assert!(folded.waiting() <= 3, "set {i}: {} sets wait", folded.waiting());
            }
        }
        assert_eq!(folded.waiting(), 0);
        assert_eq!(folded.to_json(), by_index.to_json(), "the same numbers to the last bit");
        assert_eq!(folded.lines(), by_index.lines());
        // A shard's plan: every third set from 1.
        let mut shard = Accumulator::in_order(1, 3);
        for i in (1..300u64).rev().filter(|i| i % 3 == 1) {
            shard.add_set(i, &set_of(i));
        }
        assert_eq!(shard.waiting(), 0, "the last set to arrive was the first in the plan");
        assert_eq!(shard.sets, 100);
    }

    #[test]
    fn waiting_sets_near_and_far_ahead_are_held_found_and_folded_in_order() {
        let far = AHEAD_MAX as u64 + 10;
        let mut acc = Accumulator::in_order(0, 1);
        for i in [5, 3, far, 1] {
            acc.add_set(i, &set_of(i));
        }
        assert_eq!(acc.waiting(), 4, "set 0 has not come: nothing is folded");
        assert_eq!(
            acc.waiting_indexes().into_iter().collect::<Vec<_>>(),
            vec![1, 3, 5, far]
        );
        assert!(acc.holds(3) && acc.holds(far) && !acc.holds(2) && !acc.holds(4));
        // Asked for now, the result covers every set added, in index order.
        let mut some = Accumulator::default();
        for i in [1, 3, 5, far] {
            some.add_set(i, &set_of(i));
        }
        assert_eq!(acc.to_json(), some.to_json());
        for i in [0, 4, 2] {
            acc.add_set(i, &set_of(i));
        }
        assert_eq!(acc.next_index(), 6, "sets 0 to 5 are folded as their turn comes");
        assert_eq!(acc.waiting_indexes().into_iter().collect::<Vec<_>>(), vec![far]);
        let mut all = Accumulator::default();
        for i in [0, 1, 2, 3, 4, 5, far] {
            all.add_set(i, &set_of(i));
        }
        acc.finish();
        assert_eq!(acc.waiting(), 0);
        assert_eq!(acc.to_json(), all.to_json(), "the same numbers to the last bit");
    }
}

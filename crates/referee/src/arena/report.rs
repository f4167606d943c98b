//! Statistics over finished sets: per bot the mean score with a 95 % interval, the paired
//! differences between bots on identical deals, faults and decision times.
//!
//! The unit of the statistics is the *set* (one deal seed with all its seatings): a bot's
//! value in a set is its mean score per seat over the set's games, so a duplicate set gives
//! one paired observation per pair of bots. Sets are independent, games within a set are not.
//!
//! Memory does not grow with the number of sets: a set is reduced to a few numbers per bot
//! ([`SetFacts`]) and folded into running totals in the order of its index, so the sums are
//! the same whatever order sets finished in (any `--concurrency`, any `--shard`). Only sets
//! that finished ahead of their turn wait, which is O(concurrency) in a match.

use crate::ratings::{Fit, TableMoments};
use crate::record::{fmt_score, GameRecord};
use crate::stats::{fmt_interval, Summary};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};

const LEVEL: f64 = 0.95;

/// How far ahead of its turn a set may wait in [`Accumulator::ahead`] (in the plan's steps);
/// sets further ahead wait in a map, so that one stray index cannot make a huge ring.
const AHEAD_MAX: usize = 1 << 16;

/// One bot's facts in one set (the counts of one set fit in 32 bits).
#[derive(Clone, Debug, Default)]
struct BotInSet {
    /// The bot's name and the spec of its first seat in the set (ids in [`Names`]).
    name: u32,
    spec: u32,
    /// Its scores summed over its seats in the set's games, in the order of the games.
    score_sum: f64,
    seats: u32,
    games: u32,
    faults: u32,
    ms_n: u32,
    ms_sum: f64,
    ms_max: f64,
}

impl BotInSet {
    /// Mean score per seat over the set's games.
    fn mean(&self) -> f64 {
        self.score_sum / f64::from(self.seats)
    }
}

/// What the statistics need of one set: a few numbers per bot, not its records. Built a record
/// at a time with [`Accumulator::note`], in the order the set's games are to be counted. The
/// first two bots (a match of two bots, the usual case) are held without an allocation of
/// their own: `stats` keeps one of these per deal.
#[derive(Clone, Debug, Default)]
pub struct SetFacts {
    games: u32,
    /// The largest absolute score of a seat in the set's games.
    scale: f64,
    /// The set's bots in the order they were first seen (game by game, seat by seat): the
    /// first `len.min(2)` in `first`, the others in `more`.
    len: u32,
    first: [BotInSet; 2],
    more: Vec<BotInSet>,
}

impl SetFacts {
    /// Each bot's mean score per seat in the set, by its name's id ([`Accumulator::name`]), in
    /// the order the bots were first seen: the values the statistics fold.
    pub fn means(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        self.bots().map(|b| (b.name, b.mean()))
    }

    /// The largest absolute score of a seat in the set's games: the scale of its scores, which
    /// compare's sequential test takes for the range of a deal's difference.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    fn bots(&self) -> impl Iterator<Item = &BotInSet> {
        self.first[..(self.len as usize).min(2)].iter().chain(&self.more)
    }

    fn bot(&mut self, name: u32) -> Option<&mut BotInSet> {
        let n = (self.len as usize).min(2);
        self.first[..n]
            .iter_mut()
            .chain(&mut self.more)
            .find(|b| b.name == name)
    }

    fn get(&self, name: u32) -> Option<&BotInSet> {
        self.bots().find(|b| b.name == name)
    }

    fn push(&mut self, b: BotInSet) -> &mut BotInSet {
        let k = self.len as usize;
        self.len += 1;
        if k < 2 {
            self.first[k] = b;
            &mut self.first[k]
        } else {
            self.more.push(b);
            self.more.last_mut().expect("just pushed")
        }
    }
}

/// Interned strings (bot names, specs; in `stats`, seeds and job keys): what many sets or
/// records share is kept once, and they refer to it by number.
#[derive(Clone, Debug, Default)]
pub struct Names {
    all: Vec<String>,
    ids: HashMap<String, u32>,
}

/// Up to this many names are looked up by comparing them (a match's few bot names and specs),
/// which is faster than hashing them.
const FEW_NAMES: usize = 8;

impl Names {
    /// The number of `s`, interned on first sight.
    pub fn id(&mut self, s: &str) -> u32 {
        if self.all.len() <= FEW_NAMES {
            if let Some(id) = self.all.iter().position(|x| x == s) {
                return id as u32;
            }
        } else if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.all.len() as u32;
        self.all.push(s.to_string());
        self.ids.insert(s.to_string(), id);
        id
    }

    /// The string numbered `id`.
    pub fn get(&self, id: u32) -> &str {
        &self.all[id as usize]
    }

    fn len(&self) -> usize {
        self.all.len()
    }
}

/// Makes sets' facts where their records are (a table's thread: the records are still in its
/// cache, and the thread that folds the statistics does not have to read them), with name ids
/// of its own, which [`Accumulator::add_made`] maps to the accumulator's.
#[derive(Clone, Debug, Default)]
pub struct FactMaker {
    names: Names,
    seats: Vec<u32>,
}

impl FactMaker {
    /// The facts of one set's games (in the order they count).
    pub fn set_facts(&mut self, recs: &[GameRecord]) -> SetFacts {
        let mut facts = SetFacts::default();
        for r in recs {
            note(&mut self.names, &mut self.seats, &mut facts, r);
        }
        facts
    }

    /// The names its facts refer to, by id, from id `from` on.
    pub fn names_from(&self, from: usize) -> &[String] {
        &self.names.all[from.min(self.names.len())..]
    }
}

/// Adds one game to the facts of its set, names given ids in `names`; `seats` is a buffer.
fn note(names: &mut Names, seats: &mut Vec<u32>, facts: &mut SetFacts, rec: &GameRecord) {
    facts.games += 1;
    seats.clear();
    seats.extend(seat_bot_names(rec).map(|n| names.id(n)));
    for (s, &name) in seats.iter().enumerate() {
        let score = rec.result.scores.get(s).copied().unwrap_or(0.0);
        facts.scale = facts.scale.max(score.abs());
        let b = match facts.bot(name) {
            Some(b) => b,
            None => {
                let spec = names.id(rec.seats.get(s).map(|x| x.spec.as_str()).unwrap_or(""));
                facts.push(BotInSet {
                    name,
                    spec,
                    ..BotInSet::default()
                })
            }
        };
        b.score_sum += score;
        b.seats += 1;
    }
    // Each bot's games count once however many seats it holds.
    for (s, &name) in seats.iter().enumerate() {
        if !seats[..s].contains(&name) {
            if let Some(b) = facts.bot(name) {
                b.games += 1;
            }
        }
    }
    for f in &rec.faults {
        if let Some(b) = seats.get(f.seat).and_then(|&n| facts.bot(n)) {
            b.faults += 1;
        }
    }
    for a in rec.actions.iter().filter(|a| !a.substitute) {
        if let Some(b) = seats.get(a.seat).and_then(|&n| facts.bot(n)) {
            b.ms_sum += a.ms;
            b.ms_n += 1;
            b.ms_max = b.ms_max.max(a.ms);
        }
    }
}

/// A bot's totals over the folded sets.
#[derive(Clone, Debug, Default)]
struct BotTotals {
    /// Its per-set means.
    per_set: Summary,
    games: u64,
    faults: u64,
    ms_sum: f64,
    ms_n: u64,
    ms_max: f64,
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

/// What a match is: the header of its report, the same in `match` and `stats`.
#[derive(Clone, Debug, Default)]
pub struct MatchInfo {
    pub game: String,
    /// The match fingerprint (`match` tag of its records).
    pub id: String,
    /// The run seed as written in the records (`None` for records of `croupier play`).
    pub seed: Option<String>,
    /// Bot names in seat order.
    pub lineup: Vec<String>,
    /// `K/N` of a sharded run.
    pub shard: Option<String>,
}

impl MatchInfo {
    /// The header of the match that `recs` belong to, from their tags (the shard only when
    /// every record has the same one).
    pub fn from_records<'a>(recs: impl IntoIterator<Item = &'a GameRecord>) -> MatchInfo {
        let tag = |r: &GameRecord, k: &str| r.tags.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let mut info = MatchInfo::default();
        let mut shards = std::collections::BTreeSet::new();
        for (k, r) in recs.into_iter().enumerate() {
            if k == 0 {
                info.game = r.game.clone();
                info.id = tag(r, "match").unwrap_or_default();
                info.seed = tag(r, "match_seed");
                info.lineup = match r.tags.get("lineup").and_then(|v| v.as_array()) {
                    Some(v) => v.iter().map(|x| x.as_str().unwrap_or("?").to_string()).collect(),
                    None => seat_bots(r),
                };
            }
            shards.insert(tag(r, "shard").unwrap_or_default());
        }
        if shards.len() == 1 {
            info.shard = shards.pop_first().filter(|s| !s.is_empty());
        }
        info
    }
}

/// The result of a match as JSON (`match --json`, `stats --json`): one object, its keys the
/// words of the text table. Documented in the README ("JSON output").
pub fn match_json(info: &MatchInfo, acc: &Accumulator) -> Value {
    let mut j = json!({
        "game": info.game, "match": info.id, "seed": info.seed, "lineup": info.lineup,
        "shard": info.shard, "seatings": acc.seatings,
    });
    if let (Some(o), Value::Object(body)) = (j.as_object_mut(), acc.to_json()) {
        o.extend(body);
    }
    j
}

/// The name of the bot in each seat of a record: the match's names, else what the bots
/// reported (records of `croupier play`).
pub fn seat_bots(rec: &GameRecord) -> Vec<String> {
    seat_bot_names(rec).map(str::to_string).collect()
}

/// [`seat_bots`] without copying the names.
fn seat_bot_names(rec: &GameRecord) -> impl Iterator<Item = &str> {
    let tagged = rec
        .tags
        .get("bots")
        .and_then(|b| b.as_array())
        .filter(|v| v.len() == rec.players);
    let from_tags = tagged.map(|v| v.iter().map(|x| x.as_str().unwrap_or("?")));
    let reported = tagged.is_none().then(|| rec.seats.iter().map(|s| s.name.as_str()));
    from_tags.into_iter().flatten().chain(reported.into_iter().flatten())
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

    /// Adds one set whose facts a [`FactMaker`] made: `names` are the maker's names (at least
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
    fn settled(&self) -> Cow<'_, Accumulator> {
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
    fn bot_rows(&self) -> impl Iterator<Item = (&str, &str, &BotTotals)> {
        self.order
            .iter()
            .zip(&self.bots)
            .map(|(&id, (spec, totals))| (self.names.get(id), self.names.get(*spec), totals))
    }

    /// The pairs in report order (the first bot of the pair first in `order`).
    fn pair_list(&self) -> impl Iterator<Item = (&str, &str, &Summary)> {
        self.order.iter().enumerate().flat_map(move |(i, &a)| {
            self.order[i + 1..].iter().filter_map(move |&b| {
                self.pairs
                    .get(&(a, b))
                    .map(|s| (self.names.get(a), self.names.get(b), s))
            })
        })
    }

    /// The statistics as JSON: deals, games, bots, pairs (see [`match_json`] for the whole).
    pub fn to_json(&self) -> Value {
        let acc = self.settled();
        let bots: Vec<Value> = acc
            .bot_rows()
            .map(|(name, spec, b)| {
                let per_set = &b.per_set;
                let (lo, hi) = per_set.ci(LEVEL);
                json!({
                    "bot": name, "spec": spec, "games": b.games, "deals": per_set.n(),
                    "mean": finite(per_set.mean()), "ci95": [finite(lo), finite(hi)],
                    "faults": b.faults,
                    "ms_per_decision": finite(b.ms_sum / b.ms_n as f64), "max_ms": b.ms_max,
                })
            })
            .collect();
        let pairs: Vec<Value> = acc
            .pair_list()
            .map(|(a, b, s)| {
                let (lo, hi) = s.ci(LEVEL);
                json!({"a": a, "b": b, "deals": s.n(), "mean": finite(s.mean()), "ci95": [finite(lo), finite(hi)]})
            })
            .collect();
        json!({"deals": self.sets, "games": self.games, "bots": bots, "pairs": pairs})
    }

    /// The result table for people; column widths follow the content (long bot names).
    pub fn lines(&self) -> Vec<String> {
        let c = self.cells();
        let mut out = c.layout(
            &[" ", " ", "  ", " ", " ", " "],
            &[true, false, false, true, false, false, false],
        );
        if !c.pairs.is_empty() {
            out.push(String::new());
            out.push(format!("{}:", c.pairs_title));
            for p in &c.pairs {
                out.push(format!("  {}: {} over {} deal(s)", p[0], p[1], p[2]));
            }
        }
        out
    }

    /// The cells of the result table and of the paired differences, formatted as
    /// [`Accumulator::lines`] prints them (`stats --html` shows the same strings).
    pub fn cells(&self) -> Cells {
        let acc = self.settled();
        let rows: Vec<Vec<String>> = acc
            .bot_rows()
            .map(|(name, _, b)| {
                let per_set = &b.per_set;
                let (lo, hi) = per_set.ci(LEVEL);
                vec![
                    name.to_string(),
                    b.games.to_string(),
                    signed(per_set.mean()),
                    format!("[{}, {}]", signed(lo), signed(hi)),
                    b.faults.to_string(),
                    format!("{:.3}", if b.ms_n > 0 { b.ms_sum / b.ms_n as f64 } else { 0.0 }),
                    format!("{:.1}", b.ms_max),
                ]
            })
            .collect();
        let head = [
            "bot",
            "games",
            "mean",
            "95% interval",
            "faults",
            "ms/decision",
            "max ms",
        ]
        .map(String::from)
        .to_vec();
        let pairs = acc
            .pair_list()
            .map(|(a, b, s)| {
                let (lo, hi) = s.ci(LEVEL);
                vec![format!("{a} − {b}"), fmt_interval(s.mean(), lo, hi), s.n().to_string()]
            })
            .collect();
        Cells {
            head,
            rows,
            note: None,
            pairs_title: "paired difference of the mean score per seat on the same deals".into(),
            pairs_head: ["pair", "difference [95% interval]", "deals"]
                .map(String::from)
                .to_vec(),
            pairs,
        }
    }
}

/// A result table cell by cell (the text of `match`, `stats` and `tournament`, which lay them
/// out in columns; `stats --html` puts the same strings in an HTML table).
#[derive(Clone, Debug, Default)]
pub struct Cells {
    pub head: Vec<String>,
    /// A row per bot, in the order printed.
    pub rows: Vec<Vec<String>>,
    /// A line printed right under the table.
    pub note: Option<String>,
    /// The pairs' heading, their columns and a row per pair.
    pub pairs_title: String,
    pub pairs_head: Vec<String>,
    pub pairs: Vec<Vec<String>>,
}

impl Cells {
    /// The header and rows in columns as wide as their widest cell, `seps` between them, the
    /// columns marked in `left` aligned left, the others right; then the note.
    pub fn layout(&self, seps: &[&str], left: &[bool]) -> Vec<String> {
        let mut w = vec![0usize; self.head.len()];
        for r in self.rows.iter().chain([&self.head]) {
            for (k, cell) in r.iter().enumerate() {
                w[k] = w[k].max(cell.chars().count());
            }
        }
        let line = |r: &Vec<String>| {
            let mut out = String::new();
            for (k, cell) in r.iter().enumerate() {
                if k > 0 {
                    out.push_str(seps.get(k - 1).copied().unwrap_or(" "));
                }
                let pad = " ".repeat(w[k].saturating_sub(cell.chars().count()));
                if left.get(k).copied().unwrap_or(false) {
                    out.push_str(cell);
                    out.push_str(&pad);
                } else {
                    out.push_str(&pad);
                    out.push_str(cell);
                }
            }
            out
        };
        let mut out = vec![line(&self.head)];
        out.extend(self.rows.iter().map(line));
        out.extend(self.note.clone());
        out
    }
}

/// A number for JSON: `null` where it is not finite (JSON has no NaN or infinity).
pub fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// `+1.23`, `-0.50`, `n/a`.
pub fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.2}")
    } else if x.is_nan() {
        "n/a".into()
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// Sums of scores per seat, for a quick sanity line.
pub fn total_line(recs: &[GameRecord]) -> String {
    let n = recs.first().map(|r| r.players).unwrap_or(0);
    let mut t = vec![0.0; n];
    for r in recs {
        for (a, b) in t.iter_mut().zip(&r.result.scores) {
            *a += b;
        }
    }
    t.iter().map(|x| fmt_score(*x)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameRecord;

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

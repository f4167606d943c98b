//! The facts of a finished set, made where its records are: per bot its name and spec,
//! games, seats, score sum, faults and decision times, as a few numbers ([`SetFacts`]), with
//! names interned ([`Names`]) so that many sets share them.

use crate::record::GameRecord;
use std::collections::HashMap;

/// One bot's facts in one set (the counts of one set fit in 32 bits).
#[derive(Clone, Debug, Default)]
pub(super) struct BotInSet {
    /// The bot's name and the spec of its first seat in the set (ids in [`Names`]).
    pub(super) name: u32,
    pub(super) spec: u32,
    /// Its scores summed over its seats in the set's games, in the order of the games.
    pub(super) score_sum: f64,
    pub(super) seats: u32,
    pub(super) games: u32,
    pub(super) faults: u32,
    pub(super) ms_n: u32,
    pub(super) ms_sum: f64,
    pub(super) ms_max: f64,
}

impl BotInSet {
    /// Mean score per seat over the set's games.
    pub(super) fn mean(&self) -> f64 {
        self.score_sum / f64::from(self.seats)
    }
}

/// What the statistics need of one set: a few numbers per bot, not its records. Built a record
/// at a time with [`Accumulator::note`](super::accumulator::Accumulator::note), in the order the set's games are to be counted. The
/// first two bots (a match of two bots, the usual case) are held without an allocation of
/// their own: `stats` keeps one of these per deal.
#[derive(Clone, Debug, Default)]
pub struct SetFacts {
    pub(super) games: u32,
    /// The largest absolute score of a seat in the set's games.
    pub(super) scale: f64,
    /// The set's bots in the order they were first seen (game by game, seat by seat): the
    /// first `len.min(2)` in `first`, the others in `more`.
    pub(super) len: u32,
    pub(super) first: [BotInSet; 2],
    pub(super) more: Vec<BotInSet>,
}

impl SetFacts {
    /// Each bot's mean score per seat in the set, by its name's id ([`Accumulator::name`](super::accumulator::Accumulator::name)), in
    /// the order the bots were first seen: the values the statistics fold.
    pub fn means(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        self.bots().map(|b| (b.name, b.mean()))
    }

    /// The largest absolute score of a seat in the set's games: the scale of its scores, which
    /// compare's sequential test takes for the range of a deal's difference.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    pub(super) fn bots(&self) -> impl Iterator<Item = &BotInSet> {
        self.first[..(self.len as usize).min(2)].iter().chain(&self.more)
    }

    pub(super) fn bot(&mut self, name: u32) -> Option<&mut BotInSet> {
        let n = (self.len as usize).min(2);
        self.first[..n]
            .iter_mut()
            .chain(&mut self.more)
            .find(|b| b.name == name)
    }

    pub(super) fn get(&self, name: u32) -> Option<&BotInSet> {
        self.bots().find(|b| b.name == name)
    }

    pub(super) fn push(&mut self, b: BotInSet) -> &mut BotInSet {
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
    pub(super) all: Vec<String>,
    pub(super) ids: HashMap<String, u32>,
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

    pub(super) fn len(&self) -> usize {
        self.all.len()
    }
}

/// Makes sets' facts where their records are (a table's thread: the records are still in its
/// cache, and the thread that folds the statistics does not have to read them), with name ids
/// of its own, which [`Accumulator::add_made`](super::accumulator::Accumulator::add_made) maps to the accumulator's.
#[derive(Clone, Debug, Default)]
pub struct FactMaker {
    pub(super) names: Names,
    pub(super) seats: Vec<u32>,
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
pub(super) fn note(names: &mut Names, seats: &mut Vec<u32>, facts: &mut SetFacts, rec: &GameRecord) {
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

/// The name of the bot in each seat of a record: the match's names, else what the bots
/// reported (records of `croupier play`).
pub fn seat_bots(rec: &GameRecord) -> Vec<String> {
    seat_bot_names(rec).map(str::to_string).collect()
}

/// [`seat_bots`] without copying the names.
pub(super) fn seat_bot_names(rec: &GameRecord) -> impl Iterator<Item = &str> {
    let tagged = rec
        .tags
        .get("bots")
        .and_then(|b| b.as_array())
        .filter(|v| v.len() == rec.players);
    let from_tags = tagged.map(|v| v.iter().map(|x| x.as_str().unwrap_or("?")));
    let reported = tagged.is_none().then(|| rec.seats.iter().map(|s| s.name.as_str()));
    from_tags.into_iter().flatten().chain(reported.into_iter().flatten())
}

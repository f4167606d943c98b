//! Statistics over finished sets: per bot the mean score with a 95 % interval, the paired
//! differences between bots on identical deals, faults and decision times.
//!
//! The unit of the statistics is the *set* (one deal seed with all its seatings): a bot's
//! value in a set is its mean score per seat over the set's games, so a duplicate set gives
//! one paired observation per pair of bots. Sets are independent, games within a set are not.

use crate::record::{fmt_score, GameRecord};
use crate::stats::{fmt_interval, Summary};
use serde_json::{json, Value};
use std::collections::BTreeMap;

const LEVEL: f64 = 0.95;

/// One bot's facts in one set.
#[derive(Clone, Debug, Default)]
struct BotInSet {
    /// Mean score per seat over the set's games.
    mean: f64,
    games: u64,
    faults: u64,
    ms_sum: f64,
    ms_n: u64,
    ms_max: f64,
}

/// Statistics folded set by set. The sets are kept (a few numbers per bot each) and summed in
/// the order of their index, so the result does not depend on the order sets finished in.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    order: Vec<String>,
    specs: BTreeMap<String, String>,
    sets_by_index: BTreeMap<u64, BTreeMap<String, BotInSet>>,
    /// The first pair's differences in the order sets finished: kept as they arrive for the
    /// progress line, which must not sum every set again after each one.
    running: Option<((String, String), Summary)>,
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

/// Per-bot and per-pair summaries, computed from the sets in index order.
struct Totals {
    bots: BTreeMap<String, (Summary, BotInSet)>,
    pairs: BTreeMap<(String, String), Summary>,
}

/// The name of the bot in each seat of a record: the match's names, else what the bots
/// reported (records of `croupier play`).
pub fn seat_bots(rec: &GameRecord) -> Vec<String> {
    match rec.tags.get("bots").and_then(|b| b.as_array()) {
        Some(v) if v.len() == rec.players => v.iter().map(|x| x.as_str().unwrap_or("?").to_string()).collect(),
        _ => rec.seats.iter().map(|s| s.name.clone()).collect(),
    }
}

impl Accumulator {
    /// Adds one set's games (the games of one deal seed) under its index.
    pub fn add_set(&mut self, index: u64, recs: &[GameRecord]) {
        if recs.is_empty() {
            return;
        }
        self.sets += 1;
        self.seatings = self.seatings.max(recs.len() as u64);
        let mut sums: BTreeMap<String, (f64, u64)> = BTreeMap::new();
        let mut facts: BTreeMap<String, BotInSet> = BTreeMap::new();
        for rec in recs {
            self.games += 1;
            let names = seat_bots(rec);
            for (s, name) in names.iter().enumerate() {
                if !self.order.contains(name) {
                    self.order.push(name.clone());
                }
                self.specs
                    .entry(name.clone())
                    .or_insert_with(|| rec.seats.get(s).map(|x| x.spec.clone()).unwrap_or_default());
                let e = sums.entry(name.clone()).or_default();
                e.0 += rec.result.scores.get(s).copied().unwrap_or(0.0);
                e.1 += 1;
            }
            let mut in_game: Vec<&String> = names.iter().collect();
            in_game.sort();
            in_game.dedup();
            for name in in_game {
                facts.entry(name.clone()).or_default().games += 1;
            }
            for f in &rec.faults {
                if let Some(name) = names.get(f.seat) {
                    facts.entry(name.clone()).or_default().faults += 1;
                }
            }
            for a in rec.actions.iter().filter(|a| !a.substitute) {
                if let Some(name) = names.get(a.seat) {
                    let b = facts.entry(name.clone()).or_default();
                    b.ms_sum += a.ms;
                    b.ms_n += 1;
                    b.ms_max = b.ms_max.max(a.ms);
                }
            }
        }
        for (name, (sum, n)) in sums {
            facts.entry(name).or_default().mean = sum / n as f64;
        }
        if self.running.is_none() && self.order.len() >= 2 {
            self.running = Some(((self.order[0].clone(), self.order[1].clone()), Summary::default()));
        }
        if let Some(((a, b), sum)) = &mut self.running {
            if let (Some(x), Some(y)) = (facts.get(a), facts.get(b)) {
                sum.push(x.mean - y.mean);
            }
        }
        self.sets_by_index.insert(index, facts);
    }

    fn totals(&self) -> Totals {
        let mut bots: BTreeMap<String, (Summary, BotInSet)> = BTreeMap::new();
        let mut pairs: BTreeMap<(String, String), Summary> = BTreeMap::new();
        for set in self.sets_by_index.values() {
            for (name, f) in set {
                let (s, t) = bots.entry(name.clone()).or_default();
                s.push(f.mean);
                t.games += f.games;
                t.faults += f.faults;
                t.ms_sum += f.ms_sum;
                t.ms_n += f.ms_n;
                t.ms_max = t.ms_max.max(f.ms_max);
            }
            for (i, a) in self.order.iter().enumerate() {
                for b in &self.order[i + 1..] {
                    if let (Some(x), Some(y)) = (set.get(a), set.get(b)) {
                        pairs.entry((a.clone(), b.clone())).or_default().push(x.mean - y.mean);
                    }
                }
            }
        }
        Totals { bots, pairs }
    }

    /// The first pair's difference with its interval, for progress lines (constant time).
    pub fn leading(&self) -> Option<String> {
        let ((a, b), s) = self.running.as_ref().filter(|(_, s)| s.n() > 0)?;
        let (lo, hi) = s.ci(LEVEL);
        Some(format!("{a} − {b} {}", fmt_interval(s.mean(), lo, hi)))
    }

    /// The statistics as JSON: deals, games, bots, pairs (see [`match_json`] for the whole).
    pub fn to_json(&self) -> Value {
        let t = self.totals();
        let bots: Vec<Value> = self
            .order
            .iter()
            .map(|name| {
                let (per_set, b) = &t.bots[name];
                let (lo, hi) = per_set.ci(LEVEL);
                json!({
                    "bot": name, "spec": self.specs[name], "games": b.games, "deals": per_set.n(),
                    "mean": finite(per_set.mean()), "ci95": [finite(lo), finite(hi)],
                    "faults": b.faults,
                    "ms_per_decision": finite(b.ms_sum / b.ms_n as f64), "max_ms": b.ms_max,
                })
            })
            .collect();
        let pairs: Vec<Value> = self
            .pair_list(&t)
            .map(|(a, b, s)| {
                let (lo, hi) = s.ci(LEVEL);
                json!({"a": a, "b": b, "deals": s.n(), "mean": finite(s.mean()), "ci95": [finite(lo), finite(hi)]})
            })
            .collect();
        json!({"deals": self.sets, "games": self.games, "bots": bots, "pairs": pairs})
    }

    fn pair_list<'a>(&'a self, t: &'a Totals) -> impl Iterator<Item = (&'a String, &'a String, &'a Summary)> {
        self.order.iter().enumerate().flat_map(move |(i, a)| {
            self.order[i + 1..]
                .iter()
                .filter_map(move |b| t.pairs.get(&(a.clone(), b.clone())).map(|s| (a, b, s)))
        })
    }

    /// The result table for people; column widths follow the content (long bot names).
    pub fn lines(&self) -> Vec<String> {
        let t = self.totals();
        let rows: Vec<[String; 7]> = self
            .order
            .iter()
            .map(|name| {
                let (per_set, b) = &t.bots[name];
                let (lo, hi) = per_set.ci(LEVEL);
                [
                    name.clone(),
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
        .map(String::from);
        let mut w = [0usize; 7];
        for r in rows.iter().chain([&head]) {
            for (k, cell) in r.iter().enumerate() {
                w[k] = w[k].max(cell.chars().count());
            }
        }
        let line = |r: &[String; 7]| {
            format!(
                "{:<w0$} {:>w1$} {:>w2$}  {:<w3$} {:>w4$} {:>w5$} {:>w6$}",
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                r[6],
                w0 = w[0],
                w1 = w[1],
                w2 = w[2],
                w3 = w[3],
                w4 = w[4],
                w5 = w[5],
                w6 = w[6]
            )
        };
        let mut out = vec![line(&head)];
        out.extend(rows.iter().map(line));
        let pairs: Vec<_> = self.pair_list(&t).collect();
        if !pairs.is_empty() {
            out.push(String::new());
            out.push("paired difference of the mean score per seat on the same deals:".into());
            for (a, b, s) in pairs {
                let (lo, hi) = s.ci(LEVEL);
                out.push(format!(
                    "  {a} − {b}: {} over {} deal(s)",
                    fmt_interval(s.mean(), lo, hi),
                    s.n()
                ));
            }
        }
        out
    }
}

fn finite(x: f64) -> Value {
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
}

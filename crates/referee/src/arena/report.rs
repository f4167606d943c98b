//! Statistics over finished sets: per bot the mean score with a 95 % interval, the paired
//! differences between bots on identical deals, faults and decision times.
//!
//! The unit of the statistics is the *set* (one deal seed with all its seatings): a bot's
//! value in a set is its mean score per seat over the set's games, so a duplicate set gives
//! one paired observation per pair of bots. Sets are independent, games within a set are not.
//!
//! Here is what the statistics are shown as: the match's header ([`MatchInfo`]), the result
//! as JSON and as a table of cells; the sets' facts are made in [`super::facts`] and folded
//! in [`super::accumulator`].

use super::accumulator::Accumulator;
use super::accumulator::LEVEL;
use super::facts::seat_bots;
use crate::record::{fmt_score, GameRecord};
use crate::stats::fmt_interval;
use serde_json::{json, Value};

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

impl Accumulator {
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

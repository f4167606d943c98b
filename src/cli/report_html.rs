//! `croupier stats --html`: one self-contained page of the groups `stats` prints.
//!
//! Per group the page holds the table `stats` prints, cell for cell the same strings (made by
//! the same functions: [`Accumulator::cells`], [`tournament_cells`]), written here as HTML, and
//! the data of its charts as JSON, drawn by the page's script (src/cli/report.html: CSS and JS,
//! nothing fetched): each bot's mean or rating with its 95 % interval; the running estimate
//! after 1, 2, … deals; for `compare` runs the GSPRT's log-likelihood ratio per deal between its
//! bounds; each bot's distribution of per-deal mean scores.
//!
//! Memory does not grow with the number of deals: [`Trace`] watches the deals as `stats` folds
//! them, keeping at most [`MAX_POINTS`] points of each curve (every `stride`-th deal, the
//! stride doubled when full) and at most [`MAX_BINS`] bars of each histogram (exact values,
//! then bins of a power-of-two width, doubled when full).

use super::html::{escape, script_json};
use super::recorded_test::{default_test, RecordedTest};
use crate::arena::accumulator::Accumulator;
use crate::arena::report::{finite, signed, Cells};
use crate::arena::tournament::tournament_cells;
use crate::game::GameSpec;
use crate::sequential::BettingTest;
use crate::stats::{fmt_interval, Decision, Summary};
use serde_json::{json, Value};
use std::collections::HashMap;

const LEVEL: f64 = 0.95;

/// The most points of a curve (the last deal is added at the end).
pub const MAX_POINTS: usize = 512;
/// The most bars of a histogram.
pub const MAX_BINS: usize = 200;

/// The page: the template with the report's data in place of its marker.
const TEMPLATE: &str = include_str!("report.html");
const DATA_MARKER: &str = "/*CROUPIER_DATA*/null";
const BODY_MARKER: &str = "<!--CROUPIER_BODY-->";
const FILES_MARKER: &str = "<!--CROUPIER_FILES-->";

/// What a group is, for its page.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Match,
    Compare,
    /// A tournament, with the bot whose rating is 0.
    Tournament(String),
}

/// Points of a curve at deals `stride`, `2·stride`, …: at most [`MAX_POINTS`], every other one
/// dropped and the stride doubled when full.
#[derive(Debug)]
struct Sampler<T> {
    stride: u64,
    points: Vec<(u64, T)>,
}

impl<T> Sampler<T> {
    fn new() -> Self {
        Sampler {
            stride: 1,
            points: Vec::new(),
        }
    }

    /// Deal `deal` (counted from 1): its point, made only when it is kept.
    fn offer(&mut self, deal: u64, make: impl FnOnce() -> T) {
        if !deal.is_multiple_of(self.stride) {
            return;
        }
        self.points.push((deal, make()));
        if self.points.len() >= MAX_POINTS {
            self.stride *= 2;
            let stride = self.stride;
            self.points.retain(|(d, _)| d.is_multiple_of(stride));
        }
    }

    /// The last deal's point, unless it is kept already.
    fn finish(&mut self, deal: u64, make: impl FnOnce() -> T) {
        if deal > 0 && self.points.last().is_none_or(|(d, _)| *d != deal) {
            self.points.push((deal, make()));
        }
    }
}

/// Counts of values: exact while there are at most [`MAX_BINS`] distinct ones, else bins of
/// width `width` (a power of two), each counted at its lower edge.
#[derive(Debug, Default)]
struct Histogram {
    width: f64,
    /// (value or lower edge, count), sorted.
    bins: Vec<(f64, u64)>,
}

impl Histogram {
    fn add(&mut self, x: f64) {
        if !x.is_finite() {
            return;
        }
        let key = if self.width > 0.0 {
            (x / self.width).floor() * self.width
        } else {
            x
        };
        match self.bins.binary_search_by(|b| b.0.total_cmp(&key)) {
            Ok(k) => self.bins[k].1 += 1,
            Err(k) => self.bins.insert(k, (key, 1)),
        }
        if self.bins.len() > MAX_BINS {
            self.coarsen();
        }
    }

    /// Bins at least twice as wide, as many as it takes to hold at most half of MAX_BINS.
    fn coarsen(&mut self) {
        let (lo, hi) = (self.bins[0].0, self.bins[self.bins.len() - 1].0);
        let wanted = ((hi - lo) / (MAX_BINS / 2) as f64).max(self.width * 2.0);
        let mut w = 2f64.powi(wanted.log2().ceil() as i32);
        if w < wanted {
            w *= 2.0;
        }
        let mut bins: Vec<(f64, u64)> = Vec::with_capacity(MAX_BINS / 2 + 1);
        for &(x, n) in &self.bins {
            let key = (x / w).floor() * w;
            match bins.last_mut() {
                Some(last) if last.0 == key => last.1 += n,
                _ => bins.push((key, n)),
            }
        }
        self.width = w;
        self.bins = bins;
    }

    fn to_json(&self) -> Value {
        json!({
            "width": (self.width > 0.0).then_some(self.width),
            "bins": self.bins.iter().map(|&(x, n)| json!([x, n])).collect::<Vec<_>>(),
        })
    }
}

/// An estimate with its interval: (mean, low, high).
type Estimate = (f64, f64, f64);

/// Watches a group's deals as `stats` folds them, in the same order: the running estimates,
/// the sequential test's evidence of a compare run, the histograms. Bounded memory (see the module).
pub struct Trace {
    kind: Kind,
    /// With two bots (a match of two, the candidate and baseline of a compare run) the curve
    /// is their paired difference; else each bot's mean (a tournament: its rating).
    paired: bool,
    deals: u64,
    /// Bots by name id, in the order first seen.
    order: Vec<u32>,
    means: HashMap<u32, Summary>,
    hist: HashMap<u32, Histogram>,
    pair: Option<(u32, u32)>,
    diffs: Summary,
    running: Sampler<Vec<Estimate>>,
    test: Option<BettingTest>,
    /// Whether the records say which test the run used: `None` (compare's defaults), the
    /// parameters of an older run's GSPRT (`Some(false)`), or of the betting test (`Some(true)`).
    test_recorded: Option<bool>,
    evidence: Sampler<f64>,
    /// The first deal at which the test decided, how, and the evidence there.
    decided: Option<(u64, Decision, f64)>,
}

impl Trace {
    /// The trace of a group of `bots` bots (`spec`: its game, for compare's default test when
    /// the records do not hold the one the run used, `recorded`).
    pub fn new(kind: Kind, bots: usize, spec: &GameSpec, recorded: Option<RecordedTest>) -> Trace {
        let paired = match kind {
            Kind::Compare => true,
            Kind::Match => bots == 2,
            Kind::Tournament(_) => false,
        };
        Trace {
            test_recorded: recorded.as_ref().map(|r| r.betting),
            test: (kind == Kind::Compare).then(|| recorded.map(|r| r.test).unwrap_or_else(|| default_test(spec))),
            kind,
            paired,
            deals: 0,
            order: Vec::new(),
            means: HashMap::new(),
            hist: HashMap::new(),
            pair: None,
            diffs: Summary::default(),
            running: Sampler::new(),
            evidence: Sampler::new(),
            decided: None,
        }
    }

    /// One deal, just folded into `acc`: each bot's mean score per seat in it
    /// ([`crate::arena::facts::SetFacts::means`]), and its largest score
    /// ([`crate::arena::facts::SetFacts::scale`]).
    pub fn deal(&mut self, acc: &Accumulator, means: &[(u32, f64)], scale: f64) {
        self.deals += 1;
        for &(id, m) in means {
            if !self.order.contains(&id) {
                self.order.push(id);
            }
            self.means.entry(id).or_default().push(m);
            self.hist.entry(id).or_default().add(m);
        }
        if self.paired && self.pair.is_none() {
            self.pair = match self.kind {
                Kind::Compare => {
                    let find = |n: &str| self.order.iter().copied().find(|&id| acc.name(id) == n);
                    find("candidate").zip(find("baseline"))
                }
                _ => (self.order.len() >= 2).then(|| (self.order[0], self.order[1])),
            };
        }
        if let Some((a, b)) = self.pair {
            let get = |id: u32| means.iter().find(|x| x.0 == id).map(|x| x.1);
            if let (Some(x), Some(y)) = (get(a), get(b)) {
                self.diffs.push(x - y);
                if let Some(test) = &mut self.test {
                    let d = test.push(x - y, scale);
                    let evidence = test.evidence();
                    if self.decided.is_none() && d != Decision::Continue {
                        self.decided = Some((self.deals, d, evidence));
                    }
                }
            }
        }
        if let Some(test) = &self.test {
            let evidence = test.evidence();
            self.evidence.offer(self.deals, || evidence);
        }
        let deals = self.deals;
        let mut running = std::mem::replace(&mut self.running, Sampler::new());
        running.offer(deals, || self.estimates(acc));
        self.running = running;
    }

    /// The running estimates now: one per series.
    fn estimates(&self, acc: &Accumulator) -> Vec<Estimate> {
        let of = |s: &Summary| {
            let (lo, hi) = s.ci(LEVEL);
            (s.mean(), lo, hi)
        };
        if self.paired {
            return vec![of(&self.diffs)];
        }
        match &self.kind {
            Kind::Tournament(reference) => match acc.ratings(reference) {
                Some((names, fit)) => self
                    .order
                    .iter()
                    .map(|&id| match names.iter().position(|n| n == acc.name(id)) {
                        Some(b) => fit.interval(b, LEVEL),
                        None => (f64::NAN, f64::NAN, f64::NAN),
                    })
                    .collect(),
                None => vec![(f64::NAN, f64::NAN, f64::NAN); self.order.len()],
            },
            _ => self.order.iter().map(|id| of(&self.means[id])).collect(),
        }
    }

    /// The names of the curves, in the order of [`Trace::estimates`].
    fn series(&self, acc: &Accumulator) -> Vec<String> {
        match self.pair {
            Some((a, b)) => vec![format!("{} − {}", acc.name(a), acc.name(b))],
            None if self.paired => vec!["difference".into()],
            None => self.order.iter().map(|&id| acc.name(id).to_string()).collect(),
        }
    }

    /// Puts the bots in the order of the group's table (`rows`: their names, top to bottom),
    /// their curves' points with them: the charts show them, and colour them, as the table
    /// lists them. Bots not in the table keep their order after those that are.
    fn follow(&mut self, acc: &Accumulator, rows: &[String]) {
        let rank = |id: u32| rows.iter().position(|n| n == acc.name(id)).unwrap_or(usize::MAX);
        let mut perm: Vec<usize> = (0..self.order.len()).collect();
        perm.sort_by_key(|&k| rank(self.order[k]));
        self.order = perm.iter().map(|&k| self.order[k]).collect();
        if !self.paired {
            // A point made before a bot's first deal has no estimate of it: none drawn.
            let none = (f64::NAN, f64::NAN, f64::NAN);
            for p in &mut self.running.points {
                p.1 = perm.iter().map(|&k| p.1.get(k).copied().unwrap_or(none)).collect();
            }
        }
    }

    /// The group's charts as JSON, the last deal's point added (`acc`: every deal folded), the
    /// bots in the order of the table's `rows`.
    fn charts(mut self, acc: &Accumulator, rows: &[String]) -> Value {
        self.follow(acc, rows);
        let deals = self.deals;
        let last = self.estimates(acc);
        self.running.finish(deals, || last.clone());
        let series = self.series(acc);
        let what = match (&self.kind, self.paired) {
            (_, true) => "paired difference of the mean score per seat on the same deals".to_string(),
            (Kind::Tournament(r), _) => format!("rating (mean score per deal and seat relative to {r})"),
            _ => "mean score per seat".to_string(),
        };
        let est = |e: &Estimate| json!([finite(e.0), finite(e.1), finite(e.2)]);
        let running = json!({
            "what": what,
            "series": series,
            // The last point's numbers as `stats` prints them.
            "final": last.iter().map(|e| fmt_interval(e.0, e.1, e.2)).collect::<Vec<_>>(),
            "final_mean": last.iter().map(|e| signed(e.0)).collect::<Vec<_>>(),
            "deals": self.running.points.iter().map(|p| p.0).collect::<Vec<_>>(),
            "values": self.running.points.iter().map(|p| p.1.iter().map(est).collect::<Vec<_>>()).collect::<Vec<_>>(),
        });
        let test_json = self.test.as_ref().map(|test| {
            let now = test.evidence();
            self.evidence.finish(deals, || now);
            let (a, b) = test.bounds();
            let params = format!(
                "--sprt {},{} --alpha {} --beta {}",
                test.lower(),
                test.upper(),
                test.alpha(),
                test.beta()
            );
            json!({
                "recorded": self.test_recorded.is_some(),
                "note": match self.test_recorded {
                    Some(true) => format!("the test the run used ({params})"),
                    Some(false) => format!("these records are of a run that used the GSPRT of croupier before 2026-11-27, which stopped by its own rule: this is today's test by betting on the same deals ({params})"),
                    None => format!("these compare records do not hold the test's parameters (records of croupier before 2026-11-26): this is the evidence of compare's defaults for this game ({params}); a run with other parameters stopped by its own"),
                },
                "lower": test.lower(), "upper": test.upper(), "alpha": test.alpha(), "beta": test.beta(),
                "bounds": [a, b],
                "final": finite(now), "final_text": signed(now),
                "decided": self.decided.map(|(d, how, ev)| json!({
                    "deal": d,
                    "result": if how == Decision::AcceptUpper { "pass" } else { "fail" },
                    "evidence": finite(ev),
                })),
                "deals": self.evidence.points.iter().map(|p| p.0).collect::<Vec<_>>(),
                "evidence": self.evidence.points.iter().map(|p| finite(p.1)).collect::<Vec<_>>(),
            })
        });
        let hist: Vec<Value> = self
            .order
            .iter()
            .map(|id| {
                let mut h = self.hist[id].to_json();
                h["bot"] = json!(acc.name(*id));
                h
            })
            .collect();
        json!({"running": running, "test": test_json, "hist": hist})
    }
}

/// One group of the report.
pub struct Section {
    pub heading: String,
    pub kind: Kind,
    /// The group as `stats --json` prints it.
    pub json: Value,
    cells: Option<Cells>,
    charts: Value,
}

impl Section {
    /// The section of a group whose deals were all folded into `acc` and watched by `trace`.
    pub fn new(heading: String, json: Value, acc: &Accumulator, trace: Trace) -> Section {
        let kind = trace.kind.clone();
        let cells = match &kind {
            Kind::Tournament(r) => tournament_cells(acc, r),
            _ => Some(acc.cells()),
        };
        let rows = Self::row_names(cells.as_ref());
        Section {
            heading,
            kind,
            json,
            charts: trace.charts(acc, &rows),
            cells,
        }
    }

    /// The bots of the table, top to bottom (a tournament's by rating).
    fn row_names(cells: Option<&Cells>) -> Vec<String> {
        cells
            .map(|c| c.rows.iter().map(|r| r[0].clone()).collect())
            .unwrap_or_default()
    }

    /// Each bot's estimate for the chart of intervals: name, mean (rating), low, high, and the
    /// text of its row (`stats`' cells); in the order of the table's rows.
    fn estimates(&self) -> Vec<Value> {
        let key = if matches!(self.kind, Kind::Tournament(_)) {
            "rating"
        } else {
            "mean"
        };
        let rows = self.cells.as_ref().map(|c| c.rows.as_slice()).unwrap_or(&[]);
        let mut bots: Vec<&Value> = self.json["bots"].as_array().into_iter().flatten().collect();
        // As the table lists them (`stats --json` has them in the order of `--bot`).
        bots.sort_by_key(|b| rows.iter().position(|r| b["bot"] == r[0]).unwrap_or(usize::MAX));
        bots.into_iter()
            .map(|b| {
                let name = b["bot"].as_str().unwrap_or("?");
                let row = rows.iter().find(|r| r[0] == name);
                let (value, interval) = match (&self.kind, row) {
                    (Kind::Tournament(_), Some(r)) => (r[1].clone(), r[2].clone()),
                    (_, Some(r)) => (r[2].clone(), r[3].clone()),
                    _ => (String::new(), String::new()),
                };
                json!({
                    "bot": name, "value": b[key], "lo": b["ci95"][0], "hi": b["ci95"][1],
                    "text": format!("{value} {interval}"),
                })
            })
            .collect()
    }

    fn html(&self, k: usize) -> String {
        let mut s = String::new();
        let kind = match self.kind {
            Kind::Match => "match",
            Kind::Compare => "compare",
            Kind::Tournament(_) => "tournament",
        };
        s.push_str(&format!(
            "<section class=\"group\" id=\"g{k}\" data-kind=\"{kind}\">\n<h2>{}</h2>\n",
            escape(&self.heading)
        ));
        match &self.cells {
            None => s.push_str("<p>no deals</p>\n"),
            Some(c) => {
                s.push_str(&table("bots", &c.head, &c.rows, |k| {
                    k == 0 || c.head[k] == "95% interval"
                }));
                if let Some(n) = &c.note {
                    s.push_str(&format!("<p class=\"note\">{}</p>\n", escape(n)));
                }
                if !c.pairs.is_empty() {
                    s.push_str(&format!("<h3>{}</h3>\n", escape(&c.pairs_title)));
                    s.push_str(&table("pairs", &c.pairs_head, &c.pairs, |k| {
                        k != 2 || c.pairs_head[2] != "deals"
                    }));
                }
            }
        }
        s.push_str("<div class=\"charts\"></div>\n</section>\n");
        s
    }
}

/// An HTML table of text cells (`left`: the columns aligned left).
fn table(class: &str, head: &[String], rows: &[Vec<String>], left: impl Fn(usize) -> bool) -> String {
    let cell = |tag: &str, k: usize, text: &str| {
        let align = if left(k) { "l" } else { "r" };
        format!("<{tag} class=\"{align}\">{}</{tag}>", escape(text))
    };
    let mut s = format!("<table class=\"{class}\">\n<thead><tr>");
    for (k, h) in head.iter().enumerate() {
        s.push_str(&cell("th", k, h));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        s.push_str(&format!("<tr data-bot=\"{}\">", escape(&r[0])));
        for (k, c) in r.iter().enumerate() {
            s.push_str(&cell("td", k, c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n");
    s
}

/// The page of the report's sections.
pub fn page(sections: &[Section], files: &[String]) -> String {
    let mut body = String::new();
    for (k, s) in sections.iter().enumerate() {
        body.push_str(&s.html(k));
    }
    let groups: Vec<Value> = sections
        .iter()
        .map(|s| {
            let mut g = s.charts.clone();
            g["heading"] = json!(s.heading);
            g["estimates"] = json!(s.estimates());
            g["kind"] = json!(match s.kind {
                Kind::Match => "match",
                Kind::Compare => "compare",
                Kind::Tournament(_) => "tournament",
            });
            g["stats"] = s.json.clone();
            g
        })
        .collect();
    let data = json!({"files": files, "groups": groups});
    let data = script_json(&data);
    // The data first: the other markers start with `<`, which neither the data nor the
    // escaped text can hold, so each is replaced where the template has it.
    TEMPLATE
        .replacen(DATA_MARKER, &data, 1)
        .replacen(FILES_MARKER, &escape(&files.join(" ")), 1)
        .replacen(BODY_MARKER, &body, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sampler_keeps_a_bounded_number_of_evenly_spaced_points_and_the_last() {
        let mut s = Sampler::new();
        for d in 1..=100_000u64 {
            s.offer(d, || d);
            assert!(s.points.len() < MAX_POINTS);
        }
        s.finish(100_000, || 100_000);
        assert!(s.points.len() >= MAX_POINTS / 4, "{}", s.points.len());
        let gaps: std::collections::BTreeSet<u64> = s.points.windows(2).map(|w| w[1].0 - w[0].0).collect();
        assert!(gaps.len() <= 2, "one stride (and the last point): {gaps:?}");
        assert_eq!(s.points.last().unwrap().0, 100_000);
        assert!(s.points.iter().all(|(d, v)| d == v));
    }

    #[test]
    fn a_histogram_counts_exact_values_then_bins_them_keeping_every_count() {
        let mut h = Histogram::default();
        for x in [0.5, 1.0, 0.5, -2.0] {
            h.add(x);
        }
        assert_eq!(h.bins, vec![(-2.0, 1), (0.5, 2), (1.0, 1)]);
        assert_eq!(h.width, 0.0);
        for k in 0..10_000 {
            h.add(f64::from(k) * 0.37);
        }
        assert!(h.bins.len() <= MAX_BINS && h.width > 0.0);
        assert_eq!(h.bins.iter().map(|b| b.1).sum::<u64>(), 10_004);
        assert!(
            h.bins.iter().all(|b| (b.0 / h.width).fract() == 0.0),
            "edges on the grid"
        );
        assert!(h.bins.windows(2).all(|w| w[0].0 < w[1].0));
    }
}

//! The end of a compare run: its verdict, printed as text or JSON and written as a JUnit
//! report, or what an interrupted run kept.

use super::args::CompareArgs;
use crate::arena::report::signed;
use crate::chance::format_seed;
use crate::cli::arena::resume_command;
use crate::cli::bot_args::bot_seed_note;
use crate::cli::exit::usage;
use crate::cli::io;
use crate::sequential::BettingTest;
use crate::stats::{fmt_interval, Decision};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a run stopped by Ctrl-C or SIGTERM before its decision says: the deals and games
/// played, and where they are kept.
pub(super) fn interrupted(record: Option<&PathBuf>, deals: u64, played: u64) -> String {
    let kept = match record {
        Some(p) if io::is_dash(p) => " games, written to standard output)".to_string(),
        Some(p) => format!(
            " games, recorded in {}); run the same command with --resume to go on:\n  {}",
            p.display(),
            resume_command()
        ),
        None => " games)".to_string(),
    };
    format!("interrupted: no decision after {deals} deal(s) ({played}{kept}")
}

/// The result's word: pass, fail, or why there is none.
pub(super) fn verdict(decision: Decision, sharded: bool, no_test: bool) -> &'static str {
    match decision {
        Decision::AcceptUpper => "pass",
        Decision::AcceptLower => "fail",
        Decision::Continue if sharded => "shard",
        Decision::Continue if no_test => "estimate",
        Decision::Continue => "no decision",
    }
}

/// A finished run, as its result is printed and reported.
pub(super) struct Finished<'a> {
    pub(super) a: &'a CompareArgs,
    pub(super) game: &'a str,
    pub(super) id: String,
    pub(super) seed: u64,
    pub(super) bot_key: Option<u64>,
    pub(super) field: String,
    pub(super) lower: f64,
    pub(super) upper: f64,
    pub(super) verdict: &'static str,
    pub(super) test: &'a BettingTest,
    pub(super) played: u64,
    pub(super) faults: u64,
    pub(super) already: u64,
    pub(super) shard: Option<(u64, u64)>,
    pub(super) shard_tag: String,
}

impl Finished<'_> {
    /// The result, as JSON or as text.
    pub(super) fn print(&self, json: bool) {
        if json {
            self.print_json();
        } else {
            self.print_text();
        }
    }

    /// Writes the JUnit XML report of the verdict to `out` (`took`: the run's time).
    pub(super) fn write_junit(&self, out: &mut io::Output, took: Duration) -> Result<(), (u8, String)> {
        out.write(self.junit(took).as_bytes()).map_err(|e| {
            usage(format!(
                "--junit {}: {e}",
                self.a.junit.as_deref().unwrap_or(Path::new("")).display()
            ))
        })
    }

    /// The result as one JSON object.
    fn print_json(&self) {
        let (a, test) = (self.a, self.test);
        let diffs = test.summary();
        let (lo, hi) = diffs.ci(0.95);
        let (a_bound, b_bound) = test.bounds();
        let (log_pass, log_fail) = test.log_wealth();
        // The words of the text: candidate, baseline, field; deals, games; the difference's
        // mean and 95 % interval; the test's lower/upper, alpha/beta, evidence and its bounds,
        // the two wealths' logarithms, and the differences outside its assumed range.
        outln!(
            "{}",
            json!({
                "game": self.game, "match": self.id, "seed": format_seed(self.seed),
                "candidate": a.candidate, "baseline": a.baseline, "field": self.field,
                "deals": diffs.n(), "games": self.played, "mean": diffs.mean(), "ci95": [lo, hi],
                "lower": self.lower, "upper": self.upper, "alpha": a.alpha, "beta": a.beta,
                "evidence": test.evidence(), "evidence_bounds": [a_bound, b_bound],
                "log_wealth": {"pass": log_pass, "fail": log_fail},
                "surprises": test.surprises(),
                "result": self.verdict, "faults": self.faults, "shard": self.shard.map(|_| self.shard_tag.clone()),
                "read": self.already,
            })
        );
    }

    /// The result as text for people.
    fn print_text(&self) {
        let (a, test, played, already) = (self.a, self.test, self.played, self.already);
        let diffs = test.summary();
        let (lo, hi) = diffs.ci(0.95);
        let (a_bound, b_bound) = test.bounds();
        let (log_pass, log_fail) = test.log_wealth();
        outln!(
            "{}: candidate {} against baseline {} (field {}), seed {}{}",
            self.game,
            a.candidate,
            a.baseline,
            self.field,
            self.seed,
            bot_seed_note(self.bot_key)
        );
        if already > 0 {
            outln!("({already} game(s) read from the record, {played} played now)");
        }
        if !self.shard_tag.is_empty() {
            outln!(
                "shard {}: its deals only, no verdict (the test takes every deal in order): \
                 merge the shards' records with `croupier stats`, which runs the test on them",
                self.shard_tag
            );
        }
        outln!(
            "candidate − baseline per deal and seat: {} over {} deal(s) ({} games)",
            fmt_interval(diffs.mean(), lo, hi),
            diffs.n(),
            played
        );
        let surprises = match test.surprises() {
            0 => String::new(),
            k => format!("; {k} difference(s) fell outside the range it assumed, each cut its wealth"),
        };
        outln!(
            "sequential test by betting, H0: difference <= {} against H1: difference >= {} (alpha {}, beta {}): evidence {} in [{:.2}, {:.2}] (wealth: pass {:.3}, fail {:.3}{surprises})",
            signed(self.lower),
            signed(self.upper),
            a.alpha,
            a.beta,
            signed(test.evidence()),
            a_bound,
            b_bound,
            log_pass.exp(),
            log_fail.exp(),
        );
        outln!("result: {}", self.verdict);
    }

    /// The JUnit XML report of the verdict.
    fn junit(&self, took: Duration) -> String {
        let diffs = self.test.summary();
        let (lo, hi) = diffs.ci(0.95);
        let estimate = format!(
            "candidate − baseline per deal and seat {} over {} deal(s); test bounds {},{}",
            fmt_interval(diffs.mean(), lo, hi),
            diffs.n(),
            self.lower,
            self.upper
        );
        junit_xml(
            self.game,
            &self.a.candidate,
            &self.a.baseline,
            self.verdict,
            &estimate,
            took,
        )
    }
}

/// A JUnit XML report with one test case: the compare verdict (a failure unless it passed).
pub(super) fn junit_xml(
    game: &str,
    candidate: &str,
    baseline: &str,
    verdict: &str,
    estimate: &str,
    took: Duration,
) -> String {
    let case = io::JunitCase {
        classname: format!("croupier.compare.{game}"),
        name: format!("{candidate} is not worse than {baseline}"),
        seconds: took.as_secs_f64(),
        failure: (verdict != "pass").then(|| (format!("result: {verdict}"), estimate.to_string())),
        output: estimate.to_string(),
    };
    io::junit_xml(&format!("croupier compare {game}"), &[case], took.as_secs_f64())
}

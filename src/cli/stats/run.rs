//! `croupier stats` from its arguments to its output: the records read into groups, each
//! group's deals folded in order, its table (or JSON) printed and its section of the page.

use super::read::Groups;
use crate::arena::report::{match_json, signed};
use crate::arena::tournament::{tournament_json, tournament_lines};
use crate::cli::exit::{self, usage, Outcome};
use crate::cli::io;
use crate::cli::report_html::{self, Section};
use crate::sequential::BettingTest;
use crate::stats::Decision;
use clap::Args;
use serde_json::{json, Value};

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Record files (shards, resumed runs); `-` reads standard input.
    #[arg(required = true)]
    pub(super) files: Vec<String>,
    /// Print one JSON object per group, one per line (JSON Lines), each as `match --json`
    /// prints it.
    #[arg(long)]
    pub(super) json: bool,
    /// In tournaments, the bot whose rating is 0 (default: the tournament's first bot).
    #[arg(long, value_name = "NAME")]
    pub(super) reference: Option<String>,
    /// Also write a report to look at: one self-contained HTML page (nothing fetched when it
    /// is viewed) with each group's table as printed, each bot's mean or rating with its 95 %
    /// interval as a chart, the running estimate over the deals, the sequential test's
    /// log-likelihood ratio of `compare` runs, and each bot's distribution of per-deal scores.
    /// `-` writes the page to standard output; the tables then go to stderr.
    #[arg(long, value_name = "FILE|-")]
    pub(super) html: Option<std::path::PathBuf>,
}

pub fn run(a: StatsArgs) -> Outcome {
    io::stdin_at_most_once(a.files.iter().map(String::as_str))?;
    let mut page = open_page(&a)?;
    let mut read = Groups::read(&a.files)?;
    let mut sections: Vec<Section> = Vec::new();
    // What is printed, kept until the page is written: a reader that stops reading early
    // (`| head`) must not stop the page.
    let mut out: Vec<String> = Vec::new();
    for (k, g) in read.groups.iter_mut().enumerate() {
        let mut trace = page.as_ref().map(|_| g.trace(a.reference.as_ref()));
        // A compare group's verdict: its test over the deals in order (shards merged, too).
        let mut verdict = g.compare_test();
        g.fold(&read.strings, trace.as_mut(), verdict.as_mut());
        let reference = g.reference(a.reference.as_ref())?;
        let info = g.info();
        let acc = &g.acc;
        let (mut json, mut lines) = match &reference {
            Some(r) => (tournament_json(&info, acc, r), tournament_lines(acc, r)),
            None => (match_json(&info, acc), acc.lines()),
        };
        if let Some(t) = &verdict {
            add_test(t, &mut json, &mut lines);
        }
        if let Some(t) = trace {
            sections.push(Section::new(g.heading(acc), json.clone(), acc, t));
        }
        if a.json {
            out.push(json.to_string());
        } else {
            if k > 0 {
                out.push(String::new());
            }
            out.push(g.heading(acc));
            out.extend(lines);
        }
    }
    if let (Some(path), Some(o)) = (&a.html, &mut page) {
        o.write(report_html::page(&sections, &a.files).as_bytes())
            .map_err(|e| usage(format!("--html {}: {e}", path.display())))?;
    }
    for l in out {
        outln!("{l}");
    }
    read.warn(&a.files);
    Ok(exit::OK)
}

/// The page's file, opened before anything is read: a path that cannot be written is an
/// error at once, and a record file is never overwritten by its own report.
fn open_page(a: &StatsArgs) -> Result<Option<io::Output>, (u8, String)> {
    let Some(out) = &a.html else {
        return Ok(None);
    };
    for f in a.files.iter().filter(|f| *f != "-") {
        io::distinct_outputs(&[
            ("the record file", Some(std::path::Path::new(f))),
            ("--html", Some(out)),
        ])?;
    }
    io::open_report(out, "--html").map(Some)
}

/// A compare group's sequential test over its deals in order, added to its JSON object and
/// under its lines.
fn add_test(t: &BettingTest, json: &mut Value, lines: &mut Vec<String>) {
    let (result, at) = match t.decided() {
        Some((d, Decision::AcceptUpper)) => ("pass", Some(d)),
        Some((d, _)) => ("fail", Some(d)),
        None => ("no decision", None),
    };
    let (log_pass, log_fail) = t.log_wealth();
    json["test"] = json!({
        "lower": t.lower(), "upper": t.upper(), "alpha": t.alpha(), "beta": t.beta(),
        "evidence": t.evidence(), "log_wealth": {"pass": log_pass, "fail": log_fail},
        "result": result, "deal": at,
    });
    lines.push(String::new());
    lines.push(format!(
        "sequential test by betting over the deals in order, H0: difference <= {} against H1: difference >= {} (alpha {}, beta {}): evidence {:+.2}: {}",
        signed(t.lower()),
        signed(t.upper()),
        t.alpha(),
        t.beta(),
        t.evidence(),
        match at {
            Some(d) => format!("{result} at deal {d}"),
            None => format!("no decision after {} deal(s)", t.summary().n()),
        }
    ));
}

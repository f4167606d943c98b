//! `croupier regress`: a suite of recorded positions put to a bot, each with the answers
//! expected or forbidden there (as GTP's regression suites do for Go engines); each position
//! is put as `croupier ask` puts one (ask.rs).

use super::ask::{ask, Asked, TimeArgs};
use super::exit::{self, usage, Outcome};
use super::io;
use crate::bots::analysis::Analysis;
use crate::game::GameSpec;
use crate::record::GameRecord;
use crate::referee::SeatSpec;
use clap::Args;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct RegressArgs {
    /// The suite: one position per line (see `croupier regress --help` and bots/regress/).
    suite: PathBuf,
    /// The bot: a built-in bot's name or a command line (as `--bot` in `play`).
    #[arg(long, value_name = "SPEC")]
    bot: String,
    #[command(flatten)]
    time: TimeArgs,
    /// Also write a JUnit XML report for CI: a test case per position, each failure with its
    /// message (`-`: standard output, and the text for people goes to stderr).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Print one JSON object instead of text: every position with its result and message, and
    /// the totals.
    #[arg(long)]
    json: bool,
}

/// One line of a suite: a position and the answers expected or forbidden there.
struct Case {
    line: usize,
    file: PathBuf,
    index: usize,
    action: usize,
    expect: bool,
    /// Actions; `recorded` stands for the record's own action.
    actions: Vec<String>,
    comment: String,
}

/// Reads a suite (format in `croupier regress --help`): every bad line is an error that names
/// the file, the line and the value.
fn parse_suite(path: &Path) -> Result<Vec<Case>, (u8, String)> {
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("{}: {e}", path.display())))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let at = format!("{}:{}", path.display(), i + 1);
        let (body, comment) = raw.split_once('#').unwrap_or((raw, ""));
        let words: Vec<&str> = body.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let [file, index, action, kind, list] = words[..] else {
            return Err(usage(format!(
                "{at}: expected FILE GAME ACTION expect|forbid ACTIONS, got {} word(s): '{}'",
                words.len(),
                body.trim()
            )));
        };
        let number = |what: &str, v: &str| {
            v.parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| usage(format!("{at}: {what} '{v}' is not a whole number of at least 1")))
        };
        let expect = match kind {
            "expect" => true,
            "forbid" => false,
            k => return Err(usage(format!("{at}: '{k}': write expect or forbid"))),
        };
        cases.push(Case {
            line: i + 1,
            file: base.join(file),
            index: number("game", index)?,
            action: number("action", action)?,
            expect,
            actions: list.split(',').map(str::to_string).collect(),
            comment: comment.trim().to_string(),
        });
    }
    if cases.is_empty() {
        return Err(usage(format!("{}: no positions in it", path.display())));
    }
    Ok(cases)
}

pub fn run(a: RegressArgs) -> Outcome {
    let bot = SeatSpec::parse(&a.bot).map_err(|e| usage(format!("--bot: {e}")))?;
    let cases = parse_suite(&a.suite)?;
    let positions = read_positions(&a.suite, &cases)?;
    // The suite's records hold every hand: a sandboxed bot sees none of them, nor the logs.
    let mut hide = vec![a.suite.clone(), crate::referee::Config::default().log_dir];
    hide.extend(cases.iter().map(|c| c.file.clone()));
    a.time.sandbox.enable(hide, a.json)?;
    // The report is written at the end, but its file is opened now: a path that cannot be
    // written is an error before the bot is asked anything.
    let mut junit = a.junit.as_deref().map(|p| io::open_report(p, "--junit")).transpose()?;
    let started = Instant::now();
    let mut results = Vec::new();
    for (c, (rec, spec)) in cases.iter().zip(&positions) {
        results.push(check(&a, &bot, c, rec, spec)?);
    }
    let failed = results.iter().filter(|r| r.verdict.is_err()).count();
    let passed = cases.len() - failed;
    if a.json {
        outln!("{}", json_report(&a, &cases, &results, passed, failed));
    } else {
        outln!("{} position(s): {passed} passed, {failed} failed", cases.len());
    }
    if let Some(out) = &mut junit {
        let xml = junit_report(&a, &cases, &results, started.elapsed().as_secs_f64());
        out.write(xml.as_bytes()).map_err(|e| {
            usage(format!(
                "--junit {}: {e}",
                a.junit.as_deref().unwrap_or(Path::new("")).display()
            ))
        })?;
    }
    Ok(if failed == 0 { exit::OK } else { exit::CHECK_FAILED })
}

/// The position of every case, read and checked before the bot is asked anything: a bad suite
/// is an input error, not a list of failures.
fn read_positions(suite: &Path, cases: &[Case]) -> Result<Vec<(GameRecord, GameSpec)>, (u8, String)> {
    let mut positions = Vec::new();
    for c in cases {
        let at = format!("{}:{}", suite.display(), c.line);
        let (_, _, rec, spec) =
            io::nth_record(&c.file.to_string_lossy(), c.index).map_err(|(code, e)| (code, format!("{at}: {e}")))?;
        if c.action > rec.actions.len() {
            return Err(usage(format!(
                "{at}: game {} of {} has {} actions; there is no action {}",
                c.index,
                c.file.display(),
                rec.actions.len(),
                c.action
            )));
        }
        positions.push((rec, spec));
    }
    Ok(positions)
}

/// Puts case `c`'s position (`rec`, its game `spec`) to `bot`, judges the answer and prints
/// the case's line (unless `--json`).
fn check(
    a: &RegressArgs,
    bot: &SeatSpec,
    c: &Case,
    rec: &GameRecord,
    spec: &GameSpec,
) -> Result<Checked, (u8, String)> {
    let asked_at = Instant::now();
    let asked =
        ask(rec, spec, c.action, bot, &a.time).map_err(|e| usage(format!("{}:{}: {e}", a.suite.display(), c.line)))?;
    let listed: Vec<String> = c
        .actions
        .iter()
        .map(|t| {
            if t == "recorded" {
                asked.recorded.clone()
            } else {
                t.clone()
            }
        })
        .collect();
    let verdict = match (&asked.answer, asked.legal_answer()) {
        (Err(f), _) => Err(format!("no answer: {f}")),
        (Ok((t, _)), None) => Err(format!("answered {t}, which is not legal")),
        (_, Some(t)) if c.expect && !listed.iter().any(|l| l == t) => Err(format!(
            "answered {t}, expected {}{}",
            listed.join(" or "),
            values_of(&asked, t, &listed)
        )),
        (_, Some(t)) if !c.expect && listed.iter().any(|l| l == t) => {
            Err(format!("answered {t}, which is forbidden{}", values_of(&asked, t, &[])))
        }
        (_, Some(t)) => Ok(t.to_string()),
    };
    let position = format!(
        "{} game {} action {}",
        c.file.file_name().map(|f| f.to_string_lossy()).unwrap_or_default(),
        c.index,
        c.action
    );
    let what = format!("{position} ({}, seat {} to {})", asked.game, asked.seat, asked.decision);
    let comment = if c.comment.is_empty() {
        String::new()
    } else {
        format!("  # {}", c.comment)
    };
    if !a.json {
        match &verdict {
            Ok(t) => outln!("ok   line {}: {what}: {t}{comment}", c.line),
            Err(e) => outln!("FAIL line {}: {what}: {e}{comment}", c.line),
        }
    }
    Ok(Checked {
        position,
        what,
        comment,
        listed,
        asked,
        verdict,
        seconds: asked_at.elapsed().as_secs_f64(),
    })
}

/// For a search bot's failed answer `t`: what its search valued it and the `listed` actions at,
/// as ` (its values: AS +1.20, KH +0.85)` (its answer first; empty without an analysis), so that
/// the failure says how close the search was.
fn values_of(asked: &Asked, t: &str, listed: &[String]) -> String {
    let Some(an) = &asked.analysis else {
        return String::new();
    };
    let value = |a: &str| format!("{a} {}", Analysis::value_text(an.mean(a)));
    let shown: Vec<String> = std::iter::once(t)
        .chain(listed.iter().map(String::as_str).filter(|l| *l != t))
        .filter(|a| asked.legal.iter().any(|l| l == a))
        .map(value)
        .collect();
    format!(" (its values: {})", shown.join(", "))
}

/// The suite's result as one JSON object: every position with its result and message, and
/// the totals.
fn json_report(a: &RegressArgs, cases: &[Case], results: &[Checked], passed: usize, failed: usize) -> Value {
    let json_cases: Vec<_> = cases
        .iter()
        .zip(results)
        .map(|(c, r)| {
            json!({
                "line": c.line, "file": c.file.display().to_string(), "index": c.index,
                "action": c.action, "game": r.asked.game, "seat": r.asked.seat,
                "decision": r.asked.decision, "kind": if c.expect { "expect" } else { "forbid" },
                "actions": r.listed, "answer": r.asked.answer.as_ref().ok().map(|(t, _)| t),
                "result": if r.verdict.is_ok() { "pass" } else { "fail" },
                "message": r.verdict.as_ref().err(), "comment": c.comment,
            })
        })
        .collect();
    let bot_name = results.first().map(|r| r.asked.bot.clone()).unwrap_or_default();
    json!({
        "suite": a.suite.display().to_string(), "bot": bot_name, "cases": json_cases,
        "positions": cases.len(), "passed": passed, "failed": failed,
    })
}

/// The suite's JUnit XML report: a test case per position (`seconds`: the whole run's time).
fn junit_report(a: &RegressArgs, cases: &[Case], results: &[Checked], seconds: f64) -> String {
    let stem = a.suite.file_stem().map(|f| f.to_string_lossy()).unwrap_or_default();
    let junit_cases: Vec<io::JunitCase> = cases
        .iter()
        .zip(results)
        .map(|(c, r)| io::JunitCase {
            classname: format!("croupier.regress.{stem}"),
            name: if c.comment.is_empty() {
                format!("line {}: {}", c.line, r.position)
            } else {
                format!("line {}: {}: {}", c.line, r.position, c.comment)
            },
            seconds: r.seconds,
            failure: r
                .verdict
                .as_ref()
                .err()
                .map(|e| (e.clone(), format!("{}: {e}{}", r.what, r.comment))),
            output: r
                .verdict
                .as_ref()
                .map(|t| format!("{}: {t}", r.what))
                .unwrap_or_default(),
        })
        .collect();
    let suite = format!("croupier regress {} --bot {}", a.suite.display(), a.bot);
    io::junit_xml(&suite, &junit_cases, seconds)
}

/// A position of a suite put to the bot: what it is, the actions listed (`recorded` made the
/// record's), the answer, and the verdict (the answer, or why it fails).
struct Checked {
    /// `rikken.jsonl game 1 action 21`
    position: String,
    /// `rikken.jsonl game 1 action 21 (rikken, seat 2 to play)`
    what: String,
    comment: String,
    listed: Vec<String>,
    asked: Asked,
    verdict: Result<String, String>,
    seconds: f64,
}

//! `croupier ask` and `croupier regress`: put one recorded position to a bot, or a suite of
//! them with the answers expected (as GTP's regression suites do for Go engines).
//!
//! A position is a recorded game stopped at one of its decisions. The bot is started fresh,
//! told the game's setup and every line its seat received up to that decision (as a bot
//! restarted mid-game is caught up), then asked; its earlier decisions are the record's.

use super::exit::{self, usage, Outcome};
use super::io;
use crate::chance::parse_seed;
use crate::game::{Event, GameInfo, GameSpec};
use crate::record::{options_of, GameRecord};
use crate::referee::{rngseed, Config, SeatSpec, Table};
use crate::replay::replay_to;
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct AskArgs {
    /// A record file (JSON Lines); `-` reads standard input.
    file: String,
    /// Which game of the file, counted from 1 (the first game is 1). Games and actions are
    /// counted from 1, seats from 0.
    #[arg(long = "index", alias = "game", value_name = "K", default_value = "1",
          allow_hyphen_values = true, value_parser = super::args::at_least_one_usize)]
    index: usize,
    /// Which decision: the game's N-th action, counted from 1 (the first action is 1); the bot
    /// is put in the seat that chose it, at the moment it chose. Games and actions are counted
    /// from 1, seats from 0 (the seat printed is the record's).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = super::args::at_least_one_usize)]
    action: usize,
    /// The bot: a built-in bot's name or a command line (as `--bot` in `play`).
    #[arg(long, value_name = "SPEC")]
    bot: String,
    #[command(flatten)]
    time: TimeArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

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

#[derive(Args, Debug)]
struct TimeArgs {
    /// Time the bot has for the decision, like 300ms or 2s.
    #[arg(long, default_value = "10s", allow_hyphen_values = true, value_parser = super::args::parse_duration)]
    move_time: Duration,
    /// Time the bot has to start and answer the handshake.
    #[arg(long, default_value = "10s", allow_hyphen_values = true, value_parser = super::args::parse_duration)]
    startup_time: Duration,
}

/// A position and what the bot made of it.
struct Asked {
    game: String,
    seat: usize,
    decision: String,
    legal: Vec<String>,
    recorded: String,
    bot: String,
    /// The seat's hand then, where its view has one.
    hand: Option<String>,
    /// The answer and the milliseconds it took, or the fault.
    answer: Result<(String, f64), String>,
}

impl Asked {
    fn legal_answer(&self) -> Option<&str> {
        match &self.answer {
            Ok((a, _)) if self.legal.contains(a) => Some(a),
            _ => None,
        }
    }
}

/// Puts action `action` (from 1) of `rec` to `bot`.
fn ask(rec: &GameRecord, spec: &GameSpec, action: usize, bot: &SeatSpec, time: &TimeArgs) -> Result<Asked, String> {
    let (game, events) = replay_to(rec, spec, Some(action - 1))?;
    let seat = game.to_move().ok_or("the game is over at that action")?;
    let decision = game.decision().to_string();
    let legal = game.legal_actions();
    let seed = parse_seed(&rec.seed)?;
    let key = rec.bot_seed.as_deref().map(parse_seed).transpose()?;
    let cfg = Config {
        move_time: time.move_time,
        startup_time: time.startup_time,
        // The record's rngseed for that seat: a deterministic bot meets its own decision again.
        bot_key: key,
        ..Config::default()
    };
    let mut table = Table::new(std::slice::from_ref(bot), cfg)?;
    let name = table.players[0].name();
    let options = options_of(rec, spec)?;
    let info = GameInfo {
        game: rec.game.clone(),
        options: options.clone(),
        players: rec.players,
        seat,
    };
    let hand = hand_at(spec, info, &events);
    let answer = table.ask_position(
        0,
        spec,
        &options,
        (rec.players, seat, rngseed(key, seed, seat)),
        &events,
        &decision,
        &legal,
    );
    table.shutdown();
    Ok(Asked {
        game: rec.game.clone(),
        seat,
        decision,
        legal,
        recorded: rec.actions[action - 1].action.to_string(),
        bot: name,
        hand,
        answer,
    })
}

/// The seat's hand at the position, for people (from its view, where the game has one).
fn hand_at(spec: &GameSpec, info: GameInfo, events: &[Event]) -> Option<String> {
    let seat = info.seat;
    let mut view = (spec.new_view)(&info);
    for e in events.iter().filter(|e| e.to.contains(seat)) {
        view.observe(e.kind, &e.args);
    }
    let hand = view
        .to_json()
        .get("hand")?
        .as_array()?
        .iter()
        .filter_map(|c| c.as_str().map(str::to_string))
        .collect::<Vec<_>>();
    Some(hand.join(" "))
}

pub fn run_ask(a: AskArgs) -> Outcome {
    let bot = SeatSpec::parse(&a.bot).map_err(|e| usage(format!("--bot: {e}")))?;
    let (name, line, rec, spec) = io::nth_record(&a.file, a.index)?;
    let asked = ask(&rec, &spec, a.action, &bot, &a.time).map_err(|e| usage(format!("{name}:{line}: {e}")))?;
    let ok = asked.legal_answer().is_some();
    if a.json {
        let (answer, ms, fault) = match &asked.answer {
            Ok((t, ms)) => (Some(t.clone()), Some(*ms), None),
            Err(f) => (None, None, Some(f.clone())),
        };
        let j = serde_json::json!({
            "game": asked.game, "index": a.index, "action": a.action, "seat": asked.seat,
            "decision": asked.decision, "legal": asked.legal, "recorded": asked.recorded,
            "bot": asked.bot, "answer": answer, "ms": ms, "is_legal": ok, "fault": fault,
        });
        outln!("{j}");
    } else {
        outln!(
            "{} game {} of {name}, action {}: seat {} to {}",
            asked.game,
            a.index,
            a.action,
            asked.seat,
            asked.decision
        );
        // Cards and actions as people read them (`J♠ (JS)`), as `show` and the human seat.
        let people = |t: &str| crate::bots::human::action_with_token(&asked.game, &asked.decision, t);
        if let Some(h) = &asked.hand {
            outln!("  hand:     {}", crate::cards::prettify_tokens(h));
        }
        outln!(
            "  legal:    {}",
            asked.legal.iter().map(|t| people(t)).collect::<Vec<_>>().join(", ")
        );
        outln!(
            "  recorded: {} ({})",
            people(&asked.recorded),
            rec.seats[asked.seat].name
        );
        match &asked.answer {
            Ok((t, ms)) if ok => outln!("  {} answers: {} ({ms:.1} ms)", asked.bot, people(t)),
            Ok((t, _)) => outln!("  {} answers: {t}, which is not legal here", asked.bot),
            Err(f) => outln!("  {} gave no answer: {f}", asked.bot),
        }
    }
    Ok(if ok { exit::OK } else { exit::CHECK_FAILED })
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

pub fn run_regress(a: RegressArgs) -> Outcome {
    let bot = SeatSpec::parse(&a.bot).map_err(|e| usage(format!("--bot: {e}")))?;
    let cases = parse_suite(&a.suite)?;
    // Every position is read and checked before the bot is asked anything: a bad suite is an
    // input error, not a list of failures.
    let mut positions = Vec::new();
    for c in &cases {
        let at = format!("{}:{}", a.suite.display(), c.line);
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
    // The report is written at the end, but its file is opened now: a path that cannot be
    // written is an error before the bot is asked anything.
    let mut junit = match &a.junit {
        Some(p) => {
            if io::is_dash(p) {
                super::output::stdout_is_data();
            }
            Some(io::open_output(p, "--junit", false)?)
        }
        None => None,
    };
    let started = Instant::now();
    let mut results = Vec::new();
    for (c, (rec, spec)) in cases.iter().zip(&positions) {
        let asked_at = Instant::now();
        let asked = ask(rec, spec, c.action, &bot, &a.time)
            .map_err(|e| usage(format!("{}:{}: {e}", a.suite.display(), c.line)))?;
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
            (_, Some(t)) if c.expect && !listed.iter().any(|l| l == t) => {
                Err(format!("answered {t}, expected {}", listed.join(" or ")))
            }
            (_, Some(t)) if !c.expect && listed.iter().any(|l| l == t) => {
                Err(format!("answered {t}, which is forbidden"))
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
        results.push(Checked {
            position,
            what,
            comment,
            listed,
            asked,
            verdict,
            seconds: asked_at.elapsed().as_secs_f64(),
        });
    }
    let failed = results.iter().filter(|r| r.verdict.is_err()).count();
    let passed = cases.len() - failed;
    if a.json {
        let json_cases: Vec<_> = cases
            .iter()
            .zip(&results)
            .map(|(c, r)| {
                serde_json::json!({
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
        let j = serde_json::json!({
            "suite": a.suite.display().to_string(), "bot": bot_name, "cases": json_cases,
            "positions": cases.len(), "passed": passed, "failed": failed,
        });
        outln!("{j}");
    } else {
        outln!("{} position(s): {passed} passed, {failed} failed", cases.len());
    }
    if let Some(out) = &mut junit {
        let stem = a.suite.file_stem().map(|f| f.to_string_lossy()).unwrap_or_default();
        let junit_cases: Vec<io::JunitCase> = cases
            .iter()
            .zip(&results)
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
        let xml = io::junit_xml(&suite, &junit_cases, started.elapsed().as_secs_f64());
        out.write(xml.as_bytes()).map_err(|e| {
            usage(format!(
                "--junit {}: {e}",
                a.junit.as_deref().unwrap_or(Path::new("")).display()
            ))
        })?;
    }
    Ok(if failed == 0 { exit::OK } else { exit::CHECK_FAILED })
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

//! `croupier check SPEC`: a protocol doctor for bot authors. It runs a bot through the protocol
//! step by step (handshake, unknown requests, notifications that need no answer, a whole game of
//! every game or of `--game`, `quit`) and says what passed and what did not, with the bot's own
//! lines where it went wrong.

use super::exit::{self, usage, Outcome};
use super::games::find_game;
use super::io;
use crate::process::{BotProcess, ReadResult};
use crate::protocol::{parse_reply, Hello, Reply, VERSION};
use crate::referee::{identity, Config, SeatSpec, Table};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The bot: a command line (split as a shell splits words) or a built-in bot's name.
    spec: String,
    /// Check only this game (default: every game).
    #[arg(long)]
    game: Option<String>,
    /// Time the bot has for a decision.
    #[arg(long, default_value = "2s", allow_hyphen_values = true, value_parser = super::args::parse_duration)]
    move_time: Duration,
    /// Time the bot has to start and answer the handshake.
    #[arg(long, default_value = "10s", allow_hyphen_values = true, value_parser = super::args::parse_duration)]
    startup_time: Duration,
    /// Directory for the bot's stderr logs: each run writes DIR/<UTC time>-<pid>/.
    #[arg(long, default_value = "croupier-logs")]
    log_dir: PathBuf,
    #[command(flatten)]
    sandbox: super::sandbox_args::SandboxArgs,
}

struct Report {
    failed: usize,
}

impl Report {
    fn step(&mut self, what: &str, result: Result<String, String>) {
        match result {
            Ok(detail) if detail.is_empty() => outln!("ok    {what}"),
            Ok(detail) => outln!("ok    {what}: {detail}"),
            Err(why) => {
                self.failed += 1;
                outln!("FAIL  {what}: {why}");
            }
        }
    }
}

/// The next line that is not a comment or blank, or why there is none.
fn next_reply(bot: &mut BotProcess, within: Duration) -> Result<(String, Reply), String> {
    let deadline = Instant::now() + within;
    loop {
        match bot.read_line(deadline) {
            ReadResult::Line(l) => match parse_reply(&l) {
                Reply::Ignored => continue,
                r => return Ok((l, r)),
            },
            ReadResult::Timeout => return Err(format!("no answer within {} ms", within.as_millis())),
            ReadResult::Exited { status } => {
                return Err(format!(
                    "the bot exited{}",
                    status.map(|s| format!(" ({s})")).unwrap_or_default()
                ))
            }
            other => return Err(format!("{other:?}")),
        }
    }
}

pub fn run(a: CheckArgs) -> Outcome {
    let spec = SeatSpec::parse(&a.spec).map_err(usage)?;
    if matches!(&spec, SeatSpec::Builtin(name) if name == "human") {
        return Err(usage(
            "`human` is you at the terminal, not a bot to check: play it with `croupier play GAME --seat human …`",
        ));
    }
    let games: Vec<crate::game::GameSpec> = match &a.game {
        Some(g) => vec![find_game(g)?],
        None => crate::games::all(),
    };
    let log_dir = io::run_log_dir(&a.log_dir)?;
    a.sandbox.enable(vec![a.log_dir.clone()], false)?;
    let mut report = Report { failed: 0 };
    if let Some(argv) = spec.argv() {
        outln!("checking {} (protocol {VERSION})", a.spec);
        let log = log_dir.join("check.log");
        let mut bot = BotProcess::spawn(argv, Some(log.clone()), a.sandbox.limits()).map_err(usage)?;
        let started = check_protocol(&mut bot, &a, &mut report);
        if !started {
            if log.exists() {
                outln!("(stderr of the bot: {})", log.display());
            }
            return Err((exit::CHECK_FAILED, "the bot failed the handshake".into()));
        }
    }
    // 5. A whole game of each game, the bot in every seat, without a fault.
    for g in &games {
        check_game(&spec, g, &a, &log_dir, &mut report);
    }
    if report.failed > 0 {
        if let Some(note) = io::logs_note(&log_dir) {
            outln!("{note}");
        }
        return Err((exit::CHECK_FAILED, format!("{} check(s) failed", report.failed)));
    }
    outln!("all checks passed");
    Ok(exit::OK)
}

/// The protocol steps of a bot process: the handshake and, once it has started, an unknown
/// request, notifications (never answered) and quit. Whether it started (answered hello); the
/// bot is shut down either way.
fn check_protocol(bot: &mut BotProcess, a: &CheckArgs, report: &mut Report) -> bool {
    // 1. The handshake.
    bot.send(&format!("1 hello {VERSION}"));
    let hello = next_reply(bot, a.startup_time).and_then(|(line, r)| match r {
        Reply::Success { id, text } if id.is_none() || id == Some(1) => Hello::parse(&text)
            .map(|h| {
                let f = if h.features.is_empty() {
                    String::new()
                } else {
                    format!(", features {}", h.features.join(" "))
                };
                format!("{} {}{f}", h.name, h.version)
            })
            .map_err(|e| format!("{e} (the bot wrote '{line}')")),
        _ => Err(format!("expected '=1 <name> <version>', the bot wrote '{line}'")),
    });
    let started = hello.is_ok();
    report.step("answers hello", hello);
    if !started {
        bot.shutdown(Duration::from_millis(100));
        return false;
    }
    // 2. An unknown request gets an error reply with its id.
    bot.send("2 frobnicate");
    report.step(
        "answers an unknown request with ?<id>",
        next_reply(bot, a.move_time).and_then(|(line, r)| match r {
            Reply::Failure { id: Some(2), .. } => Ok(String::new()),
            _ => Err(format!("expected '?2 …', the bot wrote '{line}'")),
        }),
    );
    // 3. Notifications are never answered: the next reply must be for request 3.
    for l in [
        "game none",
        "option nothing 0",
        "players 2",
        "seat 0",
        "some_future_notification 1 2 3",
    ] {
        bot.send(l);
    }
    bot.send("3 frobnicate");
    report.step(
        "does not answer notifications",
        next_reply(bot, a.move_time).and_then(|(line, r)| match r {
            Reply::Failure { id: Some(3), .. } => Ok(String::new()),
            _ => Err(format!(
                "the first reply after five notifications was '{line}', not '?3 …'"
            )),
        }),
    );
    // 4. quit: answered, and the bot exits by itself.
    bot.send("4 quit");
    let answered = next_reply(bot, a.move_time).and_then(|(line, r)| match r {
        Reply::Success { id: Some(4) | None, .. } => Ok(String::new()),
        _ => Err(format!("expected '=4', the bot wrote '{line}'")),
    });
    report.step("answers quit", answered);
    let t = Instant::now();
    bot.shutdown(Duration::from_millis(500));
    report.step(
        "exits after quit",
        if t.elapsed() < Duration::from_millis(450) {
            Ok(String::new())
        } else {
            Err("still running half a second after quit: croupier had to kill it".into())
        },
    );
    true
}

/// A whole game of `g` with the bot `spec` in every seat, without a fault.
fn check_game(spec: &SeatSpec, g: &crate::game::GameSpec, a: &CheckArgs, log_dir: &Path, report: &mut Report) {
    let n = g.default_players;
    let cfg = Config {
        move_time: a.move_time,
        startup_time: a.startup_time,
        log_dir: log_dir.to_path_buf(),
        log_prefix: format!("check-{}-", g.name),
        limits: a.sandbox.limits(),
        ..Config::default()
    };
    let what = format!("plays a game of {} in every seat ({n} players)", g.name);
    let result = Table::new(&vec![spec.clone(); n], cfg).and_then(|mut t| {
        let options = crate::options::Options::resolve(&(g.options)(), g.name, &[] as &[&str])?;
        let rec = t.play(g, &options, 1, vec![], &identity(n));
        t.shutdown();
        rec
    });
    report.step(
        &what,
        result.and_then(|rec| match rec.faults.first() {
            None => Ok(format!("{} decisions", rec.actions.len())),
            Some(f) => Err(format!(
                "{} fault(s); the first: {} ({})",
                rec.faults.len(),
                f.message,
                f.kind
            )),
        }),
    );
}

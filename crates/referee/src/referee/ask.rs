//! Asking a player for a decision: the `act` request (with the JSON view a bot asked for),
//! the wait for its answer until the deadline, and every way that wait can fail, each a
//! fault in words. Lines that are not protocol while it decides are counted, and become a
//! `garbage` fault that does not void a valid answer.

use super::clock::ms_of;
use super::faults::{truncate, Fault};
use super::player::Engine;
use super::table::Table;
use crate::game::{Event, GameSpec, Seat};
use crate::options::Options;
use crate::process::{BotProcess, ReadResult};
use crate::protocol::{parse_reply, ActLine, Reply};
use std::time::{Duration, Instant};

impl Table {
    /// Puts a position to player `p` (`croupier ask`): the setup of a game of `n` seats with
    /// `p` in seat `s`, the events `s` saw up to a decision, then the decision itself, with
    /// `move_time`. Returns the answer and the milliseconds it took, or the fault in words.
    #[allow(clippy::too_many_arguments)]
    pub fn ask_position(
        &mut self,
        p: usize,
        spec: &GameSpec,
        options: &Options,
        (n, s, rngseed): (usize, Seat, u64),
        events: &[Event],
        decision: &str,
        legal: &[String],
    ) -> Result<(String, f64), String> {
        self.set_up(p, spec, options, n, s, rngseed);
        for ev in events.iter().filter(|e| e.to.contains(s)) {
            self.send_event([p], ev.kind, &ev.args);
        }
        let (answer, ms, garbage) = self.ask(p, decision, legal, self.cfg.move_time);
        let garbage = garbage
            .map(|g| format!(" ({}: {})", g.kind, g.message))
            .unwrap_or_default();
        match answer {
            Ok(a) => Ok((a, ms)),
            Err(f) => Err(format!("{}: {}{garbage}", f.kind, f.message)),
        }
    }

    /// What player `p`'s search found at its last decision ([`Bot::analysis`](crate::bots::Bot::analysis)):
    /// only a built-in bot in this process gives one.
    pub fn analysis(&self, p: usize) -> Option<crate::bots::analysis::Analysis> {
        match &self.players[p].engine {
            Engine::InProcess(bot) => bot.analysis(),
            Engine::Process(_) => None,
        }
    }

    /// Asks player `p` for a decision. Returns the answer or a fault, the time it took, and a
    /// `garbage` fault when the bot wrote lines that are not protocol while deciding (they do
    /// not void a valid answer, but are recorded and told to the bot).
    pub(super) fn ask(
        &mut self,
        p: usize,
        decision: &str,
        legal: &[String],
        time: Duration,
    ) -> (Result<String, Fault>, f64, Option<Fault>) {
        let time_ms = time.as_millis() as u64;
        let elapsed = |s: Instant| ms_of(s.elapsed());
        if let Engine::InProcess(bot) = &mut self.players[p].engine {
            // Timed only where the time is read.
            let start = self.cfg.timed().then(Instant::now);
            let a = bot.act(decision, time_ms, legal);
            return (Ok(a), start.map_or(0.0, elapsed), None);
        }
        let start = Instant::now();
        let view_line = self.view_line(p, decision, legal, time_ms);
        let Engine::Process(proc) = &mut self.players[p].engine else {
            unreachable!("an in-process bot was answered above")
        };
        let Some(pr) = proc.process.as_mut() else {
            let f = Fault {
                kind: "dead",
                message: "the bot is not running".into(),
                restart: !proc.gave_up,
            };
            return (Err(f), 0.0, None);
        };
        // What the bot wrote before this request cannot answer it (an early `=<id> …` guess
        // included): replies are dropped like late ones, garbage is counted.
        let mut garbage = Garbage::default();
        for line in pr.stale_lines() {
            if let Reply::Garbage(text) = parse_reply(&line) {
                garbage.saw(text);
            }
        }
        let id = proc.next_id;
        proc.next_id += 1;
        if let Some(v) = view_line {
            pr.send(&v);
        }
        pr.send_display(ActLine {
            id,
            decision,
            time_ms,
            legal,
        });
        // Everything queued for this bot since its last decision goes out in one write.
        pr.flush();
        let clock_short = time < self.cfg.move_time;
        let result = read_answer(pr, id, start + time, time_ms, clock_short, &mut garbage);
        let flooded = matches!(&result, Err(f) if f.kind == "flood");
        (result, elapsed(start), garbage.fault(flooded))
    }

    /// The `view` line for player `p` before a decision, when it asked for views: its seat
    /// view as JSON with the decision, the legal actions and the time.
    fn view_line(&self, p: usize, decision: &str, legal: &[String], time_ms: u64) -> Option<String> {
        self.players[p].view.as_ref().map(|v| {
            let mut j = v.to_json();
            if let Some(o) = j.as_object_mut() {
                o.insert("decision".into(), decision.into());
                o.insert("legal".into(), legal.to_vec().into());
                o.insert("time_ms".into(), time_ms.into());
            }
            format!("view {j}")
        })
    }
}

/// Reads the bot's lines until the answer to request `id` or the `deadline`: late answers to
/// earlier requests are dropped, lines that are not protocol counted in `garbage`.
/// `clock_short`: the deadline is what was left on the seat's clock, less than `--move-time`.
fn read_answer(
    pr: &mut BotProcess,
    id: u64,
    deadline: Instant,
    time_ms: u64,
    clock_short: bool,
    garbage: &mut Garbage,
) -> Result<String, Fault> {
    let fault = |kind: &'static str, message: String, restart: bool| Err(Fault { kind, message, restart });
    loop {
        match pr.read_line(deadline) {
            ReadResult::Line(line) => match parse_reply(&line) {
                Reply::Ignored => continue,
                // A late answer to an earlier request.
                Reply::Success { id: Some(other), .. } | Reply::Failure { id: Some(other), .. } if other != id => {
                    continue
                }
                Reply::Success { text, .. } => return Ok(text),
                Reply::Failure { text, .. } => {
                    return fault(
                        "error",
                        format!("the bot answered an error: {}", truncate(&text, 200)),
                        false,
                    )
                }
                Reply::Garbage(text) => {
                    garbage.saw(text);
                    if garbage.count > 100 {
                        return fault("flood", "more than 100 unrecognized lines while deciding".into(), true);
                    }
                }
            },
            ReadResult::Timeout => {
                let looked = pr.late_look().unwrap_or_default().as_secs_f64() * 1000.0;
                let clock = if clock_short { ", all its clock had left" } else { "" };
                let message =
                    format!("no answer within {time_ms} ms{clock} (croupier looked {looked:.2} ms after the deadline)");
                return fault("timeout", message, true);
            }
            ReadResult::Exited { status: Some(s) } => return fault("crash", format!("the bot exited ({s})"), true),
            ReadResult::Exited { status: None } => {
                let what = "the bot closed its standard output but did not exit";
                return fault("crash", what.into(), true);
            }
            ReadResult::Flood(m) => return fault("flood", format!("a line over the size limit: {m}"), true),
            ReadResult::NotReading => return fault("flood", "the bot does not read its input".into(), true),
        }
    }
}

/// The lines that were not protocol while a bot decided: how many, and the first.
#[derive(Default)]
struct Garbage {
    count: usize,
    first: String,
}

impl Garbage {
    fn saw(&mut self, text: String) {
        self.count += 1;
        if self.count == 1 {
            self.first = text;
        }
    }

    /// The `garbage` fault of these lines, if any (none after a flood: the flood is the fault).
    fn fault(self, flooded: bool) -> Option<Fault> {
        (self.count > 0 && !flooded).then(|| Fault {
            kind: "garbage",
            message: match self.count {
                1 => format!("a line that is not protocol: '{}'", truncate(&self.first, 80)),
                k => format!(
                    "{k} lines that are not protocol, the first: '{}'",
                    truncate(&self.first, 80)
                ),
            },
            restart: false,
        })
    }
}

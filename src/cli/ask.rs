//! `croupier ask`: put one recorded position to a bot (`croupier regress`, in regress.rs, puts
//! a suite of them).
//!
//! A position is a recorded game stopped at one of its decisions. The bot is started fresh,
//! told the game's setup and every line its seat received up to that decision (as a bot
//! restarted mid-game is caught up), then asked; its earlier decisions are the record's.

use super::exit::{self, usage, Outcome};
use super::io;
use super::output::table;
use crate::bots::analysis::Analysis;
use crate::chance::parse_seed;
use crate::game::{Event, Game, GameInfo, GameSpec};
use crate::record::{options_of, GameRecord};
use crate::referee::{rngseed, Config, SeatSpec, Table};
use crate::replay::replay_to;
use clap::Args;
use std::time::Duration;

#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("position").required(true).args(["action", "seat"])))]
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
    action: Option<usize>,
    /// Instead of one decision: every decision of this seat in the game where it had a choice,
    /// each put to the bot in turn, listed with the record's action, the bot's, and (a search
    /// bot's) how much more the bot's action is worth by its values. A seat number from 0, or
    /// N, E, S or W in a 4-player game.
    #[arg(long, value_name = "SEAT", allow_hyphen_values = true, value_parser = super::show::seat_arg)]
    seat: Option<String>,
    /// The bot: a built-in bot's name or a command line (as `--bot` in `play`).
    #[arg(long, value_name = "SPEC")]
    bot: String,
    #[command(flatten)]
    time: TimeArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// How the bot of `ask` and `regress` is run: its time, and its sandbox.
#[derive(Args, Debug)]
pub(super) struct TimeArgs {
    /// Time the bot has for the decision, like 300ms or 2s.
    #[arg(long, default_value = "10s", allow_hyphen_values = true, value_parser = super::args::parse_duration)]
    move_time: Duration,
    /// Time the bot has to start and answer the handshake.
    #[arg(long, default_value = "10s", allow_hyphen_values = true, value_parser = super::args::parse_duration)]
    startup_time: Duration,
    #[command(flatten)]
    pub(super) sandbox: super::sandbox_args::SandboxArgs,
}

/// A position and what the bot made of it.
pub(super) struct Asked {
    pub(super) game: String,
    pub(super) seat: usize,
    pub(super) decision: String,
    pub(super) legal: Vec<String>,
    pub(super) recorded: String,
    pub(super) bot: String,
    /// The seat's hand then, where its view has one.
    pub(super) hand: Option<String>,
    /// The answer and the milliseconds it took, or the fault.
    pub(super) answer: Result<(String, f64), String>,
    /// What the bot's search found, where it is a built-in search bot that searched.
    pub(super) analysis: Option<Analysis>,
}

impl Asked {
    pub(super) fn legal_answer(&self) -> Option<&str> {
        match &self.answer {
            Ok((a, _)) if self.legal.contains(a) => Some(a),
            _ => None,
        }
    }

    /// By the bot's own values (its analysis), how much more its answer is worth to the seat
    /// than the recorded action, both valued on the same worlds; 0 where they agree. `None`
    /// without an analysis, or where either has no value (a world refused it).
    pub(super) fn better_by(&self) -> Option<f64> {
        let an = self.analysis.as_ref()?;
        let answer = self.legal_answer()?;
        if answer == self.recorded {
            return Some(0.0);
        }
        Some(an.mean(answer)? - an.mean(&self.recorded)?)
    }
}

/// Puts action `action` (from 1) of `rec` to `bot`.
pub(super) fn ask(
    rec: &GameRecord,
    spec: &GameSpec,
    action: usize,
    bot: &SeatSpec,
    time: &TimeArgs,
) -> Result<Asked, String> {
    let replayed = replay_to(rec, spec, Some(action - 1))?;
    ask_replayed(rec, spec, action, replayed, bot, time)
}

/// [`ask`] on the game `rec` replayed up to action `action` and the events of it
/// ([`replay_to`]), for a caller that has replayed it already.
fn ask_replayed(
    rec: &GameRecord,
    spec: &GameSpec,
    action: usize,
    (game, events): (Box<dyn Game>, Vec<Event>),
    bot: &SeatSpec,
    time: &TimeArgs,
) -> Result<Asked, String> {
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
        limits: time.sandbox.limits(),
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
    let analysis = table.analysis(0);
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
        analysis,
    })
}

/// A search's analysis for people: how many worlds, what the playout policy would play and how
/// sure the search must be to leave it, then a row per action (its mean value for the seat and
/// its gain on the policy's choice, ± a standard error), the chosen one marked.
fn analysis_lines(an: &Analysis, people: &dyn Fn(&str) -> String) -> Vec<String> {
    let mut out = vec![format!(
        "  its search: {} world(s) (effective {:.1}){}",
        an.worlds,
        an.effective_worlds,
        match &an.policy {
            Some(p) if an.sure > 0.0 => format!(
                "; the playout policy plays {}, another action only for a gain above {} standard error(s)",
                people(p),
                an.sure
            ),
            Some(p) => format!("; the playout policy plays {}; the best mean is chosen", people(p)),
            None => "; the best mean is chosen".to_string(),
        }
    )];
    let mut rows = vec![[
        "action".to_string(),
        "value".to_string(),
        "gain on the policy's choice".to_string(),
    ]];
    rows.extend(an.actions.iter().map(|a| {
        let gain = match (a.gain, a.se) {
            (Some(g), Some(se)) => format!("{g:+.2} ± {se:.2}"),
            (Some(g), None) => format!("{g:+.2}"),
            _ if an.policy.as_deref() == Some(a.action.as_str()) => "(the policy's choice)".to_string(),
            _ => String::new(),
        };
        let mark = if a.action == an.chosen { "  ← chosen" } else { "" };
        [
            people(&a.action),
            Analysis::value_text(a.mean),
            format!("{gain}{mark}").trim_start().to_string(),
        ]
    }));
    out.extend(table(&rows).into_iter().map(|l| format!("    {l}")));
    out
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
    // The record holds every hand: a sandboxed bot does not see it, nor the logs.
    let mut hide = vec![Config::default().log_dir];
    hide.extend((!io::is_dash(std::path::Path::new(&a.file))).then(|| a.file.clone().into()));
    a.time.sandbox.enable(hide, false)?;
    let Some(action) = a.action else {
        let seat = a.seat.as_deref().unwrap_or_default();
        let seat = crate::chance::parse_seat(&serde_json::Value::String(seat.to_string()), rec.players)
            .map_err(|e| usage(format!("--seat: {e}")))?;
        return review(&a, &name, line, &rec, &spec, &bot, seat);
    };
    let asked = ask(&rec, &spec, action, &bot, &a.time).map_err(|e| usage(format!("{name}:{line}: {e}")))?;
    let ok = asked.legal_answer().is_some();
    if a.json {
        outln!("{}", asked_json(&asked, a.index, action));
    } else {
        outln!(
            "{} game {} of {name}, action {action}: seat {} to {}",
            asked.game,
            a.index,
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
        if let Some(an) = &asked.analysis {
            for line in analysis_lines(an, &people) {
                outln!("{line}");
            }
        }
    }
    Ok(if ok { exit::OK } else { exit::CHECK_FAILED })
}

/// `ask --json`'s object for one position.
fn asked_json(asked: &Asked, index: usize, action: usize) -> serde_json::Value {
    let (answer, ms, fault) = match &asked.answer {
        Ok((t, ms)) => (Some(t.clone()), Some(*ms), None),
        Err(f) => (None, None, Some(f.clone())),
    };
    serde_json::json!({
        "game": asked.game, "index": index, "action": action, "seat": asked.seat,
        "decision": asked.decision, "legal": asked.legal, "recorded": asked.recorded,
        "bot": asked.bot, "answer": answer, "ms": ms, "is_legal": asked.legal_answer().is_some(),
        "fault": fault, "analysis": asked.analysis.as_ref().map(Analysis::to_json),
        "better_by": asked.better_by(),
    })
}

/// `ask --seat`: every decision of `seat` in the game where it had more than one legal action,
/// put to the bot in turn. Text: a row per decision (the record's action, the bot's, and how
/// much more the bot's is worth by its own values), then a summary; `--json`: one `ask --json`
/// object per decision. Exit 1 when any answer was not legal.
fn review(
    a: &AskArgs,
    name: &str,
    line: usize,
    rec: &GameRecord,
    spec: &GameSpec,
    bot: &SeatSpec,
    seat: usize,
) -> Outcome {
    // Each decision with a choice: its action number, what the bot made of it, and by how
    // much the bot's answer is worth more (by its values).
    let mut rows: Vec<(usize, Asked, Option<f64>)> = Vec::new();
    for (i, act) in rec.actions.iter().enumerate() {
        if act.seat != seat {
            continue;
        }
        // A decision without a choice is not put to the bot (a process bot would be started
        // for nothing).
        let err = |e: String| usage(format!("{name}:{line}: {e}"));
        let replayed = replay_to(rec, spec, Some(i)).map_err(err)?;
        if replayed.0.legal_actions().len() < 2 {
            continue;
        }
        let asked = ask_replayed(rec, spec, i + 1, replayed, bot, &a.time).map_err(err)?;
        if a.json {
            outln!("{}", asked_json(&asked, a.index, i + 1));
        }
        let by = asked.better_by();
        rows.push((i + 1, asked, by));
    }
    let all_legal = rows.iter().all(|(_, x, _)| x.legal_answer().is_some());
    if !a.json {
        let game = &rec.game;
        outln!(
            "{game} game {} of {name}: the decisions of seat {seat} ({}) put to {}",
            a.index,
            rec.seats[seat].name,
            rows.first().map_or(a.bot.as_str(), |(_, x, _)| x.bot.as_str())
        );
        let people = |d: &str, t: &str| crate::bots::human::action_with_token(game, d, t);
        let agrees = |x: &Asked| x.legal_answer() == Some(x.recorded.as_str());
        let mut cells = vec![["action", "decision", "recorded", "bot", "better by"].map(String::from)];
        cells.extend(rows.iter().map(|(k, x, by)| {
            let answer = match &x.answer {
                Ok((t, _)) if x.legal.contains(t) => people(&x.decision, t),
                Ok((t, _)) => format!("{t} (not legal)"),
                Err(f) => format!("no answer: {f}"),
            };
            let by = by.filter(|_| !agrees(x)).map_or(String::new(), |d| format!("{d:+.2}"));
            [
                k.to_string(),
                x.decision.clone(),
                people(&x.decision, &x.recorded),
                answer,
                by,
            ]
        }));
        for l in table(&cells) {
            outln!("  {l}");
        }
        let agreed = rows.iter().filter(|(_, x, _)| agrees(x)).count();
        let valued: Vec<(usize, f64)> = rows.iter().filter_map(|(k, _, by)| by.map(|d| (*k, d))).collect();
        let total: f64 = valued.iter().map(|(_, d)| d).sum();
        outln!(
            "  {} decision(s) with a choice; the bot agreed with the record on {agreed}{}",
            rows.len(),
            if valued.is_empty() {
                String::new()
            } else {
                format!(
                    "; by its values, its actions are worth {total:+.2} more in all, over the {} it valued",
                    valued.len()
                )
            }
        );
        // Where to look first: the decisions the bot values most above the record's.
        let mut worst: Vec<(usize, f64)> = valued.into_iter().filter(|(_, d)| *d > 0.0).collect();
        worst.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        if !worst.is_empty() {
            let top: Vec<String> = worst
                .iter()
                .take(3)
                .map(|(k, d)| format!("action {k} ({d:+.2})"))
                .collect();
            outln!("  worth a look first: {}", top.join(", "));
        }
    }
    Ok(if all_legal { exit::OK } else { exit::CHECK_FAILED })
}

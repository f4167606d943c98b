//! `croupier ask`: put one recorded position to a bot (`croupier regress`, in regress.rs, puts
//! a suite of them).
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
use std::time::Duration;

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
}

impl Asked {
    pub(super) fn legal_answer(&self) -> Option<&str> {
        match &self.answer {
            Ok((a, _)) if self.legal.contains(a) => Some(a),
            _ => None,
        }
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
    // The record holds every hand: a sandboxed bot does not see it, nor the logs.
    let mut hide = vec![Config::default().log_dir];
    hide.extend((!io::is_dash(std::path::Path::new(&a.file))).then(|| a.file.clone().into()));
    a.time.sandbox.enable(hide, false)?;
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

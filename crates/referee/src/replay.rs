//! Replay: re-runs a record through the rules engine, checking every deal, action, fault and
//! score against it, and rebuilds what a seat was told. It sits above the referee: a seat's
//! `rngseed` is derived as the referee derives it.

use crate::chance::{parse_seed, Chance, Deal, DealSpec};
use crate::game::{Event, FaultRuling, Game, GameSpec, Outcome, Seat};
use crate::notation::fmt_score;
use crate::options::Options;
use crate::protocol::{gameover_args, notification, setup_notifications};
use crate::record::{options_of, ActionRecord, FaultRecord, GameRecord, FAULT_KINDS};
use serde_json::Value;

/// The notification lines the bot in `seat` received in the recorded game, as a process bot
/// reads them (protocol.md): the setup (`game`, `option`s, `players`, `seat`, `rngseed`), the
/// game's events for its seat, `gameover`. Not in it: requests (`act`, `quit`), what a bot
/// asked for (`view`) or the clock sent (`clock`), and `fault` notifications (the record keeps
/// a fault's message as the referee ruled on it, not the line the bot got).
pub fn seat_lines(rec: &GameRecord, spec: &GameSpec, seat: Seat) -> Result<Vec<String>, String> {
    if seat >= rec.players {
        return Err(format!("seat {seat}: the game has seats 0 to {}", rec.players - 1));
    }
    let events = replay(rec, spec)?;
    let game_seed = parse_seed(&rec.seed)?;
    let key = rec.bot_seed.as_deref().map(parse_seed).transpose()?;
    let rngseed = crate::referee::rngseed(key, game_seed, seat);
    let setup = setup_notifications(&rec.game, &rec.options, rec.players, seat, rngseed);
    let mut lines: Vec<String> = setup.iter().map(|(k, a)| notification(k, a)).collect();
    lines.extend(events.iter().filter(|e| e.to.contains(seat)).map(Event::line));
    lines.push(notification("gameover", &gameover_args(&rec.result.scores)));
    Ok(lines)
}

/// Re-runs a record through the engine. On success returns every event in order; on the first
/// mismatch an error that names the deal and action.
pub fn replay(rec: &GameRecord, spec: &GameSpec) -> Result<Vec<Event>, String> {
    replay_to(rec, spec, None).map(|(_, events)| events)
}

/// [`replay`], stopped at the decision of the record's action `stop` (counted from 0) when
/// given: the game as it stood when that seat chose (before any fault of that turn was ruled
/// on), and the events up to then. Without `stop`, the whole game with every check.
pub fn replay_to(
    rec: &GameRecord,
    spec: &GameSpec,
    stop: Option<usize>,
) -> Result<(Box<dyn Game>, Vec<Event>), String> {
    replay_watched(rec, spec, stop, &mut |_, _, _| {})
}

/// A step of a replay, as [`replay_watched`] shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayStep {
    /// The game was set up and dealt.
    Start,
    /// The record's action with this index (from 0) was played (with the rulings on faults
    /// that came before it).
    Action(usize),
    /// The rulings on faults after the last action, if any: the game is over.
    End,
}

/// The faults of a record, checked before the game is replayed: a known kind, a seat of the
/// game, an action index within the actions (or just after the last), in the order of the
/// actions.
fn check_faults(rec: &GameRecord) -> Result<(), String> {
    for (k, f) in rec.faults.iter().enumerate() {
        let which = format!("fault {} (seat {}, {})", k + 1, f.seat, f.kind);
        if !FAULT_KINDS.contains(&f.kind.as_str()) {
            return Err(format!(
                "{which}: unknown kind '{}' (a fault is one of {})",
                f.kind,
                FAULT_KINDS.join(", ")
            ));
        }
        if f.seat >= rec.players {
            return Err(format!(
                "{which}: there is no seat {} in a game of {}",
                f.seat, rec.players
            ));
        }
        if f.action > rec.actions.len() {
            return Err(format!(
                "{which}: action index {} is past the record's {} action(s)",
                f.action,
                rec.actions.len()
            ));
        }
        if k > 0 && f.action < rec.faults[k - 1].action {
            return Err(format!("{which}: faults are out of the order of the actions"));
        }
    }
    Ok(())
}

/// What [`replay_watched`] calls after each step: the step, the game after it, its events.
pub type ReplayWatcher<'a> = dyn FnMut(ReplayStep, &dyn Game, &[Event]) + 'a;

/// [`replay_to`], showing `watch` the game and the new events after each step (the start, every
/// action, the end): for tools that show a game step by step.
pub fn replay_watched(
    rec: &GameRecord,
    spec: &GameSpec,
    stop: Option<usize>,
    watch: &mut ReplayWatcher,
) -> Result<(Box<dyn Game>, Vec<Event>), String> {
    if let Some(k) = stop.filter(|&k| k >= rec.actions.len()) {
        return Err(format!(
            "the game has {} actions; there is no action {}",
            rec.actions.len(),
            k + 1
        ));
    }
    check_faults(rec)?;
    let options = options_of(rec, spec)?;
    let mut r = Replay::start(rec, spec, &options)?;
    watch(ReplayStep::Start, r.game.as_ref(), &r.events);
    let mut faults = ruled_faults(rec)?.into_iter().peekable();
    for (i, a) in rec.actions.iter().enumerate() {
        if stop == Some(i) {
            return Ok((r.game, r.events));
        }
        let step_from = r.events.len();
        r.play(i, a, &mut faults)?;
        watch(ReplayStep::Action(i), r.game.as_ref(), &r.events[step_from..]);
    }
    let step_from = r.events.len();
    r.rule_on_faults(rec.actions.len(), &mut faults)?;
    if let Some(f) = faults.peek() {
        return Err(format!(
            "the {} fault of seat {} at action {} was never ruled on: the game ended first",
            f.kind,
            f.seat,
            f.action + 1
        ));
    }
    r.check_deals()?;
    watch(ReplayStep::End, r.game.as_ref(), &r.events[step_from..]);
    r.check_end()?;
    let outcome = match &rec.forfeit {
        Some(ff) => Outcome {
            scores: (spec.forfeit)(rec.players, ff.seat, &options),
            detail: Value::Null,
        },
        None => r.game.outcome().ok_or("the game has no outcome")?,
    };
    check_scores(rec, &outcome.scores)?;
    Ok((r.game, r.events))
}

/// The recorded faults that the rules ruled on, in order. They were put to the rules before
/// the action with their index; a ruling that settled the turn consumed no action.
fn ruled_faults(rec: &GameRecord) -> Result<Vec<&FaultRecord>, String> {
    let mut ruled: Vec<&FaultRecord> = rec.faults.iter().filter(|f| f.ruled()).collect();
    // A forfeit ends the game at its fault, which the rules do not rule on.
    if let Some(ff) = &rec.forfeit {
        match ruled.pop() {
            Some(f) if f.seat == ff.seat && f.kind == ff.fault && f.action == rec.actions.len() => {}
            _ => {
                return Err(format!(
                    "seat {} forfeits, but the record's last fault is not its {} after the last action",
                    ff.seat, ff.fault
                ))
            }
        }
    }
    Ok(ruled)
}

/// The ruled faults not yet put to the rules.
type Faults<'a> = std::iter::Peekable<std::vec::IntoIter<&'a FaultRecord>>;

/// A record being replayed: the game, the events so far, and how many of its deals have been
/// checked against the record's.
struct Replay<'a> {
    rec: &'a GameRecord,
    game: Box<dyn Game>,
    events: Vec<Event>,
    checked_deals: usize,
}

impl<'a> Replay<'a> {
    /// The game set up and dealt as the record says (from its seed, or its given deals).
    fn start(rec: &'a GameRecord, spec: &GameSpec, options: &Options) -> Result<Replay<'a>, String> {
        let seed = parse_seed(&rec.seed)?;
        let chance = if rec.deal_source == "seed" {
            Chance::seeded(seed)
        } else {
            Chance::given(seed, rec.deals.iter().map(DealSpec::from_deal).collect()).titled(spec.title)
        };
        let game = (spec.new_game)(rec.players, options, chance, true)?;
        let mut r = Replay {
            rec,
            game,
            events: Vec::new(),
            checked_deals: 0,
        };
        r.check_deals()?;
        r.events.extend(r.game.take_events());
        Ok(r)
    }

    /// Every deal the rules made since the last check equals the record's.
    fn check_deals(&mut self) -> Result<(), String> {
        let rec = self.rec;
        let made = self.game.chance().deals();
        while self.checked_deals < made.len() {
            let k = self.checked_deals;
            let Some(recorded) = rec.deals.get(k) else {
                return Err(format!(
                    "deal {}: the rules deal again but the record has only {} deal(s)",
                    k + 1,
                    rec.deals.len()
                ));
            };
            let Some(dealt) = made.get(k) else { break };
            if let Some(diff) = deal_difference(recorded, dealt) {
                return Err(format!(
                    "deal {}: the recorded deal differs from what seed {} deals: {diff}",
                    k + 1,
                    rec.seed
                ));
            }
            self.checked_deals += 1;
        }
        Ok(())
    }

    /// Puts the faults before action `i` to the rules. Returns the action the rules play for
    /// the faulty seat, if they name one.
    fn rule_on_faults(&mut self, i: usize, faults: &mut Faults) -> Result<Option<String>, String> {
        while let Some(f) = faults.next_if(|f| f.action == i) {
            if self.game.to_move() != Some(f.seat) {
                return Err(format!("fault at action {}: seat {} is not to move", i + 1, f.seat));
            }
            let ruling = self.game.on_fault(f.seat, &f.kind);
            self.events.extend(self.game.take_events());
            match ruling {
                FaultRuling::Handled => continue,
                FaultRuling::Play(t) => return Ok(Some(t)),
                FaultRuling::Substitute => return Ok(None),
            }
        }
        Ok(None)
    }

    /// Plays the record's action `i`, `a`, after the faults before it, checking that its seat
    /// is to move in its deal and that the rules accept it.
    fn play(&mut self, i: usize, a: &ActionRecord, faults: &mut Faults) -> Result<(), String> {
        let ruled = self.rule_on_faults(i, faults)?;
        self.check_deals()?;
        let at = format!("deal {}, action {} (seat {} '{}')", a.deal, i + 1, a.seat, a.action);
        if let Some(t) = ruled {
            if *t != a.action {
                return Err(format!("{at}: the rules play {t} for the faulty seat"));
            }
        }
        match self.game.to_move() {
            None => return Err(format!("{at}: the game is already over")),
            Some(s) if s != a.seat => {
                return Err(format!("{at}: it is seat {s}'s turn, not seat {}'s", a.seat));
            }
            _ => {}
        }
        let deal_now = self.game.chance().deals().len();
        if deal_now != a.deal {
            return Err(format!("{at}: the rules are in deal {deal_now}"));
        }
        self.game.apply(&a.action).map_err(|e| format!("{at}: refused: {e}"))?;
        self.check_deals()?;
        self.events.extend(self.game.take_events());
        Ok(())
    }

    /// After the last action the game is over (or the forfeiting seat is to move), and every
    /// recorded deal was made.
    fn check_end(&self) -> Result<(), String> {
        let rec = self.rec;
        if let Some(ff) = &rec.forfeit {
            if self.game.to_move() != Some(ff.seat) {
                return Err(format!(
                    "seat {} forfeits after {} actions, but it is not to move then",
                    ff.seat,
                    rec.actions.len()
                ));
            }
        } else if let Some(s) = self.game.to_move() {
            return Err(format!(
                "the record ends after {} actions but seat {s} is still to move",
                rec.actions.len()
            ));
        }
        if self.checked_deals != rec.deals.len() {
            return Err(format!(
                "the record has {} deals but the game made {}",
                rec.deals.len(),
                self.checked_deals
            ));
        }
        Ok(())
    }
}

/// The record's scores are the rules' `scores`.
fn check_scores(rec: &GameRecord, scores: &[f64]) -> Result<(), String> {
    if scores.len() == rec.result.scores.len()
        && !scores.iter().zip(&rec.result.scores).any(|(a, b)| (a - b).abs() > 1e-9)
    {
        return Ok(());
    }
    let text = |v: &[f64]| v.iter().map(|s| fmt_score(*s)).collect::<Vec<_>>().join(", ");
    Err(format!(
        "scores differ: the record says [{}], the rules give [{}]",
        text(&rec.result.scores),
        text(scores)
    ))
}

/// Describes the first difference between two deals.
fn deal_difference(recorded: &Deal, made: &Deal) -> Option<String> {
    if recorded.dealer != made.dealer {
        return Some(format!(
            "dealer is seat {} in the record, seat {} by the rules",
            recorded.dealer, made.dealer
        ));
    }
    for (s, (r, m)) in recorded.hands.iter().zip(&made.hands).enumerate() {
        if r != m {
            let pos = r
                .iter()
                .zip(m)
                .position(|(a, b)| a != b)
                .unwrap_or(r.len().min(m.len()));
            let (rc, mc) = (r.get(pos).map(|c| c.to_string()), m.get(pos).map(|c| c.to_string()));
            return Some(format!(
                "seat {s}'s hand, card {}: recorded {}, the seed gives {}",
                pos + 1,
                rc.unwrap_or("nothing".into()),
                mc.unwrap_or("nothing".into())
            ));
        }
    }
    if recorded.hands.len() != made.hands.len() {
        return Some(format!(
            "{} hands recorded, {} dealt",
            recorded.hands.len(),
            made.hands.len()
        ));
    }
    if recorded.piles != made.piles {
        for (name, m) in &made.piles {
            if recorded.piles.get(name) != Some(m) {
                return Some(format!("pile '{name}' differs"));
            }
        }
        return Some("the piles differ".into());
    }
    None
}

//! Playing one game at a table ([`Table::play`]), step by step as protocol.md tells it: the
//! setup lines, then until the game ends: route the new events to their audiences, ask the
//! seat to move (or let a built-in bot choose by index), apply its action or rule on its
//! fault; then `gameover` and the record.

use super::clock::{ms_of, SeatTimes};
use super::config::FaultPolicy;
use super::faults::{substitute_for, truncate, Fault, ABORTED, LEFT_FAULT, STOPPED};
use super::files::transcript_path;
use super::player::Engine;
use super::table::{rngseed, Table};
use crate::chance::{format_seed, Chance, DealSpec};
use crate::game::{Event, Game, GameSpec, Outcome, Seat};
use crate::options::Options;
use crate::record::{ActionRecord, FaultRecord, ForfeitRecord, GameRecord, SeatRecord};
use compact_str::CompactString;
use serde_json::Value;
use std::time::Instant;

/// A game in play at a table, and what its record collects as it goes.
struct InPlay<'a> {
    spec: &'a GameSpec,
    options: &'a Options,
    game_seed: u64,
    /// `seat_of[s]`: the player in game seat `s`.
    seat_of: &'a [usize],
    game: Box<dyn Game>,
    actions: Vec<ActionRecord>,
    faults: Vec<FaultRecord>,
    forfeit: Option<ForfeitRecord>,
    time: SeatTimes,
    /// The legal tokens of each decision, written into the same strings every time.
    legal: Vec<String>,
    token_buf: String,
    events: Vec<Event>,
}

/// How a turn ended: play goes on, or the game ends here (a forfeit, or the person left).
#[derive(PartialEq, Eq)]
enum Turn {
    Next,
    GameEnds,
}

impl Table {
    /// Plays one game. `seat_of[s]` is the player index in game seat `s`.
    pub fn play(
        &mut self,
        spec: &GameSpec,
        options: &Options,
        game_seed: u64,
        deals: Vec<DealSpec>,
        seat_of: &[usize],
    ) -> Result<GameRecord, String> {
        let started = Instant::now();
        let mut g = self.begin(spec, options, game_seed, deals, seat_of)?;
        loop {
            self.route_events(&mut g);
            let Some(seat) = g.game.to_move() else { break };
            if self.play_by_index(&mut g, seat)? {
                continue;
            }
            if self.take_turn(&mut g, seat)? == Turn::GameEnds {
                break;
            }
        }
        let outcome = self.outcome(&g)?;
        self.game_over(&g, &outcome)?;
        Ok(self.record(g, outcome, started))
    }

    /// The game is set up and dealt, the players told their seats (bots that could not be
    /// restarted in the last game get one new start first; transcripts open).
    fn begin<'a>(
        &mut self,
        spec: &'a GameSpec,
        options: &'a Options,
        game_seed: u64,
        deals: Vec<DealSpec>,
        seat_of: &'a [usize],
    ) -> Result<InPlay<'a>, String> {
        let n = seat_of.len();
        let chance = Chance::given(game_seed, deals).titled(spec.title);
        // Nobody reads the events when every seat is a built-in bot that needs no view.
        let listening = seat_of.iter().any(|&p| match &self.players[p].engine {
            Engine::Process(_) => true,
            Engine::InProcess(bot) => bot.listens(),
        });
        let game = (spec.new_game)(n, options, chance, listening)?;
        self.restart_given_up(seat_of);
        self.open_transcripts(game_seed, seat_of)?;
        // Setup lines.
        for (s, &p) in seat_of.iter().enumerate() {
            let rngseed = rngseed(self.cfg.bot_key, game_seed, s);
            self.set_up(p, spec, options, n, s, rngseed);
        }
        Ok(InPlay {
            spec,
            options,
            game_seed,
            seat_of,
            game,
            actions: Vec::new(),
            faults: Vec::new(),
            forfeit: None,
            time: SeatTimes::new(n, self.cfg.clock),
            legal: Vec::new(),
            token_buf: String::new(),
            events: Vec::new(),
        })
    }

    /// A bot that could not be restarted in the last game gets one new start now.
    fn restart_given_up(&mut self, seat_of: &[usize]) {
        for &p in seat_of {
            if self.disqualified(p).is_some() {
                continue;
            }
            if let Engine::Process(proc) = &mut self.players[p].engine {
                if proc.process.is_none() {
                    self.players[p].history.clear();
                    if self.restart(p).is_err() {
                        if let Engine::Process(proc) = &mut self.players[p].engine {
                            proc.gave_up = true;
                        }
                    }
                }
            }
        }
    }

    /// With `--transcript`: each bot process's lines of this game go to their own file.
    fn open_transcripts(&mut self, game_seed: u64, seat_of: &[usize]) -> Result<(), String> {
        let Some(dir) = &self.cfg.transcript else {
            return Ok(());
        };
        for (s, &p) in seat_of.iter().enumerate() {
            let name = self
                .cfg
                .log_names
                .get(p)
                .cloned()
                .unwrap_or_else(|| self.players[p].spec.display());
            if let Engine::Process(proc) = &mut self.players[p].engine {
                if let Some(pr) = &mut proc.process {
                    let path = transcript_path(dir, game_seed, s, &name);
                    pr.transcript_to(&path).map_err(|e| format!("--transcript: {e}"))?;
                }
            }
        }
        Ok(())
    }

    /// Sends the game's new events, each to exactly its audience.
    fn route_events(&mut self, g: &mut InPlay) {
        g.game.take_events_into(&mut g.events);
        // Read in place, then dropped in place: an event is not moved again.
        for ev in &g.events {
            self.route(ev, g.seat_of);
        }
        g.events.clear();
    }

    /// A built-in bot that chooses by index (random) needs no tokens: only the one chosen is
    /// made, for the record. Returns whether it played `seat`'s turn.
    fn play_by_index(&mut self, g: &mut InPlay, seat: Seat) -> Result<bool, String> {
        let (true, Engine::InProcess(bot)) = (g.game.indexed(), &mut self.players[g.seat_of[seat]].engine) else {
            return Ok(false);
        };
        let count = g.game.legal_count();
        // The clock is read, and the token written, only for what reads them.
        let start = self.cfg.timed().then(Instant::now);
        let Some(i) = bot
            .act_by_index(g.game.decision(), count, g.game.typed_legal())
            .filter(|&i| i < count)
        else {
            return Ok(false);
        };
        let ms = start.map_or(0.0, |s| ms_of(s.elapsed()));
        g.time.spent(seat, ms);
        let deal = g.game.chance().deals().len();
        let action = if self.cfg.tokens {
            g.token_buf.clear();
            g.game.write_legal_token(i, &mut g.token_buf);
            CompactString::from(g.token_buf.as_str())
        } else {
            CompactString::default()
        };
        g.game
            .apply_legal(i)
            .map_err(|e| format!("internal error: legal action refused: {e}"))?;
        g.actions.push(ActionRecord {
            deal,
            seat,
            action,
            ms,
            substitute: false,
        });
        Ok(true)
    }

    /// One turn of `seat`: its player is asked (or is disqualified), its answer applied, or
    /// its fault ruled on with a substitute (or a forfeit, or the run's end).
    fn take_turn(&mut self, g: &mut InPlay, seat: Seat) -> Result<Turn, String> {
        legal_into(g.game.as_mut(), &mut g.legal);
        if g.legal.is_empty() {
            return Err(format!(
                "internal error: {} offers seat {seat} no legal action",
                g.spec.name
            ));
        }
        let p = g.seat_of[seat];
        let disqualified = self.disqualified(p);
        let (answer, ms, garbage) = self.request(g, seat, disqualified);
        if let Some(why) = self.person_left(p) {
            return self.seat_left(g, seat, ms, why);
        }
        g.time.spent(seat, ms);
        let deal = g.game.chance().deals().len();
        if let Some(gb) = garbage {
            g.faults
                .push(self.fault_record(seat, p, deal, g.actions.len(), gb.kind, gb.message.clone()));
            self.notify(p, "fault", vec![gb.kind.to_string(), gb.message]);
        }
        let (chosen, mut fault) = match answer {
            Ok(token) => apply_answer(g, token)?,
            Err(f) => (None, Some(f)),
        };
        if let Some(f) = &mut fault {
            if self.rule_on_fault(g, seat, deal, f, disqualified)? == Turn::GameEnds {
                return Ok(Turn::GameEnds);
            }
        }
        self.settle(g, seat, deal, ms, chosen, fault)?;
        Ok(Turn::Next)
    }

    /// Asks the player in `seat` for its decision, within what is left of `--move-time` and
    /// its clock (told to a process first as `clock`); a disqualified player is not asked.
    fn request(
        &mut self,
        g: &InPlay,
        seat: Seat,
        disqualified: Option<u64>,
    ) -> (Result<String, Fault>, f64, Option<Fault>) {
        let p = g.seat_of[seat];
        if let Some(max) = disqualified {
            let message = format!("disqualified: more than {max} faults in this run (--max-faults)");
            let f = Fault {
                kind: "dead",
                message,
                restart: false,
            };
            return (Err(f), 0.0, None);
        }
        let limit = match (g.time.left(seat), self.cfg.clock) {
            (Some(left), Some(clock)) => {
                if self.players[p].is_process() {
                    let inc = clock.increment.as_millis().to_string();
                    self.notify(p, "clock", vec![left.as_millis().to_string(), inc]);
                }
                self.cfg.move_time.min(left)
            }
            _ => self.cfg.move_time,
        };
        self.ask(p, g.game.decision(), &g.legal, limit)
    }

    /// Why the person at player `p`'s human seat left at the prompt, if they did.
    fn person_left(&self, p: usize) -> Option<String> {
        match &self.players[p].engine {
            Engine::InProcess(bot) => bot.stopped(),
            Engine::Process(_) => None,
        }
    }

    /// A person who ended the input at a human seat's prompt stops the run here. What they
    /// played is kept: once they chose an action, the game ends as their forfeit.
    fn seat_left(&mut self, g: &mut InPlay, seat: Seat, ms: f64, why: String) -> Result<Turn, String> {
        if !g.actions.iter().any(|a| a.seat == seat) {
            return Err(format!("{STOPPED}{why}"));
        }
        let p = g.seat_of[seat];
        g.time.spent(seat, ms);
        let deal = g.game.chance().deals().len();
        let message = format!("{why}: the person left; the game ends here, forfeited");
        g.faults
            .push(self.fault_record(seat, p, deal, g.actions.len(), LEFT_FAULT, message));
        g.forfeit = Some(ForfeitRecord {
            seat,
            fault: LEFT_FAULT.to_string(),
        });
        self.left = Some(why);
        Ok(Turn::GameEnds)
    }

    /// The fault policy on fault `f` of `seat`: counted (over `--max-faults` the player is
    /// disqualified), the run aborted, or the game forfeited (the game ends here).
    fn rule_on_fault(
        &mut self,
        g: &mut InPlay,
        seat: Seat,
        deal: usize,
        f: &mut Fault,
        disqualified: Option<u64>,
    ) -> Result<Turn, String> {
        let p = g.seat_of[seat];
        let count = if disqualified.is_some() {
            0
        } else {
            self.cfg.tally.add(p)
        };
        let over = self.cfg.max_faults.is_some_and(|m| count > m);
        match self.cfg.on_fault {
            FaultPolicy::Abort if self.cfg.max_faults.is_none() || over => {
                return Err(format!(
                    "{ABORTED}seat {seat} ({}): {}: {}",
                    self.players[p].name(),
                    f.kind,
                    f.message
                ));
            }
            FaultPolicy::Forfeit => {
                let message = format!("{}; seat {seat} forfeits the game", f.message);
                g.faults
                    .push(self.fault_record(seat, p, deal, g.actions.len(), f.kind, message));
                self.notify(p, "fault", vec![f.kind.to_string(), f.message.clone()]);
                g.forfeit = Some(ForfeitRecord {
                    seat,
                    fault: f.kind.to_string(),
                });
            }
            _ => {}
        }
        if over {
            self.disqualify(p);
            f.restart = false;
        }
        if g.forfeit.is_some() {
            if f.restart {
                let _ = self.restart(p);
            }
            return Ok(Turn::GameEnds);
        }
        Ok(Turn::Next)
    }

    /// The end of `seat`'s turn: a faulting seat's substitute is played (or the rules settle
    /// the turn), its fault recorded and told, its bot restarted if the fault calls for it;
    /// the action goes into the record.
    fn settle(
        &mut self,
        g: &mut InPlay,
        seat: Seat,
        deal: usize,
        ms: f64,
        chosen: Option<String>,
        fault: Option<Fault>,
    ) -> Result<(), String> {
        let p = g.seat_of[seat];
        let substitute = chosen.is_none();
        let token = match chosen {
            Some(t) => Some(t),
            None => {
                let kind = fault.as_ref().map(|f| f.kind).unwrap_or("error");
                substitute_for(g.game.as_mut(), seat, kind, g.game_seed, g.actions.len())?
            }
        };
        if let Some(f) = fault {
            let message = match &token {
                Some(t) => format!("{}; played {t} instead", f.message),
                None => format!("{}; the rules settled the turn", f.message),
            };
            g.faults
                .push(self.fault_record(seat, p, deal, g.actions.len(), f.kind, message));
            self.notify(p, "fault", vec![f.kind.to_string(), f.message.clone()]);
            if f.restart {
                if let Err(e) = self.restart(p) {
                    let message = format!("could not restart the bot: {e}");
                    g.faults
                        .push(self.fault_record(seat, p, deal, g.actions.len(), "restart", message));
                    if let Engine::Process(proc) = &mut self.players[p].engine {
                        proc.process = None;
                        proc.gave_up = true;
                    }
                }
            }
        }
        if let Some(action) = token {
            g.actions.push(ActionRecord {
                deal,
                seat,
                action: action.into(),
                ms,
                substitute,
            });
        }
        Ok(())
    }

    /// The outcome of the game: the forfeit's scores, or the engine's (with its detail only where
    /// the record keeps it).
    fn outcome(&self, g: &InPlay) -> Result<Outcome, String> {
        let stopped = || format!("internal error: {} stopped without an outcome", g.spec.name);
        Ok(match &g.forfeit {
            Some(f) => Outcome {
                scores: (g.spec.forfeit)(g.seat_of.len(), f.seat, g.options),
                detail: serde_json::json!({"forfeit": f.seat, "fault": f.fault}),
            },
            None if self.cfg.detail => g.game.outcome().ok_or_else(stopped)?,
            None => Outcome {
                scores: g.game.scores().ok_or_else(stopped)?,
                detail: Value::Null,
            },
        })
    }

    /// `gameover` with the scores to every player; the game's transcripts are written out.
    fn game_over(&mut self, g: &InPlay, outcome: &Outcome) -> Result<(), String> {
        let score_args = crate::protocol::gameover_event_args(&outcome.scores);
        for &p in g.seat_of {
            self.send_event([p], "gameover", &score_args);
            if let Engine::Process(proc) = &mut self.players[p].engine {
                if let Some(pr) = &mut proc.process {
                    pr.flush_transcript().map_err(|e| format!("--transcript: {e}"))?;
                }
            }
        }
        Ok(())
    }

    /// The game's record: its seats, deals, actions, faults and outcome.
    fn record(&self, g: InPlay, outcome: Outcome, started: Instant) -> GameRecord {
        let n = g.seat_of.len();
        let seats = g
            .seat_of
            .iter()
            .enumerate()
            .map(|(s, &p)| SeatRecord {
                player: p,
                spec: self.players[p].spec.display(),
                name: self.players[p].name(),
                version: self.players[p].version(),
                think_ms: (g.time.think[s] * 1000.0).round() / 1000.0,
                clock_ms: g.time.left(s).map(ms_of),
            })
            .collect();
        // The game is over: its deals move into the record (copied only when a bot's search
        // still shares them).
        let source = g.game.chance().source();
        let deals = g.game.chance().shared_deals();
        drop(g.game);
        let deals = deals.into_deals();
        let mut rec = GameRecord::new(
            g.spec.name,
            n,
            g.options,
            format_seed(g.game_seed),
            source,
            seats,
            deals,
            g.actions,
            g.faults,
            outcome,
            started.elapsed().as_millis() as u64,
        );
        rec.bot_seed = self.cfg.bot_key.map(format_seed);
        rec.forfeit = g.forfeit;
        rec
    }
}

/// The answer `token` of the seat to move, applied if it is legal; otherwise the `illegal`
/// fault, with the rules' reason. Returns the token played or the fault.
fn apply_answer(g: &mut InPlay, token: String) -> Result<(Option<String>, Option<Fault>), String> {
    if let Some(i) = g.legal.iter().position(|l| *l == token) {
        // A typed game applies the action it listed, without reading the token.
        if g.game.indexed() {
            g.game.apply_legal(i)
        } else {
            g.game.apply(&token)
        }
        .map_err(|e| format!("internal error: legal action refused: {e}"))?;
        return Ok((Some(token), None));
    }
    let why = match g.game.apply(&token) {
        Err(e) => e,
        Ok(()) => unreachable!("an action missing from the legal list was accepted"),
    };
    let fault = Fault {
        kind: "illegal",
        message: format!("illegal action '{}': {why}", truncate(&token, 60)),
        restart: false,
    };
    Ok((None, Some(fault)))
}

/// The legal tokens of the seat to move, into `out`: a typed game writes them into the strings
/// `out` already holds (no allocation once they have grown), others make new ones.
fn legal_into(game: &mut dyn Game, out: &mut Vec<String>) {
    if !game.indexed() {
        *out = game.legal_actions();
        return;
    }
    let n = game.legal_count();
    out.truncate(n);
    out.resize_with(n, String::new);
    for (i, token) in out.iter_mut().enumerate() {
        token.clear();
        game.write_legal_token(i, token);
    }
}

#[cfg(test)]
mod tests {
    use crate::options::Options;
    use crate::referee::{identity, Config, SeatSpec, Table};

    /// A table that neither times decisions nor writes tokens plays the very games a table
    /// that does plays: the same deals, seats and scores, as many actions; only the tokens
    /// and times nothing reads are left out.
    #[test]
    fn a_table_that_records_nothing_plays_the_same_games() {
        for (game, bots) in [
            ("rikken", ["random", "random", "random", "random"]),
            ("rikken", ["simple", "random", "simple", "random"]),
            ("kul", ["random", "simple", "random", "simple"]),
        ] {
            let spec = crate::games::find(game).expect("a game");
            let options = Options::resolve::<&str>(&(spec.options)(), spec.name, &[]).expect("default options");
            let seats: Vec<SeatSpec> = bots.iter().map(|b| SeatSpec::Builtin(b.to_string())).collect();
            let quiet = Config {
                tokens: false,
                timing: false,
                ..Config::default()
            };
            let mut full = Table::new(&seats, Config::default()).expect("built-in seats");
            let mut bare = Table::new(&seats, quiet).expect("built-in seats");
            let seat_of = identity(seats.len());
            for seed in 0..20 {
                let a = full.play(&spec, &options, seed, vec![], &seat_of).expect("a game");
                let b = bare.play(&spec, &options, seed, vec![], &seat_of).expect("a game");
                assert_eq!(
                    (&a.deals, &a.result.scores),
                    (&b.deals, &b.result.scores),
                    "{game} seed {seed}"
                );
                assert_eq!(a.actions.len(), b.actions.len());
                assert!(a
                    .actions
                    .iter()
                    .zip(&b.actions)
                    .all(|(x, y)| x.seat == y.seat && x.deal == y.deal));
                assert!(a.actions.iter().all(|x| !x.action.is_empty()));
                // Random seats choose by index: no token written, no clock read.
                let by_index = b.actions.iter().filter(|x| x.action.is_empty()).count();
                assert!(by_index > 0 || !bots.contains(&"random"), "{game} seed {seed}");
                assert!(b.actions.iter().all(|x| x.ms == 0.0) && b.seats.iter().all(|s| s.think_ms == 0.0));
            }
        }
    }
}

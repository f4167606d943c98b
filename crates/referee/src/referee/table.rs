//! A table: the players that play games together, their processes kept across games. It
//! tells each player what it is sent (setup lines, events, faults), restarts a crashed bot
//! and catches it up, disqualifies a player over `--max-faults`, and ends every bot at the end.
//! How a game is played at it is in [`super::play`], how a player is asked in [`super::ask`].

use super::config::{Config, SeatSpec};
use super::files::log_file_name;
use super::player::{handshake, spawn_process, start_process, Engine, Player};
use crate::bots;
use crate::chance::{derive, Purpose};
use crate::game::{Arg, Event, GameInfo, GameSpec, Seat};
use crate::options::Options;
use crate::process::{BotProcess, LogTarget};
use crate::record::FaultRecord;
use std::time::{Duration, Instant};

/// A set of players that play games together (a table). Processes are spawned once and kept
/// across games; a crashed or hung bot is restarted.
pub struct Table {
    pub players: Vec<Player>,
    pub(super) cfg: Config,
    /// The protocol line of the event being routed, made once for all its process seats.
    line: String,
    /// Why the person at a human seat left during the last game, which ended there (forfeited).
    pub(super) left: Option<String>,
}

impl Table {
    /// Starts every player (spawns processes and does the handshake).
    pub fn new(specs: &[SeatSpec], cfg: Config) -> Result<Table, String> {
        // Spawn every process first, then read the handshakes: startups overlap.
        let logs = Self::log_targets(&cfg, specs);
        let mut spawned: Vec<Option<BotProcess>> = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            spawned.push(match spec.argv() {
                Some(_) => Some(spawn_process(i, spec, logs[i].clone(), &cfg)?),
                None => None,
            });
        }
        let deadline = Instant::now() + cfg.startup_time;
        let mut players = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            let (engine, log) = match (spec, spec.argv()) {
                (SeatSpec::Builtin(name), _) => {
                    let bot = bots::builtin(name, derive(cfg.bot_seed, Purpose::Bot, i as u64))?;
                    (Engine::InProcess(bot), None)
                }
                (_, argv) => {
                    let argv = argv.expect("a process seat");
                    let process = spawned[i].take().expect("spawned above");
                    (
                        Engine::Process(Box::new(handshake(process, argv, deadline)?)),
                        logs[i].clone(),
                    )
                }
            };
            players.push(Player {
                spec: spec.clone(),
                engine,
                log,
                history: String::new(),
                view: None,
            });
        }
        Ok(Table {
            players,
            cfg,
            line: String::new(),
            left: None,
        })
    }

    /// Why the person at a human seat left during the last game, once: that game ended there,
    /// forfeited by the seat (its record holds what was played), and the run stops.
    pub fn take_left(&mut self) -> Option<String> {
        self.left.take()
    }

    /// The stderr log of each player that is a process: one file per bot name; a file that
    /// several processes write (a bot in two seats, or at several tables) labels each line.
    fn log_targets(cfg: &Config, specs: &[SeatSpec]) -> Vec<Option<LogTarget>> {
        let names: Vec<Option<String>> = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                spec.argv()?;
                Some(log_file_name(cfg.name_of(i, spec)))
            })
            .collect();
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let name = name.as_ref()?;
                let shared = names.iter().filter(|n| n.as_ref() == Some(name)).count() > 1;
                let label = match cfg.log_table {
                    Some(t) => Some(format!("[table {t}, player {i}] ")),
                    None => shared.then(|| format!("[player {i}] ")),
                };
                Some(LogTarget {
                    path: cfg.log_dir.join(format!("{}{name}.log", cfg.log_prefix)),
                    label,
                })
            })
            .collect()
    }

    /// Sends a notification to a player: an in-process bot gets it as a call; a process gets
    /// its protocol line (made by the caller, once per event, into `self.line` when it is
    /// empty), kept for a restart's catch-up, folded into the view it asked for, and queued.
    pub(super) fn send(&mut self, p: usize, kind: &str, args: &[Arg]) {
        let player = &mut self.players[p];
        match &mut player.engine {
            // After `start`: events only.
            Engine::InProcess(bot) => bot.event(kind, args),
            Engine::Process(proc) => {
                if self.line.is_empty() {
                    crate::protocol::write_notification(&mut self.line, kind, args);
                }
                if let Some(v) = &mut player.view {
                    v.observe(kind, args);
                }
                if let Some(pr) = &mut proc.process {
                    pr.send(&self.line);
                }
                player.history.push_str(&self.line);
                player.history.push('\n');
            }
        }
    }

    /// Sends one event to the players `to`: its line is made at most once.
    pub(super) fn send_event(&mut self, to: impl IntoIterator<Item = usize>, kind: &str, args: &[Arg]) {
        self.line.clear();
        for p in to {
            self.send(p, kind, args);
        }
    }

    pub(super) fn notify(&mut self, p: usize, kind: &str, args: Vec<String>) {
        let args: Vec<Arg> = args.into_iter().map(Arg::Text).collect();
        self.send_event([p], kind, &args);
    }

    /// Restarts a process player and catches it up with the current game's lines.
    pub(super) fn restart(&mut self, p: usize) -> Result<(), String> {
        let cfg = self.cfg.clone();
        let player = &mut self.players[p];
        if player.spec.argv().is_none() {
            return Ok(());
        }
        let spec = player.spec.clone();
        // A stopping run starts no bot: the game in play ends with the seat's substitutes
        // instead of waiting out a new process's start-up.
        if crate::interrupt::requested().is_some() {
            if let Engine::Process(proc) = &mut player.engine {
                if let Some(mut old) = proc.process.take() {
                    old.kill();
                }
            }
            return Err("croupier is stopping: no new start".to_string());
        }
        if let Engine::Process(proc) = &mut player.engine {
            let mut old = proc.process.take();
            if let Some(old) = &mut old {
                old.kill();
            }
            let mut fresh = start_process(p, &spec, player.log.clone(), &cfg)?;
            // The new process's lines go on in the transcript of the game in play.
            if let (Some(pr), Some(old)) = (&mut fresh.process, &mut old) {
                pr.transcript_after(old).map_err(|e| format!("--transcript: {e}"))?;
            }
            **proc = fresh;
            if let Some(pr) = &mut proc.process {
                for line in player.history.lines() {
                    pr.send(line);
                }
            }
        }
        Ok(())
    }

    /// `Some(N)` when player `p` has more than `--max-faults N` faults in this run.
    pub(super) fn disqualified(&self, p: usize) -> Option<u64> {
        self.cfg.max_faults.filter(|&m| self.cfg.tally.count(p) > m)
    }

    /// Player `p` is disqualified: its process is stopped and never started again.
    pub(super) fn disqualify(&mut self, p: usize) {
        if let Engine::Process(proc) = &mut self.players[p].engine {
            if let Some(mut old) = proc.process.take() {
                old.kill();
            }
            proc.gave_up = true;
        }
    }

    /// Tells player `p` that a game starts, in seat `s` of `n`: an in-process bot gets the
    /// setup as a value, a process its setup lines (and a fresh view if it asked for views).
    pub(super) fn set_up(&mut self, p: usize, spec: &GameSpec, options: &Options, n: usize, s: Seat, rngseed: u64) {
        let info = GameInfo {
            game: spec.name.into(),
            options: options.clone(),
            players: n,
            seat: s,
        };
        let player = &mut self.players[p];
        player.history.clear();
        let wants_view = matches!(&player.engine, Engine::Process(pr) if pr.hello.wants_view());
        player.view = wants_view.then(|| (spec.new_view)(&info));
        if let Engine::InProcess(bot) = &mut player.engine {
            // The setup the lines below would spell out, as a value: nothing to re-parse.
            bot.start(&info, rngseed);
            return;
        }
        for (kind, args) in crate::protocol::setup_notifications(spec.name, options, n, s, rngseed) {
            self.notify(p, kind, args);
        }
    }

    /// The record of a fault of player `p` in `seat`, before action `action` of deal `deal`.
    pub(super) fn fault_record(
        &self,
        seat: Seat,
        p: usize,
        deal: usize,
        action: usize,
        kind: &str,
        message: String,
    ) -> FaultRecord {
        FaultRecord {
            seat,
            player: p,
            deal,
            action,
            kind: kind.to_string(),
            message: format!("seat {seat} ({}): {message}", self.players[p].name()),
        }
    }

    pub(super) fn route(&mut self, ev: &Event, seat_of: &[usize]) {
        self.send_event(ev.to.members(seat_of.len()).map(|s| seat_of[s]), ev.kind, &ev.args);
    }

    /// Ends every bot: `quit`, one shared grace period, then SIGKILL.
    pub fn shutdown(&mut self) {
        // Tell every bot first, then wait for all of them at once (process::shutdown_all).
        for player in &mut self.players {
            if let Engine::Process(proc) = &mut player.engine {
                if let Some(pr) = &mut proc.process {
                    pr.send(&format!("{} quit", proc.next_id));
                }
            }
        }
        let mut procs: Vec<BotProcess> = self
            .players
            .iter_mut()
            .filter_map(|player| match &mut player.engine {
                Engine::Process(proc) => proc.process.take(),
                Engine::InProcess(_) => None,
            })
            .collect();
        let mut refs: Vec<&mut BotProcess> = procs.iter_mut().collect();
        crate::process::shutdown_all(&mut refs, Duration::from_millis(500));
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The `rngseed` told to `seat` in the game of `game_seed` (see [`Config::bot_key`]).
pub fn rngseed(bot_key: Option<u64>, game_seed: u64, seat: Seat) -> u64 {
    let plain = derive(game_seed, Purpose::Bot, seat as u64);
    match bot_key {
        None => plain,
        Some(k) => derive(k, Purpose::Bot, plain),
    }
}

/// The player index of each seat for a plain game (player i sits in seat i).
pub fn identity(n: usize) -> Vec<Seat> {
    (0..n).collect()
}

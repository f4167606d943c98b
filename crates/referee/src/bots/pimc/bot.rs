//! The `pimc` bot itself: its state between decisions, the game's lines it is given (over the
//! protocol or in-process) and its answer to a decision, by search or else by `simple`.

use super::budget::Budget;
use super::tracker::Tracker;
use super::world::Line;
use crate::bots::bot::Bot;
use crate::bots::setup::SetupLines;
use crate::chance::{Purpose, Rng};
use crate::game::{Arg, Args, GameInfo};

/// Notifications from the referee that are not game events.
const NOT_EVENTS: &[&str] = &[
    "game", "option", "players", "seat", "rngseed", "clock", "fault", "gameover",
];

/// The `pimc` bot.
pub struct Pimc {
    name: String,
    pub(super) budget: Budget,
    seed: u64,
    pub(super) rng: Rng,
    setup: SetupLines,
    pub(super) tracker: Option<Tracker>,
    /// Lines that came before the tracker could be made (over the protocol).
    early: Vec<Line>,
    /// What the searches did: decisions searched, decisions left to `simple`, worlds played,
    /// worlds that could not be made to fit.
    pub stats: SearchStats,
}

/// Counts of what a `pimc` bot did (`CROUPIER_PIMC_STATS=1` prints them when it ends).
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    pub searched: u64,
    pub fell_back: u64,
    pub worlds: u64,
    pub misfits: u64,
}

impl Drop for Pimc {
    fn drop(&mut self) {
        if std::env::var_os("CROUPIER_PIMC_STATS").is_some() && self.stats.searched + self.stats.fell_back > 0 {
            eprintln!("pimc: {:?}", self.stats);
        }
    }
}

impl Pimc {
    pub fn new(name: &str, budget: Budget, seed: u64) -> Pimc {
        Pimc {
            name: name.to_string(),
            budget,
            seed,
            rng: Rng::new(seed, Purpose::Bot, 0),
            setup: SetupLines::default(),
            tracker: None,
            early: Vec::new(),
            stats: SearchStats::default(),
        }
    }

    fn begin(&mut self, info: &GameInfo) {
        let infer = self.budget.infer;
        self.tracker = crate::games::find(&info.game)
            .and_then(|spec| Tracker::new(spec, info.clone(), self.rng.next_u64(), infer).ok());
    }

    /// Makes the tracker from protocol setup lines once they are all in.
    fn ensure_tracker(&mut self) {
        if self.tracker.is_some() {
            return;
        }
        let Some((_, info)) = self.setup.info() else { return };
        self.begin(&info);
        if let Some(t) = &mut self.tracker {
            for (k, a) in &self.early {
                t.own.observe(k, a);
            }
            t.observed.append(&mut self.early);
        }
    }

    /// What the bot would search on now: up to `k` worlds (the one it follows first), each as
    /// the JSON views of every seat in it; `None` when it follows no world. For tests and tools:
    /// every world's view of the bot's own seat is the seat's real view.
    pub fn sampled_views(&mut self, k: usize) -> Option<Vec<Vec<serde_json::Value>>> {
        self.ensure_tracker();
        let t = self.tracker.as_mut()?;
        if !t.catch_up(&mut self.rng) {
            return None;
        }
        let mut out = Vec::new();
        for i in 0..k {
            let w = if i == 0 {
                Some(t.world.clone())
            } else {
                t.sample(&mut self.rng).map(|(w, _)| w)
            };
            if let Some(w) = w {
                out.push(w.views.iter().map(|v| v.to_json()).collect());
            }
        }
        Some(out)
    }

    /// `simple` on the seat's own view (when no world fits the lines).
    fn fallback(&self, decision: &str, legal: &[String]) -> String {
        let Some(t) = &self.tracker else {
            return legal[0].clone();
        };
        let choice = (t.spec.simple_policy)(t.own.as_ref(), decision, legal);
        if legal.contains(&choice) {
            choice
        } else {
            legal[0].clone()
        }
    }
}

impl Bot for Pimc {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn start(&mut self, info: &GameInfo, rngseed: u64) {
        self.rng = Rng::new(rngseed ^ self.seed, Purpose::Bot, 0);
        self.early.clear();
        self.begin(info);
    }

    fn notify(&mut self, kind: &str, args: &[Arg]) {
        if kind == "game" {
            self.tracker = None;
            self.early.clear();
        }
        if self.setup.take(kind, args) {
            return;
        }
        match kind {
            "rngseed" => {
                if let Some(s) = args.first().and_then(|a| a.parse::<u64>().ok()) {
                    self.rng = Rng::new(s ^ self.seed, Purpose::Bot, 0);
                }
            }
            _ if NOT_EVENTS.contains(&kind) => {}
            _ => {
                self.ensure_tracker();
                let line = (kind.to_string(), Args::from(args));
                match &mut self.tracker {
                    Some(t) => {
                        t.own.observe(&line.0, &line.1);
                        t.observed.push(line);
                    }
                    None => self.early.push(line),
                }
            }
        }
    }

    fn act(&mut self, decision: &str, time_ms: u64, legal: &[String]) -> String {
        if legal.is_empty() {
            return String::new();
        }
        self.ensure_tracker();
        match self.search(legal, time_ms) {
            Some(a) if legal.contains(&a) => a,
            other => {
                if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                    eprintln!("pimc: {decision} by simple (search gave {other:?} for {legal:?})");
                }
                self.stats.fell_back += 1;
                self.fallback(decision, legal)
            }
        }
    }
}

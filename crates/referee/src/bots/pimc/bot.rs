//! The `pimc` bot itself: its state between decisions, the game's lines it is given (over the
//! protocol or in-process) and its answer to a decision, by search or else by `simple`.

use super::budget::{Budget, Counts};
use super::choice::Searched;
use super::tracker::Tracker;
use super::world::{Line, World};
use crate::bots::bot::Bot;
use crate::bots::setup::SetupLines;
use crate::chance::{Purpose, Rng};
use crate::game::{Arg, Args, GameInfo, GameSpec, Seat};

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
    /// Whether its worlds keep a view per seat ([`with_views`](Pimc::with_views)).
    views: bool,
    /// The last decision's search, for [`Bot::analysis`] (`None` where it did not search).
    pub(super) searched: Option<Searched>,
}

/// Counts of what a search bot did (`CROUPIER_PIMC_STATS=1` prints them when it ends, with
/// the playouts per second of search time and the decisions' times, for `bench/search.sh`).
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    /// Decisions searched (some by a search that found one action offered).
    pub searched: u64,
    /// Decisions left to `simple` (no world followed the seat's lines).
    pub fell_back: u64,
    /// Worlds sampled and played.
    pub worlds: u64,
    /// Samples that could not be made to fit the lines.
    pub misfits: u64,
    /// Replays of the deal's lines tried for samples (their repairs included).
    pub replays: u64,
    /// Playouts played to their end (one per world and action in `pimc`, one per iteration in
    /// `ismcts`).
    pub playouts: u64,
    /// Time spent in searched decisions, catch-up included, in nanoseconds.
    pub search_ns: u64,
    /// The part of `search_ns` spent sampling worlds (their replays and repairs), in
    /// nanoseconds: the rest is mostly playouts.
    pub sample_ns: u64,
    /// Each decision's time, in microseconds (searched or not).
    pub decision_us: Vec<u32>,
}

impl SearchStats {
    /// Playouts per second of search time.
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / (self.search_ns.max(1) as f64 / 1e9)
    }

    /// The time in milliseconds that a share `q` (0 to 1) of the decisions took at most (the
    /// `q`-quantile: 0.5 the median, 1 the longest).
    pub fn decision_ms_quantile(&self, q: f64) -> f64 {
        let mut t = self.decision_us.clone();
        t.sort_unstable();
        let Some(last) = t.len().checked_sub(1) else { return 0.0 };
        t[((q * t.len() as f64).ceil() as usize).saturating_sub(1).min(last)] as f64 / 1e3
    }

    /// Counts a decision that began at `start`.
    pub fn decided(&mut self, start: std::time::Instant) {
        self.decision_us
            .push(start.elapsed().as_micros().min(u32::MAX as u128) as u32);
    }

    /// What a search bot reports when it ends, by `CROUPIER_PIMC_STATS`: `1` prints a line to
    /// stderr; any other value names a file to which a JSON line with every count and every
    /// decision's time is appended (what `bench/search.sh` reads).
    pub fn print(&self, bot: &str) {
        let Some(to) = std::env::var_os("CROUPIER_PIMC_STATS") else {
            return;
        };
        if self.searched + self.fell_back == 0 {
            return;
        }
        if to != "1" {
            let line = serde_json::json!({
                "bot": bot,
                "searched": self.searched,
                "fell_back": self.fell_back,
                "worlds": self.worlds,
                "misfits": self.misfits,
                "replays": self.replays,
                "playouts": self.playouts,
                "search_ns": self.search_ns,
                "sample_ns": self.sample_ns,
                "decision_us": self.decision_us,
            });
            let written = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&to)
                .and_then(|mut f| std::io::Write::write_all(&mut f, format!("{line}\n").as_bytes()));
            if let Err(e) = written {
                eprintln!("{bot}: cannot append its counts to {}: {e}", to.to_string_lossy());
            }
            return;
        }
        eprintln!(
            "{bot}: searched={} fell_back={} worlds={} misfits={} replays={} playouts={} search_ms={:.1} sample_ms={:.1} playouts_per_second={:.0} decisions={} p50_ms={:.2} p99_ms={:.2} max_ms={:.2}",
            self.searched,
            self.fell_back,
            self.worlds,
            self.misfits,
            self.replays,
            self.playouts,
            self.search_ns as f64 / 1e6,
            self.sample_ns as f64 / 1e6,
            self.playouts_per_second(),
            self.decision_us.len(),
            self.decision_ms_quantile(0.5),
            self.decision_ms_quantile(0.99),
            self.decision_ms_quantile(1.0),
        );
    }
}

impl Drop for Pimc {
    fn drop(&mut self) {
        self.stats.print("pimc");
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
            views: false,
            searched: None,
        }
    }

    /// The bot with a view per seat in every world it samples and follows, as
    /// [`sampled_views`](Pimc::sampled_views) shows them (for tests and tools; a search
    /// needs none, and feeding them costs a fifth of its sampling). The same decisions.
    pub fn with_views(mut self) -> Pimc {
        self.views = true;
        self
    }

    fn begin(&mut self, info: &GameInfo) {
        let infer = self.budget.infer;
        self.tracker = crate::games::find(&info.game)
            .and_then(|spec| Tracker::new(spec, info.clone(), self.rng.next_u64(), infer, self.views).ok());
    }

    /// Makes the tracker from protocol setup lines once they are all in.
    pub(crate) fn ensure_tracker(&mut self) {
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
    /// every world's view of the bot's own seat is the seat's real view. Its worlds have views
    /// only when the bot was made [`with_views`](Pimc::with_views) (else each is empty).
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
                t.sample(&mut self.rng, &mut 0).map(|(w, _)| w)
            };
            if let Some(w) = w {
                out.push(w.views.iter().map(|v| v.to_json()).collect());
            }
        }
        Some(out)
    }

    /// The world followed, the seat, and the game's spec (after [`ready`](Pimc::ready)).
    pub(crate) fn followed(&self) -> Option<(&World, Seat, &GameSpec)> {
        self.tracker.as_ref().map(|t| (&t.world, t.me, &t.spec))
    }

    /// The playout policy's choice on the seat's own view: what a search must be sure to beat.
    pub(crate) fn model_choice(&self, decision: &str, legal: &[String]) -> Option<String> {
        let t = self.tracker.as_ref()?;
        Some((t.spec.playout_policy)(t.own.as_ref(), decision, legal))
    }

    /// The budget's counts in the game played ([`Budget::counts`]; at scale 1 before the bot
    /// knows its game).
    pub fn counts(&self) -> Counts {
        self.budget.counts(self.scale())
    }

    /// The game's [`search_scale`](crate::game::GameSpec::search_scale) (1 before the bot knows
    /// its game): what a search's default counts are multiplied by.
    pub(crate) fn scale(&self) -> usize {
        self.tracker.as_ref().map_or(1, |t| t.spec.search_scale)
    }

    /// The replays of the deal's lines a decision may try ([`Budget::replays`]).
    pub(crate) fn replays(&self) -> usize {
        self.counts().replays
    }

    /// A number from the bot's seeded generator (to seed a search's own).
    pub(crate) fn next_seed(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// `simple` on the seat's own view (when no world fits the lines).
    pub(crate) fn fallback(&self, decision: &str, legal: &[String]) -> String {
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
    fn analysis(&self) -> Option<crate::bots::analysis::Analysis> {
        self.searched.as_ref().map(Searched::analysis)
    }

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
        let start = std::time::Instant::now();
        self.ensure_tracker();
        let choice = self.search(legal, time_ms);
        self.stats.decided(start);
        match choice {
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

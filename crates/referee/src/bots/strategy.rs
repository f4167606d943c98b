//! The rule-based built-in bots `random`, `simple` and `mix`: one strategy each, on the game's
//! seat view (`random` needs none) and the game's rngseed.

use super::bot::Bot;
use super::setup::SetupLines;
use crate::chance::{Purpose, Rng};
use crate::game::{Arg, GameInfo, GameSpec, SeatView};

/// `p=0.7` of `mix:p=0.7`: a probability in [0, 1].
pub(super) fn mix_probability(params: &str) -> Result<f64, String> {
    let bad = || format!("mix takes p=PROBABILITY, a number from 0 to 1, like mix:p=0.7 (got '{params}')");
    let v = params.strip_prefix("p=").ok_or_else(bad)?;
    match v.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(bad()),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Strategy {
    Random,
    Simple,
    /// `simple` with this probability, else `random`, drawn at each decision.
    Mix(f64),
}

pub(super) struct Builtin {
    strategy: Strategy,
    seed: u64,
    rng: Rng,
    setup: SetupLines,
    spec: Option<GameSpec>,
    view: Option<Box<dyn SeatView>>,
    /// Events that arrived before the view could be built.
    pending: Vec<(String, Vec<Arg>)>,
}

impl Builtin {
    /// Only `simple` reads a seat view; `random` needs none.
    fn wants_view(&self) -> bool {
        self.strategy != Strategy::Random
    }

    /// Starts a game: the view is built from the setup at once.
    fn begin(&mut self, info: &GameInfo) {
        self.pending.clear();
        self.setup = SetupLines::default();
        if self.spec.as_ref().is_none_or(|s| s.name != info.game) {
            self.spec = crate::games::find(&info.game);
        }
        self.view = match &self.spec {
            Some(spec) if self.wants_view() => Some((spec.new_view)(info)),
            _ => None,
        };
    }

    fn seed_rng(&mut self, rngseed: u64) {
        // Drawn once per decision, anew each game (a random Rikken seat draws about 3 times).
        self.rng = Rng::few(rngseed ^ self.seed, Purpose::Bot, 0);
    }

    pub(super) fn new(strategy: Strategy, seed: u64) -> Builtin {
        Builtin {
            strategy,
            seed,
            rng: Rng::few(seed, Purpose::Bot, 0),
            setup: SetupLines::default(),
            spec: None,
            view: None,
            pending: Vec::new(),
        }
    }

    /// Builds the seat view once the setup lines are known.
    fn ensure_view(&mut self) {
        if self.view.is_some() {
            return;
        }
        let Some((spec, info)) = self.setup.info() else { return };
        let mut view = (spec.new_view)(&info);
        for (k, a) in self.pending.drain(..) {
            view.observe(&k, &a);
        }
        self.view = Some(view);
        self.spec = Some(spec);
    }

    /// [`Bot::notify`] for setup lines, and for events before the view is made (out of line:
    /// the events' path stays small).
    #[inline(never)]
    fn notify_setup(&mut self, kind: &str, args: &[Arg]) {
        let arg = |i: usize| args.get(i).map(Arg::to_string).unwrap_or_default();
        if kind == "game" {
            self.view = None;
            self.spec = None;
            self.pending.clear();
            self.rng = Rng::few(self.seed, Purpose::Bot, 0);
        }
        if self.setup.take(kind, args) {
            return;
        }
        match kind {
            "rngseed" => {
                if let Ok(s) = arg(0).parse::<u64>() {
                    self.seed_rng(s);
                }
            }
            _ if !self.wants_view() => {}
            _ => {
                self.ensure_view();
                match &mut self.view {
                    Some(v) => v.observe(kind, args),
                    None => self.pending.push((kind.to_string(), args.to_vec())),
                }
            }
        }
    }
}

impl Bot for Builtin {
    fn name(&self) -> &str {
        match self.strategy {
            Strategy::Random => "random",
            Strategy::Simple => "simple",
            Strategy::Mix(_) => "mix",
        }
    }
    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn start(&mut self, info: &GameInfo, rngseed: u64) {
        self.begin(info);
        self.seed_rng(rngseed);
    }

    fn notify(&mut self, kind: &str, args: &[Arg]) {
        // A game's events once the view is made: straight to it.
        if let Some(v) = &mut self.view {
            if !matches!(kind, "game" | "option" | "players" | "seat" | "rngseed") {
                v.observe(kind, args);
                return;
            }
        }
        self.notify_setup(kind, args);
    }

    fn event(&mut self, kind: &str, args: &[Arg]) {
        // Never a setup line: no need to look at the kind.
        match &mut self.view {
            Some(v) => v.observe(kind, args),
            None => self.notify_setup(kind, args),
        }
    }

    fn listens(&self) -> bool {
        self.wants_view()
    }

    fn act_by_index(&mut self, decision: &str, count: usize, typed: Option<&dyn std::any::Any>) -> Option<usize> {
        match self.strategy {
            // The same draw as `act` makes for `random`: the same index, so the same action.
            Strategy::Random => (count > 0).then(|| self.rng.below(count as u64) as usize),
            // The game's simple policy on the typed actions, where it has one for this decision.
            Strategy::Simple => {
                let (policy, legal) = (self.spec.as_ref()?.typed_policy?, typed?);
                self.ensure_view();
                policy(self.view.as_deref()?, decision, legal).filter(|&i| i < count)
            }
            Strategy::Mix(_) => None,
        }
    }

    fn act(&mut self, decision: &str, _time_ms: u64, legal: &[String]) -> String {
        if legal.is_empty() {
            return String::new();
        }
        self.ensure_view();
        let simple = match self.strategy {
            Strategy::Random => false,
            Strategy::Simple => true,
            // A uniform draw in [0, 1) from the game's rngseed: simple below p.
            Strategy::Mix(p) => ((self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p,
        };
        match (simple, &self.spec, &self.view) {
            (true, Some(spec), Some(view)) => {
                let choice = (spec.simple_policy)(view.as_ref(), decision, legal);
                if legal.contains(&choice) {
                    choice
                } else {
                    legal[0].clone()
                }
            }
            _ => legal[self.rng.below(legal.len() as u64) as usize].clone(),
        }
    }
}

//! Built-in bots. They speak the same protocol as external bots: in-process the referee hands
//! them the game's setup already validated ([`Bot::start`]) and then the notification lines it
//! would write to a pipe; `croupier bot NAME` runs one on stdin/stdout ([`stdio::run`]), where
//! the setup comes as lines.

pub mod human;
pub mod pimc;
pub mod stdio;

use crate::chance::{Purpose, Rng};
use crate::game::{Arg, GameInfo, GameSpec, SeatView};
use crate::options::Options;

/// A bot that lives in the referee's process. It receives what a process bot would receive:
/// the setup of each game (as a value, not as `option` lines to re-parse), then the game's
/// notification lines split into kind and arguments.
pub trait Bot: Send {
    fn name(&self) -> &str;
    fn version(&self) -> &str;
    /// A new game starts (what the setup lines `game`, `option`, `players`, `seat` and
    /// `rngseed` say, already validated by the referee): forget the last game.
    fn start(&mut self, info: &GameInfo, rngseed: u64);
    /// A notification (`game`, `option`, …, game events, `gameover`).
    fn notify(&mut self, kind: &str, args: &[Arg]);
    /// A notification after [`start`](Bot::start) gave the setup as a value: a game event,
    /// `clock`, `fault` or `gameover`, never a setup line (what the referee sends an
    /// in-process bot). The same as [`notify`](Bot::notify) unless a bot takes a shorter path.
    fn event(&mut self, kind: &str, args: &[Arg]) {
        self.notify(kind, args);
    }
    /// A decision: return one of `legal`.
    fn act(&mut self, decision: &str, time_ms: u64, legal: &[String]) -> String;
    /// Whether the bot reads the game's notifications. A table where no bot does plays
    /// without making them.
    fn listens(&self) -> bool {
        true
    }
    /// A decision among `count` legal actions by index alone (their order is `act`'s), for
    /// bots that need no tokens: `typed` is the game's [`typed_legal`](crate::game::Game::typed_legal)
    /// where it has them. `None`: ask [`act`](Bot::act) with the tokens.
    fn act_by_index(&mut self, _decision: &str, _count: usize, _typed: Option<&dyn std::any::Any>) -> Option<usize> {
        None
    }
    /// Why the run must stop after the last [`act`](Bot::act), if it must: a person at a
    /// `human` seat ended the input (Ctrl-D) or pressed Ctrl-C at the prompt. The referee then
    /// ends the game unrecorded. Bots never stop a run.
    fn stopped(&self) -> Option<String> {
        None
    }
}

/// The names of the built-in bots, with one line each.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "random",
        "uniform over the legal actions (seeded by the game's rngseed)",
    ),
    ("simple", "deterministic rule-based play for every game"),
    (
        "mix",
        "plays simple with probability p and random otherwise, each decision (mix:p=0.7; seeded by the game's rngseed): bots of known order of strength",
    ),
    (
        "pimc",
        "determinized search: samples the deals it cannot see, plays each action out with simple (pimc:samples=N,playouts=N,ms=N,sure=Z)",
    ),
    (
        "human",
        "you, at the terminal: shows your hand and the table, asks for your action (play only, not `croupier bot`)",
    ),
];

/// Whether `spec` names a built-in bot (`pimc:samples=64` names `pimc`).
pub fn is_builtin(spec: &str) -> bool {
    let name = spec.split_once(':').map_or(spec, |(n, _)| n);
    BUILTIN.iter().any(|(n, _)| *n == name)
}

/// Makes a built-in bot by name (with its parameters after a colon: `pimc:samples=64`).
pub fn builtin(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
    if name == "pimc" {
        let budget = pimc::Budget::parse(params)?;
        return Ok(Box::new(pimc::Pimc::new(spec, budget, seed)));
    }
    if name == "human" && params.is_empty() {
        return Ok(Box::new(human::Human::new()));
    }
    if name == "mix" {
        return Ok(Box::new(Builtin::new(Strategy::Mix(mix_probability(params)?), seed)));
    }
    if !params.is_empty() {
        return Err(format!(
            "the built-in bot '{name}' takes no parameters (got '{params}')"
        ));
    }
    let strategy = match name {
        "random" => Strategy::Random,
        "simple" => Strategy::Simple,
        _ => {
            let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "unknown built-in bot '{name}'; built-in bots: {}",
                names.join(", ")
            ));
        }
    };
    Ok(Box::new(Builtin::new(strategy, seed)))
}

/// `p=0.7` of `mix:p=0.7`: a probability in [0, 1].
fn mix_probability(params: &str) -> Result<f64, String> {
    let bad = || format!("mix takes p=PROBABILITY, a number from 0 to 1, like mix:p=0.7 (got '{params}')");
    let v = params.strip_prefix("p=").ok_or_else(bad)?;
    match v.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(bad()),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Strategy {
    Random,
    Simple,
    /// `simple` with this probability, else `random`, drawn at each decision.
    Mix(f64),
}

/// The setup of a game as it comes over the protocol (`game`, `option`, `players`, `seat`):
/// what an in-process bot is given as a [`GameInfo`].
#[derive(Default)]
pub(crate) struct SetupLines {
    game: Option<String>,
    options: Vec<(String, String)>,
    players: Option<usize>,
    seat: Option<usize>,
}

impl SetupLines {
    /// Takes a setup line (`game` starts a new setup); false for any other line.
    pub(crate) fn take(&mut self, kind: &str, args: &[Arg]) -> bool {
        let arg = |i: usize| args.get(i).map(Arg::to_string).unwrap_or_default();
        match kind {
            "game" => {
                *self = SetupLines {
                    game: Some(arg(0)),
                    ..SetupLines::default()
                }
            }
            "option" => self.options.push((arg(0), arg(1))),
            "players" => self.players = arg(0).parse().ok(),
            "seat" => self.seat = arg(0).parse().ok(),
            _ => return false,
        }
        true
    }

    /// The game and its setup once every line is in (the options checked).
    pub(crate) fn info(&self) -> Option<(GameSpec, GameInfo)> {
        let (Some(game), Some(players), Some(seat)) = (&self.game, self.players, self.seat) else {
            return None;
        };
        let spec = crate::games::find(game)?;
        let options = Options::from_pairs(&(spec.options)(), game, &self.options).ok()?;
        let info = GameInfo {
            game: game.clone(),
            options,
            players,
            seat,
        };
        Some((spec, info))
    }
}

struct Builtin {
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

    fn new(strategy: Strategy, seed: u64) -> Builtin {
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

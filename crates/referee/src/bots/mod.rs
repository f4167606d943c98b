//! Built-in bots. They speak the same protocol as external bots: in-process the referee hands
//! them the game's setup already validated ([`Bot::start`]) and then the notification lines it
//! would write to a pipe; `croupier bot NAME` runs one on stdin/stdout ([`stdio::run`]), where
//! the setup comes as lines.

pub mod analysis;
mod bot;
pub mod human;
pub mod ismcts;
pub mod pimc;
mod setup;
pub mod stdio;
mod strategy;

pub use bot::Bot;
use strategy::{mix_probability, Builtin, Strategy};

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
        "determinized search: samples the deals it cannot see, plays each action out with simple (pimc:samples=N,playouts=N,replays=N,ms=N,sure=Z,infer=W)",
    ),
    (
        "ismcts",
        "information-set tree search on pimc's sampled deals: one tree for every deal it cannot tell apart (ismcts:iterations=N,worlds=N,walks=N,replays=N,ms=N,c=X,sure=Z,root=paired|ucb,widen=N,others=policy|tree,playout=simple|random)",
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
    if name == "ismcts" {
        let params = ismcts::Params::parse(params)?;
        return Ok(Box::new(ismcts::Ismcts::new(spec, params, seed)));
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

//! croupier's rules engines as a Python module (`croupier_games._croupier_games`), for learning.
//!
//! A [`State`] is one game of the string interface ([`Game`](croupier_games::game::Game)) that the referee drives, built
//! by the game's own constructor from the same seed, so a seed and a list of actions give the
//! same deals, legal actions and scores as `croupier play`. On top of it:
//!
//! - integer actions: a fixed action space per game ([`vocab`]), each integer one token;
//! - what a seat may see: the events whose audience holds the seat, as lines (the information
//!   state), the game's own seat view folded from those same lines (the observation string), and
//!   a tensor made from them ([`tensor`]). Nothing else of the state reaches a seat's strings.
//!
//! The Python side (`python/croupier_games`) adds OpenSpiel's and PettingZoo's interfaces.

use croupier_games::chance::{derive, Purpose};
use pyo3::prelude::*;

pub mod batch;
pub mod error;
pub mod game_def;
pub mod observer;
pub mod pins;
pub mod policy;
pub mod state;
pub mod tensor;
pub mod vocab;

use error::err;
use game_def::GameDef;
use state::State;

/// The seed of game `index` (from 0) of a `croupier play --seed SEED` run: the `seed` its
/// record holds.
#[pyfunction]
fn run_game_seed(seed: u64, index: u64) -> u64 {
    derive(seed, Purpose::Game, index)
}

/// The names of the games, in `croupier games` order.
#[pyfunction]
fn game_names() -> Vec<&'static str> {
    croupier_games::games::all().iter().map(|g| g.name).collect()
}

/// A game's rule options: `(name, default, help)` each.
#[pyfunction]
fn rule_options(name: &str) -> PyResult<Vec<(String, String, String)>> {
    let spec = croupier_games::games::find(name).ok_or_else(|| err(format!("no game {name}")))?;
    Ok((spec.options)()
        .into_iter()
        .map(|o| (o.name.to_string(), o.default.to_string(), o.help.to_string()))
        .collect())
}

#[pymodule]
fn _croupier_games(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GameDef>()?;
    m.add_class::<State>()?;
    m.add_class::<batch::VectorEnv>()?;
    m.add_class::<observer::SeatObserver>()?;
    m.add_function(wrap_pyfunction!(policy::simple_action, m)?)?;
    m.add_function(wrap_pyfunction!(run_game_seed, m)?)?;
    m.add_function(wrap_pyfunction!(game_names, m)?)?;
    m.add_function(wrap_pyfunction!(rule_options, m)?)?;
    Ok(())
}

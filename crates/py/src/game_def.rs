//! A game of a given kind (its rule options and number of seats): the factory of states, and
//! what does not depend on a state (action space, tensor size).

use croupier_games::game::GameSpec;
use croupier_games::options::Options;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

use crate::error::err;
use crate::state::State;
use crate::tensor;
use crate::vocab::Vocab;

/// A game with its options: makes states.
#[pyclass(module = "croupier_games._croupier_games", frozen)]
pub struct GameDef {
    pub(crate) spec: Arc<GameSpec>,
    pub(crate) options: Options,
    pub(crate) players: usize,
    pub(crate) vocab: Arc<Vocab>,
}

#[pymethods]
impl GameDef {
    /// `name` as `croupier games` lists it; `options` rule options as `croupier play --rule
    /// K=V` takes them (values as strings, numbers or booleans); `players` the number of
    /// seats (None: the game's default).
    #[new]
    #[pyo3(signature = (name, options=None, players=None))]
    pub(crate) fn new(name: &str, options: Option<&Bound<'_, PyDict>>, players: Option<usize>) -> PyResult<GameDef> {
        let spec = croupier_games::games::find(name).ok_or_else(|| err(format!("no game {name}")))?;
        let mut pairs = Vec::new();
        if let Some(d) = options {
            for (k, v) in d.iter() {
                let key: String = k.extract()?;
                let value = if let Ok(b) = v.extract::<bool>() {
                    b.to_string()
                } else {
                    v.str()?.to_string()
                };
                pairs.push((key, value));
            }
        }
        let options = Options::from_pairs(&(spec.options)(), spec.name, &pairs).map_err(err)?;
        let players = players.unwrap_or(spec.default_players);
        if players < spec.min_players || players > spec.max_players {
            return Err(err(format!(
                "{} is played by {} to {} players",
                spec.name, spec.min_players, spec.max_players
            )));
        }
        let vocab = Arc::new(Vocab::of(spec.name));
        Ok(GameDef {
            spec: Arc::new(spec),
            options,
            players,
            vocab,
        })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.spec.name
    }

    #[getter]
    fn title(&self) -> &'static str {
        self.spec.title
    }

    fn num_players(&self) -> usize {
        self.players
    }

    /// The fewest and most seats the game is played by.
    fn players_range(&self) -> (usize, usize) {
        (self.spec.min_players, self.spec.max_players)
    }

    /// The size of the fixed integer action space.
    fn num_distinct_actions(&self) -> usize {
        self.vocab.len()
    }

    /// The length of `observation_tensor`.
    fn observation_tensor_size(&self) -> usize {
        tensor::size(self.spec.name, self.players)
    }

    /// Every rule option in force, name → value (strings).
    fn options(&self) -> Vec<(String, String)> {
        self.options.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// The name of integer action `a` where it names one token whatever the state (every
    /// action but a Skwitz capture, which is the k-th capture with a card).
    fn action_name(&self, a: usize) -> PyResult<String> {
        self.vocab.name(a).ok_or_else(|| err(format!("no action {a}")))
    }

    /// A new game dealt from `seed` (the game's seed, as a record's `seed`; see
    /// `run_game_seed` for game k of a `croupier play --seed` run).
    fn new_initial_state(&self, seed: u64) -> PyResult<State> {
        State::start(&self.spec, &self.options, self.players, &self.vocab, seed, Vec::new()).map_err(err)
    }
}

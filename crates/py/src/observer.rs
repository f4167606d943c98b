//! A seat's side of a game, fed from the protocol lines the seat receives: for a policy trained
//! on [`State`](crate::state::State)'s observation tensors to play at a croupier table as a bot.
//!
//! A bot is told its game's notifications as `kind args…` lines (protocol.md §4). Fed the same
//! lines, a [`SeatObserver`] folds them into the game's own seat view and keeps them as the
//! seat's events, exactly as a [`State`](crate::state::State) does for that seat, so
//! `observation_tensor` gives the tensor the state would give the seat at that point, and
//! `legal_actions` turns an `act` request's tokens into the integer actions of the game's
//! fixed action space.
//!
//! A line read from the protocol carries no audience: the observer gives each one the seat's
//! own audience ([`Audience::seat`]). The tensor must therefore not depend on who else was told
//! a line (`crates/py/tests/test_observer.py` checks the observer's tensor against the state's,
//! seat by seat, decision by decision, in every game).

use crate::tensor;
use crate::vocab::Vocab;
use croupier_games::game::{text_args, Audience, Event, GameSpec, SeatView};
use croupier_games::options::Options;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The lines that set a game up or come from the referee rather than from the rules: not
/// events of the game.
const NOT_EVENTS: [&str; 10] = [
    "game", "option", "players", "seat", "rngseed", "view", "clock", "fault", "gameover", "act",
];

/// An event's kind is a `&'static str`; a line's kind is text. Each distinct kind is kept once
/// for the life of the process (a game has a handful).
fn intern(kind: &str) -> &'static str {
    static KINDS: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut guard = KINDS.lock().unwrap_or_else(|e| e.into_inner());
    let set = guard.get_or_insert_with(HashSet::new);
    if let Some(k) = set.get(kind) {
        return k;
    }
    let k: &'static str = Box::leak(kind.to_string().into_boxed_str());
    set.insert(k);
    k
}

/// What one seat has been told of the game in progress (see the module's documentation).
#[pyclass(module = "croupier_games._croupier_games", unsendable)]
pub struct SeatObserver {
    spec: Arc<GameSpec>,
    vocab: Arc<Vocab>,
    players: usize,
    seat: usize,
    view: Box<dyn SeatView>,
    seen: Vec<Event>,
}

#[pymethods]
impl SeatObserver {
    /// The seat `seat` of game `name` at a table of `players` (the `game`, `players` and
    /// `seat` lines), its rule `options` as the `option` lines give them (name → value).
    #[new]
    #[pyo3(signature = (name, players, seat, options=None))]
    fn new(name: &str, players: usize, seat: usize, options: Option<&Bound<'_, PyDict>>) -> PyResult<SeatObserver> {
        let spec = croupier_games::games::find(name).ok_or_else(|| crate::error::err(format!("no game {name}")))?;
        if players < spec.min_players || players > spec.max_players {
            return Err(crate::error::err(format!(
                "{} is played by {} to {} players, not {players}",
                spec.name, spec.min_players, spec.max_players
            )));
        }
        if seat >= players {
            return Err(crate::error::err(format!("no seat {seat} at a table of {players}")));
        }
        let mut pairs = Vec::new();
        if let Some(d) = options {
            for (k, v) in d.iter() {
                pairs.push((k.extract::<String>()?, v.str()?.to_string()));
            }
        }
        let options = Options::from_pairs(&(spec.options)(), spec.name, &pairs).map_err(crate::error::err)?;
        let view = crate::state::new_view(&spec, &options, players, seat);
        Ok(SeatObserver {
            vocab: Arc::new(Vocab::of(spec.name)),
            spec: Arc::new(spec),
            players,
            seat,
            view,
            seen: Vec::new(),
        })
    }

    /// Folds one notification `kind args…` (the line's words after the kind, as strings).
    /// Setup and referee lines (`game`, `option`, `players`, `seat`, `rngseed`, `view`,
    /// `clock`, `fault`, `gameover`) are not events of the game and are ignored.
    fn observe(&mut self, kind: &str, args: Vec<String>) {
        if NOT_EVENTS.contains(&kind) {
            return;
        }
        let args = text_args(args.iter().map(String::as_str));
        self.view.observe(kind, &args);
        self.seen
            .push(Event::new(Audience::seat(self.seat), intern(kind), args));
    }

    /// The seat's observation tensor now, as the seat to move (float32; the layout of
    /// `docs/rules/<game>.md`, "Python tensor").
    fn observation_tensor<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut t = vec![0.0f32; tensor::size(self.spec.name, self.players)];
        tensor::fill(
            self.spec.name,
            self.players,
            self.seat,
            Some(self.seat),
            self.view.as_ref(),
            &self.seen,
            &mut t,
        );
        PyArray1::from_vec(py, t)
    }

    /// The integer actions of an `act` request's legal tokens, in their order.
    fn legal_actions(&self, tokens: Vec<String>) -> PyResult<Vec<usize>> {
        self.vocab.ids(&tokens).map_err(crate::error::err)
    }

    /// The seat's view as JSON (the protocol's `view` line).
    fn view_json(&self) -> String {
        self.view.to_json().to_string()
    }

    /// How many events the seat has been told.
    fn __len__(&self) -> usize {
        self.seen.len()
    }
}

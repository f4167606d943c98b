//! The batched environment ([`VectorEnv`]): N games of one kind stepped together in one call
//! from Python, EnvPool's idea. Every game runs inside Rust; a step writes its results into
//! numpy arrays that the environment allocated once, so no Python object is made per game
//! and step.
//!
//! A game of env `i` is the game that [`State`](crate::state::State) plays from the same seed with the
//! same actions: the same constructor, the same seat views fed the same lines, the same
//! integer actions ([`Vocab`]) and the same tensor ([`tensor::fill`]). Legal actions are
//! addressed by index in the engine (`Game::legal_count`, `write_legal_token`, `apply_legal`):
//! a token is written into one reused buffer to find its integer, and none is parsed back.
//!
//! Seeds: episode `e` (from 0) of env `i` in an environment of `n` games with base seed `s` is
//! dealt from `run_game_seed(s, e * n + i)`, which is game `e * n + i` of `croupier play --seed
//! s`. `step_random` draws from one ChaCha20 stream of `s` (purpose `Bot`, index 0), envs in
//! order, one uniform draw over each env's legal actions per step.

use crate::tensor;
use crate::vocab::Vocab;
use croupier_games::chance::{derive, Chance, Purpose, Rng};
use croupier_games::game::{Event, Game, GameSpec, SeatView};
use croupier_games::options::Options;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

fn err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A multiply-rotate hash (rustc's FxHash) for the token → integer lookup of every legal
/// action: tokens are short and trusted, SipHash's cost buys nothing here.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Fx {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap = HashMap<String, u32, BuildHasherDefault<Fx>>;

/// What every env of a batch shares.
struct Ctx {
    spec: Arc<GameSpec>,
    options: Options,
    players: usize,
    vocab: Arc<Vocab>,
    /// Token → integer for every action whose token names it whatever the state (all but
    /// Skwitz's captures, which go through [`Vocab::ids`]).
    index: FxMap,
    num_actions: usize,
    obs_size: usize,
    observe: bool,
    /// Empty seat views, cloned at every new game (observations only).
    views: Vec<Box<dyn SeatView>>,
    seed: u64,
    num_envs: usize,
}

/// One env: its game in play and, with observations, what each seat was told.
struct Slot {
    game: Box<dyn Game>,
    views: Vec<Box<dyn SeatView>>,
    seen: Vec<Vec<Event>>,
    /// The integers of the legal actions, in the engine's order (index = `apply_legal`'s).
    legal: Vec<u32>,
    seed: u64,
    episode: u64,
    finished_seed: u64,
}

/// The rows one step writes.
struct Outs<'a> {
    player: &'a mut [i64],
    mask: &'a mut [i8],
    obs: Option<&'a mut [f32]>,
    rewards: &'a mut [f64],
    done: &'a mut [bool],
}

impl Ctx {
    fn game_seed(&self, env: usize, episode: u64) -> u64 {
        derive(
            self.seed,
            Purpose::Game,
            episode.wrapping_mul(self.num_envs as u64).wrapping_add(env as u64),
        )
    }

    /// Starts episode `episode` of env `env` in `slot` (its buffers kept).
    fn start(&self, slot: &mut Slot, env: usize, episode: u64, events: &mut Vec<Event>) -> Result<(), String> {
        let seed = self.game_seed(env, episode);
        let chance = Chance::seeded(seed).titled(self.spec.title);
        slot.game = (self.spec.new_game)(self.players, &self.options, chance, self.observe)?;
        slot.seed = seed;
        slot.episode = episode;
        if self.observe {
            slot.views.clone_from(&self.views);
            slot.seen.iter_mut().for_each(Vec::clear);
        }
        self.take_events(slot, events);
        Ok(())
    }

    /// Routes the game's new events to the seats in their audiences (observations only; else
    /// drops them: a game built not listening makes none).
    fn take_events(&self, slot: &mut Slot, events: &mut Vec<Event>) {
        slot.game.take_events_into(events);
        if !self.observe {
            events.clear();
            return;
        }
        for e in events.drain(..) {
            // Each seat of the audience but the last gets a copy, the last the event itself (a
            // private line, a hand, is never copied).
            let mut last = None;
            for seat in e.to.members(self.players) {
                slot.views[seat].observe(e.kind, &e.args);
                if let Some(prev) = last.replace(seat) {
                    slot.seen[prev].push(e.clone());
                }
            }
            if let Some(seat) = last {
                slot.seen[seat].push(e);
            }
        }
    }

    /// The legal actions' integers of env `env` into `slot.legal` and its mask row, the seat to
    /// move and its observation.
    fn refresh(&self, slot: &mut Slot, env: usize, token: &mut String, outs: &mut Outs) -> Result<(), String> {
        let a = self.num_actions;
        let row = &mut outs.mask[env * a..(env + 1) * a];
        for &id in &slot.legal {
            row[id as usize] = 0;
        }
        slot.legal.clear();
        let Some(seat) = slot.game.to_move() else {
            // A game over at its start (no game does this): nothing to move.
            outs.player[env] = -4;
            return Ok(());
        };
        let count = slot.game.legal_count();
        for i in 0..count {
            token.clear();
            slot.game.write_legal_token(i, token);
            match self.index.get(token.as_str()) {
                Some(&id) => slot.legal.push(id),
                None => break,
            }
        }
        if slot.legal.len() < count {
            // A token that names no action by itself (a Skwitz capture): the vocabulary
            // numbers the whole list.
            let ids = self.vocab.ids(&slot.game.legal_actions())?;
            slot.legal.clear();
            slot.legal.extend(ids.into_iter().map(|id| id as u32));
        }
        for &id in &slot.legal {
            row[id as usize] = 1;
        }
        outs.player[env] = seat as i64;
        if let Some(obs) = outs.obs.as_deref_mut() {
            let t = self.obs_size;
            tensor::fill(
                self.spec.name,
                self.players,
                seat,
                Some(seat),
                slot.views[seat].as_ref(),
                &slot.seen[seat],
                &mut obs[env * t..(env + 1) * t],
            );
        }
        Ok(())
    }

    /// Applies legal action `li` (an index into `slot.legal`) in env `env`; a game that ends
    /// writes its scores and starts the env's next episode.
    fn advance(
        &self,
        slot: &mut Slot,
        env: usize,
        li: usize,
        events: &mut Vec<Event>,
        token: &mut String,
        outs: &mut Outs,
    ) -> Result<(), String> {
        slot.game.apply_legal(li)?;
        self.take_events(slot, events);
        let p = self.players;
        let rewards = &mut outs.rewards[env * p..(env + 1) * p];
        if slot.game.to_move().is_none() {
            let scores = slot.game.scores().unwrap_or_else(|| vec![0.0; p]);
            rewards.copy_from_slice(&scores);
            outs.done[env] = true;
            slot.finished_seed = slot.seed;
            self.start(slot, env, slot.episode + 1, events)?;
        } else {
            rewards.fill(0.0);
            outs.done[env] = false;
        }
        self.refresh(slot, env, token, outs)
    }
}

/// `actions` as a one-dimensional int64 array: itself when it is one, else `numpy.asarray` of
/// it where that holds integers (any integer dtype; not floats, whose cast would truncate).
fn int_actions<'py>(actions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<i64>>> {
    if let Ok(a) = actions.downcast::<PyArray1<i64>>() {
        return Ok(a.clone());
    }
    let py = actions.py();
    let a = py.import("numpy")?.call_method1("asarray", (actions,))?;
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    let ndim: usize = a.getattr("ndim")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") || ndim != 1 {
        return Err(err(format!(
            "actions must be one integer per env (a 1-d integer array): got dtype {}, shape {}",
            a.getattr("dtype")?.str()?,
            a.getattr("shape")?.str()?
        )));
    }
    Ok(a.call_method1("astype", ("int64",))?.downcast_into::<PyArray1<i64>>()?)
}

/// N games of one kind, stepped together. See the module `croupier_games.vector` for the
/// arrays, auto-reset and seeds.
#[pyclass(module = "croupier_games._croupier_games", unsendable)]
pub struct VectorEnv {
    ctx: Ctx,
    slots: Vec<Slot>,
    rng: Rng,
    token: String,
    events: Vec<Event>,
    picks: Vec<usize>,
    player: Py<PyArray1<i64>>,
    mask: Py<PyArray2<i8>>,
    obs: Option<Py<PyArray2<f32>>>,
    rewards: Py<PyArray2<f64>>,
    done: Py<PyArray1<bool>>,
    actions: Py<PyArray1<i64>>,
}

impl VectorEnv {
    /// Runs `f` on every slot with the output rows borrowed from the numpy arrays.
    fn with_outs<R>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&Ctx, &mut [Slot], &mut Outs, &mut Vec<Event>, &mut String) -> Result<R, String>,
    ) -> PyResult<R> {
        let mut player = self.player.bind(py).try_readwrite()?;
        let mut mask = self.mask.bind(py).try_readwrite()?;
        let mut rewards = self.rewards.bind(py).try_readwrite()?;
        let mut done = self.done.bind(py).try_readwrite()?;
        let mut obs = match &self.obs {
            Some(o) => Some(o.bind(py).try_readwrite()?),
            None => None,
        };
        let mut outs = Outs {
            player: player.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
            obs: match obs.as_mut() {
                Some(o) => Some(o.as_slice_mut()?),
                None => None,
            },
            rewards: rewards.as_slice_mut()?,
            done: done.as_slice_mut()?,
        };
        f(&self.ctx, &mut self.slots, &mut outs, &mut self.events, &mut self.token).map_err(err)
    }

    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let obs = match &self.obs {
            Some(o) => o.bind(py).clone().into_any(),
            None => py.None().into_bound(py),
        };
        PyTuple::new(
            py,
            [
                self.player.bind(py).clone().into_any(),
                self.mask.bind(py).clone().into_any(),
                obs,
                self.rewards.bind(py).clone().into_any(),
                self.done.bind(py).clone().into_any(),
            ],
        )
    }

    /// Applies `self.picks` (legal indexes, one per env) to every env.
    fn apply_picks<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let picks = std::mem::take(&mut self.picks);
        let r = self.with_outs(py, |ctx, slots, outs, events, token| {
            for (env, (slot, &li)) in slots.iter_mut().zip(&picks).enumerate() {
                ctx.advance(slot, env, li, events, token, outs)
                    .map_err(|e| format!("env {env}: {e}"))?;
            }
            Ok(())
        });
        self.picks = picks;
        r?;
        self.outputs(py)
    }
}

#[pymethods]
impl VectorEnv {
    /// `num_envs` games of `name` with rule `options` (as `GameDef`) at tables of `players`,
    /// dealt from base seed `seed`; `observations`: whether steps fill the observation tensor
    /// of the seat to move (it costs: the seats' views and lines are kept for it). The games
    /// are started (as `reset()`).
    #[new]
    #[pyo3(signature = (name, options=None, players=None, num_envs=1, seed=0, observations=false))]
    fn new(
        py: Python<'_>,
        name: &str,
        options: Option<&Bound<'_, PyDict>>,
        players: Option<usize>,
        num_envs: usize,
        seed: u64,
        observations: bool,
    ) -> PyResult<VectorEnv> {
        if num_envs == 0 {
            return Err(err("num_envs must be at least 1"));
        }
        let def = crate::game_def::GameDef::new(name, options, players)?;
        let crate::game_def::GameDef {
            spec,
            options,
            players,
            vocab,
        } = def;
        let mut index = FxMap::default();
        for a in 0..vocab.len() {
            match vocab.name(a) {
                Some(t) if !t.starts_with("capture") => {
                    index.insert(t, a as u32);
                }
                _ => {}
            }
        }
        let views = if observations {
            (0..players)
                .map(|seat| crate::state::new_view(&spec, &options, players, seat))
                .collect()
        } else {
            Vec::new()
        };
        let ctx = Ctx {
            num_actions: vocab.len(),
            obs_size: tensor::size(spec.name, players),
            spec,
            options,
            players,
            vocab,
            index,
            observe: observations,
            views,
            seed,
            num_envs,
        };
        let mut slots = Vec::with_capacity(num_envs);
        for env in 0..num_envs {
            let seed = ctx.game_seed(env, 0);
            let game = (ctx.spec.new_game)(players, &ctx.options, Chance::seeded(seed), false).map_err(err)?;
            slots.push(Slot {
                game,
                views: Vec::new(),
                seen: vec![Vec::new(); if observations { players } else { 0 }],
                legal: Vec::new(),
                seed,
                episode: 0,
                finished_seed: 0,
            });
        }
        let obs = observations.then(|| PyArray2::<f32>::zeros(py, [num_envs, ctx.obs_size], false).unbind());
        let mut env = VectorEnv {
            player: PyArray1::<i64>::zeros(py, num_envs, false).unbind(),
            mask: PyArray2::<i8>::zeros(py, [num_envs, ctx.num_actions], false).unbind(),
            obs,
            rewards: PyArray2::<f64>::zeros(py, [num_envs, players], false).unbind(),
            done: PyArray1::<bool>::zeros(py, num_envs, false).unbind(),
            actions: PyArray1::<i64>::zeros(py, num_envs, false).unbind(),
            rng: Rng::new(seed, Purpose::Bot, 0),
            ctx,
            slots,
            token: String::new(),
            events: Vec::new(),
            picks: Vec::with_capacity(num_envs),
        };
        env.reset(py, None)?;
        Ok(env)
    }

    /// Starts every env at its episode 0 (from base seed `seed` when given, else the one the
    /// environment has) and the random stream of `step_random` anew. Returns `(current_player,
    /// legal_mask, observations or None, rewards, done)`: rewards zero, done false.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(s) = seed {
            self.ctx.seed = s;
        }
        self.rng = Rng::new(self.ctx.seed, Purpose::Bot, 0);
        self.with_outs(py, |ctx, slots, outs, events, token| {
            outs.rewards.fill(0.0);
            outs.done.fill(false);
            for (env, slot) in slots.iter_mut().enumerate() {
                ctx.start(slot, env, 0, events)?;
                slot.finished_seed = 0;
                ctx.refresh(slot, env, token, outs)?;
            }
            Ok(())
        })?;
        self.outputs(py)
    }

    /// Plays `actions[i]` (an integer of the action space, legal in env i) in every env i.
    /// A finished game's scores go to its row of `rewards`, its `done` is set, and the env
    /// starts its next episode, whose first decision the returned arrays show. Returns the
    /// arrays of `reset()`, updated in place. Every action is checked before any is played.
    fn step<'py>(&mut self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
        // A copy: `actions` may be one of this env's own arrays (`env.actions`), written below.
        let acts = int_actions(actions)?.readonly().as_slice()?.to_vec();
        let n = self.slots.len();
        if acts.len() != n {
            return Err(err(format!(
                "step takes one action per env: {} actions for {n} envs",
                acts.len()
            )));
        }
        self.picks.clear();
        for (env, (slot, &a)) in self.slots.iter().zip(&acts).enumerate() {
            if a < 0 || a as usize >= self.ctx.num_actions {
                return Err(err(format!(
                    "env {env}: action {a} is out of range (the action space of {} is 0..{})",
                    self.ctx.spec.name, self.ctx.num_actions
                )));
            }
            let Some(li) = slot.legal.iter().position(|&id| id as i64 == a) else {
                let name = self.ctx.vocab.name(a as usize).unwrap_or_default();
                return Err(err(format!(
                    "env {env}: action {a} ({name}) is not legal now (legal: {:?})",
                    slot.legal
                )));
            };
            self.picks.push(li);
        }
        {
            let mut taken = self.actions.bind(py).try_readwrite()?;
            taken.as_slice_mut()?.copy_from_slice(&acts);
        }
        self.apply_picks(py)
    }

    /// One step of every env with a uniform random legal action, drawn inside Rust from the
    /// environment's seeded stream; the actions played are in `actions`. Returns as `step`.
    fn step_random<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.picks.clear();
        {
            let mut taken = self.actions.bind(py).try_readwrite()?;
            let taken = taken.as_slice_mut()?;
            for (env, slot) in self.slots.iter().enumerate() {
                let li = self.rng.below(slot.legal.len().max(1) as u64) as usize;
                self.picks.push(li);
                taken[env] = slot.legal.get(li).map_or(-1, |&id| i64::from(id));
            }
        }
        self.apply_picks(py)
    }

    /// The number of envs.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    fn num_players(&self) -> usize {
        self.ctx.players
    }

    /// The size of the action space (the mask's width).
    fn num_distinct_actions(&self) -> usize {
        self.ctx.num_actions
    }

    /// The observation tensor's length (the observations' width).
    fn observation_tensor_size(&self) -> usize {
        self.ctx.obs_size
    }

    /// The base seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.ctx.seed
    }

    /// The seed of game `episode` of env `env`: `run_game_seed(seed, episode * num_envs + env)`.
    fn game_seed(&self, env: usize, episode: u64) -> u64 {
        self.ctx.game_seed(env, episode)
    }

    /// Per env, the seat to move (int64, N), updated in place by every step.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.player.bind(py).clone()
    }

    /// Per env, 1 where an action is legal (int8, N × num_distinct_actions), in place.
    #[getter]
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.mask.bind(py).clone()
    }

    /// The observation tensor of the seat to move (float32, N × observation_tensor_size), in
    /// place; None without observations.
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<f32>>> {
        self.obs.as_ref().map(|o| o.bind(py).clone())
    }

    /// The scores of the games that ended in the last step (float64, N × players; zero rows
    /// for the others), in place.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        self.rewards.bind(py).clone()
    }

    /// Whether env i's game ended in the last step (bool, N), in place.
    #[getter]
    fn done<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.done.bind(py).clone()
    }

    /// The actions of the last step (int64, N), in place: `step_random`'s draws.
    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.actions.bind(py).clone()
    }

    /// The seed of each env's game in play (uint64, N; a new array).
    #[getter]
    fn seeds<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_iter(py, self.slots.iter().map(|s| s.seed))
    }

    /// The episode number of each env's game in play (its finished games; int64, N; a new
    /// array).
    #[getter]
    fn episodes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_iter(py, self.slots.iter().map(|s| s.episode as i64))
    }

    /// The seed of the last game each env finished (uint64, N; 0 before its first; a new
    /// array): where `done[i]`, the game that just ended.
    #[getter]
    fn finished_seeds<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_iter(py, self.slots.iter().map(|s| s.finished_seed))
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorEnv({:?}, players={}, num_envs={}, seed={}, observations={})",
            self.ctx.spec.name,
            self.ctx.players,
            self.slots.len(),
            self.ctx.seed,
            if self.ctx.observe { "True" } else { "False" }
        )
    }
}

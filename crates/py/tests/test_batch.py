"""The batched environment (croupier_games.vector.VectorEnv): the same games as the single-state
API for the same seeds and actions, masks that are the legal actions, reproducible auto-reset
seeds, and clear errors."""

import random

import numpy as np
import pytest

import croupier_games as cg
from croupier_games.vector import VectorEnv
from conftest import SHORT

GAMES = cg.game_names()


class Mirror:
    """Env i of a VectorEnv replayed with single states: a new state from each game's seed."""

    def __init__(self, env, definition):
        self.env, self.definition = env, definition
        self.states = [definition.new_initial_state(env.game_seed(i, 0)) for i in range(len(env))]
        self.episodes = [0] * len(env)
        self.finished = 0

    def check(self, observations, step=0):
        env = self.env
        player, mask = env.current_player, env.legal_mask
        assert list(env.episodes) == self.episodes
        assert list(env.seeds) == [env.game_seed(i, e) for i, e in enumerate(self.episodes)]
        for i, state in enumerate(self.states):
            assert state.seed == env.seeds[i]
            assert player[i] == state.current_player()
            assert list(np.flatnonzero(mask[i])) == state.legal_actions()
            assert mask.dtype == np.int8 and set(np.unique(mask[i])) <= {0, 1}
            if observations and step % observations == 0:
                expected = state.observation_tensor(state.current_player())
                assert np.array_equal(env.observations[i], expected)

    def apply(self, actions, rewards, done):
        for i, state in enumerate(self.states):
            state.apply_action(int(actions[i]))
            assert bool(done[i]) == state.is_terminal()
            if state.is_terminal():
                assert list(rewards[i]) == state.returns()
                assert self.env.finished_seeds[i] == state.seed
                self.episodes[i] += 1
                self.finished += 1
                self.states[i] = self.definition.new_initial_state(self.env.game_seed(i, self.episodes[i]))
            else:
                assert not rewards[i].any()


def play_along(name, seed, observations, chooser, finished=4, limit=6000):
    """Three envs of `name` against their mirrors until `finished` games ended: actions from
    `chooser` (legal integers -> one), or step_random when None; `observations`: 0 for none, k
    to compare them at every k-th step."""
    options = SHORT.get(name)
    env = VectorEnv(name, options, num_envs=3, seed=seed, observations=bool(observations))
    mirror = Mirror(env, cg.GameDef(name, options))
    player, mask, obs, rewards, done = env.reset()
    assert (obs is None) == (not observations)
    assert not done.any() and not rewards.any()
    mirror.check(observations)
    steps = 0
    while mirror.finished < finished and steps < limit:
        if chooser is None:
            _, _, _, rewards, done = env.step_random()
            actions = env.actions
        else:
            actions = np.array([chooser(np.flatnonzero(m)) for m in mask], dtype=np.int64)
            _, _, _, rewards, done = env.step(actions)
            assert list(env.actions) == list(actions)
        mirror.apply(actions, rewards, done)
        steps += 1
        mirror.check(observations, steps)
    assert mirror.finished >= finished, f"{mirror.finished} games finished in {steps} steps"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [0, 5])
def test_step_random_plays_the_single_state_games(name, seed):
    # Sessions of many deals (a Skwitz session is ~900 decisions, each observation made from
    # every line so far): fewer of them.
    finished = {"skwitz": 1, "zwikken": 2, "svangknack": 2}.get(name, 4)
    # Skwitz: the observations compared at every 5th step.
    play_along(name, seed, observations=5 if name == "skwitz" else 1, chooser=None, finished=finished)


@pytest.mark.parametrize("name", GAMES)
def test_step_with_given_actions_and_no_observations(name):
    rng = random.Random(3)
    play_along(name, 9, observations=False, chooser=lambda legal: rng.choice(list(legal)))


@pytest.mark.parametrize("name", ["kul", "rikken"])
def test_observations_do_not_change_the_games(name):
    a = VectorEnv(name, SHORT.get(name), num_envs=4, seed=2, observations=True)
    b = VectorEnv(name, SHORT.get(name), num_envs=4, seed=2, observations=False)
    for _ in range(300):
        pa, ma, _, ra, da = a.step_random()
        pb, mb, ob, rb, db = b.step_random()
        assert ob is None
        assert np.array_equal(pa, pb) and np.array_equal(ma, mb)
        assert np.array_equal(ra, rb) and np.array_equal(da, db)
        assert np.array_equal(a.actions, b.actions)


def test_seeds_are_croupier_play_games_and_reset_replays():
    env = VectorEnv("kul", {"games": 1}, num_envs=4, seed=17)
    assert env.game_seed(2, 3) == cg.run_game_seed(17, 3 * 4 + 2)
    assert list(env.seeds) == [cg.run_game_seed(17, i) for i in range(4)]
    assert list(env.episodes) == [0, 0, 0, 0] and list(env.finished_seeds) == [0, 0, 0, 0]
    trail = []
    for _ in range(500):
        before = env.seeds.copy()
        _, mask, _, rewards, done = env.step_random()
        trail.append((env.actions.copy(), mask.copy(), rewards.copy(), done.copy()))
        for i in np.flatnonzero(done):
            assert env.finished_seeds[i] == before[i]
            assert env.seeds[i] == env.game_seed(i, env.episodes[i])
    assert env.episodes.sum() > 4
    # The same base seed: the same games and the same random actions, after reset() too.
    again = VectorEnv("kul", {"games": 1}, num_envs=4, seed=17)
    for k in range(2):
        for actions, mask, rewards, done in trail:
            again.step_random()
            assert np.array_equal(again.actions, actions) and np.array_equal(again.legal_mask, mask)
            assert np.array_equal(again.rewards, rewards) and np.array_equal(again.done, done)
        again.reset()
    other = VectorEnv("kul", {"games": 1}, num_envs=4, seed=18)
    env.reset(seed=18)
    assert list(env.seeds) == list(other.seeds) and env.seed == 18


def test_arrays_are_filled_in_place():
    env = VectorEnv("rikken", num_envs=5, seed=1, observations=True)
    first = env.reset()
    second = env.step_random()
    for a, b in zip(first, second):
        assert a is b
    assert env.legal_mask is first[1] and env.observations is first[2]
    assert first[0].shape == (5,) and first[0].dtype == np.int64
    assert first[1].shape == (5, env.num_distinct_actions())
    assert first[2].shape == (5, env.observation_tensor_size()) and first[2].dtype == np.float32
    assert first[3].shape == (5, 4) and first[3].dtype == np.float64
    assert first[4].shape == (5,) and first[4].dtype == np.bool_
    assert env.num_envs == len(env) == 5 and env.num_players() == 4


def test_invalid_actions_are_refused_and_nothing_moves():
    env = VectorEnv("kul", {"games": 1}, num_envs=3, seed=4)
    _, mask, _, _, _ = env.reset()
    mask0 = mask.copy()
    legal = [int(np.flatnonzero(m)[0]) for m in mask]
    illegal = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match=r"3 envs"):
        env.step(np.array(legal[:2]))
    with pytest.raises(ValueError, match=rf"env 1: action {illegal} \(\w+\) is not legal"):
        env.step(np.array([legal[0], illegal, legal[2]]))
    with pytest.raises(ValueError, match=r"env 2: action 9999 is out of range"):
        env.step(np.array([legal[0], legal[1], 9999]))
    with pytest.raises(ValueError, match=r"env 0: action -1 is out of range"):
        env.step([-1, legal[1], legal[2]])
    assert np.array_equal(env.legal_mask, mask0)
    with pytest.raises(ValueError, match=r"one integer per env.*float64"):
        env.step(np.array(legal, dtype=np.float64))
    with pytest.raises(ValueError, match=r"one integer per env.*shape \(1, 3\)"):
        env.step(np.array([legal]))
    assert np.array_equal(env.legal_mask, mask0)
    env.step(np.array(legal, dtype=np.int32))  # any integer dtype, and lists, are taken
    env.step(env.legal_mask.argmax(axis=1).tolist())
    own = env.actions
    own[:] = env.legal_mask.argmax(axis=1)
    env.step(own)  # the env's own array, which the step writes
    assert env.episodes.sum() == 0 and env.current_player.min() >= 0
    with pytest.raises(ValueError, match="no game"):
        VectorEnv("nope")
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv("kul", num_envs=0)
    with pytest.raises(ValueError, match="players"):
        VectorEnv("rikken", players=7)

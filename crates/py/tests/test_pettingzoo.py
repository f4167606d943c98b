"""PettingZoo: the AEC environment passes PettingZoo's own API test, for every game."""

import json

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import croupier_games as cg  # noqa: E402
from conftest import SHORT  # noqa: E402
from croupier_games.pettingzoo import env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402


@pytest.mark.parametrize("name", cg.game_names())
def test_api(name):
    api_test(env(name, SHORT.get(name)), num_cycles=300)


def test_masked_random_play_ends_with_the_scores():
    e = env("kul", {"games": 1})
    e.reset(seed=4)
    rng = np.random.RandomState(4)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["action_mask"].sum() >= 1
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = cg.new_game("kul", {"games": 1}, seed=4)
    # reset(seed=4) dealt what new_game(seed=4) deals.
    assert json.loads(e.state.deals_json())[0] == json.loads(state.deals_json())[0]
    assert [total[a] for a in e.possible_agents] == e.state.returns()

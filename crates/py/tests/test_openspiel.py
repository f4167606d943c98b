"""OpenSpiel: every game registered with pyspiel, and OpenSpiel's own ISMCTS bot playing whole
games of two of them."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import croupier_games as cg  # noqa: E402
import croupier_games.openspiel  # noqa: E402,F401  (registers the games)
from conftest import SHORT  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402


@pytest.mark.parametrize("name", cg.game_names())
def test_registered_and_playable_through_pyspiel(name):
    game = pyspiel.load_game(f"croupier_{name}", SHORT.get(name, {}))
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    params = game.get_parameters()
    assert "seed" in params and "players" in params
    assert set(dict(cg.GameDef(name).options())) <= set(params)
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        assert state.information_state_string(p).startswith(f"{name} seat {p}")
        assert len(state.observation_tensor(p)) == game.observation_tensor_size()
        legal = state.legal_actions()
        assert legal and all(0 <= a < game.num_distinct_actions() for a in legal)
        state.apply_action(int(rng.choice(legal)))
    assert len(state.returns()) == game.num_players()


def test_kth_new_state_is_game_k_of_a_run():
    game = pyspiel.load_game("croupier_kul", {"games": 1, "seed": 99})
    first, second = game.new_initial_state(), game.new_initial_state()
    assert first.inner.seed == cg.run_game_seed(99, 0) and second.inner.seed == cg.run_game_seed(99, 1)


@pytest.mark.parametrize("name", ["rikken", "kul"])
def test_ismcts_plays_whole_games(name):
    # Three seats at Kul: a shorter game (ISMCTS's random rollouts are Python loops).
    params = dict(SHORT.get(name, {}), **({"players": 3} if name == "kul" else {}))
    game = pyspiel.load_game(f"croupier_{name}", params)
    for g in range(2):
        # The sampler's seeds come from numpy's global generator: seeded, the run is the same
        # every time.
        np.random.seed(g)
        rs = np.random.RandomState(g)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
        state = game.new_initial_state()
        searched = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            action = bot.step(state)
            assert action in legal
            searched += len(legal) > 1
            state.apply_action(action)
        assert searched > 0
        assert len(state.returns()) == game.num_players()

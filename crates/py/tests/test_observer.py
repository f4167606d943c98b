"""SeatObserver: a seat's tensor and integer actions rebuilt from the lines the seat is told,
as a bot at a croupier table gets them, equal the state's; and `simple_action` chooses as
croupier's `simple` bot."""

import json
import random
import subprocess

import numpy as np
import pytest

import croupier_games as cg
from conftest import SHORT


def lines_of(state, seat):
    """The seat's lines (its information state without the header), as (kind, args)."""
    body = state.information_state_string(seat).splitlines()[1:]
    return [(line.split()[0], line.split()[1:]) for line in body]


@pytest.mark.parametrize("name", cg.game_names())
def test_the_observer_sees_what_the_state_shows_the_seat(name):
    game = cg.GameDef(name, SHORT.get(name))
    players = game.num_players()
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        observers = [cg.SeatObserver(name, players, s, dict(game.options())) for s in range(players)]
        fed = [0] * players
        while not state.is_terminal():
            seat = state.current_player()
            lines = lines_of(state, seat)
            for kind, args in lines[fed[seat]:]:
                observers[seat].observe(kind, args)
            fed[seat] = len(lines)
            assert len(observers[seat]) == len(lines)
            assert json.loads(observers[seat].view_json()) == json.loads(state.observation_string(seat))
            np.testing.assert_array_equal(observers[seat].observation_tensor(), state.observation_tensor(seat),
                                          err_msg=f"{name} seed {seed} seat {seat} after {len(state.history())} actions")
            legal = state.legal_actions()
            tokens = state.legal_action_strings()
            # In the tokens' order (the `act` line's), each the state's integer for that token.
            assert observers[seat].legal_actions(tokens) == [state.string_to_action(t) for t in tokens]
            assert sorted(observers[seat].legal_actions(tokens)) == sorted(legal)
            checked += 1
            state.apply_action(rng.choice(legal))
    assert checked > 20


def test_the_observer_refuses_a_bad_table():
    with pytest.raises(ValueError, match="no game"):
        cg.SeatObserver("poker", 4, 0)
    with pytest.raises(ValueError, match="rikken is played by 4 to 4 players, not 3"):
        cg.SeatObserver("rikken", 3, 0)
    with pytest.raises(ValueError, match="no seat 4"):
        cg.SeatObserver("rikken", 4, 4)
    with pytest.raises(ValueError, match="not_a_rule"):
        cg.SeatObserver("rikken", 4, 0, {"not_a_rule": "1"})


@pytest.mark.parametrize("name", cg.game_names())
def test_simple_action_plays_the_games_croupier_simple_plays(name, croupier_bin):
    """Four (or n) `simple` seats at `croupier play`: at every action of the record,
    simple_action on the same state chooses the action the built-in bot chose."""
    players = cg.GameDef(name).num_players()
    rules = [f"--rule={k}={v}" for k, v in SHORT.get(name, {}).items()]
    out = subprocess.run(
        [croupier_bin, "play", name, *(["--bot", "simple"] * players), "--seed", "77",
         "--games", "2", "--record", "-", "--quiet", *rules],
        check=True, capture_output=True, text=True, timeout=300)
    records = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    assert len(records) == 2
    for k, rec in enumerate(records):
        state = cg.GameDef(name, rec["options"], rec["players"]).new_initial_state(cg.run_game_seed(77, k))
        for step, act in enumerate(rec["actions"]):
            chosen = cg.simple_action(state)
            assert state.action_to_string(chosen) == act["action"], f"game {k + 1} action {step + 1}"
            state.apply_action(chosen)
        assert state.is_terminal()
    with pytest.raises(ValueError, match="game is over"):
        cg.simple_action(state)

"""The core API: integer actions, clones, returns, tensors, and what each seat may see."""

import json
import random
import re

import numpy as np
import pytest

import croupier_games as cg
from conftest import SHORT
import tensor_layout

GAMES = cg.game_names()
CARD = re.compile(r"^(?:[2-9TJQKA][SHDC])$")


def play_random(state, rng, limit=100000):
    steps = 0
    while not state.is_terminal() and steps < limit:
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def test_six_games():
    assert GAMES == ["rikken", "zwikken", "svangknack", "kul", "skwitz", "schwimmen"]


@pytest.mark.parametrize("name", GAMES)
def test_integer_actions_round_trip(name):
    game = cg.GameDef(name, SHORT.get(name))
    for seed in range(8):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            tokens = state.legal_action_strings()
            assert legal == sorted(set(legal)) and len(legal) == len(tokens)
            assert all(0 <= a < game.num_distinct_actions() for a in legal)
            assert sorted(state.action_to_string(a) for a in legal) == sorted(tokens)
            for a in legal:
                assert state.string_to_action(state.action_to_string(a)) == a
            mask = state.legal_actions_mask()
            assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == legal
            state.apply_action(rng.choice(legal))
        assert state.current_player() == -4 and state.legal_actions() == []
        assert len(state.returns()) == game.num_players()


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_game_and_clone_is_independent(name):
    game = cg.GameDef(name, SHORT.get(name))
    a, b = game.new_initial_state(11), game.new_initial_state(11)
    assert a.deals_json() == b.deals_json()
    rng = random.Random(1)
    for _ in range(5):
        if a.is_terminal():
            break
        act = rng.choice(a.legal_actions())
        a.apply_action(act)
        b.apply_action(act)
    copy = a.clone()
    before = a.information_state_string(0)
    play_random(copy, random.Random(2))
    assert copy.is_terminal()
    assert a.information_state_string(0) == before and not (a.is_terminal() and not b.is_terminal())
    # A clone deals what the original would: the same actions end in the same scores.
    copy2, rng2, rng3 = a.clone(), random.Random(3), random.Random(3)
    play_random(a, rng2)
    play_random(copy2, rng3)
    assert a.returns() == copy2.returns() and a.deals_json() == copy2.deals_json()


@pytest.mark.parametrize("name", GAMES)
def test_tensor_shape_and_seat(name):
    game = cg.GameDef(name, SHORT.get(name))
    state = game.new_initial_state(5)
    n = game.num_players()
    for p in range(n):
        t = state.observation_tensor(p)
        assert t.dtype == np.float32 and t.shape == (game.observation_tensor_size(),)
        assert t[:n].tolist() == [1.0 if s == p else 0.0 for s in range(n)]
        assert t[n + state.current_player()] == 1.0


def state_game(state):
    return state.information_state_string(0).split(" ", 1)[0]


def strings_cards(state, p):
    """Every card token in seat p's strings, and the cards its tensor marks."""
    words = re.split(r"[\s,:_]+", state.information_state_string(p))

    def walk(v):
        if isinstance(v, str):
            yield from re.split(r"[\s,:_]+", v)
        elif isinstance(v, list):
            for x in v:
                yield from walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                yield from walk(x)

    words += list(walk(json.loads(state.observation_string(p))))
    cards = {w for w in words if CARD.match(w)}
    n = state.num_players()
    lay = tensor_layout.layout(state_game(state), n)
    return cards | tensor_layout.all_cards(state.observation_tensor(p), lay, n)


@pytest.mark.parametrize("name", GAMES)
def test_no_seat_sees_another_seats_hand_at_the_deal(name):
    game = cg.GameDef(name, SHORT.get(name))
    for seed in range(10):
        state = game.new_initial_state(seed)
        deal = json.loads(state.deals_json())[-1]  # the deal in play (Skwitz may throw deals away)
        for p in range(game.num_players()):
            seen = strings_cards(state, p)
            assert set(deal["hands"][p]) <= seen, "a seat sees its own hand"
            for q, hand in enumerate(deal["hands"]):
                if q != p:
                    assert not seen & set(hand), f"seat {p} sees seat {q}'s cards {seen & set(hand)}"


def test_kul_hidden_cards_stay_hidden_until_played():
    # Kul shows no card but by playing it: through the first deal, a card of another seat that
    # has not been played is never in a seat's strings or tensor.
    game = cg.GameDef("kul", {"games": 1})
    for seed in range(10):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        hands = json.loads(state.deals_json())[0]["hands"]
        checked = 0
        while not state.is_terminal() and len(json.loads(state.deals_json())) == 1:
            played = {t for _, t in state.history()}
            for p in range(game.num_players()):
                seen = strings_cards(state, p)
                for q, hand in enumerate(hands):
                    if q != p:
                        hidden = set(hand) - played
                        assert not seen & hidden, f"seed {seed}: seat {p} sees {seen & hidden} of seat {q}"
                        checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
        assert checked > 0


# Rejection sampling still fails in Zwikken (bids that constrain hands), Skwitz (its later
# rounds' hands) and Schwimmen (its later rounds) within a few dozen actions.
@pytest.mark.parametrize("name", ["rikken", "kul", "svangknack"])
def test_resampled_worlds_look_the_same_to_the_seat(name):
    game = cg.GameDef(name, SHORT.get(name))
    state = game.new_initial_state(21)
    rng = random.Random(21)
    differs = 0
    for step in range(30):
        if state.is_terminal():
            break
        p = state.current_player()
        world = state.resample_from_infostate(p, step)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.legal_action_strings() == state.legal_action_strings()
        others = [h for q, h in enumerate(json.loads(world.deals_json())[-1]["hands"]) if q != p]
        truth = [h for q, h in enumerate(json.loads(state.deals_json())[-1]["hands"]) if q != p]
        differs += others != truth
        state.apply_action(rng.choice(state.legal_actions()))
    assert differs > 0, "the resampled worlds never changed a hidden card"


def test_options_and_errors():
    game = cg.GameDef("kul", {"games": 2, "stake": 2})
    assert dict(game.options())["games"] == "2"
    with pytest.raises(ValueError):
        cg.GameDef("kul", {"no_such_option": 1})
    with pytest.raises(ValueError):
        cg.GameDef("chess")
    state = cg.new_game("kul", {"games": 1}, seed=1)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError):
        state.apply_action(illegal)


def test_a_rikken_world_keeps_the_hands_a_seat_was_shown():
    # Open contracts (open misère, praatje) show hands to the other seats (`exposed` lines): a
    # resampled world must deal those cards where they were shown, or none fits at all.
    game = cg.GameDef("rikken")
    shown = 0
    for seed in range(400):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            p = state.current_player()
            if "\nexposed " in state.information_state_string(p):
                world = state.resample_from_infostate(p, seed)
                assert world.information_state_string(p) == state.information_state_string(p)
                shown += 1
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if shown >= 3:
            break
    assert shown >= 3, "no open contract was reached in 400 random games"

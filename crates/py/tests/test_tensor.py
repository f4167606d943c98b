"""The observation tensor of each game against its documented layout (docs/rules/<game>.md,
"Python tensor", read by tensor_layout), from the seat's point of view: every block is checked
against the seat's own strings (the lines it was told and its JSON view), and a seat's tensor
is the same in every world it cannot tell from the real one."""

import json
import random
import re

import numpy as np
import pytest

import croupier_games as cg
import tensor_layout as tl
from conftest import SHORT

GAMES = cg.game_names()
CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
TRICK_GAMES = {"kul", "rikken", "zwikken", "svangknack"}
# The blocks that hold at most one 1.
ONE_HOT = {"seat", "to_move", "to_move_rel", "dealer_rel", "leader", "contract", "trump", "partner",
           "swinger", "last_captor", "pot_holder", "knocker"}


def game_def(name, players=None):
    return cg.GameDef(name, SHORT.get(name), players)


@pytest.mark.parametrize("name", GAMES)
def test_the_documented_layout_covers_the_tensor(name):
    lo, hi = cg.GameDef(name).players_range()
    for players in sorted({lo, cg.GameDef(name).num_players(), hi}):
        game = game_def(name, players)
        lay = tl.layout(name, players)
        assert list(lay)[:5] == ["seat", "to_move", "to_move_rel", "dealer_rel", "hand"]
        at = 0
        for block, (offset, size) in lay.items():
            assert offset == at, f"{name}: block {block} at {offset}, the one before ends at {at}"
            at += size
        assert at == game.observation_tensor_size(), f"{name} at {players}: {at}"
        state = game.new_initial_state(3)
        assert len(state.observation_tensor(0)) == at
    # The length the section's text states, as a formula and at the default table.
    text = (tl.ROOT / "docs" / "rules" / f"{name}.md").read_text()
    m = re.search(r"`observation_tensor\(p\)` is float32, ([0-9P+]+) long \((\d+) at", text)
    assert m, f"{name}.md states no tensor length"
    default = cg.GameDef(name).num_players()
    assert tl.evaluate(m.group(1), default) == int(m.group(2)) == game_def(name).observation_tensor_size()


def deal_lines(state, p):
    """The lines seat p was told since the current deal's `deal` line, split into words."""
    lines = [line.split() for line in state.information_state_string(p).splitlines()[1:]]
    start = max((i for i, w in enumerate(lines) if w and w[0] == "deal"), default=0)
    return lines[start:]


def by_rel(values, p, n):
    """Values by absolute seat, reordered by seat relative to p (numbers as float32 holds them:
    random play runs Zwikken's pot to amounts float32 rounds)."""
    values = [values[(p + r) % n] for r in range(n)]
    return [float(np.float32(v)) if isinstance(v, (int, float)) else v for v in values]


def string_cards(state, p):
    """Every card token named in seat p's strings."""
    words = set(re.split(r"[\s,:_\"\[\]{}]+", state.information_state_string(p)))
    words |= set(re.split(r"[\s,:_\"\[\]{}]+", state.observation_string(p)))
    return {w for w in words if CARD.match(w)}


def trick_play(lines, n):
    """Per seat: the cards of the trick in play, the cards played this deal, tricks won."""
    trick, played, won, leader = [set() for _ in range(n)], [set() for _ in range(n)], [0] * n, None
    for w in lines:
        if w[0] == "move" and len(w) >= 3:
            s, tok = int(w[1]), w[2]
            card = tok if CARD.match(tok) else None
            m = re.fullmatch(r"exchange_([2-9TJQKA][SHDC])_([2-9TJQKA][SHDC])", tok)
            if m:
                card = m.group(2)
            if card and (len(w) < 4 or w[3] in ("play", "exchange")):
                leader = s if leader is None else leader
                trick[s].add(card)
                played[s].add(card)
        elif w[0] == "trick":
            won[int(w[2])] += 1
            trick, leader = [set() for _ in range(n)], None
    return trick, played, won, leader


def check(name, state, p):
    n = state.num_players()
    lay = tl.layout(name, n)
    t = state.observation_tensor(p)
    assert t.dtype == np.float32 and t.shape == (sum(s for _, s in lay.values()),)
    view = json.loads(state.observation_string(p))
    lines = deal_lines(state, p)
    b = lambda block: tl.block(t, lay, block)  # noqa: E731
    for block in ONE_HOT & set(lay):
        assert b(block).sum() <= 1 and set(np.unique(b(block))) <= {0.0, 1.0}, block
    assert b("seat").tolist() == [float(s == p) for s in range(n)]
    cur = state.current_player()
    assert b("to_move").tolist() == [float(s == cur) for s in range(n)]
    assert b("to_move_rel").tolist() == [float(cur >= 0 and r == (cur - p) % n) for r in range(n)]
    if lines and lines[0][0] == "deal":
        assert np.flatnonzero(b("dealer_rel")).tolist() == [(int(lines[0][2]) - p) % n]
    assert tl.cards(b("hand")) == set(view["hand"]), "the hand block is the view's hand"
    # Every card the tensor marks is named in what the seat was told.
    assert tl.all_cards(t, lay, n) <= string_cards(state, p)

    if name in TRICK_GAMES:
        trick, played, won, leader = trick_play(lines, n)
        assert tl.per_seat_cards(t, lay, "trick", n) == by_rel(trick, p, n)
        assert tl.per_seat_cards(t, lay, "played", n) == by_rel(played, p, n)
        assert b("tricks_won").tolist() == by_rel(won, p, n)
        assert b("leader").tolist() == [float(leader is not None and r == (leader - p) % n) for r in range(n)]
    if name == "kul":
        assert b("marks").tolist() == by_rel(view["marks"], p, n)
        assert b("chips").tolist() == by_rel(view["chips"], p, n)
        assert b("pot").tolist() == by_rel([view["pot"]], 0, 1)
    if name == "rikken":
        bids = [set() for _ in range(n)]
        for w in lines:
            if w[0] == "move" and w[3] == "bid":
                bids[int(w[1])].add(w[2])
        got = tl.block(t, lay, "bids").reshape(n, 30)
        words = ["pass"] + [cg.GameDef("rikken").action_name(a) for a in range(1, 30)]
        assert [{words[i] for i in np.flatnonzero(row)} for row in got] == by_rel(bids, p, n)
        contract = view["contract"]
        declarers = set(contract["declarers"]) if contract else set()
        assert b("declarers").tolist() == [float((p + r) % n in declarers) for r in range(n)]
        trumps = ["S", "H", "D", "C", "none"]
        assert b("trump").tolist() == [float(view["trump"] == x) for x in trumps]
        exposed = [set(view["exposed"].get(str(s), [])) for s in range(n)]
        assert tl.per_seat_cards(t, lay, "exposed", n) == by_rel(exposed, p, n)
    if name == "zwikken":
        assert tl.cards(b("turned")) == set(view["turned"])
        assert b("chips").tolist() == by_rel(view["chips"], p, n)
        assert b("pot").tolist() == by_rel([view["pot"]], 0, 1)
        assert b("active").tolist() == by_rel([float(a) for a in view["active"]], p, n)
    if name == "svangknack":
        assert tl.cards(b("turnup")) == set(view["turnup"])
        assert b("chips").tolist() == by_rel(view["chips"], p, n)
        assert b("pot").tolist() == by_rel([view["pot"]], 0, 1)
    if name == "skwitz":
        played, captured = [set() for _ in range(n)], [set() for _ in range(n)]
        for w in lines:
            if w[0] == "move" and w[2] != "out":
                s, (c, _, taken) = int(w[1]), w[2].partition(":")
                played[s].add(c)
                if taken:
                    captured[s] |= {c, *taken.split(",")}
        assert tl.per_seat_cards(t, lay, "played", n) == by_rel(played, p, n)
        assert tl.per_seat_cards(t, lay, "captured", n) == by_rel(captured, p, n)
        assert tl.cards(b("table")) == set(view["table"])
        assert b("hand_sizes").tolist() == by_rel(view["hand_sizes"], p, n)
        assert b("stock").tolist() == [view["stock"]]
        assert b("points").tolist() == by_rel(view["points"], p, n)
        assert b("chips").tolist() == by_rel(view["chips"], p, n)
    if name == "schwimmen":
        assert tl.cards(b("middle")) == set(view["middle"])
        assert b("strikes").tolist() == by_rel(view["strikes"], p, n)
        assert b("active").tolist() == by_rel([float(a) for a in view["active"]], p, n)
        assert b("swimming").tolist() == by_rel([float(s in view["swimming"]) for s in range(n)], p, n)
        knocks = [int(w[1]) for w in lines if w[0] == "move" and w[2] == "knock"]
        assert b("knocker").tolist() == [float(bool(knocks) and r == (knocks[-1] - p) % n) for r in range(n)]
        if len(view["hand"]) == 3:
            value = b("hand_value")[0]
            suits = {}
            for c in view["hand"]:
                points = 11 if c[0] == "A" else 10 if c[0] in "TJQK" else int(c[0])
                suits[c[1]] = suits.get(c[1], 0) + points
            trio = len({c[0] for c in view["hand"]}) == 1
            assert value == max(max(suits.values()), 30.5 if trio else 0)


@pytest.mark.parametrize("name", GAMES)
def test_every_block_is_what_the_seat_was_told(name):
    game = game_def(name)
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        steps = 0
        while True:
            if steps % 5 == 0 or state.is_terminal():
                for p in range(game.num_players()):
                    check(name, state, p)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1


@pytest.mark.parametrize("name", ["rikken", "kul", "zwikken", "svangknack", "schwimmen"])
def test_a_seats_tensor_is_the_same_in_every_world_it_cannot_tell_apart(name):
    # Skwitz is left out: resample_from_infostate finds no world for it (the table is not pinned);
    # Svängknack and Schwimmen find one now and then (a few hundred tries each: enough here).
    game = game_def(name)
    n = game.num_players()
    compared = changed_other = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        for step in range(24):
            if state.is_terminal():
                break
            if step % 3 == 0:
                p = state.current_player()
                try:
                    world = state.resample_from_infostate(p, seed * 100 + step, 300)
                except ValueError:
                    world = None
                if world is not None and world.deals_json() != state.deals_json():
                    assert world.information_state_string(p) == state.information_state_string(p)
                    assert np.array_equal(world.observation_tensor(p), state.observation_tensor(p))
                    compared += 1
                    # Another seat's hidden cards differ there, and its own tensor shows it.
                    changed_other += any(
                        not np.array_equal(world.observation_tensor(q), state.observation_tensor(q))
                        for q in range(n) if q != p
                    )
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared >= 3, f"{name}: only {compared} worlds compared"
    assert changed_other >= 1

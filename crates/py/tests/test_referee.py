"""Same games as the referee: `croupier play` with seeded random bots, its record replayed here."""

import json
import subprocess

import pytest

import croupier_games as cg
from conftest import SHORT

RUN_SEED = 20261128
GAMES_PER_RUN = 3


@pytest.mark.parametrize("name", cg.game_names())
def test_record_replays_identically(name, croupier_bin):
    players = cg.GameDef(name).num_players()
    rules = [f"--rule={k}={v}" for k, v in SHORT.get(name, {}).items()]
    out = subprocess.run(
        [croupier_bin, "play", name, *(["--bot", "random"] * players), "--seed", str(RUN_SEED),
         "--bot-seed", "7", "--games", str(GAMES_PER_RUN), "--record", "-", "--quiet", *rules],
        check=True, capture_output=True, text=True, timeout=300)
    records = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    assert len(records) == GAMES_PER_RUN
    for k, rec in enumerate(records):
        seed = cg.run_game_seed(RUN_SEED, k)
        assert rec["seed"] == str(seed)
        game = cg.GameDef(name, rec["options"], rec["players"])
        state = game.new_initial_state(seed)
        for step, act in enumerate(rec["actions"]):
            assert not act.get("substitute"), "random bots never fault"
            assert state.current_player() == act["seat"], f"game {k + 1} action {step + 1}"
            legal = state.legal_action_strings()
            assert act["action"] in legal, f"game {k + 1} action {step + 1}: {act['action']} not in {legal}"
            # The integer API takes the same step.
            state.apply_action(state.string_to_action(act["action"]))
        assert state.is_terminal()
        assert json.loads(state.deals_json()) == rec["deals"]
        assert state.returns() == rec["result"]["scores"]

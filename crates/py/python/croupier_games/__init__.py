"""croupier's six card games for learning: OpenSpiel-shaped states over croupier's typed rules
engines (the same deals, legal actions and scores as ``croupier play`` for the same seed).

>>> import croupier_games as cg
>>> state = cg.new_game("kul", {"games": 1}, seed=7)
>>> state.legal_actions()[:3]  # integers: indexes into the fixed action space

``croupier_games.openspiel`` registers every game with pyspiel; ``croupier_games.pettingzoo``
has an AEC environment with action masks.
"""

from ._croupier_games import (
    GameDef,
    SeatObserver,
    State,
    game_names,
    rule_options,
    run_game_seed,
    simple_action,
)

__all__ = [
    "GameDef",
    "SeatObserver",
    "State",
    "new_game",
    "game_names",
    "rule_options",
    "run_game_seed",
    "simple_action",
]


def new_game(name, options=None, seed=0, players=None):
    """A new game of ``name`` (``kul``, ``rikken``, ...) with rule ``options`` (a dict, as
    ``croupier play --rule K=V``), dealt from ``seed`` (the game's seed: a record's ``seed``;
    ``run_game_seed(S, k)`` is game k of ``croupier play --seed S``). Returns its state."""
    return GameDef(name, options, players).new_initial_state(seed)

"""croupier's games as OpenSpiel Python games (``pyspiel.register_game``).

``import croupier_games.openspiel`` registers ``croupier_<game>`` for each of the six games;
then ``pyspiel.load_game("croupier_kul", {"games": 1})`` works with OpenSpiel's algorithms.

Parameters are croupier's rule options (``croupier rules GAME``), plus ``players`` (the number of
seats) and ``seed``: the k-th ``new_initial_state()`` of a game object deals game k of a
``croupier play --seed SEED`` run.

Chance is *sampled stochastic*: the engine deals from the seed inside ``apply_action`` as
``croupier play`` does, so deals are exactly the referee's (a deal is one draw among up to
52!/(13!^4) outcomes: explicit chance nodes would need a per-card chance action and would deal
differently from the referee). ``resample_from_infostate`` draws another deal consistent with
what a seat has seen (rejection sampling in Rust, see ``State.resample_from_infostate``), which
is what ISMCTS and other determinizing algorithms need.
"""

import numpy as np
import pyspiel

from . import GameDef, game_names, rule_options, run_game_seed

_DEFINITIONS = {}
_CLASSES = []


def _param(default):
    if default in ("true", "false"):
        return default == "true"
    try:
        return int(default)
    except ValueError:
        return default


def _parameters(name):
    params = {name_: _param(default) for name_, default, _help in rule_options(name)}
    params["players"] = GameDef(name).num_players()
    params["seed"] = 0
    return params


class CroupierObserver:
    """OpenSpiel's PyObserver: the information state (perfect recall) or the observation of one
    seat, as a string and the float32 tensor (layout: docs/rules/<game>.md, "Python tensor")."""

    def __init__(self, size, perfect_recall):
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self._perfect_recall = perfect_recall

    def set_from(self, state, player):
        self.tensor[:] = state.inner.observation_tensor(player)

    def string_from(self, state, player):
        if self._perfect_recall:
            return state.inner.information_state_string(player)
        return state.inner.observation_string(player)


class CroupierState(pyspiel.State):
    """One game: a thin shell over ``croupier_games.State``."""

    def __init__(self, game, inner):
        super().__init__(game)
        self.inner = inner

    def current_player(self):
        if self.inner.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.inner.current_player()

    def _legal_actions(self, player):
        if player != self.inner.current_player():
            return []
        return self.inner.legal_actions()

    def _apply_action(self, action):
        self.inner.apply_action(int(action))

    def _action_to_string(self, player, action):
        return self.inner.action_to_string(int(action))

    def is_terminal(self):
        return self.inner.is_terminal()

    def returns(self):
        return self.inner.returns()

    def resample_from_infostate(self, player_id, probability_sampler=None):
        seed = np.random.randint(0, 2**63 - 1) if probability_sampler is None else int(
            probability_sampler() * (2**53))
        return CroupierState(self.get_game(), self.inner.resample_from_infostate(player_id, seed))

    def clone(self):
        return CroupierState(self.get_game(), self.inner.clone())

    def __deepcopy__(self, memo):
        return self.clone()

    def __str__(self):
        return str(self.inner)


class CroupierGame(pyspiel.Game):
    """One of croupier's games with its rule options."""

    NAME = None

    def __init__(self, params=None):
        name = self.NAME
        game_type = _game_type(name)
        full = _parameters(name)
        full.update(params or {})
        options = {k: v for k, v in full.items() if k not in ("players", "seed")}
        # The definition lives in a module dict, not on the game: pyspiel keeps loaded games in
        # a C++ cache that outlives the interpreter, and a Rust object held there would be
        # dropped without the GIL at exit.
        self._key = (name, tuple(sorted(options.items())), int(full["players"]))
        if self._key not in _DEFINITIONS:
            _DEFINITIONS[self._key] = GameDef(name, options, int(full["players"]))
        self._seed = int(full["seed"])
        self._games = 0
        n = self.definition.num_players()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.definition.num_distinct_actions(),
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1e12,
            max_utility=1e12,
            utility_sum=None,
            max_game_length=100000)
        super().__init__(game_type, info, full)

    @property
    def definition(self):
        return _DEFINITIONS[self._key]

    def new_initial_state(self):
        seed = run_game_seed(self._seed, self._games)
        self._games += 1
        return CroupierState(self, self.definition.new_initial_state(seed))

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return CroupierObserver(self.definition.observation_tensor_size(), perfect_recall)


def _game_type(name):
    d = GameDef(name)
    low, high = d.players_range()
    return pyspiel.GameType(
        short_name=f"croupier_{name}",
        long_name=f"croupier {d.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name))


def register():
    """Registers every game (idempotent)."""
    registered = set(pyspiel.registered_names())
    for name in game_names():
        short = f"croupier_{name}"
        if short in registered:
            continue
        # A class per game, as OpenSpiel's own Python games register (a closure held in pyspiel's
        # registry made the interpreter abort at exit).
        cls = type(f"Croupier{name.capitalize()}Game", (CroupierGame,), {"NAME": name})
        _CLASSES.append(cls)
        pyspiel.register_game(_game_type(name), cls)


register()

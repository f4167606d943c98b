"""croupier's games as PettingZoo AEC environments with action masks.

>>> from croupier_games.pettingzoo import env
>>> e = env("kul", {"games": 1})
>>> e.reset(seed=3)
>>> obs, reward, term, trunc, info = e.last()   # obs: {"observation", "action_mask"}

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). Observations are the seat's
``observation_tensor`` (docs/rules/<game>.md, "Python tensor") and the mask of its legal actions
over the game's fixed action space (all zeros when it is not that seat's turn). Rewards come at the
end: each seat's score. ``reset(seed=S)`` deals from seed S.
"""

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from . import GameDef


def env(name, options=None, players=None, render_mode=None):
    """An AEC environment of game ``name`` with rule ``options``."""
    return CroupierEnv(name, options, players, render_mode)


class CroupierEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "croupier_v0", "is_parallelizable": False}

    def __init__(self, name, options=None, players=None, render_mode=None):
        super().__init__()
        self.definition = GameDef(name, options, players)
        self.metadata = dict(self.metadata, name=f"croupier_{name}_v0")
        self.render_mode = render_mode
        n = self.definition.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        size = self.definition.observation_tensor_size()
        actions = self.definition.num_distinct_actions()
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(actions) for a in self.possible_agents}
        self._seed = 0
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _seat(self, agent):
        return int(agent.rsplit("_", 1)[1])

    def observe(self, agent):
        seat = self._seat(agent)
        if self.state.current_player() == seat:
            mask = self.state.legal_actions_mask()
        else:
            mask = np.zeros(self.definition.num_distinct_actions(), np.int8)
        return {"observation": self.state.observation_tensor(seat), "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = int(seed)
        else:
            self._seed += 1
        self.state = self.definition.new_initial_state(self._seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, self.state.returns()):
                if a in self.agents:
                    self.rewards[a] = float(r)
                    self.terminations[a] = True
            # Dead agents step out in seat order.
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return str(self.state)
        return None

    def close(self):
        pass

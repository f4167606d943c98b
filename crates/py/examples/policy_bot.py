"""A croupier bot that plays a policy trained by `train_policy.py`.

    croupier play rikken --seat "python3 crates/py/examples/policy_bot.py rikken-policy.npz" \\
        --seat simple --seat simple --seat simple

It speaks the protocol through the bot kit (bots/python/croupier_kit.py) and rebuilds, from the
lines its seat is told, the observation tensor the policy was trained on (croupier_games'
`SeatObserver`: the same seat view and tensor as the training states gave). At each decision
it plays the legal action of highest probability. Needs numpy and the croupier_games package.
"""

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "bots" / "python"))

import croupier_games as cg  # noqa: E402
from croupier_kit import Bot  # noqa: E402


class PolicyBot(Bot):
    name = "policy"
    version = "1"
    want_view = False

    def __init__(self, path):
        super().__init__()
        data = np.load(path)
        self.w1, self.b1, self.w2, self.b2 = data["w1"], data["b1"], data["w2"], data["b2"]
        self.trained_for = str(data["game"])
        self.trained_players = int(data["players"])
        self.trained_options = {str(k): str(v) for k, v in data["options"]}
        self.observer = None
        self.fed = 0

    def new_game(self, game):
        super().new_game(game)
        self.observer = None
        self.fed = 0

    def choose(self, decision, legal):
        if self.game != self.trained_for:
            raise ValueError(f"this policy was trained for {self.trained_for}, not {self.game}")
        if self.players != self.trained_players:
            raise ValueError(f"this policy was trained for {self.trained_players} players, not {self.players}")
        changed = sorted(k for k, v in self.options.items() if self.trained_options.get(k) != v)
        if changed:
            k = changed[0]
            raise ValueError(f"this policy was trained with option {k}={self.trained_options.get(k)}, "
                             f"not {k}={self.options[k]}")
        if self.observer is None:
            self.observer = cg.SeatObserver(self.game, self.players, self.seat, self.options)
        for kind, args in self.events[self.fed:]:
            self.observer.observe(kind, args)
        self.fed = len(self.events)
        ids = self.observer.legal_actions(legal)
        x = self.observer.observation_tensor()
        logits = np.tanh(x @ self.w1 + self.b1) @ self.w2 + self.b2
        return legal[int(np.argmax(logits[ids]))]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: policy_bot.py POLICY.npz (written by train_policy.py)")
    PolicyBot(sys.argv[1]).run()

"""Train a small policy for one of croupier's games with numpy alone, and export it.

    python crates/py/examples/train_policy.py rikken --minutes 30 --out rikken-policy.npz

The policy is a two-layer network (the seat's observation tensor -> 128 tanh units -> one logit
per integer action, the illegal ones masked out), trained by REINFORCE with a baseline: each game
the learner holds every seat but one, which croupier's `simple` bot holds (`simple_action`), and
every decision of a learner seat is pushed towards its seat's final score (centred and scaled by
the batch). Adam, a small entropy bonus. The seeds it trains on are 10^9 and up (`--seed`), far
from the seeds croupier's commands use by default.

At the end it writes the weights, the game, its options and the training curve to `--out`
(numpy's .npz). `policy_bot.py` plays them at a croupier table:

    croupier compare rikken --candidate "python3 crates/py/examples/policy_bot.py rikken-policy.npz" \\
        --baseline simple --games 200 --seed 5

Standard library and numpy only; runs on one core.
"""

import argparse
import sys
import time

import numpy as np

import croupier_games as cg

HIDDEN = 128


class Policy:
    """The network and its Adam state."""

    def __init__(self, inputs, actions, rng):
        self.w1 = rng.normal(0, 1 / np.sqrt(inputs), (inputs, HIDDEN)).astype(np.float32)
        self.b1 = np.zeros(HIDDEN, np.float32)
        self.w2 = rng.normal(0, 0.01, (HIDDEN, actions)).astype(np.float32)
        self.b2 = np.zeros(actions, np.float32)
        self.params = [self.w1, self.b1, self.w2, self.b2]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def probabilities(self, x, mask):
        """x: (n, inputs); mask: (n, actions) bool. Returns (hidden, probabilities)."""
        h = np.tanh(x @ self.w1 + self.b1)
        logits = h @ self.w2 + self.b2
        logits = np.where(mask, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits) * mask
        p /= p.sum(axis=1, keepdims=True)
        return h, p

    def update(self, x, mask, chosen, advantage, lr, entropy):
        """One step of REINFORCE on a batch of decisions."""
        n = len(x)
        h, p = self.probabilities(x, mask)
        onehot = np.zeros_like(p)
        onehot[np.arange(n), chosen] = 1.0
        # d(-adv * log p[a]) / dlogits = adv * (p - onehot); the entropy bonus pulls towards
        # spreading the probability over the legal actions.
        logp = np.log(np.where(mask, p, 1.0))
        ent = -(p * logp).sum(axis=1, keepdims=True)
        dlogits = advantage[:, None] * (p - onehot) + entropy * p * (logp + ent)
        dlogits = (dlogits * mask) / n
        grads = [None] * 4
        grads[2] = h.T @ dlogits
        grads[3] = dlogits.sum(axis=0)
        dz = (dlogits @ self.w2.T) * (1 - h * h)
        grads[0] = x.T @ dz
        grads[1] = dz.sum(axis=0)
        self.t += 1
        for i, (param, g) in enumerate(zip(self.params, grads)):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mhat = self.m[i] / (1 - 0.9**self.t)
            vhat = self.v[i] / (1 - 0.999**self.t)
            param -= lr * mhat / (np.sqrt(vhat) + 1e-8)


def play(game, policy, seed, simple_seat, rng):
    """One game: the learner at every seat but `simple_seat`. Returns the learner's decisions
    (observation, mask, action, seat) and the game's scores."""
    state = game.new_initial_state(seed)
    actions = game.num_distinct_actions()
    decisions = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat == simple_seat:
            state.apply_action(cg.simple_action(state))
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        x = state.observation_tensor(seat)
        mask = np.zeros(actions, bool)
        mask[legal] = True
        _, p = policy.probabilities(x[None, :], mask[None, :])
        a = int(rng.choice(actions, p=p[0]))
        decisions.append((x, mask, a, seat))
        state.apply_action(a)
    return decisions, state.returns()


def evaluate(game, policy, seeds):
    """The greedy policy at one seat, `simple` at the others, each seed once per seat: the
    learner's mean score per game (a quick figure for the curve; croupier compare judges)."""
    actions = game.num_distinct_actions()
    total, count = 0.0, 0
    for seed in seeds:
        for me in range(game.num_players()):
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                seat = state.current_player()
                if seat != me:
                    state.apply_action(cg.simple_action(state))
                    continue
                legal = state.legal_actions()
                mask = np.zeros(actions, bool)
                mask[legal] = True
                _, p = policy.probabilities(state.observation_tensor(seat)[None, :], mask[None, :])
                state.apply_action(int(np.argmax(p[0])))
            total += state.returns()[me]
            count += 1
    return total / count


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a game of `croupier games` (rikken, kul, ...)")
    ap.add_argument("--players", type=int, help="seats at the table (default: the game's default)")
    ap.add_argument("--rule", action="append", default=[], metavar="K=V", help="a rule option, as croupier's --rule")
    ap.add_argument("--minutes", type=float, default=30.0, help="how long to train (default 30)")
    ap.add_argument("--batch", type=int, default=32, help="games per update (default 32)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1_000_000_000, help="the first training deal's seed")
    ap.add_argument("--eval-every", type=float, default=5.0, help="minutes between evaluations")
    ap.add_argument("--out", required=True, help="where to write the policy (.npz)")
    args = ap.parse_args(argv)
    options = {}
    for r in args.rule:
        if "=" not in r:
            ap.error(f"--rule {r}: write K=V")
        k, v = r.split("=", 1)
        options[k] = v
    try:
        game = cg.GameDef(args.game, options, args.players)
    except ValueError as e:
        ap.error(str(e))
    rng = np.random.default_rng(args.seed)
    policy = Policy(game.observation_tensor_size(), game.num_distinct_actions(), rng)
    players = game.num_players()
    # Seeds never trained on, for the curve: below the training seeds.
    eval_seeds = range(args.seed - 50, args.seed)
    start = time.monotonic()
    stop = start + args.minutes * 60
    next_eval = start
    seed, games, updates, curve = args.seed, 0, 0, []
    while True:
        now = time.monotonic()
        if now >= next_eval or now >= stop:
            score = evaluate(game, policy, eval_seeds)
            curve.append((games, (now - start) / 60, score))
            print(f"{(now - start) / 60:6.1f} min  {games:7d} games  greedy v simple: {score:+.3f} a game",
                  flush=True)
            next_eval = time.monotonic() + args.eval_every * 60
            if now >= stop:
                break
        batch = []
        for _ in range(args.batch):
            decisions, scores = play(game, policy, seed, seed % players, rng)
            batch.extend((x, m, a, scores[s]) for x, m, a, s in decisions)
            seed += 1
            games += 1
        if not batch:
            continue
        x = np.stack([b[0] for b in batch])
        mask = np.stack([b[1] for b in batch])
        chosen = np.array([b[2] for b in batch])
        ret = np.array([b[3] for b in batch], np.float32)
        adv = (ret - ret.mean()) / (ret.std() + 1e-6)
        policy.update(x, mask, chosen, adv, args.lr, args.entropy)
        updates += 1
    np.savez(args.out, w1=policy.w1, b1=policy.b1, w2=policy.w2, b2=policy.b2,
             game=args.game, options=np.array(sorted(game.options())), players=players,
             curve=np.array(curve), games=games, first_seed=args.seed, last_seed=seed - 1)
    print(f"wrote {args.out}: {games} games ({args.seed}..{seed - 1}), {updates} updates", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

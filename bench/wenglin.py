#!/usr/bin/env python3
"""Weng-Lin ratings of a tournament's records, beside croupier's own (issue 16: why a
least-squares model on duplicate deals rather than Weng-Lin/TrueSkill).

    croupier tournament schwimmen --players 3 --bot m0=mix:p=0 --bot m33=mix:p=0.33 \
        --bot m67=mix:p=0.67 --bot m100=mix:p=1 --games 100 --seed 5 --record t.jsonl
    pip install openskill        # Weng-Lin (Plackett-Luce), as skillratings has it in Rust
    python3 bench/wenglin.py t.jsonl [SHUFFLES]

Each game is one Weng-Lin update, the seats ranked by their scores (ties shared). The same
games are then rated in SHUFFLES random orders (default 20), as `--concurrency` or shards would
finish them: croupier's model gives the same numbers for any order (by construction, and
tested); a sequential rating does not. It prints, per bot, mu and the mu - 2 sigma .. mu + 2 sigma
range in record order, the spread of mu over the orders, and how often the order of the bots
by mu is the order of croupier's ratings.
"""
import json
import random
import subprocess
import sys

from openskill.models import PlackettLuce


def games(path):
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            names = [s.get("name") for s in r["seats"]]
            bots = r["tags"].get("bots") or names
            yield bots, r["result"]["scores"]


def rate(gs):
    model = PlackettLuce()
    ratings = {}
    for bots, scores in gs:
        teams = [[ratings.setdefault(b, model.rating(name=b))] for b in bots]
        new = model.rate(teams, scores=scores)
        for b, [r] in zip(bots, new):
            ratings[b] = r
    return ratings


def main():
    path = sys.argv[1]
    shuffles = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    exe = "target/release/croupier"
    stats = json.loads(subprocess.run([exe, "stats", "--json", path], check=True,
                                      capture_output=True, text=True).stdout.splitlines()[0])
    ours = {b["bot"]: b["rating"] for b in stats["bots"]}
    order = sorted(ours, key=lambda b: -ours[b])
    gs = list(games(path))
    first = rate(gs)
    print(f"{len(gs)} games; croupier's ratings: " +
          ", ".join(f"{b} {ours[b]:+.2f}" for b in order))
    mus = {b: [] for b in ours}
    right = 0
    rng = random.Random(1)
    for _ in range(shuffles):
        g = gs[:]
        rng.shuffle(g)
        r = rate(g)
        for b in ours:
            mus[b].append(r[b].mu)
        right += sorted(ours, key=lambda b: -r[b].mu) == order
    print("bot   Weng-Lin mu (record order)  mu-2s .. mu+2s      mu over %d orders" % shuffles)
    for b in order:
        r = first[b]
        print(f"{b:5} {r.mu:8.2f}                    {r.mu - 2 * r.sigma:6.2f} .. {r.mu + 2 * r.sigma:6.2f}"
              f"     {min(mus[b]):6.2f} .. {max(mus[b]):6.2f}")
    print(f"order of the bots by mu = croupier's order: {right}/{shuffles} shuffled orders")


if __name__ == "__main__":
    main()

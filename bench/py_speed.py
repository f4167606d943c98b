#!/usr/bin/env python3
"""Speed of the Python package (BENCHMARKS.md, "Python: the games for learning, speed").

(a) Random play from a Python loop: croupier_games states against OpenSpiel's Python loop over its
own C++ card games (hearts, bridge with the cards played, skat), the same loop shape:

    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))

Counted: decisions (OpenSpiel's chance nodes, the deals, are played by the same loop and timed,
but not counted; croupier's deals are made inside the engine).

(b) The batched environment (croupier_games.vector.VectorEnv): env.step_random() (actions drawn
inside Rust), and env.step(actions) with the actions picked in numpy (the first legal action:
mask.argmax(axis=1)); steps = decisions, summed over the envs.

Rates per CPU second of the process (time.process_time: what a core gives it, the figure that holds
on a shared machine) and per wall second. Each measurement runs for SECONDS (wall clock); REPEAT rounds of all of them in turn (A B C … A B C
…); the median rate of each is printed. Run it
pinned to one core (bench/py_speed.sh does: taskset -c 1). --smoke: every measurement once, very
short, for CI (checks that it runs, not its speed).
"""

import argparse
import random
import statistics
import sys
import time

import numpy as np

import croupier_games as cg
from croupier_games.vector import VectorEnv


def loop_rate(new_state, seconds, seed):
    """Decisions per CPU second and per wall second of the random Python loop over fresh states
    from new_state(k), and decisions per game."""
    rng = random.Random(seed)
    decisions = games = 0
    cpu = time.process_time()
    start = time.perf_counter()
    end = start + seconds
    while True:
        state = new_state(games)
        while not state.is_terminal():
            chance = state.is_chance_node() if hasattr(state, "is_chance_node") else False
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += not chance
        games += 1
        now = time.perf_counter()
        if now >= end:
            return decisions / (time.process_time() - cpu), decisions / (now - start), decisions / games


def vector_rate(env, seconds, given):
    """Steps (decisions, over all envs) per CPU second and per wall second of a VectorEnv."""
    n = len(env)
    _, mask, _, _, _ = env.reset()
    calls = 0
    cpu = time.process_time()
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(16):
            if given:
                env.step(mask.argmax(axis=1))
            else:
                env.step_random()
        calls += 16
        now = time.perf_counter()
        if now >= end:
            return calls * n / (time.process_time() - cpu), calls * n / (now - start)


def interleaved(measures, repeat):
    """Runs every (label, fn) of `measures` once per round, `repeat` rounds (A B C … A B C …: a
    load that drifts during the run weighs on all alike), and returns label -> list of results."""
    results = {label: [] for label, _ in measures}
    for _ in range(repeat):
        for label, fn in measures:
            results[label].append(fn())
    return results


def fmt(rate):
    return f"{rate / 1e6:.3f} M" if rate >= 1e6 else f"{rate / 1e3:.1f} k"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="per measurement (default 2)")
    ap.add_argument("--repeat", type=int, default=5, help="measurements per figure (default 5)")
    ap.add_argument("--envs", type=int, default=256, help="num_envs of the batched env (default 256)")
    ap.add_argument("--part", choices=["loop", "vector", "all"], default="all")
    ap.add_argument("--games", default="", help="comma-separated croupier games (default: all for the "
                    "loop; kul,rikken for the batched env)")
    ap.add_argument("--smoke", action="store_true", help="each measurement once, 0.05 s: runs, no figures")
    args = ap.parse_args()
    if args.smoke:
        args.seconds, args.repeat, args.envs = 0.05, 1, 8
    wanted = [g for g in args.games.split(",") if g]
    print(f"# seconds={args.seconds} repeat={args.repeat} envs={args.envs}; medians; python {sys.version.split()[0]}")

    if args.part in ("loop", "all"):
        print("\n## (a) random play from a Python loop: decisions per CPU second, per wall second, per game")
        measures = []
        for name in wanted or cg.game_names():
            game = cg.GameDef(name)
            measures.append((f"croupier {name}", lambda g=game: loop_rate(g.new_initial_state, args.seconds, 1)))
        try:
            import pyspiel
        except ImportError:
            print("openspiel: not installed (pip install open-spiel), skipped")
        else:
            for spec in ["hearts", "bridge(use_double_dummy_result=false)", "skat"]:
                game = pyspiel.load_game(spec)
                measures.append((f"openspiel {spec}", lambda g=game: loop_rate(lambda k: g.new_initial_state(), args.seconds, 1)))
        for label, runs in interleaved(measures, args.repeat).items():
            cpu, wall, per_game = (statistics.median(r[k] for r in runs) for k in range(3))
            print(f"{label:<50} {fmt(cpu):>10} {fmt(wall):>10} {per_game:8.1f}  cpu runs: {' '.join(fmt(r[0]) for r in runs)}")

    if args.part in ("vector", "all"):
        print(f"\n## (b) VectorEnv, {args.envs} envs: steps per CPU second, per wall second")
        measures = []
        for name in wanted or ["kul", "rikken"]:
            for observations in (False, True):
                env = VectorEnv(name, num_envs=args.envs, seed=1, observations=observations)
                for given in (False, True):
                    how = "step(mask.argmax(1))" if given else "step_random()"
                    label = f"{name} {how} {'observations' if observations else 'no observations'}"
                    measures.append((label, lambda e=env, g=given: vector_rate(e, args.seconds, g)))
        for label, runs in interleaved(measures, args.repeat).items():
            cpu, wall = (statistics.median(r[k] for r in runs) for k in range(2))
            print(f"{label:<50} {fmt(cpu):>10} {fmt(wall):>10}  cpu runs: {' '.join(fmt(r[0]) for r in runs)}")


if __name__ == "__main__":
    main()

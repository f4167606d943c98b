#!/usr/bin/env python3
"""Summaries for bench/calibrate.sh: error rates with Clopper–Pearson intervals, deals to a
decision, and interval coverage. Reads the JSON lines the script collected; standard library
only."""
import json
import math
import sys


def binom_cdf(k, n, p):
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def clopper_pearson(k, n, level=0.95):
    """The exact two-sided interval for a binomial proportion, by bisection on the cdf."""
    a = (1 - level) / 2

    def solve(f):
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if f(mid):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    lower = 0.0 if k == 0 else solve(lambda p: 1 - binom_cdf(k - 1, n, p) < a)
    upper = 1.0 if k == n else solve(lambda p: binom_cdf(k, n, p) > a)
    return lower, upper


def pct(x):
    return f"{100 * x:.1f}"


def gate(path, what, nominal):
    """Lines of compare --json: the share of runs that reached `what` (an error), deals."""
    runs = [json.loads(l) for l in open(path) if l.strip()]
    n = len(runs)
    k = sum(r["result"] == what for r in runs)
    undecided = sum(r["result"] == "no decision" for r in runs)
    lo, hi = clopper_pearson(k, n)
    deals = sorted(r["deals"] for r in runs)
    mean = sum(deals) / n
    median = deals[n // 2]
    flag = "ABOVE NOMINAL" if lo > nominal else "ok"
    return (f"{what} {k}/{n} = {pct(k / n)} % [{pct(lo)}, {pct(hi)}] ({flag}); undecided {undecided}; "
            f"deals mean {mean:.0f}, median {median}, max {deals[-1]}")


def coverage(path, truth_path):
    """Lines of `match --json`: the share of runs whose intervals cover the truth, the same
    figure of one long match (its JSON in `truth_path`): the first pair's difference, then
    each bot's mean."""
    runs = [json.loads(l) for l in open(path) if l.strip()]
    truth = json.load(open(truth_path))
    what = [("pair " + truth["pairs"][0]["a"] + " − " + truth["pairs"][0]["b"],
             truth["pairs"][0]["mean"], lambda r: r["pairs"][0]["ci95"])]
    for i, b in enumerate(truth["bots"]):
        what.append(("bot " + b["bot"], b["mean"], lambda r, i=i: r["bots"][i]["ci95"]))
    out = []
    for name, t, ci in what:
        n = len(runs)
        below = above = 0
        for r in runs:
            lo, hi = ci(r)
            below += hi < t
            above += lo > t
        k = n - below - above
        lo, hi = clopper_pearson(k, n)
        flag = "ok" if lo <= 0.95 <= hi else ("OFF NOMINAL (too wide)" if lo > 0.95 else "OFF NOMINAL")
        out.append(f"{name} (truth {t:+.3f}): covers {k}/{n} = {pct(k / n)} % [{pct(lo)}, {pct(hi)}] "
                   f"({flag}); interval below the truth {below}, above {above}")
    return "\n".join(out)


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "gate":
        print(gate(sys.argv[2], sys.argv[3], float(sys.argv[4])))
    elif kind == "coverage":
        print(coverage(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(f"calibrate.py: unknown kind {kind}")

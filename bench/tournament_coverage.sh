#!/usr/bin/env bash
# Do the tournament's 95 % intervals cover the truth 95 % of the time? Four built-in bots of
# known order of strength (mix:p=0, 0.33, 0.67, 1: simple with probability p, else random)
# play R short tournaments (seeds 1..R, DEALS deals per table); the truth is estimated by one
# long tournament (TRUTH_DEALS deals per table, other cards: seed 999999). Prints how often
# each rating's interval and each pair's interval covers the long run's value, with the
# binomial standard error of that rate, and how often the ratings come out in the order of p.
# The long run's own error is small beside the short runs' intervals (its intervals are
# printed: they are sqrt(TRUTH_DEALS / DEALS) times narrower).
#
# Usage: bench/tournament_coverage.sh [GAME [PLAYERS]]   (default schwimmen 3)
#   R=200 DEALS=20 TRUTH_DEALS=4000; CROUPIER=path uses that binary instead of the release build
#   (in $CARGO_TARGET_DIR if set; the numbers do not depend on the build: every run is fixed by
#   its seed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
G=${1:-schwimmen}
P=${2:-3}
R=${R:-200}
DEALS=${DEALS:-20}
TRUTH_DEALS=${TRUTH_DEALS:-4000}
# shellcheck source=bench/binary.sh
source bench/binary.sh
CROUPIER=$C
WORK=$(mktemp -d "${TMPDIR:-/tmp}/croupier-coverage.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
BOTS=(--bot m0=mix:p=0.0 --bot m33=mix:p=0.33 --bot m67=mix:p=0.67 --bot m100=mix:p=1.0)
run() { # SEED DEALS
    (cd "$WORK" && "$CROUPIER" tournament "$G" --players "$P" "${BOTS[@]}" --games "$2" --seed "$1" \
        --concurrency "$(nproc)" --quiet --json)
}
echo "coverage: croupier tournament $G --players $P, 4 mix bots, $R runs of $DEALS deals per table;"
echo "truth: one run of $TRUTH_DEALS deals per table"
run 999999 "$TRUTH_DEALS" >"$WORK/truth.json"
for s in $(seq 1 "$R"); do
    run "$s" "$DEALS"
done >"$WORK/runs.jsonl"
python3 - "$WORK/truth.json" "$WORK/runs.jsonl" <<'PY'
import json, math, sys
truth = json.load(open(sys.argv[1]))
runs = [json.loads(l) for l in open(sys.argv[2])]
t = {b["bot"]: b["rating"] for b in truth["bots"]}
tp = {(p["a"], p["b"]): p["mean"] for p in truth["pairs"]}
print("truth (long run): " + ", ".join(
    f"{b['bot']} {b['rating']:+.3f} [{b['ci95'][0]:+.3f}, {b['ci95'][1]:+.3f}]" for b in truth["bots"]))
def rate(hits):
    n = len(hits); p = sum(hits) / n
    return f"{100 * p:5.1f} % ± {100 * math.sqrt(p * (1 - p) / n):.1f} ({sum(hits)}/{n})"
allr, allp = [], []
for name in [b["bot"] for b in truth["bots"]][1:]:
    hits = []
    for r in runs:
        b = next(x for x in r["bots"] if x["bot"] == name)
        hits.append(b["ci95"][0] <= t[name] <= b["ci95"][1])
    allr += hits
    print(f"rating of {name:<5} covered {rate(hits)}")
for (a, b), v in tp.items():
    hits = []
    for r in runs:
        p = next(x for x in r["pairs"] if x["a"] == a and x["b"] == b)
        hits.append(p["ci95"][0] <= v <= p["ci95"][1])
    allp += hits
    print(f"pair {a} − {b:<5} covered {rate(hits)}")
print(f"all ratings: {rate(allr)}; all pairs: {rate(allp)}")
order = [b["bot"] for b in truth["bots"]]
inorder = [all(next(x for x in r["bots"] if x["bot"] == order[i])["rating"]
               < next(x for x in r["bots"] if x["bot"] == order[i + 1])["rating"]
               for i in range(len(order) - 1)) for r in runs]
width = sum(b["ci95"][1] - b["ci95"][0] for r in runs for b in r["bots"][1:]) / (len(runs) * (len(order) - 1))
print(f"ratings in the order of p: {rate(inorder)}; mean interval width {width:.3f}")
PY

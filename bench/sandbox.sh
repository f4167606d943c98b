#!/usr/bin/env bash
# What `--sandbox` costs: bot start-up and time per decision, with and without it, run in turn.
#   start-up   `play rikken` of one game with four `croupier bot random` processes: the whole
#              command's wall time (four sandboxes made and torn down), median of RUNS pairs,
#              and the extra per bot;
#   decision   seat 0 a `croupier bot random` process, the other seats built-in, GAMES games:
#              the median time of seat 0's decisions from the record (each action's `ms`), median
#              over RUNS runs.
# Usage: bench/sandbox.sh [GAMES] [RUNS]   (defaults 300 and 21; CROUPIER=path as bench/lib.sh;
# needs bubblewrap)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
GAMES=${1:-300}
RUNS=${2:-21}
# bench/lib.sh's scratch directory (its trap removes it).
work=$WORK
now() { echo "${EPOCHREALTIME/./}"; }
four=()
for _ in 1 2 3 4; do four+=(--seat "$C bot random"); done
one=(--seat "$C bot random" --seat random --seat random --seat random)
for ((i = 0; i < RUNS; i++)); do
    for mode in plain sandbox; do
        flag=()
        [[ $mode == sandbox ]] && flag=(--sandbox)
        t0=$(now)
        "$C" play rikken "${four[@]}" "${flag[@]}" --games 1 --seed 1 --quiet --log-dir "$work/logs" >/dev/null
        t1=$(now)
        echo "$((t1 - t0))" >>"$work/start-$mode"
        "$C" play rikken "${one[@]}" "${flag[@]}" --games "$GAMES" --seed 1 --bot-seed 1 --quiet \
            --log-dir "$work/logs" --record "$work/dec-$mode-$i.jsonl" >/dev/null
    done
done
python3 - "$work" "$RUNS" <<'PY'
import json, statistics, sys
w, runs = sys.argv[1], int(sys.argv[2])
med = statistics.median
start = {m: [int(l) for l in open(f"{w}/start-{m}")] for m in ("plain", "sandbox")}
extra = [(b - a) / 4 for a, b in zip(start["plain"], start["sandbox"])]
print(f"runs {runs}")
print(f"start-up, one game, 4 bot processes: plain {med(start['plain'])/1000:.1f} ms, "
      f"sandbox {med(start['sandbox'])/1000:.1f} ms; extra per bot (median of pairs) {med(extra)/1000:.1f} ms")
def dec(m, i):
    return med(a["ms"] for l in open(f"{w}/dec-{m}-{i}.jsonl") for a in json.loads(l)["actions"] if a.get("seat") == 0)
d = {m: [1000 * dec(m, i) for i in range(runs)] for m in ("plain", "sandbox")}
r = [b / a for a, b in zip(d["plain"], d["sandbox"])]
print(f"decision of seat 0 (µs, median of runs): plain {med(d['plain']):.1f}, sandbox {med(d['sandbox']):.1f}; "
      f"sandbox / plain (median of pairs) {med(r):.2f} [{min(r):.2f}, {max(r):.2f}]")
PY

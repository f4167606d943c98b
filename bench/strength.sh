#!/usr/bin/env bash
# The strength table of the built-in bots (README, "How strong the built-in bots are"): one
# `croupier tournament` per game of random, simple, pimc and ismcts at one table of four (every
# rotation of the lineup on each duplicate deal), ratings relative to simple, on a deal seed no
# tuning used; with the search bots' time per decision (their own counts, CROUPIER_PIMC_STATS).
#
#   bench/strength.sh [GAME[:DEALS]…]   # default: rikken:200 kul:100 schwimmen:60 zwikken:50
#                                       #          svangknack:50 skwitz:20
#
# A GAME without :DEALS plays 50 deals. SEED=S (default 737373, the README's table), JOBS=N tournaments at once (default 1; each is one thread), OUT=dir
# keeps the records, JSON results and counts (default: a temporary directory). Prints a Markdown
# table. SMOKE=1: 2 deals of each game with tiny search budgets (judges that the script runs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/binary.sh
source bench/binary.sh
seed=${SEED:-737373}
jobs=${JOBS:-1}
pimc=pimc
ismcts=ismcts
runs=("$@")
[[ ${#runs[@]} -gt 0 ]] || runs=(rikken:200 kul:100 schwimmen:60 zwikken:50 svangknack:50 skwitz:20)
if [[ -n ${SMOKE:-} ]]; then
    pimc=pimc:samples=2,playouts=8
    ismcts=ismcts:iterations=8,worlds=2
    runs=("${runs[@]/%:*/}")
    runs=("${runs[@]/%/:2}")
fi
if [[ -n ${OUT:-} ]]; then
    out=$OUT
    mkdir -p "$out"
else
    out=$(mktemp -d "${TMPDIR:-/tmp}/croupier-bench.XXXXXX")
    trap 'rm -rf "$out"' EXIT
fi
one() {
    local game=${1%%:*} deals=50
    [[ $1 != *:* ]] || deals=${1##*:}
    rm -f "$out/$game.rec" "$out/$game.stats"
    CROUPIER_PIMC_STATS=$out/$game.stats "$C" tournament "$game" --players 4 --bot random --bot simple \
        --bot "pimc=$pimc" --bot "ismcts=$ismcts" --reference simple --deals "$deals" --seed "$seed" \
        --concurrency 1 --quiet --json --record "$out/$game.rec" >"$out/$game.json" 2>"$out/$game.err" || {
        echo "bench: the $game tournament failed" >&2
        cat "$out/$game.err" >&2
        return 1
    }
}
pids=()
for r in "${runs[@]}"; do
    one "$r" &
    pids+=($!)
    if [[ ${#pids[@]} -ge $jobs ]]; then
        wait "${pids[0]}"
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do wait "$p"; done
echo "<!-- $(date -u '+%F %T UTC'); load:$(uptime | sed 's/.*load average://'); seed $seed; $("$C" --version) -->"
python3 - "$out" "${runs[@]}" <<'PY'
import json, math, os, sys
out, runs = sys.argv[1], sys.argv[2:]
print("| game | deals | random | pimc | ismcts | ismcts − pimc | ms a decision, p50 / p99 (pimc; ismcts) |")
print("|---|---:|---|---|---|---|---|")
def iv(x, ci):
    return f"{x:+.2f} [{ci[0]:+.2f}, {ci[1]:+.2f}]"
for r in runs:
    game = r.split(":")[0]
    d = json.load(open(f"{out}/{game}.json"))
    bots = {b["bot"]: b for b in d["bots"]}
    pair = next(p for p in d["pairs"] if {p["a"], p["b"]} == {"pimc", "ismcts"})
    sign = 1 if pair["a"] == "ismcts" else -1
    diff = iv(sign * pair["mean"], sorted(sign * c for c in pair["ci95"]))
    stats = f"{out}/{game}.stats"
    rows = [json.loads(l) for l in open(stats)] if os.path.exists(stats) else []
    def q(bot, p):
        t = sorted(u for x in rows if x["bot"] == bot for u in x["decision_us"])
        return t[min(len(t), max(1, math.ceil(p * len(t)))) - 1] / 1e3 if t else float("nan")
    times = "; ".join(f"{q(b, 0.5):.1f} / {q(b, 0.99):.1f}" for b in ("pimc", "ismcts"))
    cells = " | ".join(iv(bots[b]["rating"], bots[b]["ci95"]) for b in ("random", "pimc", "ismcts"))
    print(f"| {game} | {d['deals']} | {cells} | {diff} | {times} |")
PY

#!/usr/bin/env bash
# The search bots against `simple` (BENCHMARKS.md, "Search bots: speed, time per decision,
# strength"): for each game, one duplicate match of BOT against simple, with the bots' own counts
# (CROUPIER_PIMC_STATS=FILE): the share of decisions searched, playouts per second of search time,
# and the decisions' times (median, 99th percentile, max), with the match's paired difference.
#
#   bench/search.sh [GAME…]          # default: all six games
#
# BOT=spec (default pimc; e.g. ismcts, "ismcts:playout=random"), DEALS=N (default 20),
# SEED=S (default 9001: seeds from 9001 on were never used while tuning), CORE=N (pinned to
# that core with taskset; default 1). SMOKE=1: 1 deal of each game with a tiny budget (.ci/run:
# it judges that the script runs, never the figures).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/binary.sh
source bench/binary.sh
bot=${BOT:-pimc}
deals=${DEALS:-20}
seed=${SEED:-9001}
if [[ -n ${SMOKE:-} ]]; then
    deals=1
    bot=${BOT:-pimc:samples=2,playouts=8}
fi
games=("$@")
[[ ${#games[@]} -gt 0 ]] || games=(rikken zwikken svangknack kul skwitz schwimmen)
pin=()
if command -v taskset >/dev/null && [[ -z ${SMOKE:-} ]]; then
    pin=(taskset -c "${CORE:-1}")
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/croupier-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "# $(date -u '+%F %T UTC'); load:$(uptime | sed 's/.*load average://'); pinned: ${pin[*]:-no}; $bot vs simple, $deals deals, seed $seed"
printf '%-10s %9s %7s %12s %8s %8s %8s %8s  %s\n' game decisions searched playouts/s sampling p50_ms p99_ms max_ms "bot − simple per deal and seat [95 %]"
for g in "${games[@]}"; do
    stats=$work/$g.jsonl
    CROUPIER_PIMC_STATS=$stats "${pin[@]}" "$C" match "$g" --bot "b=$bot" --bot s=simple \
        --games "$deals" --seed "$seed" --concurrency 1 >"$work/$g.out" 2>"$work/$g.err" || {
        echo "bench: the $g match failed" >&2
        cat "$work/$g.err" >&2
        exit 1
    }
    diff=$(sed -n 's/^ *b − s: //p' "$work/$g.out")
    python3 - "$g" "$stats" "$diff" <<'PY'
import json, math, sys
game, path, diff = sys.argv[1:]
rows = [json.loads(l) for l in open(path)]
times = sorted(t for r in rows for t in r["decision_us"])
def q(p):  # the p-quantile: the smallest time at least a share p of the decisions took at most
    return times[min(len(times), max(1, math.ceil(p * len(times)))) - 1] / 1e3
searched = sum(r["searched"] for r in rows)
fell = sum(r["fell_back"] for r in rows)
search_ns = max(1, sum(r["search_ns"] for r in rows))
rate = sum(r["playouts"] for r in rows) / (search_ns / 1e9)
# The share of the search time spent sampling worlds (replays, repairs); the rest is mostly playouts.
sampling = 100 * sum(r.get("sample_ns", 0) for r in rows) / search_ns
print(f"{game:<10} {len(times):9d} {100 * searched / max(1, searched + fell):6.1f}% {rate:12.0f} {sampling:7.1f}% {q(0.5):8.2f} {q(0.99):8.2f} {times[-1] / 1e3:8.2f}  {diff}")
PY
done

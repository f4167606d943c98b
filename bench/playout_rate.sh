#!/usr/bin/env bash
# The search bots' playouts per second, this build beside another one (issue 33's "≥ 10×"): the
# strength table's lineup (bench/strength.sh: random, simple, pimc and ismcts at one table of
# four) at a tenth of its size, run ROUNDS times with each build in turn on the same deals; each
# bot's playouts per second of search time from its own counts (CROUPIER_PIMC_STATS, catch-up
# and sampling included), and this build's rate divided by BASE's, round by round. Both builds
# run in the same conditions, so their ratio holds where a rate measured on another day would
# not (this machine's rates vary by a quarter between runs). Its rates are search wall time, two
# tournaments sharing the cores: made for ratios of several times, they cannot tell a change of a
# few per cent (BENCHMARKS.md, nineteenth session); for that, time whole runs of the two builds
# in turn, many times, with the same decisions checked first.
#
#   BASE=path/to/old/croupier bench/playout_rate.sh [GAME[:DEALS]…]
#       # default: rikken:20 kul:10 schwimmen:6 zwikken:5 svangknack:5 skwitz:2
#
# BASE: the build to compare with, e.g. the first strength table's commit:
#   git worktree add /tmp/first cd7dbb7 && (cd /tmp/first && cargo build --release)
#   BASE=/tmp/first/target/release/croupier bench/playout_rate.sh
# CROUPIER: this side's binary (default: this checkout's release build). SEED=S (default
# 989898), ROUNDS=N (default 2), JOBS=N tournaments at once (default 2). Prints a Markdown
# table. SMOKE=1: Kul alone, 2 deals, tiny budgets, BASE defaulting to this build (judges that
# the script runs and reads the counts, never the figures).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/binary.sh
source bench/binary.sh
if [[ -n ${SMOKE:-} ]]; then
    BASE=${BASE:-$C}
    set -- kul
fi
if [[ -z ${BASE:-} || ! -x ${BASE:-} ]]; then
    echo "bench: BASE=${BASE:-} is not an executable croupier: name the build to compare with" >&2
    exit 2
fi
base=$(realpath "$BASE")
seed=${SEED:-989898}
rounds=${ROUNDS:-2}
runs=("$@")
[[ ${#runs[@]} -gt 0 ]] || runs=(rikken:20 kul:10 schwimmen:6 zwikken:5 svangknack:5 skwitz:2)
work=$(mktemp -d "${TMPDIR:-/tmp}/croupier-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "<!-- $(date -u '+%F %T UTC'); load:$(uptime | sed 's/.*load average://'); seed $seed; $rounds round(s); base $base; this $C -->"
for r in $(seq "$rounds"); do
    # Each round runs the two builds in turn, the earlier one first in odd rounds.
    order=(base this)
    [[ $((r % 2)) -eq 1 ]] || order=(this base)
    for side in "${order[@]}"; do
        bin=$C
        [[ $side == this ]] || bin=$base
        CROUPIER=$bin SEED=$seed JOBS=${JOBS:-2} OUT=$work/$side.$r SMOKE=${SMOKE:-} \
            bench/strength.sh "${runs[@]}" >"$work/$side.$r.md"
    done
done
python3 - "$work" "$rounds" "${runs[@]}" <<'PY'
import json, sys
work, rounds, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def rate(side, r, game, bot):
    rows = [json.loads(l) for l in open(f"{work}/{side}.{r}/{game}.stats")]
    rows = [x for x in rows if x["bot"] == bot]
    ns = sum(x["search_ns"] for x in rows)
    return sum(x["playouts"] for x in rows) / (ns / 1e9) if ns else float("nan")

def span(xs, fmt):
    lo, hi = min(xs), max(xs)
    return fmt(lo) if len(xs) == 1 or fmt(lo) == fmt(hi) else f"{fmt(lo)}–{fmt(hi)}"

print("| game | bot | base playouts/s | this build | this ÷ base |")
print("|---|---|---:|---:|---:|")
for run in runs:
    game = run.split(":")[0]
    for bot in ("pimc", "ismcts"):
        b = [rate("base", r, game, bot) for r in range(1, rounds + 1)]
        t = [rate("this", r, game, bot) for r in range(1, rounds + 1)]
        ratios = [x / y for x, y in zip(t, b)]
        n = lambda x: f"{x:,.0f}"
        print(f"| {game} | {bot} | {span(b, n)} | {span(t, n)} | {span(ratios, lambda x: f'{x:.1f}×')} |")
PY

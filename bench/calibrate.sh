#!/usr/bin/env bash
# Calibration of croupier's verdicts on the games' real score distributions (issue 27):
#
# 1. The CI gate. Per game, a `mix:p=P` candidate against `simple`: its true paired difference
#    d is measured first by one long `compare --no-test` run (LONG deals, seed 900001); then
#    RUNS compare runs with the bounds shifted so that d sits at LOWER (`--sprt d,d+W`: every
#    pass is a false pass, the rate must not be above alpha) and RUNS with d at UPPER
#    (`--sprt d-W,d`: every fail is a false fail, at most beta). W is the game's default width.
# 2. The intervals. RUNS `match --json` runs of the same two bots at 20, 100 and 1,000 deals;
#    the share whose intervals (the paired difference, and each bot's mean) cover the truth
#    (the same figures of one LONG-deal match).
#
# Rates come with Clopper–Pearson 95 % intervals: a rate is "ABOVE NOMINAL" when its whole
# interval lies above alpha or beta, a coverage "OFF NOMINAL" when its interval misses 95 %.
# Every run has its own seed: FIRST..FIRST+RUNS-1 (FIRST=1 by default), and 900001 for the truth.
# Seeds 1-200 of Rikken and 1-150 of Zwikken were used to tune the test (crates/stats/src/sequential.rs):
# figures for the record come from FIRST=10001.
#
# Usage: bench/calibrate.sh [GAME…]   (default: all six)
#        RUNS=300 FIRST=1 LONG=20000 GATE=1 (0: skip the gate) COVERAGE=1 (0: skip the intervals)
#        JOBS=$(nproc); CROUPIER=path runs that binary (default: the release build of this checkout,
#        in $CARGO_TARGET_DIR if set)
# Takes about 40 minutes on 2 cores with the defaults. Output: a report on stdout; the raw
# JSON lines stay in $OUT (default: a fresh directory under /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/binary.sh
source bench/binary.sh
RUNS=${RUNS:-300}
FIRST=${FIRST:-1}
LONG=${LONG:-20000}
COVERAGE=${COVERAGE:-1}
GATE=${GATE:-1}
JOBS=${JOBS:-$(nproc)}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/croupier-calibrate.XXXXXX")}
mkdir -p "$OUT"
# The candidate of each game (its difference lies near the game's default LOWER) and the
# width of the game's default bounds.
declare -A P=([rikken]=0.95 [zwikken]=0.97 [svangknack]=0.94 [kul]=0.8 [skwitz]=0.99 [schwimmen]=0.9)
declare -A W=([rikken]=1 [zwikken]=2 [svangknack]=6 [kul]=0.5 [skwitz]=20 [schwimmen]=0.25)
games=("$@")
((${#games[@]})) || games=(rikken zwikken svangknack kul skwitz schwimmen)
echo "croupier calibration: RUNS=$RUNS LONG=$LONG, $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%F)"
echo "raw lines in $OUT"
for G in "${games[@]}"; do
    cand="mix:p=${P[$G]}"
    w=${W[$G]}
    echo
    if [ "$GATE" = 1 ]; then
    truth=$("$C" compare "$G" --candidate "$cand" --baseline simple --games "$LONG" --no-test \
        --seed 900001 --quiet --json --log-dir "$OUT/logs" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["mean"], *r["ci95"])')
    read -r d dlo dhi <<<"$truth"
    echo "== $G: $cand against simple, true difference $d [$dlo, $dhi] over $LONG deals; width $w"
    for side in lower upper; do
        if [ "$side" = lower ]; then
            bounds=$(python3 -c "print(f'{$d},{$d + $w}')")
            err=pass nominal=0.05
        else
            bounds=$(python3 -c "print(f'{$d - $w},{$d}')")
            err=fail nominal=0.05
        fi
        f=$OUT/$G-$side.jsonl
        : >"$f"
        seq "$FIRST" $((FIRST + RUNS - 1)) | xargs -P "$JOBS" -I{} sh -c \
            "'$C' compare $G --candidate '$cand' --baseline simple --sprt='$bounds' --seed {} --quiet --json --log-dir '$OUT/logs' >>'$f.{}' 2>/dev/null; cat '$f.{}' >>'$f'; rm -f '$f.{}'" || true
        echo "  at $(echo "$side" | tr a-z A-Z) (--sprt $bounds): $(python3 bench/calibrate.py gate "$f" "$err" "$nominal")"
    done
    fi
    if [ "$COVERAGE" = 1 ]; then
        "$C" match "$G" --bot "cand=$cand" --bot base=simple --games "$LONG" --seed 900001 \
            --quiet --json --log-dir "$OUT/logs" >"$OUT/$G-match-truth.json"
        echo "== $G: match of cand=$cand and base=simple; the truth: one match of $LONG deals"
        for n in 20 100 1000; do
            f=$OUT/$G-match-$n.jsonl
            : >"$f"
            seq "$FIRST" $((FIRST + RUNS - 1)) | xargs -P "$JOBS" -I{} sh -c \
                "'$C' match $G --bot 'cand=$cand' --bot base=simple --games $n --seed {} --quiet --json --log-dir '$OUT/logs' >'$f.{}' 2>/dev/null; cat '$f.{}' >>'$f'; rm -f '$f.{}'"
            echo "  intervals at $n deals:"
            python3 bench/calibrate.py coverage "$f" "$OUT/$G-match-truth.json" | sed 's/^/    /'
        done
    fi
done

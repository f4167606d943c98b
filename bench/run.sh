#!/usr/bin/env bash
# Throughput benchmark: games per second of Rikken matches, in-process bots against bots as
# processes (the protocol's cost), and 1 against 2 tables. Figures are machine-dependent: read
# the ratios, measured in one run. Usage: bench/run.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
cargo build --release -q
c=target/release/croupier
run() { # label, args…
    local label=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    "$c" match rikken --quiet --seed 1 "$@" >/dev/null
    t1=$(date +%s.%N)
    python3 -c "import sys; print(f'{sys.argv[1]:<44} {float(sys.argv[2])-float(sys.argv[3]):7.2f} s')" "$label" "$t1" "$t0"
}
echo "rikken, $games deals × 2 seatings each"
run "in-process simple vs random" --bot simple --bot random --games "$games"
run "processes (croupier bot) simple vs random" --bot "s=croupier bot simple" --bot "r=croupier bot random" --games "$games"
run "processes, --concurrency 2" --bot "s=croupier bot simple" --bot "r=croupier bot random" --games "$games" --concurrency 2
run "python bot vs simple (processes)" --bot "py=python3 bots/python/croupier_bot.py" --bot "s=croupier bot simple" --games "$((games / 4))"
# Scaling: four times the deals must take about four times as long (the statistics are kept
# per deal; the progress line must not re-sum them after every deal).
run "in-process, $((games * 10)) deals" --bot simple --bot random --games "$((games * 10))"
run "in-process, $((games * 40)) deals" --bot simple --bot random --games "$((games * 40))"

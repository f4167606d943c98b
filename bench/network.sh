#!/usr/bin/env bash
# The cost of a network seat per decision, against a pipe seat: Rikken with seat 0 played by
# `croupier bot random` over pipes (A), by the same bot over a loopback link (B: `remote:b` with
# `croupier connect`, TLS and the hub), and by the built-in random bot in the referee's own
# process (C: no process at all). Runs A, B, C in turn RUNS times and prints the medians of
#   pipe    = (A - C) / decisions of seat 0   the referee's overhead of a pipe seat
#   network = (B - C) / decisions of seat 0   the same for a network seat, round trip included
# and their ratio, run by run.
# Usage: bench/network.sh [GAMES] [RUNS]   (defaults 300 and 11; CROUPIER=path as bench/lib.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
GAMES=${1:-300}
RUNS=${2:-11}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
common=(--seat random --seat random --seat random --games "$GAMES" --seed 1 --bot-seed 1 --quiet
    --log-dir "$work/logs")
# The relay is started once and connects again for each run (the keys, hence its token, stay).
"$C" play rikken --seat remote:b "${common[@]}" --games 1 --listen "127.0.0.1:$port" --keys "$work/keys" \
    --startup-time 1s >/dev/null 2>&1 || true
"$C" connect --token-file "$work/keys/b.token" --retry-for 60s -q -- "$C" bot random &
now() { echo "${EPOCHREALTIME/./}"; }
run() { # run NAME ARGS…: times one play, appends "µs decisions" to $work/NAME
    local name=$1
    shift
    local t0 t1
    t0=$(now)
    "$C" play rikken "$@" "${common[@]}" --record "$work/$name.jsonl" >/dev/null
    t1=$(now)
    local d
    d=$(python3 -c 'import json,sys
n=0
for l in open(sys.argv[1]):
    n+=sum(1 for a in json.loads(l)["actions"] if a.get("seat")==0)
print(n)' "$work/$name.jsonl")
    rm -f "$work/$name.jsonl"
    echo "$((t1 - t0)) $d" >>"$work/$name"
}
for ((i = 0; i < RUNS; i++)); do
    run pipe --seat "$C bot random"
    run network --seat remote:b --listen "127.0.0.1:$port" --keys "$work/keys"
    run none --seat random
done
python3 - "$work" <<'PY'
import statistics, sys
w = sys.argv[1]
read = lambda n: [tuple(map(int, l.split())) for l in open(f"{w}/{n}")]
pipe, net, none = read("pipe"), read("network"), read("none")
per = lambda xs: [(a[0] - c[0]) / a[1] for a, c in zip(xs, none)]
p, n = per(pipe), per(net)
ratio = [b / a for a, b in zip(p, n)]
print(f"runs {len(p)}, decisions of seat 0 per run {pipe[0][1]}")
print(f"pipe seat overhead per decision     median {statistics.median(p):8.1f} µs  [{min(p):.1f}, {max(p):.1f}]")
print(f"network seat overhead per decision  median {statistics.median(n):8.1f} µs  [{min(n):.1f}, {max(n):.1f}]")
print(f"network / pipe, run by run          median {statistics.median(ratio):8.2f}   [{min(ratio):.2f}, {max(ratio):.2f}]")
PY

#!/usr/bin/env bash
# Bots as processes against bots in the referee's process: `croupier play GAME` with every seat
# `random` in-process, then every seat the process `croupier bot random` (the same bot behind
# the protocol's pipes), unpinned and pinned to one core (`taskset -c 0`: bots and referee take
# turns on one core, no cross-core wake-ups). Per game: games/s, decisions/s, the ratio of the
# times (one run, in turn), and the referee's cost per decision that processes add:
# (process time − in-process time) ÷ decisions.
#
# Usage: bench/processes.sh [GAME…]   (default: all six; RUNS=3 rounds, BOT=random)
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

BOT=${BOT:-random}
# Seats per game (each game's default, as in the criterion benches) and games per run
# (about 1.5 s with process bots on the reference machine).
declare -A PLAYERS=([rikken]=4 [zwikken]=4 [svangknack]=6 [kul]=5 [skwitz]=4 [schwimmen]=4)
declare -A GAMES=([rikken]=1500 [zwikken]=30 [svangknack]=30 [kul]=60 [skwitz]=15 [schwimmen]=75)
games=("$@")
((${#games[@]})) || games=(rikken zwikken svangknack kul skwitz schwimmen)

# seats SPEC : --seat SPEC once per seat of $G.
seats() {
    local i
    for ((i = 0; i < PLAYERS[$G]; i++)); do printf '%s\n' --seat "$1"; done
}
play() { # [PREFIX…] -- SPEC [EXTRA…]
    local pre=()
    while [[ $1 != -- ]]; do pre+=("$1"); shift; done
    shift
    local spec=$1
    shift
    local s=()
    mapfile -t s < <(seats "$spec")
    measure "${pre[@]}" "$C" play "$G" "${s[@]}" --games "${GAMES[$G]}" --seed 1 --quiet "$@"
}
inproc() { play -- "$BOT"; }
procs() { play -- "croupier bot $BOT"; }
pinned() { play taskset -c 0 -- "croupier bot $BOT"; }
# decisions FN SPEC [PREFIX…]: decisions in one run of that variant (with --record, not timed).
decisions() {
    rm -f "$WORK/count.jsonl"
    play "${@:2}" -- "$1" --record "$WORK/count.jsonl" >/dev/null
    decisions_in "$WORK/count.jsonl"
}

echo "processes: croupier play GAME, every seat $BOT, in-process vs \`croupier bot $BOT\` processes; $RUNS rounds"
for G in "${games[@]}"; do
    n=${GAMES[$G]}
    d_in=$(decisions "$BOT")
    d_pr=$(decisions "croupier bot $BOT")
    echo "$G, ${PLAYERS[$G]} players, $n games ($d_in decisions in-process, $d_pr with processes):"
    inturn "in-process" inproc "processes" procs "processes, taskset -c 0" pinned
    printf '  games/s: in-process %s, processes %s, pinned %s\n' \
        "$(per_second "$n" "${MED[0]}")" "$(per_second "$n" "${MED[1]}")" "$(per_second "$n" "${MED[2]}")"
    printf '  decisions/s: in-process %s, processes %s, pinned %s\n' \
        "$(per_second "$d_in" "${MED[0]}")" "$(per_second "$d_pr" "${MED[1]}")" "$(per_second "$d_pr" "${MED[2]}")"
    awk -v p="${MED[1]}" -v q="${MED[2]}" -v i="${MED[0]}" -v d="$d_pr" -v di="$d_in" \
        -v rp="${RAT[1]}" -v rq="${RAT[2]}" 'BEGIN {
        printf "  time per decision: in-process %.1f µs, processes %.1f µs, pinned %.1f µs\n", i / di * 1e6, p / d * 1e6, q / d * 1e6
        printf "  per decision, processes ÷ in-process: %.1f× (pinned %.1f×); processes add %.1f µs (pinned %.1f µs)\n",
            rp * di / d, rq * di / d, (p / d - i / di) * 1e6, (q / d - i / di) * 1e6 }'
done

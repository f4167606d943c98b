#!/usr/bin/env bash
# Concurrency: one in-process match on two tables (`--concurrency 2`) against one table, in turn
# in one run; the speed-up is the median of the round-by-round time ratios (1 table ÷ 2 tables;
# 2.0 would be perfect on two free cores). Every seat random, then every seat simple. Beside
# them, the ceiling to read that figure against: `croupier play` (one thread) of all the deals,
# and two `play` processes of half the deals each at once. Their ratio is what the machine
# gives two cores that share nothing but the hardware (a VM's neighbours, caches, memory).
#
# Usage: bench/scaling.sh [GAME]   (default rikken; RUNS=3 rounds; DEALS_RANDOM=400000,
#        DEALS_SIMPLE=40000: about 1.2 s on two tables, so that the few milliseconds every run
#        spends starting do not weigh; RECORD=1: every run also writes its records, to /dev/null)
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

G=${1:-rikken}
declare -A PLAYERS=([rikken]=4 [zwikken]=4 [svangknack]=6 [kul]=5 [skwitz]=4 [schwimmen]=4)
DEALS_RANDOM=${DEALS_RANDOM:-400000}
DEALS_SIMPLE=${DEALS_SIMPLE:-40000}
RECORD_ARGS=()
[[ ${RECORD:-0} == 1 ]] && RECORD_ARGS=(--record /dev/null)
match() { # BOT DEALS CONCURRENCY
    measure "$C" match "$G" --bot "$1" --games "$2" --seed 1 --quiet --concurrency "$3" "${RECORD_ARGS[@]}"
}
echo "scaling: croupier match $G ${RECORD_ARGS[*]}, in-process, --concurrency 2 vs 1 on $(nproc) cores; $RUNS rounds"
for bot in random simple; do
    if [[ $bot == random ]]; then deals=$DEALS_RANDOM; else deals=$DEALS_SIMPLE; fi
    c2() { match "$bot" "$deals" 2; }
    c1() { match "$bot" "$deals" 1; }
    seats=()
    for ((i = 0; i < PLAYERS[$G]; i++)); do seats+=(--seat "$bot"); done
    one() { measure "$C" play "$G" "${seats[@]}" --games "$deals" --seed 1 --quiet; }
    two() {
        measure bash -c '"$0" "${@:1}" --seed 1 & "$0" "${@:1}" --seed 2 & wait' \
            "$C" play "$G" "${seats[@]}" --games $((deals / 2)) --quiet
    }
    echo "$G, every seat $bot, $deals deals:"
    inturn "--concurrency 2" c2 "--concurrency 1" c1 "play, all deals" one "2 × play, half each" two
    printf '  games/s: 1 table %s, 2 tables %s; speed-up of 2 tables: %.2f×\n' \
        "$(per_second "$deals" "${MED[1]}")" "$(per_second "$deals" "${MED[0]}")" "${RAT[1]}"
    awk -v a="${RAT[2]}" -v b="${RAT[3]}" \
        'BEGIN { printf "  the ceiling, two play processes against one: %.2f×\n", a / b }'
done

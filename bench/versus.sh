#!/usr/bin/env bash
# This croupier against an older build of it, whole `croupier play` runs in turn: every seat
# the in-process `random` bot, then every seat `simple`, per game. Both builds play the same
# games for the same seed (the golden corpus guarantees it), so the ratio of the wall times is
# the speed-up. Build the old one first, e.g. for the code before issue 12:
#   git worktree add /tmp/old 0515aac && (cd /tmp/old && cargo build --release)
#
# The new one is CROUPIER=path if given, else this checkout's release build (in $CARGO_TARGET_DIR
# if set): e.g. CROUPIER=/tmp/b/release/croupier bench/versus.sh /tmp/a/release/croupier
#
# Usage: bench/versus.sh OLD_CROUPIER [GAME…]   (default: all six; RUNS=3 rounds; NEW_MORE=K:
#        the new build plays K times the games, so that its runs are not mostly start-up;
#        default 1)
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

OLD=$(realpath "${1:?usage: bench/versus.sh OLD_CROUPIER [GAME…]}")
shift
declare -A PLAYERS=([rikken]=4 [zwikken]=4 [svangknack]=6 [kul]=5 [skwitz]=4 [schwimmen]=4)
# Games per run with random and with simple seats (about a second with the old build).
declare -A RANDOM_GAMES=([rikken]=5000 [zwikken]=1000 [svangknack]=1000 [kul]=1200 [skwitz]=300 [schwimmen]=1500)
declare -A SIMPLE_GAMES=([rikken]=800 [zwikken]=300 [svangknack]=300 [kul]=250 [skwitz]=50 [schwimmen]=700)
games=("$@")
((${#games[@]})) || games=(rikken zwikken svangknack kul skwitz schwimmen)

run() { # BINARY BOT GAMES
    local s=() i
    for ((i = 0; i < PLAYERS[$G]; i++)); do s+=(--seat "$2"); done
    measure "$1" play "$G" "${s[@]}" --games "$3" --seed 1 --quiet
}
for G in "${games[@]}"; do
    for BOT in random simple; do
        # (not `n`: inturn has a local of that name, which the functions below would see)
        if [[ $BOT == random ]]; then COUNT=${RANDOM_GAMES[$G]}; else COUNT=${SIMPLE_GAMES[$G]}; fi
        K=${NEW_MORE:-1}
        old() { run "$OLD" "$BOT" "$COUNT"; }
        new() { run "$C" "$BOT" $((COUNT * K)); }
        echo "$G, ${PLAYERS[$G]} $BOT seats, $COUNT games (new: $((COUNT * K))):"
        inturn "old ($OLD)" old "new" new
        awk -v o="${MED[0]}" -v w="${MED[1]}" -v n="$COUNT" -v k="$K" -v r="${RAT[1]}" \
            'BEGIN { printf "  games/s: old %.0f, new %.0f; speed-up %.1f×\n", n / o, n * k / w, k / r }'
    done
done

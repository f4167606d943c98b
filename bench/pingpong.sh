#!/usr/bin/env bash
# Bots as processes against the floor: croupier refereeing four trivial C bots
# (bench/pingpong/cbot.c) against a C ping-pong (bench/pingpong/pingpong.c) that writes the
# same bots exactly the bytes croupier wrote, in the same batches (one write() per bot and
# decision), and reads their answers, with no rules and no records. The plan is made from a
# real run (each seat's input captured with tee, the decision order from the record). Both are
# timed in turn, unpinned and pinned to one core (taskset -c 0); the ratio of the time per
# decision is croupier's overhead over the floor (issue 12's target: at most 1.25).
#
# Usage: bench/pingpong.sh [GAME] [GAMES]   (default rikken 300; RUNS=3 rounds; needs gcc)
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

G=${1:-rikken}
GAMES=${2:-300}
declare -A PLAYERS=([rikken]=4 [zwikken]=4 [svangknack]=6 [kul]=5 [skwitz]=4 [schwimmen]=4)
N=${PLAYERS[$G]}
gcc -O2 -o "$WORK/cbot" bench/pingpong/cbot.c
gcc -O2 -o "$WORK/pingpong" bench/pingpong/pingpong.c

# The capture run: the same game, seed and bots, each seat's input teed to a file.
seats=()
for ((s = 0; s < N; s++)); do seats+=(--seat "sh -c 'tee $WORK/seat$s.txt | $WORK/cbot'"); done
"$C" play "$G" --games "$GAMES" --seed 1 --quiet --record "$WORK/capture.jsonl" \
    --log-dir "$WORK/logs" "${seats[@]}" >/dev/null
python3 - "$WORK" "$N" <<'PY'
import json, re, sys
work, n = sys.argv[1], int(sys.argv[2])
request = re.compile(rb"^\d+ ")
batches = []
for s in range(n):
    lines = open(f"{work}/seat{s}.txt", "rb").read().splitlines(keepends=True)
    assert lines[0] == b"1 hello 1\n", lines[0]
    seat, cur = [], b""
    for line in lines[1:]:
        cur += line
        if request.match(line):  # act or quit: croupier's write for this decision ends here
            seat.append(cur)
            cur = b""
    assert cur == b"", f"seat {s}: lines after the last request"
    batches.append(seat)
order = [a["seat"] for line in open(f"{work}/capture.jsonl") for a in json.loads(line)["actions"]]
for s in range(n):
    assert len(batches[s]) == order.count(s) + 1, (s, len(batches[s]), order.count(s))
with open(f"{work}/plan", "wb") as p:
    p.write(b"N %d\n" % n)
    for s in range(n):
        p.write(b"W %d 10\n1 hello 1\n" % s)
    for s in range(n):
        p.write(b"R %d\n" % s)
    nxt = [0] * n
    for s in order:
        b = batches[s][nxt[s]]
        nxt[s] += 1
        p.write(b"W %d %d\n" % (s, len(b)) + b + b"R %d\n" % s)
    for s in range(n):
        b = batches[s][nxt[s]]
        p.write(b"W %d %d\n" % (s, len(b)) + b + b"R %d\n" % s)
open(f"{work}/decisions", "w").write(str(len(order)))
PY
D=$(cat "$WORK/decisions")
cbots=()
for ((s = 0; s < N; s++)); do cbots+=(--seat "$WORK/cbot"); done
referee() { measure "$@" "$C" play "$G" --games "$GAMES" --seed 1 --quiet --log-dir "$WORK/logs" "${cbots[@]}"; }
floor() { measure "$@" "$WORK/pingpong" "$WORK/plan" "$WORK/cbot"; }

echo "$G, $GAMES games, $D decisions, $N C bots; median of $RUNS runs each (wall s), in turn"
printf '%-10s %12s %12s %14s %14s %8s\n' "" "croupier s" "ping-pong s" "croupier µs/d" "ping-pong µs/d" "ratio"
for pin in unpinned pinned; do
    pre=()
    [[ $pin == pinned ]] && pre=(taskset -c 0)
    : >"$WORK/a"
    : >"$WORK/b"
    for ((r = 0; r < RUNS; r++)); do
        referee "${pre[@]}" | cut -d' ' -f1 >>"$WORK/a"
        floor "${pre[@]}" | cut -d' ' -f1 >>"$WORK/b"
    done
    a=$(median <"$WORK/a")
    b=$(median <"$WORK/b")
    awk -v p="$pin" -v a="$a" -v b="$b" -v d="$D" \
        'BEGIN { printf "%-10s %12.3f %12.3f %14.2f %14.2f %8.2f\n", p, a, b, a / d * 1e6, b / d * 1e6, a / b }'
done

#!/usr/bin/env bash
# On time, measured (protocol.md §4, "On time"): a bot that answers each `act` a fixed delta
# before or after its move time, against croupier's deadline. Per delta: how many of its
# answers were taken and how many were timeouts, and croupier's own lateness, i.e. how long
# after a deadline it took its last look at the pipe (from the timeout faults' messages).
# On an idle machine a bot 1 ms early is never a timeout and one 1 ms late always is.
#
# Usage: bench/lateness.sh [MOVE_MS]   (default 100; DECISIONS=40 per delta; DELTAS="-5 -1 1 10")
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

MOVE_MS=${1:-100}
DELTAS=${DELTAS:-"-5 -1 1 10"}
# Kul with 2 players and one mark to win: about 5 decisions of seat 0 per game.
GAMES=$(((${DECISIONS:-40} + 4) / 5))

cat >"$WORK/timed.py" <<'PY'
import sys, time
delta = float(sys.argv[1]) / 1000.0
for line in sys.stdin:
    t0 = time.monotonic()
    w = line.split()
    if len(w) < 2:
        continue
    if w[1] == "hello":
        print(f"={w[0]} timed 1", flush=True)
    elif w[1] == "quit":
        print(f"={w[0]}", flush=True)
        break
    elif w[1] == "act":
        # act <decision> <time_ms> <legal…>: answer at time_ms + delta after the request came.
        wait = int(w[3]) / 1000.0 + delta - (time.monotonic() - t0)
        if wait > 0:
            time.sleep(wait)
        print(f"={w[0]} {w[4]}", flush=True)
PY

printf '%-9s %9s %9s %9s %24s\n' "delta_ms" "answers" "taken" "timeouts" "croupier late (ms, max)"
for d in $DELTAS; do
    rec=$WORK/late$d.jsonl
    (cd "$WORK" && "$C" play kul --players 2 --rule games=1 --rule marks_to_win=1 \
        --seat "python3 $WORK/timed.py $d" --seat simple --games "$GAMES" --seed 1 \
        --move-time "${MOVE_MS}ms" --quiet --record "$rec" >/dev/null 2>&1)
    python3 - "$rec" "$d" <<'PY'
import json, re, sys
asked = timeouts = 0
late = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    asked += sum(1 for a in r["actions"] if a.get("seat") == 0)
    for f in r["faults"]:
        if f["kind"] == "timeout":
            timeouts += 1
            m = re.search(r"croupier looked ([0-9.]+) ms after", f["message"])
            if m:
                late.append(float(m.group(1)))
mx = f"{max(late):.2f}" if late else "-"
print(f"{sys.argv[2]:<9} {asked:>9} {asked - timeouts:>9} {timeouts:>9} {mx:>24}")
PY
done

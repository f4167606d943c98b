#!/usr/bin/env bash
# Memory: max RSS (GNU time's %M, KiB) of an in-process match of a growing number of deals
# (growth per deal = the difference ÷ the extra deals), and of `croupier stats`, `croupier
# stats --html` (with its report page) and `croupier replay` on a record file of about 50 MB
# that the script writes first (RSS per MB of input, above the RSS of `croupier games`, a
# process that reads nothing).
#
# Usage: bench/memory.sh [GAME]   (default rikken, every seat random; DEALS="10000 100000",
#        RECORD_GAMES=20000: about 50 MB of Rikken records)
# Needs GNU time at /usr/bin/time: on Debian/Ubuntu `apt-get install time`.
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

G=${1:-rikken}
read -r -a deals <<<"${DEALS:-10000 100000}"
RECORD_GAMES=${RECORD_GAMES:-20000}
kib_to_mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

echo "memory: max RSS of croupier match $G --bot random, by deals"
prev_d="" prev_r=""
for d in "${deals[@]}"; do
    read -r wall _ _ rss < <(measure "$C" match "$G" --bot random --games "$d" --seed 1 --quiet)
    printf '  %8d deals: %7s MiB max RSS (%.1f s)\n' "$d" "$(kib_to_mib "$rss")" "$wall"
    if [[ -n $prev_d ]]; then
        awk -v a="$prev_r" -v b="$rss" -v x="$prev_d" -v y="$d" \
            'BEGIN { printf "  growth: %.0f bytes per deal (%d → %d deals)\n", (b - a) * 1024 / (y - x), x, y }'
    fi
    prev_d=$d prev_r=$rss
done

rec=$WORK/record.jsonl
"$C" match "$G" --bot random --games "$RECORD_GAMES" --seed 1 --quiet --record "$rec" >/dev/null
bytes=$(stat -c %s "$rec")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
read -r _ _ _ base < <(measure "$C" games)
echo "stats and replay of a $mb MB record ($RECORD_GAMES $G games); croupier games: $(kib_to_mib "$base") MiB"
for cmd in stats "stats --html $WORK/report.html" replay; do
    # shellcheck disable=SC2086 # the words of "stats --html FILE"
    read -r wall _ _ rss < <(measure "$C" $cmd "$rec")
    awk -v r="$rss" -v b="$base" -v mb="$mb" -v c="${cmd%% "$WORK"*}" -v w="$wall" 'BEGIN {
        printf "  croupier %-14s %7.1f MiB max RSS (%.1f s): %.1f MiB per MB of input above the base\n",
            c, r / 1024, w, (r - b) / 1024 / mb }'
done
echo "  (the report of stats --html: $(stat -c %s "$WORK/report.html") bytes)"

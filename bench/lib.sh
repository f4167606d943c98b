# shellcheck shell=bash
# Shared by the bench/ scripts (sourced, not run): finds the binary (bench/binary.sh: CROUPIER=path,
# else the release build, in $CARGO_TARGET_DIR if set) and times whole processes with GNU time. Figures are machine-dependent; quote medians and the ratios of two
# commands run in turn (A B A B …) in one run, which hold when the machine's speed drifts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# GNU time (not the shell keyword) gives wall, CPU and max RSS of a finished process.
# On Debian/Ubuntu it is the `time` package: apt-get install time
if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
    echo "bench: needs GNU time at /usr/bin/time (Debian: apt-get install time)" >&2
    exit 2
fi

# shellcheck source=bench/binary.sh
source bench/binary.sh
RUNS=${RUNS:-3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/croupier-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# measure CMD ARG… : runs the command once (output discarded, logs in $WORK) and prints
# "wall_s user_s sys_s maxrss_kib": wall time from the shell's microsecond clock (GNU time's
# own is in hundredths), CPU times and max RSS (KiB) from GNU time.
measure() {
    local out=$WORK/time.$$ t0 t1
    t0=$EPOCHREALTIME
    (cd "$WORK" && /usr/bin/time -o "$out" -f "%U %S %M" "$@" >/dev/null 2>"$WORK/stderr") || {
        echo "bench: failed: $*" >&2
        cat "$WORK/stderr" >&2
        exit 1
    }
    t1=$EPOCHREALTIME
    echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }') $(cat "$out")"
}

# median: the median of the numbers on standard input, one per line.
median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# inturn LABEL_1 FN_1 LABEL_2 FN_2 … : runs the shell functions FN_k (each runs one command
# through `measure`) in turn, one warm-up round then $RUNS counted rounds (1 2 … 1 2 …), and
# prints each one's median wall time and, for k > 1, the median of the round-by-round ratios
# FN_k / FN_1. Sets MED[k] (seconds) and RAT[k] (ratio to the first), k from 0.
inturn() {
    local labels=() fns=() i k n w first
    while (($#)); do
        labels+=("$1")
        fns+=("$2")
        shift 2
    done
    n=${#fns[@]}
    local -a walls ratios
    for ((k = 0; k < n; k++)); do "${fns[k]}" >/dev/null; done
    for ((i = 0; i < RUNS; i++)); do
        for ((k = 0; k < n; k++)); do
            w=$("${fns[k]}" | cut -d' ' -f1)
            walls[k]+="$w "
            if ((k == 0)); then
                first=$w
            else
                ratios[k]+="$(awk -v a="$w" -v b="$first" 'BEGIN { printf "%.4f", a / b }') "
            fi
        done
    done
    MED=() RAT=()
    # walls[k] and ratios[k] are space-separated lists: split on purpose.
    # shellcheck disable=SC2086
    for ((k = 0; k < n; k++)); do
        MED[k]=$(printf '%s\n' ${walls[k]} | median)
        printf '  %-56s %8.3f s median  (runs:%s)\n' "${labels[k]}" "${MED[k]}" "$(printf ' %.3f' ${walls[k]})"
        if ((k > 0)); then
            RAT[k]=$(printf '%s\n' ${ratios[k]} | median)
            printf '  %-56s %8.2f ×  (median of the round-by-round ratios)\n' "  ÷ ${labels[0]}" "${RAT[k]}"
        else
            RAT[k]=1
        fi
    done
}

# per_second COUNT SECONDS : COUNT / SECONDS, rounded.
per_second() {
    awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'
}

# decisions_in FILE : the number of decisions (actions) in a record file.
decisions_in() {
    grep -o '"ms":' "$1" | wc -l
}

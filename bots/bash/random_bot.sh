#!/usr/bin/env bash
# random_bot.sh - a croupier bot in pure Bash: it plays a uniformly random legal action.
#
# Protocol v1 (see protocol.md): a line that starts with a number is a request
# "<id> <command> <args...>" and gets exactly one answer, "=<id> <result>" or "?<id> <message>";
# any other line is a notification and gets no answer. Only `rngseed` matters to us: we seed
# Bash's $RANDOM with it, so the same seed gives the same choices (with the same Bash version).
#
# The loop uses Bash builtins only (no subshells, no external programs), so it is fast.
# Bash writes each printf straight to the pipe, so every answer is flushed at once.

set -f          # no filename expansion when splitting lines into words
IFS=$' \t\n'    # split on spaces

while IFS= read -r line || [[ -n $line ]]; do
    line=${line%$'\r'}              # tolerate CRLF input
    w=($line)                       # split into words (globbing is off)
    id=${w[0]}
    case $id in
        '' | *[!0-9]*)
            # A notification (or a blank line): never answered.
            if [[ $id == rngseed && ${w[1]} =~ ^[0-9]+$ ]]; then
                seed=${w[1]}
                # Seeds are 64-bit and may not fit Bash's signed arithmetic: keep the last 18
                # digits (10# so that leading zeros are not read as octal).
                (( ${#seed} > 18 )) && seed=${seed:${#seed}-18}
                RANDOM=$((10#$seed))
            fi
            continue
            ;;
    esac
    case ${w[1]} in
        hello)
            printf '=%s bashbot 1.0\n' "$id"
            ;;
        act)
            # act <decision> <time_ms> <legal action> <legal action> ...
            n=$(( ${#w[@]} - 4 ))
            if (( n < 1 )); then
                printf '?%s no legal actions given\n' "$id"
                continue
            fi
            # A uniform pick from 0..n-1: $RANDOM is 0..32767, so reject the top values that
            # would make some actions more likely than others.
            limit=$(( 32768 - 32768 % n ))
            r=$RANDOM
            while (( r >= limit )); do r=$RANDOM; done
            printf '=%s %s\n' "$id" "${w[4 + r % n]}"
            ;;
        quit)
            printf '=%s\n' "$id"
            exit 0
            ;;
        *)
            printf '?%s unknown command\n' "$id"
            ;;
    esac
done
exit 0

#!/usr/bin/env bash
# Every whole-process benchmark in turn: processes (bots as processes against in-process bots),
# scaling (--concurrency 2 against 1), memory (max RSS of long matches, of stats and replay) and
# lateness (answers just before and after the move time against croupier's deadline) and
# pingpong (croupier with C bots against a C ping-pong writing the same bytes: the floor).
# The per-game criterion benches are `cargo bench` (BENCHMARKS.md). Figures depend on the
# machine: read the ratios, each measured in one run. Usage: bench/run.sh  (RUNS=3 rounds;
# CROUPIER=path measures that binary, else the release build, in $CARGO_TARGET_DIR if set)
set -euo pipefail
cd "$(dirname "$0")"
./processes.sh
./scaling.sh
./memory.sh
./lateness.sh
./pingpong.sh

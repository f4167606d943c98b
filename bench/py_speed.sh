#!/usr/bin/env bash
# Speed of the Python package (crates/py; BENCHMARKS.md, "Python: the games for learning, speed"):
# random play from a Python loop, croupier_games against OpenSpiel's own C++ card games, and the
# batched environment's steps per second, pinned to one core.
#
#   bench/py_speed.sh [ARG…]        # ARGs go to bench/py_speed.py (--seconds S, --part loop|vector,
#                                   # --games kul,rikken, --envs N, --smoke)
#
# VENV=dir: the venv to use (default target/py-venv, the one .ci/run makes; made here with
# maturin, numpy and open-spiel when missing). The release wheel of this checkout is built
# (in $CARGO_TARGET_DIR when set) and installed into it; NO_BUILD=1 uses what is installed.
# CORE=N: the core it is pinned to with taskset (default 1). RUNS=N: measurements per figure
# (default 5; the median is printed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv=${VENV:-target/py-venv}
if [[ ! -x $venv/bin/python ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check maturin numpy open-spiel==2.0.2
fi
if [[ -z ${NO_BUILD:-} ]]; then
    wheels=$(mktemp -d "${TMPDIR:-/tmp}/croupier-bench.XXXXXX")
    trap 'rm -rf "$wheels"' EXIT
    # Into a file, not a pipe: maturin dies when a pipe it writes to closes.
    "$venv/bin/maturin" build --quiet --release -m crates/py/Cargo.toml -o "$wheels" >"$wheels/build.log" 2>&1 || {
        cat "$wheels/build.log" >&2
        exit 1
    }
    "$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps "$wheels"/*.whl
fi
pin=()
if command -v taskset >/dev/null; then
    pin=(taskset -c "${CORE:-1}")
else
    echo "bench: no taskset (util-linux): not pinned" >&2
fi
echo "# $(date -u '+%F %T UTC'); load:$(uptime | sed 's/.*load average://'); pinned: ${pin[*]:-no}"
"${pin[@]}" "$venv/bin/python" bench/py_speed.py --repeat "${RUNS:-5}" "$@"

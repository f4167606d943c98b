# shellcheck shell=bash
# Sourced by the bench/ scripts, from the repository's root: sets C, the croupier binary they
# run. CROUPIER=path runs that binary (an older build, another checkout's: two builds compared
# without editing the scripts); otherwise the release build of this checkout is made and run,
# in $CARGO_TARGET_DIR when it is set (cargo's own rule), else in ./target.
if [[ -n ${CROUPIER:-} ]]; then
    C=$(realpath "$CROUPIER")
else
    cargo build --release -q
    C=$(realpath "${CARGO_TARGET_DIR:-target}")/release/croupier
fi
if [[ ! -x $C ]]; then
    echo "bench: $C is not an executable croupier (CROUPIER=${CROUPIER:-})" >&2
    exit 2
fi

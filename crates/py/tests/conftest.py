import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]

# Short games where a game holds many deals (a Kul session of one game, and so on), so that the
# tests play whole games quickly.
SHORT = {"kul": {"games": 1}}


@pytest.fixture(scope="session")
def croupier_bin():
    """The `croupier` executable: $CROUPIER_BIN (CI sets it: a missing binary then fails), else
    the debug build under $CARGO_TARGET_DIR or target/ (skips when there is none)."""
    given = os.environ.get("CROUPIER_BIN")
    if given:
        assert os.access(given, os.X_OK), f"CROUPIER_BIN={given} is not an executable"
        return given
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    path = target / "debug" / "croupier"
    if not os.access(path, os.X_OK):
        pytest.skip(f"no croupier binary at {path}: run `cargo build` or set CROUPIER_BIN")
    return str(path)

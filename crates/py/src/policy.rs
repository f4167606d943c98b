//! croupier's built-in `simple` bot as a Python function: an opponent to train against, and a
//! yardstick, choosing exactly as `croupier play --seat simple` would from the same seat view.

use crate::state::State;
use pyo3::prelude::*;

/// The integer action croupier's `simple` bot would choose for the seat to move of `state`
/// (from that seat's view only, as the built-in bot at a table). ValueError when the game is
/// over.
#[pyfunction]
pub fn simple_action(state: &State) -> PyResult<usize> {
    let seat = state
        .game
        .to_move()
        .ok_or_else(|| crate::error::err("the game is over: no seat is to move"))?;
    let legal = state.legal_tokens();
    let token = (state.spec.simple_policy)(state.views[seat].as_ref(), state.game.decision(), &legal);
    let at = legal
        .iter()
        .position(|t| *t == token)
        .ok_or_else(|| crate::error::err(format!("simple chose {token}, which is not legal")))?;
    let ids = state.vocab.ids(&legal).map_err(crate::error::err)?;
    Ok(ids[at])
}

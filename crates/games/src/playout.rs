//! Playouts: a game played on to where a search scores it, with the game's playout policy
//! at every seat (or at random). Two loops that choose and stop alike: [`play_out`] on a typed
//! engine, without events (what searches use where a game's engine has
//! [`Engine::playout_policy`]), and [`play_out_on_views`] on a game whose events feed a view per
//! seat (every game; the reference the first is tested against, and what `CROUPIER_SEARCH_VIEWS=1`
//! makes a search use).
//!
//! Both stop at the game's end or, for a search that began with `since` points of the session
//! settled ([`Game::standing`]), at the first such point after those, looked at only when a
//! deal has ended (a game of the session ends only where a deal ends, and the standing may cost).

use crate::chance::Rng;
use crate::engine::{Engine, NoEvents};
use crate::game::{Game, GameSpec, SeatView};

/// Whether a playout or search that began with `since` points settled stops now, with the
/// game's deal count `now` and the count when it was last looked at kept in `deals`: the
/// standing's scores (`standing`: [`Game::standing`]) if so.
pub fn settled_after(
    since: Option<u64>,
    deals: &mut usize,
    now: usize,
    standing: impl FnOnce() -> Option<(u64, Vec<f64>)>,
) -> Option<Vec<f64>> {
    let k0 = since?;
    if now == *deals {
        return None;
    }
    *deals = now;
    standing().filter(|(k, _)| *k > k0).map(|(_, s)| s)
}

/// Plays `engine` out without events: with its [`playout_policy`](Engine::playout_policy) at
/// every seat, or uniformly at random with `random`, to where a search that began with `since`
/// points settled stops (module docs). Every seat's score there (zeros if the game could not
/// go on: a given deal that does not fit). It chooses and stops as [`play_out_on_views`] does,
/// so a search's decisions do not depend on which of the two it plays out with.
pub fn play_out<G: Engine>(mut engine: G, since: Option<u64>, mut random: Option<&mut Rng>) -> Vec<f64> {
    let mut legal = Vec::new();
    let mut deals = engine.chance().deals().len();
    let mut steps = 0u32;
    while engine.to_move().is_some() {
        if let Some(scores) = settled_after(since, &mut deals, engine.chance().deals().len(), || engine.standing()) {
            return scores;
        }
        engine.legal(&mut legal);
        let i = match random.as_deref_mut() {
            Some(rng) => rng.below(legal.len() as u64) as usize,
            None => engine.playout_policy(&legal),
        };
        if engine.apply(legal[i], &mut NoEvents).is_err() {
            break;
        }
        steps += 1;
        if steps > 100_000 {
            break;
        }
    }
    engine.scores().unwrap_or_else(|| vec![0.0; engine.players()])
}

/// Plays `game` out with the playout policy of `spec` on the view of the seat to move, the
/// views fed the game's events (`views[s]` for seat `s`), or uniformly at random with `random`,
/// to where a search that began with `since` points settled stops (module docs): every seat's
/// score there. The events made before the call must have been routed already.
pub fn play_out_on_views(
    game: &mut dyn Game,
    views: &mut [Box<dyn SeatView>],
    spec: &GameSpec,
    since: Option<u64>,
    mut random: Option<&mut Rng>,
) -> Vec<f64> {
    let mut steps = 0u32;
    let mut deals = game.chance().deals().len();
    while let Some(s) = game.to_move() {
        if let Some(scores) = settled_after(since, &mut deals, game.chance().deals().len(), || game.standing()) {
            return scores;
        }
        let i = match random.as_deref_mut() {
            Some(rng) => rng.below(game.legal_count() as u64) as usize,
            None => spec.policy_index(game, views[s].as_ref(), true),
        };
        if game.apply_legal(i).is_err() {
            break;
        }
        route(game, views);
        steps += 1;
        if steps > 100_000 {
            break;
        }
    }
    game.scores().unwrap_or_else(|| vec![0.0; game.players()])
}

/// Routes the game's new events to the views of their audience.
pub fn route(game: &mut dyn Game, views: &mut [Box<dyn SeatView>]) {
    let n = views.len();
    for e in game.take_events() {
        for s in e.to.members(n) {
            views[s].observe(e.kind, &e.args);
        }
    }
}

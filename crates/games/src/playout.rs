//! Playouts: a game played on to where a search scores it, with the game's playout policy
//! at every seat (or at random). Two loops that choose and stop alike: [`play_out`] on a typed
//! engine, without events (what searches use where a game has an [`EnginePolicy`](crate::engine::EnginePolicy)), and [`play_out_on_views`] on a game whose events feed a view per
//! seat (every game; the reference the first is tested against, and what `CROUPIER_SEARCH_VIEWS=1`
//! makes a search use).
//!
//! Both stop at the game's end or, for a search that began with `since` points of the session
//! settled ([`Game::standing`]), at the first such point after those, looked at only when a
//! deal has ended (a game of the session ends only where a deal ends, and the standing may cost).

use crate::chance::Rng;
use crate::game::{Game, GameSpec, SeatView};

// The typed loop is the engine's (the `Typed` adapter plays it); it is read here with the other.
pub use crate::engine::{play_out, play_out_sketched, settled_after};

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

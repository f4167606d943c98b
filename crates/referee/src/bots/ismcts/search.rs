//! The search of a decision on `pimc`'s worlds: iterations that each take a world, walk the
//! tree down in it, add a node and play out from there.

use super::params::{Others, Params, Playouts};
use super::tree::{key, Step, Tree};
use crate::bots::pimc::{Pimc, SearchStats, World};
use crate::chance::{Purpose, Rng};
use std::time::Instant;

/// The action the search chooses among `legal` (the referee's tokens), or `None` when the bot
/// must decide without search (see [`Pimc::ready`]).
pub(super) fn search(
    pimc: &mut Pimc,
    params: &Params,
    decision: &str,
    legal: &[String],
    time_ms: u64,
    stats: &mut SearchStats,
) -> Option<String> {
    let start = Instant::now();
    let deadline = pimc.ready(legal, time_ms)?;
    if legal.len() == 1 {
        return Some(legal[0].clone());
    }
    let mut rng = Rng::new(pimc.next_seed(), Purpose::Bot, 1);
    let (players, since, me, spec) = {
        let (world, me, spec) = pimc.followed()?;
        (world.game.players(), world.settled(), me, spec.clone())
    };
    let mut tree = Tree::new(players);
    let mut worlds: Vec<(World, f64)> = Vec::new();
    let mut tries = 0usize;
    let mut keys: Vec<u64> = Vec::new();
    let mut path: Vec<u32> = Vec::new();
    let mut token = String::new();
    for it in 0..params.iterations {
        if it > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        // A new world while fewer than `worlds` were tried, else one of those drawn by weight.
        if tries < params.worlds {
            tries += 1;
            match pimc.sample_world() {
                Some(w) => {
                    stats.worlds += 1;
                    worlds.push(w);
                }
                None => stats.misfits += 1,
            }
        }
        if worlds.is_empty() {
            // The world the bot follows, when no other could be made.
            let (w, _, _) = pimc.followed()?;
            worlds.push((w.clone(), 1.0));
        }
        let mut world = pick(&worlds, &mut rng).clone();
        // Down the tree, in this world.
        path.clear();
        path.push(0);
        let mut node = 0u32;
        let mut ended = None;
        loop {
            if let Some(scores) = world.stop(since) {
                ended = Some(scores);
                break;
            }
            let seat = world.game.to_move().expect("a world in play has a seat to move");
            let count = world.game.legal_count();
            if seat != me && params.others == Others::Policy {
                // Another seat plays as the playout policy would, in this world: its action is
                // a node of the tree like any (what follows depends on it), but not a choice.
                let i = spec.policy_index(world.game.as_mut(), world.views[seat].as_ref(), true);
                token.clear();
                world.game.write_legal_token(i, &mut token);
                let k = key(&token);
                if world.apply_index(i).is_err() {
                    break;
                }
                node = tree.child(node, k).unwrap_or_else(|| tree.add(node, k, seat));
                path.push(node);
                continue;
            }
            keys.clear();
            for i in 0..count {
                token.clear();
                world.game.write_legal_token(i, &mut token);
                keys.push(key(&token));
            }
            let (i, child) = match tree.step(node, seat, &keys, params.c, &mut rng) {
                Step::Descend(i, child) => (i, Some(child)),
                Step::Expand(i) => (i, None),
            };
            if world.apply_index(i).is_err() {
                break;
            }
            match child {
                Some(c) => {
                    node = c;
                    path.push(c);
                }
                None => {
                    path.push(tree.add(node, keys[i], seat));
                    break;
                }
            }
        }
        let scores = match ended {
            Some(s) => s,
            None => {
                let random = (params.playouts == Playouts::Random).then_some(&mut rng);
                world.play_out_from(&spec, since, random)
            }
        };
        stats.playouts += 1;
        tree.back_up(&path, &scores);
    }
    stats.searched += 1;
    stats.search_ns += start.elapsed().as_nanos() as u64;
    // The playout policy's choice on the seat's view: what the search must be sure to beat.
    let base = pimc.model_choice(decision, legal).map(|a| key(&a));
    let sure = params.sure.unwrap_or(spec.search_sure);
    let best = tree.best(base, sure)?;
    legal.iter().find(|a| key(a) == best).cloned()
}

/// A world drawn from `worlds` in proportion to its weight.
fn pick<'a>(worlds: &'a [(World, f64)], rng: &mut Rng) -> &'a World {
    let total: f64 = worlds.iter().map(|(_, w)| w).sum();
    let mut x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (w, weight) in worlds {
        if x < *weight {
            return w;
        }
        x -= weight;
    }
    &worlds[worlds.len() - 1].0
}

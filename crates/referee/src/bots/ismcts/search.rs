//! The search of a decision on `pimc`'s worlds: walks that each take a world, go down the tree
//! in it, add a node and play out from there; at the root either every action in every world,
//! compared world by world (`root=paired`), or one action per walk by UCB1 (`root=ucb`).

use super::params::{Others, Params, Playouts, Root};
use super::tree::{key, Step, Tree};
use crate::bots::pimc::{Pimc, SearchStats, World};
use crate::chance::{Purpose, Rng};
use crate::game::{GameSpec, Seat};
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
    let (players, since, me, spec) = {
        let (world, me, spec) = pimc.followed()?;
        (world.game.players(), world.settled(), me, spec.clone())
    };
    // The game's default counts where the spec gives none (`pimc`'s playouts and samples).
    let counts = pimc.counts();
    let iterations = params.iterations.unwrap_or(counts.playouts);
    let most_worlds = params.worlds.unwrap_or(counts.samples);
    let mut walk = Walk {
        params,
        me,
        since,
        rng: Rng::new(pimc.next_seed(), Purpose::Bot, 1),
        keys: Vec::new(),
        path: Vec::new(),
        token: String::new(),
    };
    let mut tree = Tree::new(players);
    let choice = match params.root {
        Root::Paired => {
            // Every action walked in every world, compared world by world (as pimc does).
            let roots: Vec<u64> = legal.iter().map(|a| key(a)).collect();
            let walks = params.walks;
            let samples = most_worlds.min((iterations / (legal.len() * walks)).max(2));
            let mut extra = 0;
            let choice = pimc
                .paired(legal, decision, deadline, samples, params.sure, stats, |world, i| {
                    // `paired` counts one playout per world and action; the walks after it here.
                    let mut total = 0.0;
                    for w in 0..walks {
                        extra += (w > 0) as u64;
                        match walk.run(&mut tree, world.for_search(), &spec, Some(roots[i])) {
                            Some(scores) => total += scores[me],
                            None => return f64::NEG_INFINITY,
                        }
                    }
                    total / walks as f64
                })
                .map(|i| roots[i]);
            stats.playouts += extra;
            choice
        }
        Root::Ucb => {
            let mut worlds: Vec<(World, f64)> = Vec::new();
            let mut replays = 0;
            for it in 0..iterations {
                if it > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                // A new world while fewer than `worlds` were tried and the replays last, else
                // one of those by weight.
                let spent = replays >= pimc.replays();
                if it < most_worlds && (!spent || worlds.is_empty()) {
                    let last = worlds.is_empty() && (spent || it + 1 == most_worlds.min(iterations));
                    worlds.extend(pimc.sample_or_followed(last, &mut replays, stats));
                }
                if worlds.is_empty() {
                    continue;
                }
                let world = pick(&worlds, &mut walk.rng).for_search();
                walk.run(&mut tree, world, &spec, None);
                stats.playouts += 1;
            }
            // The playout policy's choice on the seat's view: what the search must be sure to
            // beat.
            let base = pimc.model_choice(decision, legal).map(|b| key(&b));
            tree.best(base, params.sure.unwrap_or(spec.search_sure))
        }
    };
    stats.searched += 1;
    stats.search_ns += start.elapsed().as_nanos() as u64;
    let best = choice?;
    legal.iter().find(|a| key(a) == best).cloned()
}

/// One walk's settings and buffers.
struct Walk<'a> {
    params: &'a Params,
    me: Seat,
    /// The points where the session was scored before the decision (where walks stop).
    since: Option<u64>,
    rng: Rng,
    keys: Vec<u64>,
    path: Vec<u32>,
    token: String,
}

impl Walk<'_> {
    /// Walks down the tree in `world` (its first action the root action with key `first`, if
    /// given), adds a node, plays out, and adds every seat's score to the nodes passed; returns
    /// those scores (`None` if the world refused an action).
    fn run(&mut self, tree: &mut Tree, mut world: World, spec: &GameSpec, first: Option<u64>) -> Option<Vec<f64>> {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let mut first = first;
        let mut deals = world.deals();
        let scores = loop {
            if let Some(scores) = world.stop(self.since, &mut deals) {
                break scores;
            }
            let seat = world.game.to_move()?;
            let count = world.game.legal_count();
            // Which action (and its key), and whether the walk goes on in the tree after it.
            let (i, k, child) = if let Some(k) = first.take() {
                self.all_keys(&world, count);
                (self.keys.iter().position(|&x| x == k)?, k, tree.child(node, k))
            } else if seat != self.me && self.params.others == Others::Policy
                || seat == self.me && node != 0 && tree.visits(node) < self.params.widen
            {
                // As the playout policy would, in this world: another seat's action (the bot's
                // model of it), or the seat's own at a node too new to search. A node like any
                // (what follows depends on it), but not a choice: only its own key is made.
                let i = world.policy(spec, seat);
                let k = self.key_of(&world, i);
                (i, k, tree.child(node, k))
            } else {
                self.all_keys(&world, count);
                match tree.step(node, seat, &self.keys, self.params.c, &mut self.rng) {
                    Step::Descend(i, child) => (i, self.keys[i], Some(child)),
                    Step::Expand(i) => {
                        world.apply_index(i).ok()?;
                        self.path.push(tree.add(node, self.keys[i], seat));
                        break self.play_out(world, spec, deals);
                    }
                }
            };
            world.apply_index(i).ok()?;
            node = child.unwrap_or_else(|| tree.add(node, k, seat));
            self.path.push(node);
        };
        tree.back_up(&self.path, &scores);
        Some(scores)
    }

    /// The keys of the `count` legal actions of `world` (after `legal_count`), in `keys`.
    fn all_keys(&mut self, world: &World, count: usize) {
        self.keys.clear();
        for i in 0..count {
            let k = self.key_of(world, i);
            self.keys.push(k);
        }
    }

    /// The key of legal action `i` of `world` (after `legal_count`): its token's.
    fn key_of(&mut self, world: &World, i: usize) -> u64 {
        self.token.clear();
        world.game.write_legal_token(i, &mut self.token);
        key(&self.token)
    }

    /// The scores where the walk stops after its last action (`deals`: the deals made before
    /// it): at once where that action ended a deal or the game, else after a playout.
    fn play_out(&mut self, world: World, spec: &GameSpec, deals: usize) -> Vec<f64> {
        let random = (self.params.playouts == Playouts::Random).then_some(&mut self.rng);
        world.play_on(spec, self.since, deals, random)
    }
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

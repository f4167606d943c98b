//! The search of a decision: each legal action played out in each sampled world, and the
//! action picked from the playouts' values ([`choose`]).

use super::bot::{Pimc, SearchStats};
use super::choice::{choose, Searched};
use super::world::World;
use std::time::{Duration, Instant};

impl Pimc {
    /// Follows the seat's lines up to now within the decision's share of the time, and checks
    /// that the world followed offers the actions the referee does: the time cap of the
    /// decision's search (`None`: no cap), or `None` inside when the bot must decide without
    /// search (it follows no world, fell behind, or its world offers other actions). Shared by
    /// every search on pimc's worlds.
    pub(crate) fn ready(&mut self, legal: &[String], time_ms: u64) -> Option<Option<Instant>> {
        if self.tracker.is_none() && std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
            eprintln!("pimc: no world for this game");
        }
        self.searched = None;
        let start = Instant::now();
        // Half the referee's limit at most, so that an answer is never late: following the
        // game (catch-up) and the search share it.
        let cap = self
            .budget
            .ms
            .map(Duration::from_millis)
            .into_iter()
            .chain((time_ms > 0).then(|| Duration::from_millis(time_ms / 2)))
            .min();
        let t = self.tracker.as_mut()?;
        t.deadline = cap.map(|c| start + c);
        t.timed_out = false;
        let caught_up = t.catch_up(&mut self.rng);
        t.deadline = None;
        if !caught_up {
            return None;
        }
        // The same actions (a world may list them in another order: a hand's order is its own).
        let mut offered = t.world.game.legal_actions();
        offered.sort();
        let mut asked = legal.to_vec();
        asked.sort();
        if offered != asked {
            if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                eprintln!(
                    "pimc: the world offers {:?} (seat {:?} to move), the referee {legal:?}",
                    t.world.game.legal_actions(),
                    t.world.game.to_move()
                );
            }
            return None;
        }
        Some(cap.map(|c| start + c))
    }

    /// The decision by search: each legal action played out in each sampled world.
    pub(super) fn search(&mut self, legal: &[String], time_ms: u64) -> Option<String> {
        let start = Instant::now();
        let deadline = self.ready(legal, time_ms)?;
        if legal.len() == 1 {
            return Some(legal[0].clone());
        }
        // The points settled at the decision: the same in every world sampled (they fit the
        // seat's lines), so read once, as `ismcts` does.
        let (me, spec, decision, since) = {
            let t = self.tracker.as_ref()?;
            (t.me, t.spec.clone(), t.world.game.decision(), t.world.settled())
        };
        let counts = self.counts();
        let samples = counts.samples.min((counts.playouts / legal.len()).max(2));
        let mut stats = std::mem::take(&mut self.stats);
        let choice = self.paired(
            legal,
            decision,
            deadline,
            samples,
            self.budget.sure,
            &mut stats,
            |world, i| world.value(&legal[i], &spec, me, since).unwrap_or(f64::NEG_INFINITY),
        );
        stats.searched += 1;
        stats.search_ns += start.elapsed().as_nanos() as u64;
        self.stats = stats;
        choice.map(|i| legal[i].clone())
    }

    /// Every legal action valued in every world sampled for this decision (at most `samples`,
    /// while there is time and the budget's `replays` last; `value(world, i)` is world's value
    /// of `legal[i]` for the seat), and the action chosen from them world by world
    /// ([`choose`]), against the playout policy's choice with `sure` (`None`: the game's): its
    /// index in `legal`. After [`ready`](Pimc::ready); `None` when no world was played.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn paired(
        &mut self,
        legal: &[String],
        decision: &str,
        deadline: Option<Instant>,
        samples: usize,
        sure: Option<f64>,
        stats: &mut SearchStats,
        mut value: impl FnMut(&World, usize) -> f64,
    ) -> Option<usize> {
        let mut values: Vec<Vec<f64>> = Vec::new();
        let mut weights: Vec<f64> = Vec::new();
        let (mut replays, most) = (0, self.replays());
        for k in 0..samples {
            let spent = replays >= most;
            if !values.is_empty() && (spent || deadline.is_some_and(|d| Instant::now() >= d)) {
                break;
            }
            // The last try for a world: the world followed if no sample fits.
            let last = (k + 1 == samples || spent) && values.is_empty();
            let Some((mut world, weight)) = self.sample_or_followed(last, &mut replays, stats) else {
                continue;
            };
            // The world's legal actions at the decision, listed once for every action's value.
            world.game.legal_count();
            values.push((0..legal.len()).map(|i| value(&world, i)).collect());
            weights.push(weight);
            stats.playouts += legal.len() as u64;
        }
        if values.is_empty() {
            return None;
        }
        let spec = &self.tracker.as_ref()?.spec;
        let sure = sure.unwrap_or(spec.search_sure);
        // The playout policy's own choice on the seat's view: what the search must beat.
        let base = self
            .model_choice(decision, legal)
            .and_then(|m| legal.iter().position(|a| *a == m));
        let choice = choose(&values, &weights, base, sure);
        self.searched = Some(Searched {
            legal: legal.to_vec(),
            values,
            weights,
            base,
            sure,
            choice,
        });
        Some(choice)
    }

    /// A sampled world and its weight, counted in `stats`; with `last`, when none could be
    /// sampled, the world the bot follows (weight 1).
    /// `replays` counts the replays tried.
    pub(crate) fn sample_or_followed(
        &mut self,
        last: bool,
        replays: &mut usize,
        stats: &mut SearchStats,
    ) -> Option<(World, f64)> {
        let t = self.tracker.as_mut()?;
        let (before, start) = (*replays, Instant::now());
        let sampled = t.sample(&mut self.rng, replays);
        stats.replays += (*replays - before) as u64;
        stats.sample_ns += start.elapsed().as_nanos() as u64;
        let world = match sampled {
            Some(w) => w,
            None if last => (t.world.clone(), 1.0),
            None => {
                stats.misfits += 1;
                return None;
            }
        };
        stats.worlds += 1;
        Some(world)
    }
}

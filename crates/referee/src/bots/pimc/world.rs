//! A world: a game the bot plays on its own with the same rules, and a view per seat fed the
//! lines each seat would be routed; and its playouts to the end with the playout policy.

use crate::chance::{DealSpec, Rng};
use crate::game::{Args, Event, Game, GameInfo, GameSpec, Seat, SeatView};

/// A line routed to the seat: kind and arguments.
pub(super) type Line = (String, Args);

/// A game the bot plays on its own: the game and a view per seat, fed the lines each seat
/// would be routed.
#[derive(Clone)]
pub(crate) struct World {
    pub(crate) game: Box<dyn Game>,
    pub(crate) views: Vec<Box<dyn SeatView>>,
}

impl World {
    /// A new game whose first deal is `deal` (or dealt at random from `seed`); returns the
    /// world and the lines routed to `me`.
    pub(super) fn start(
        spec: &GameSpec,
        info: &GameInfo,
        deals: Vec<DealSpec>,
        seed: u64,
    ) -> Result<(World, Vec<Line>), String> {
        let chance = crate::chance::Chance::given(seed, deals).titled(spec.title);
        let game = (spec.new_game)(info.players, &info.options, chance, true)?;
        let views = (0..info.players)
            .map(|s| {
                (spec.new_view)(&GameInfo {
                    game: info.game.clone(),
                    options: info.options.clone(),
                    players: info.players,
                    seat: s,
                })
            })
            .collect();
        let mut w = World { game, views };
        let lines = w.route(Some(info.seat));
        Ok((w, lines))
    }

    /// Routes the game's new events to the views; returns those `me` receives (none for
    /// `None`: a playout reads nothing).
    fn route(&mut self, me: Option<Seat>) -> Vec<Line> {
        let n = self.views.len();
        let mut mine = Vec::new();
        for Event { to, kind, args } in self.game.take_events() {
            for s in to.members(n) {
                self.views[s].observe(kind, &args);
            }
            if me.is_some_and(|m| to.contains(m)) {
                mine.push((kind.to_string(), args));
            }
        }
        mine
    }

    pub(super) fn apply(&mut self, token: &str, me: Seat) -> Result<Vec<Line>, String> {
        self.game.apply(token)?;
        Ok(self.route(Some(me)))
    }

    pub(crate) fn deals(&self) -> usize {
        self.game.chance().deals().len()
    }

    /// Plays to the end with the game's playout policy (`simple`, mostly) at every seat; the
    /// score of `me`. In a session of several games ([`Game::standing`]), only to the next
    /// point where it can be scored: the later deals no decision now changes would only add
    /// noise.
    pub(super) fn play_out(self, spec: &GameSpec, me: Seat) -> f64 {
        let since = self.settled();
        self.play_out_from(spec, since, None).get(me).copied().unwrap_or(0.0)
    }

    /// Applies legal action `i` (after `game.legal_count()`), feeding the views; the lines are
    /// not kept (a search's own steps).
    pub(crate) fn apply_index(&mut self, i: usize) -> Result<(), String> {
        self.game.apply_legal(i)?;
        self.route(None);
        Ok(())
    }

    /// How many points where the session can be scored have passed (`None`: a game without
    /// such points, [`Game::standing`]).
    pub(crate) fn settled(&self) -> Option<u64> {
        self.game.standing().map(|(k, _)| k)
    }

    /// Every seat's score where a walk or playout that began with `since` points settled
    /// ([`settled`](Self::settled)) stops: the game's end, or, once a deal has ended since the
    /// world's deal count was `deals` (kept up to date here), the next point where the session
    /// can be scored (a game of the session only ends where a deal ends, so the standing,
    /// which may cost, is read only then). `None` while play goes on.
    pub(crate) fn stop(&self, since: Option<u64>, deals: &mut usize) -> Option<Vec<f64>> {
        if self.game.to_move().is_none() {
            return Some(self.game.scores().unwrap_or_else(|| vec![0.0; self.views.len()]));
        }
        let k0 = since?;
        if self.deals() == *deals {
            return None;
        }
        *deals = self.deals();
        self.game.standing().filter(|(k, _)| *k > k0).map(|(_, s)| s)
    }

    /// Plays to where a search that began with `since` points settled stops
    /// ([`stop`](Self::stop)), with the game's playout policy at every seat, or uniformly at
    /// random with `random`: every seat's score there.
    pub(crate) fn play_out_from(
        mut self,
        spec: &GameSpec,
        since: Option<u64>,
        mut random: Option<&mut Rng>,
    ) -> Vec<f64> {
        let mut steps = 0;
        let mut deals = self.deals();
        while let Some(s) = self.game.to_move() {
            if let Some(scores) = self.stop(since, &mut deals) {
                return scores;
            }
            let i = match random.as_deref_mut() {
                Some(rng) => rng.below(self.game.legal_count() as u64) as usize,
                // Typed where the game's typed policy decides: no tokens made or parsed.
                None => spec.policy_index(self.game.as_mut(), self.views[s].as_ref(), true),
            };
            if self.apply_index(i).is_err() {
                break;
            }
            steps += 1;
            if steps > 100_000 {
                break;
            }
        }
        self.game.scores().unwrap_or_else(|| vec![0.0; self.views.len()])
    }
}

//! A world: a game the bot plays on its own with the same rules, and a view per seat fed the
//! lines each seat would be routed; and its playouts to the end with the playout policy.

use crate::chance::{DealSpec, Rng};
use crate::game::{Args, Event, Game, GameInfo, GameSpec, Seat, SeatView};

/// A line routed to the seat: kind and arguments.
pub(super) type Line = (String, Args);

/// A line a world routes to the seat, as the game made it (its kind not copied: compared with
/// the seat's [`Line`]s, and made one only where they differ).
pub(super) type Routed = (&'static str, Args);

/// A game the bot plays on its own: the game and, where wanted, a view per seat fed the lines
/// each seat would be routed. A replay only compares the lines routed to the bot's seat with
/// the seat's, and reads a seat's hand from the game itself ([`Game::seat_cards`]) and the other
/// seats' choices from the game's playout policy on itself ([`Game::playout_index`]): so its
/// worlds have no views, unless asked for ([`World::start`]).
#[derive(Clone)]
pub(crate) struct World {
    pub(crate) game: Box<dyn Game>,
    /// A view per seat, or none.
    pub(crate) views: Vec<Box<dyn SeatView>>,
    /// The game's events of the action being routed: empty between actions, kept for its
    /// room (one buffer for every action of a replay, not one allocated per action).
    events: Vec<Event>,
}

impl World {
    /// A new game whose first deal is `deal` (or dealt at random from `seed`); returns the
    /// world and the lines routed to `me`. With `views`, or where the game cannot tell a seat's
    /// hand or play its playout policy on itself (or `CROUPIER_SEARCH_VIEWS=1` asks for views),
    /// the world keeps a view per seat; without views, it keeps only the events of `me`
    /// ([`Game::hear_only`]).
    pub(super) fn start(
        spec: &GameSpec,
        info: &GameInfo,
        deals: Vec<DealSpec>,
        seed: u64,
        views: bool,
    ) -> Result<(World, Vec<Routed>), String> {
        let chance = crate::chance::Chance::given(seed, deals).titled(spec.title);
        let mut game = (spec.new_game)(info.players, &info.options, chance, true)?;
        let views = if views || !typed_search() || !game.has_playout_policy() || game.seat_cards(info.seat).is_none() {
            (0..info.players)
                .map(|s| {
                    (spec.new_view)(&GameInfo {
                        game: info.game.clone(),
                        options: info.options.clone(),
                        players: info.players,
                        seat: s,
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        if views.is_empty() {
            // Nothing reads the other seats' events: they are not made.
            game.hear_only(info.seat);
        }
        let mut w = World {
            game,
            views,
            events: Vec::new(),
        };
        let lines = w.route(Some(info.seat));
        Ok((w, lines))
    }

    /// Routes the game's new events to the views (if any); returns those `me` receives (none
    /// for `None`: a playout reads nothing).
    fn route(&mut self, me: Option<Seat>) -> Vec<Routed> {
        let n = self.game.players();
        let mut mine = Vec::new();
        let mut events = std::mem::take(&mut self.events);
        self.game.take_events_into(&mut events);
        for Event { to, kind, args } in events.drain(..) {
            if !self.views.is_empty() {
                for s in to.members(n) {
                    self.views[s].observe(kind, &args);
                }
            }
            if me.is_some_and(|m| to.contains(m)) {
                mine.push((kind, args));
            }
        }
        self.events = events;
        mine
    }

    pub(super) fn apply(&mut self, token: &str, me: Seat) -> Result<Vec<Routed>, String> {
        self.game.apply(token)?;
        Ok(self.route(Some(me)))
    }

    /// [`apply`](Self::apply) of legal action `i` of the last `game.legal_count()` (a clone
    /// keeps that list), its token not read again.
    pub(super) fn apply_legal(&mut self, i: usize, me: Seat) -> Result<Vec<Routed>, String> {
        self.game.apply_legal(i)?;
        Ok(self.route(Some(me)))
    }

    pub(crate) fn deals(&self) -> usize {
        self.game.chance().deals().len()
    }

    /// A copy to search on. Where the game plays its playout policy on itself
    /// ([`Game::has_playout_policy`]), it has no views and makes no events: its steps and
    /// playouts run on the typed engine ([`policy`](Self::policy),
    /// [`play_out_from`](Self::play_out_from)). Else (or with `CROUPIER_SEARCH_VIEWS=1`, for
    /// benchmarks that compare the two) a copy with its views.
    pub(crate) fn for_search(&self) -> World {
        if !typed_search() || !self.game.has_playout_policy() {
            return self.clone();
        }
        let mut game = self.game.clone();
        game.quiet();
        World {
            game,
            views: Vec::new(),
            events: Vec::new(),
        }
    }

    /// The index of the legal action (after `game.legal_count()`) that the playout policy
    /// chooses for `seat`, the seat to move: on the game itself where it can
    /// ([`Game::playout_index`]; always in a copy [`for_search`](Self::for_search) made without
    /// views), else on the seat's view.
    pub(crate) fn policy(&mut self, spec: &GameSpec, seat: Seat) -> usize {
        self.game.legal_count();
        self.policy_counted(spec, seat)
    }

    /// [`policy`](Self::policy) where `game.legal_count()` has just listed the legal actions.
    pub(crate) fn policy_counted(&mut self, spec: &GameSpec, seat: Seat) -> usize {
        if self.views.is_empty() || typed_search() && self.game.has_playout_policy() {
            // On the game itself: the same choice as on the view (the games' typed_playouts
            // test), without reading the view.
            if let Some(i) = self.game.playout_index() {
                return i;
            }
        }
        spec.policy_index(self.game.as_mut(), self.views[seat].as_ref(), true)
    }

    /// What playing `token` now is worth to `me` in this world: on a copy for search, the
    /// action and then the game's playout policy (`simple`, mostly) at every seat, to the end.
    /// In a session of several games ([`Game::standing`]), only to the first point after the
    /// decision where it can be scored (`since`: the points settled at the decision, the same
    /// in every world that fits the seat's lines, [`settled`](Self::settled)), which may be the
    /// one the action itself reaches (the last card of a deal): the later deals no decision now
    /// changes would only add noise, and every action is scored at the same point. `None`
    /// where the world refuses `token`. After `game.legal_count()` at the decision: on the
    /// typed engine the action is found among those legal actions and played out on one copy
    /// ([`Game::play_out_after`]).
    pub(super) fn value(&self, token: &str, spec: &GameSpec, me: Seat, since: Option<u64>) -> Option<f64> {
        if self.views.is_empty() && typed_search() {
            if let Some(scores) = self
                .game
                .legal_index(token)
                .and_then(|i| self.game.play_out_after(i, since))
            {
                return Some(scores.get(me).copied().unwrap_or(0.0));
            }
        }
        let mut w = self.for_search();
        let deals = w.deals();
        w.apply(token, me).ok()?;
        Some(w.play_on(spec, since, deals, None).get(me).copied().unwrap_or(0.0))
    }

    /// Every seat's score where a search that began with `since` points settled and `deals`
    /// deals made stops, after the actions it applied since: at once where they ended the game
    /// or reached such a point (the last card of a deal, which deals the next), else after a
    /// playout ([`play_out_from`](Self::play_out_from), which counts deals from its own start).
    pub(crate) fn play_on(
        self,
        spec: &GameSpec,
        since: Option<u64>,
        mut deals: usize,
        random: Option<&mut Rng>,
    ) -> Vec<f64> {
        match self.stop(since, &mut deals) {
            Some(scores) => scores,
            None => self.play_out_from(spec, since, random),
        }
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
            return Some(self.game.scores().unwrap_or_else(|| vec![0.0; self.game.players()]));
        }
        crate::playout::settled_after(since, deals, self.deals(), || self.game.standing())
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
        if self.views.is_empty() {
            // A copy for search: the typed engine's own loop, which stops where this one does.
            if let Some(scores) = self.game.play_out(since, random.as_deref_mut()) {
                return scores;
            }
        }
        crate::playout::play_out_on_views(self.game.as_mut(), &mut self.views, spec, since, random)
    }
}

/// Whether searches play on typed engines where games have a playout policy on them: yes,
/// unless `CROUPIER_SEARCH_VIEWS=1` (read once) asks for the loop on views, which chooses the
/// same (a benchmark compares their speed).
fn typed_search() -> bool {
    static TYPED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TYPED.get_or_init(|| std::env::var_os("CROUPIER_SEARCH_VIEWS").is_none_or(|v| v != "1"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::Chance;
    use crate::options::Options;

    /// A Kul session played by its playout policy up to the first action that ends a deal
    /// (a point where the session is scored), in each of a few sessions: the world there, and
    /// that action's token.
    fn before_deal_ends(seed: u64) -> (World, GameSpec, String) {
        let spec = crate::games::find("kul").unwrap();
        let options = Options::resolve(&(spec.options)(), spec.name, &[] as &[&str]).unwrap();
        let mut game = (spec.new_game)(3, &options, Chance::seeded(seed), false).unwrap();
        loop {
            game.legal_count();
            let i = game.playout_index().expect("Kul plays its policy on the engine");
            let token = game.legal_token(i);
            let mut after = game.clone();
            after.apply(&token).unwrap();
            if after.standing().map(|(k, _)| k) > game.standing().map(|(k, _)| k) {
                let world = World {
                    game,
                    views: Vec::new(),
                    events: Vec::new(),
                };
                return (world, spec, token);
            }
            game = after;
        }
    }

    #[test]
    fn an_action_that_ends_a_deal_is_valued_where_the_deal_ends() {
        for seed in 1..=5 {
            let (world, spec, token) = before_deal_ends(seed);
            let me = world.game.to_move().unwrap();
            let since = world.settled();
            let mut after = world.game.clone();
            after.apply(&token).unwrap();
            let (_, standing) = after.standing().unwrap();
            // Scored at the point the action reaches, as every other action is at the first
            // point after the decision: not after another deal of the session.
            assert_eq!(world.value(&token, &spec, me, since), Some(standing[me]), "seed {seed}");
        }
    }
}

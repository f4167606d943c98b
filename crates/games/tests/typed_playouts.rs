//! Every game's playout policy on the engine itself ([`Engine::playout_policy`], what a search
//! plays out with, without events) against the same policy on the seat's view fed by events
//! ([`GameSpec::policy_index`]): the same choice at every decision, and the same scores from
//! playouts ([`engine::play_out`] against a loop on views that stops where a search's does).
//!
//! The sessions are played by that policy at every seat with a random action now and then (so
//! that positions the policy alone never reaches are asked too), over random option sets. A
//! policy that read what its seat may not see (another hand, the stock, a card not yet shown)
//! would choose otherwise than on the view sooner or later: the view is built only from the
//! events routed to the seat.
//!
//! [`Engine::playout_policy`]: croupier_games::engine::Engine::playout_policy
//! [`GameSpec::policy_index`]: croupier_games::game::GameSpec::policy_index
//! [`engine::play_out`]: croupier_games::engine::play_out

// Each game's test below uses the harness once its engine has a playout policy.
#![allow(dead_code)]

use croupier_games::chance::{Chance, Purpose, Rng};
use croupier_games::game::{Game, GameInfo, GameSpec, SeatView};
use croupier_games::options::Options;

/// One of `values`, drawn with `rng`.
fn pick(rng: &mut Rng, values: &[&str]) -> String {
    values[rng.below(values.len() as u64) as usize].to_string()
}

fn flag(rng: &mut Rng) -> bool {
    rng.below(2) == 1
}

/// A game and its seats: `game` with every seat's view.
struct Table {
    spec: GameSpec,
    game: Box<dyn Game>,
    views: Vec<Box<dyn SeatView>>,
}

impl Table {
    fn new(spec: &GameSpec, players: usize, options: &Options, seed: u64) -> Table {
        let game = (spec.new_game)(players, options, Chance::seeded(seed), true).unwrap();
        let views = (0..players)
            .map(|seat| {
                (spec.new_view)(&GameInfo {
                    game: spec.name.into(),
                    options: options.clone(),
                    players,
                    seat,
                })
            })
            .collect();
        Table {
            spec: spec.clone(),
            game,
            views,
        }
    }

    /// Routes the game's new events to the views.
    fn route(&mut self) {
        let n = self.views.len();
        for e in self.game.take_events() {
            for s in e.to.members(n) {
                self.views[s].observe(e.kind, &e.args);
            }
        }
    }

    /// The playout policy's choice on the view of the seat to move (after routing).
    fn on_view(&mut self, seat: usize) -> usize {
        self.spec
            .policy_index(self.game.as_mut(), self.views[seat].as_ref(), true)
    }

    /// Plays out on the views, as a search's loop on views does: to the end, or to the first
    /// point of the session scored after `since`, looked at when a deal has ended.
    fn play_out_on_views(mut self, since: Option<u64>) -> Vec<f64> {
        let mut deals = self.game.chance().deals().len();
        loop {
            self.route();
            let Some(seat) = self.game.to_move() else { break };
            if let Some(k0) = since {
                let now = self.game.chance().deals().len();
                if now != deals {
                    deals = now;
                    if let Some((_, scores)) = self.game.standing().filter(|(k, _)| *k > k0) {
                        return scores;
                    }
                }
            }
            let i = self.on_view(seat);
            if self.game.apply_legal(i).is_err() {
                break;
            }
        }
        self.game.scores().unwrap_or_else(|| vec![0.0; self.views.len()])
    }
}

impl Clone for Table {
    fn clone(&self) -> Table {
        Table {
            spec: self.spec.clone(),
            game: self.game.clone(),
            views: self.views.iter().map(|v| v.clone_box()).collect(),
        }
    }
}

/// What one game's check covered.
#[derive(Default)]
struct Covered {
    decisions: usize,
    playouts: usize,
}

/// Plays `sessions` sessions of `game` per player count, with option sets drawn by `rules`,
/// checking every decision and a playout from about one decision in `every`.
fn check(game: &str, players: &[usize], sessions: u64, every: u64, rules: fn(&mut Rng) -> Vec<String>) -> Covered {
    let spec = croupier_games::games::find(game).unwrap();
    let mut covered = Covered::default();
    for &n in players {
        for seed in 0..sessions {
            let mut rng = Rng::new(seed, Purpose::Bot, 7);
            let assignments = rules(&mut rng);
            let options = Options::resolve(&(spec.options)(), spec.name, &assignments).unwrap();
            let mut t = Table::new(&spec, n, &options, seed);
            assert!(
                t.game.has_playout_policy(),
                "{game} plays its playouts on views: it has no Engine::playout_policy"
            );
            let mut steps = 0;
            loop {
                t.route();
                let Some(seat) = t.game.to_move() else { break };
                let want = t.on_view(seat);
                t.game.legal_count();
                let got = t.game.playout_index();
                if got != Some(want) {
                    let tokens = t.game.legal_actions();
                    panic!(
                        "{game}, {n} players, seed {seed}, options {assignments:?}, decision {steps} ({} of seat {seat}): \
                         on the engine {:?}, on the view {}\nview: {}",
                        t.game.decision(),
                        got.map(|i| &tokens[i]),
                        tokens[want],
                        t.views[seat].to_json()
                    );
                }
                covered.decisions += 1;
                if rng.below(every) == 0 {
                    let since = t.game.standing().map(|(k, _)| k);
                    let typed = t.game.play_out(since, None).unwrap();
                    let on_views = t.clone().play_out_on_views(since);
                    assert_eq!(
                        typed, on_views,
                        "{game}, {n} players, seed {seed}, options {assignments:?}, decision {steps}: \
                         the typed playout and the one on views end differently"
                    );
                    covered.playouts += 1;
                }
                let count = t.game.legal_count();
                let i = if rng.below(10) == 0 {
                    rng.below(count as u64) as usize
                } else {
                    want
                };
                t.game.apply_legal(i).unwrap();
                steps += 1;
                assert!(steps < 50_000, "{game}: the session does not end");
            }
        }
    }
    covered
}

#[test]
fn schwimmen_plays_out_on_the_engine_as_on_the_views() {
    let c = check("schwimmen", &[2, 3, 4, 9], 250, 6, |rng| {
        vec![
            format!("deck={}", pick(rng, &["32", "36"])),
            format!("allow_pass={}", flag(rng)),
            format!("all_pass_refresh={}", flag(rng)),
            format!("no_knock_first_circuit={}", flag(rng)),
            format!("knocker_double={}", flag(rng)),
            format!("max_circuits={}", 1 + rng.below(5)),
            format!("dealer_rule={}", pick(rng, &["rotate", "loser_deals"])),
        ]
    });
    assert!(
        c.decisions > 100_000 && c.playouts > 16_000,
        "{} decisions, {} playouts",
        c.decisions,
        c.playouts
    );
}

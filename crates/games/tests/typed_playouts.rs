//! Every game's playout policy on the engine itself ([`EnginePolicy`], what a search
//! plays out with, without events) against the same policy on the seat's view fed by events
//! ([`GameSpec::policy_index`]): the same choice at every decision, and the same scores from
//! playouts ([`Game::play_out`], which sketches the deals it stops at
//! ([`playout::play_out_sketched`]), against [`playout::play_out_on_views`], which deals them all
//! from the seed: the searches' two loops).
//!
//! The sessions are played by that policy at every seat with a random action now and then (so
//! that positions the policy alone never reaches are asked too), over random option sets. A
//! policy that read what its seat may not see (another hand, the stock, a card not yet shown)
//! would choose otherwise than on the view sooner or later: the view is built only from the
//! events routed to the seat.
//!
//! [`EnginePolicy`]: croupier_games::engine::EnginePolicy
//! [`GameSpec::policy_index`]: croupier_games::game::GameSpec::policy_index

// Each game's test below uses the harness once its engine has a playout policy.
#![allow(dead_code)]

use croupier_games::cards::Card;
use croupier_games::chance::{Chance, Purpose, Rng};
use croupier_games::game::{Game, GameInfo, GameSpec, SeatView};
use croupier_games::options::Options;
use croupier_games::playout;

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
        playout::route(self.game.as_mut(), &mut self.views);
    }

    /// The playout policy's choice on the view of the seat to move (after routing).
    fn on_view(&mut self, seat: usize) -> usize {
        self.spec
            .policy_index(self.game.as_mut(), self.views[seat].as_ref(), true)
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
                "{game} plays its playouts on views: its spec attaches no EnginePolicy"
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
                // Every seat's cards as the game tells them (a search's world without views
                // reads them there) are those its view holds.
                for (s, v) in t.views.iter().enumerate() {
                    let sorted = |mut cards: Vec<Card>| {
                        cards.sort_by_key(|c| c.index());
                        cards
                    };
                    let game = t.game.seat_cards(s).map(sorted);
                    let view = v.held().map(|h| sorted(h.to_vec()));
                    if game != view {
                        panic!(
                            "{game:?} != {view:?}: {}, {n} players, seed {seed}, options {assignments:?}, decision {steps}: \
                             seat {s}'s hand on the game is not its view's",
                            spec.name
                        );
                    }
                }
                if rng.below(every) == 0 {
                    let since = t.game.standing().map(|(k, _)| k);
                    let typed = t.game.play_out(since, None).unwrap();
                    let mut u = t.clone();
                    let on_views = playout::play_out_on_views(u.game.as_mut(), &mut u.views, &t.spec, since, None);
                    assert_eq!(
                        typed, on_views,
                        "{game}, {n} players, seed {seed}, options {assignments:?}, decision {steps}: \
                         the typed playout and the one on views end differently"
                    );
                    covered.playouts += 1;
                    // A legal action played out on one copy (what a search's value of it is)
                    // scores as the action applied to a copy, and then, unless it ended the game
                    // or reached the point where the search stops, that copy's playout.
                    let count = t.game.legal_count();
                    let j = rng.below(count as u64) as usize;
                    let after = t.game.play_out_after(j, since).unwrap();
                    let mut c = t.game.clone();
                    let mut deals = c.chance().deals().len();
                    c.apply_legal(j).unwrap();
                    let stepwise = if c.to_move().is_none() {
                        c.scores().unwrap_or_else(|| vec![0.0; n])
                    } else if let Some(s) =
                        playout::settled_after(since, &mut deals, c.chance().deals().len(), || c.standing())
                    {
                        s
                    } else {
                        c.play_out(since, None).unwrap()
                    };
                    assert_eq!(
                        after, stepwise,
                        "{game}, {n} players, seed {seed}, options {assignments:?}, decision {steps}: \
                         legal action {j} played out on one copy ends otherwise than applied and played out"
                    );
                    // The seat to move's cards, as a search reads them (pimc's repairs).
                    {
                        let v = &t.views[seat];
                        let json: Vec<String> = v.to_json()["hand"]
                            .as_array()
                            .map(|a| a.iter().filter_map(|c| c.as_str().map(String::from)).collect())
                            .unwrap_or_default();
                        if let Some(held) = v.held() {
                            let held: Vec<String> = held.iter().map(|c| c.to_string()).collect();
                            assert_eq!(held, json, "{game}: SeatView::held is not the view's JSON hand");
                        }
                    }
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
fn rikken_plays_out_on_the_engine_as_on_the_views() {
    let c = check("rikken", &[4], 400, 6, |rng| {
        vec![
            format!(
                "all_pass={}",
                pick(rng, &["redeal", "schoppen_mieen", "fourth_must_bid"])
            ),
            format!("malheur_mode={}", pick(rng, &["obligatory", "optional"])),
            format!("fail_mode={}", pick(rng, &["base", "mirrored_undertricks"])),
            format!("allow_join_piek_open={}", flag(rng)),
            format!("open_declarer_leads={}", flag(rng)),
            format!("hide_quitted_tricks={}", flag(rng)),
            format!("protect_called_card={}", flag(rng)),
            format!(
                "special={}",
                pick(rng, &["none", "none", "op_voorhand", "open_piek_totaal"])
            ),
        ]
    });
    assert!(
        c.decisions > 15_000 && c.playouts > 2_500,
        "{} decisions, {} playouts",
        c.decisions,
        c.playouts
    );
}

#[test]
fn zwikken_plays_out_on_the_engine_as_on_the_views() {
    let c = check("zwikken", &[3, 4, 5, 6], 400, 6, |rng| {
        vec![
            format!("ante_rule={}", pick(rng, &["when_pot_empty", "every_deal"])),
            format!("follow_rule={}", pick(rng, &["seed", "classic"])),
            format!(
                "exchange_targets={}",
                pick(rng, &["any_turned", "current_suit_only", "suit_matched"])
            ),
            format!("max_seeks={}", rng.below(3)),
            format!("seek_fee={}", pick(rng, &["1,0", "0,0", "0,1", "2,2"])),
            format!("deals={}", 1 + rng.below(6)),
            format!("extra_deals_cap={}", rng.below(5) as i64 - 1),
            format!("bankroll={}", pick(rng, &["0", "0", "3", "10"])),
        ]
    });
    assert!(
        c.decisions > 85_000 && c.playouts > 14_000,
        "{} decisions, {} playouts",
        c.decisions,
        c.playouts
    );
}

#[test]
fn kul_plays_out_on_the_engine_as_on_the_views() {
    let c = check("kul", &[2, 3, 5, 10], 100, 6, |rng| {
        vec![
            format!("marks_to_win={}", 1 + rng.below(3)),
            format!("stake={}", 1 + rng.below(5)),
            format!("games={}", 1 + rng.below(3)),
            format!("redeal_request={}", flag(rng)),
            format!("max_deals_per_game={}", 1 + rng.below(30)),
        ]
    });
    assert!(
        c.decisions > 70_000 && c.playouts > 11_500,
        "{} decisions, {} playouts",
        c.decisions,
        c.playouts
    );
}

#[test]
fn svangknack_plays_out_on_the_engine_as_on_the_views() {
    let c = check("svangknack", &[3, 5, 8, 16], 80, 6, |rng| {
        vec![
            format!("base_stake={}", pick(rng, &["3", "6", "9"])),
            format!("last_man={}", flag(rng)),
            format!("same_suit_forces_all={}", flag(rng)),
            format!(
                "forced_participation={}",
                pick(rng, &["off", "session_first_round", "every_new_pot"])
            ),
            format!("first_round_dealer_only={}", flag(rng)),
            format!("overtake_after_trump={}", pick(rng, &["still_required", "relaxed"])),
            format!("literal_C={}", flag(rng)),
            format!("farg_tricks={}", pick(rng, &["1,2", "1,2,3"])),
            format!("rounds={}", 1 + rng.below(6)),
            format!("extra_rounds_cap={}", rng.below(4)),
        ]
    });
    assert!(
        c.decisions > 27000 && c.playouts > 4300,
        "{} decisions, {} playouts",
        c.decisions,
        c.playouts
    );
}

#[test]
fn skwitz_plays_out_on_the_engine_as_on_the_views() {
    let c = check("skwitz", &[2, 3, 4, 6], 30, 6, |rng| {
        vec![
            format!("target={}", 3 + rng.below(8)),
            format!("ante_per={}", pick(rng, &["deal", "game"])),
            format!("trail_rule={}", pick(rng, &["only_when_unable", "free", "card_level"])),
            format!("matador_source={}", pick(rng, &["any_into_pile", "table_only"])),
            format!("last_play_skwitz={}", pick(rng, &["counts", "no"])),
            format!("leftover_to_last_captor={}", flag(rng)),
            format!("tie_rule={}", pick(rng, &["nobody", "all_tied"])),
            format!("out_timing={}", pick(rng, &["on_turn", "auto_at_deal_end"])),
            format!("collect_rule={}", pick(rng, &["consecutive", "second_win_total"])),
            format!("games={}", 1 + rng.below(2)),
            format!("extra_games_cap={}", rng.below(2)),
        ]
    });
    assert!(
        c.decisions > 33000 && c.playouts > 5300,
        "{} decisions, {} playouts",
        c.decisions,
        c.playouts
    );
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

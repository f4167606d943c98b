//! Every typed engine against the string interface derived from it (`Typed<G>`): the same
//! session for the same seeded choices (legal tokens, tokens that read back, outcomes and the
//! scores alone, deals),
//! clones that are independent of their original, and a decision path that allocates nothing
//! (legal actions into a grown buffer, every apply that makes no deal, with `NoEvents`).
//!
//! One harness for all games; each game adds a `typed_engine_tests!` line with its player
//! counts and random option sets.

use croupier::chance::{Chance, Purpose, Rng};
use croupier::engine::{Engine, NoEvents, Typed};
use croupier::game::Game;
use croupier::options::Options;
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the allocations of the current thread (the test harness runs tests on threads).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(|a| a.get())
}

/// One of `values`, drawn with `rng`.
fn pick(rng: &mut Rng, values: &[&str]) -> String {
    values[rng.below(values.len() as u64) as usize].to_string()
}

/// Plays `g` to its end, choosing with `rng`; returns the number of decisions.
fn play_out<G: Engine>(g: &mut G, rng: &mut Rng) -> usize {
    let mut legal = Vec::new();
    let mut steps = 0;
    while g.to_move().is_some() {
        g.legal(&mut legal);
        let a = legal[rng.below(legal.len() as u64) as usize];
        g.apply(a, &mut NoEvents).unwrap();
        steps += 1;
        assert!(steps < 50_000, "the session does not end");
    }
    steps
}

/// One session through both interfaces with the same seeded choices, cloning the typed state
/// at decision `split` and playing the clone on after the original has ended.
fn typed_and_string_agree<G: Engine>(mut s: Typed<G>, mut t: G, seed: u64, split: usize) {
    let mut rng = Rng::new(seed, Purpose::Bot, 2);
    let mut legal: Vec<G::Action> = Vec::new();
    let mut clone = None;
    let mut steps = 0;
    while let Some(seat) = t.to_move() {
        assert_eq!(s.to_move(), Some(seat));
        assert_eq!(t.scores(), None, "scores before the end");
        assert_eq!(s.decision(), t.decision());
        t.legal(&mut legal);
        let tokens: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
        assert_eq!(s.legal_actions(), tokens, "decision {steps}");
        for (a, token) in legal.iter().zip(&tokens) {
            assert_eq!(t.parse(token), Ok(*a), "{token} does not read back");
        }
        if steps == split {
            clone = Some((t.clone(), rng.clone()));
        }
        let i = rng.below(legal.len() as u64) as usize;
        s.apply(&tokens[i]).unwrap();
        t.apply(legal[i], &mut NoEvents).unwrap();
        steps += 1;
        assert!(steps < 50_000, "the session does not end");
    }
    assert_eq!(s.to_move(), None);
    let out = t.outcome().expect("an outcome at the end");
    assert_eq!(s.outcome(), Some(out.clone()));
    // The scores alone (what a match that records nothing asks for) are the outcome's.
    assert_eq!(t.scores().as_ref(), Some(&out.scores));
    assert_eq!(s.scores().as_ref(), Some(&out.scores));
    assert_eq!(s.chance().deals(), t.chance().deals());
    // The clone shares nothing with the original: played on after the original has ended
    // (its deals made, its chance advanced), it still ends the same way.
    if let Some((mut c, mut r)) = clone {
        play_out(&mut c, &mut r);
        assert_eq!(c.outcome(), Some(out));
        assert_eq!(c.chance().deals(), t.chance().deals());
    }
}

/// A clone played with other choices leaves its original alone: the original then ends as an
/// untouched copy played with the same choices does, and the other choices led elsewhere.
fn clones_are_independent<G: Engine>(a: G) {
    let (mut a, mut reference, mut b) = (a.clone(), a.clone(), a);
    play_out(&mut b, &mut Rng::new(1, Purpose::Bot, 0));
    play_out(&mut a, &mut Rng::new(2, Purpose::Bot, 0));
    play_out(&mut reference, &mut Rng::new(2, Purpose::Bot, 0));
    assert_eq!(a.outcome(), reference.outcome());
    assert_eq!(a.chance().deals(), reference.chance().deals());
    assert!(
        a.outcome() != b.outcome() || a.chance().deals() != b.chance().deals(),
        "other choices should have led to another session"
    );
}

/// Plays `g` with seeded choices, checking that `legal` (once the buffer has grown) and every
/// `apply` that makes no deal and does not end the game allocate nothing; returns how many
/// applies were checked.
fn decisions_without_allocation<G: Engine>(mut g: G, what: &str) -> usize {
    let mut rng = Rng::new(3, Purpose::Bot, 0);
    let mut legal = Vec::with_capacity(64);
    let mut quiet = 0;
    while g.to_move().is_some() {
        let capacity = legal.capacity();
        let before = allocations();
        g.legal(&mut legal);
        let mut made = allocations() - before;
        if legal.capacity() != capacity {
            // The buffer grew (more actions than at any decision before, as a Skwitz table
            // piled up by trails can give): once grown, asking again allocates nothing.
            let before = allocations();
            g.legal(&mut legal);
            made = allocations() - before;
        }
        assert_eq!(made, 0, "{what}: legal() allocated ({} decision)", g.decision());
        let a = legal[rng.below(legal.len() as u64) as usize];
        let deals = g.chance().deals().len();
        let before = allocations();
        g.apply(a, &mut NoEvents).unwrap();
        let made = allocations() - before;
        if g.chance().deals().len() == deals && g.outcome().is_none() {
            assert_eq!(made, 0, "{what}: apply({a}) allocated {made} times without a deal");
            quiet += 1;
        }
    }
    quiet
}

/// The tests of one typed engine: its module in `croupier::games`, its type, the player counts
/// the property test draws from, a function drawing a random option set, the options of the
/// clone test, and (for an engine whose decision path allocates nothing) the (players,
/// options, least number of checked applies over eight sessions) of the allocation test.
macro_rules! typed_engine_tests {
    ($module:ident, $engine:ident, players: $players:expr, rules: $rules:expr,
     clone: ($clone_n:expr, $clone_rules:expr) $(, no_alloc: $no_alloc:expr)? $(,)?) => {
        mod $module {
            use super::*;
            use croupier::games::$module::engine::$engine;

            fn options(rules: &[String]) -> Options {
                let spec = croupier::games::$module::spec();
                Options::resolve(&(spec.options)(), spec.name, rules).unwrap()
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(60))]
                #[test]
                fn typed_api_and_string_interface_play_the_same_game(
                    seed in any::<u64>(), k in 0usize..4, split in 0usize..120
                ) {
                    let n = $players[k];
                    let rules: Vec<String> = ($rules)(&mut Rng::new(seed, Purpose::Table, 0));
                    let o = options(&rules);
                    let s = Typed::new(|ev| $engine::new(n, &o, Chance::seeded(seed), ev)).unwrap();
                    let t = $engine::new(n, &o, Chance::seeded(seed), &mut NoEvents).unwrap();
                    typed_and_string_agree(s, t, seed, split);
                }
            }

            #[test]
            fn a_clone_played_differently_leaves_the_original_alone() {
                let rules: Vec<String> = $clone_rules.iter().map(|r: &&str| r.to_string()).collect();
                clones_are_independent(
                    $engine::new($clone_n, &options(&rules), Chance::seeded(11), &mut NoEvents).unwrap(),
                );
            }

            $(
            #[test]
            fn the_decision_path_does_not_allocate() {
                for (n, rules, least) in $no_alloc {
                    let rules: Vec<String> = rules.iter().map(|r: &&str| r.to_string()).collect();
                    let what = format!("{n} players, {rules:?}");
                    // Eight sessions: one may end after a few decisions (a lost misère).
                    let quiet: usize = (0..8u64)
                        .map(|k| {
                            let chance = Chance::seeded(n as u64 + 100 * k);
                            let g = $engine::new(n, &options(&rules), chance, &mut NoEvents).unwrap();
                            decisions_without_allocation(g, &what)
                        })
                        .sum();
                    assert!(
                        quiet >= least,
                        "{what}: only {quiet} applies without a deal were checked"
                    );
                }
            }
            )?
        }
    };
}

typed_engine_tests!(
    kul,
    Kul,
    players: [2, 3, 5, 10],
    rules: |rng: &mut Rng| vec![
        format!("marks_to_win={}", 1 + rng.below(3)),
        format!("stake={}", 1 + rng.below(5)),
        format!("games={}", 1 + rng.below(3)),
        format!("redeal_request={}", rng.below(2) == 1),
        format!("max_deals_per_game={}", 1 + rng.below(30)),
    ],
    clone: (4, ["games=2"]),
    no_alloc: [
        (2, &["redeal_request=true"][..], 51),
        (5, &["redeal_request=false"][..], 51),
        (10, &["redeal_request=true"][..], 51),
    ],
);

typed_engine_tests!(
    zwikken,
    Zwikken,
    players: [3, 4, 5, 6],
    rules: |rng: &mut Rng| vec![
        format!("ante_rule={}", pick(rng, &["when_pot_empty", "every_deal"])),
        format!("follow_rule={}", pick(rng, &["seed", "classic"])),
        format!("exchange_targets={}", pick(rng, &["any_turned", "current_suit_only", "suit_matched"])),
        format!("max_seeks={}", rng.below(3)),
        format!("seek_fee={}", pick(rng, &["1,0", "0,0", "0,1", "2,2"])),
        format!("deals={}", 1 + rng.below(6)),
        format!("extra_deals_cap={}", rng.below(5) as i64 - 1),
        format!("bankroll={}", pick(rng, &["0", "0", "3", "10"])),
    ],
    clone: (4, ["deals=6"]),
    no_alloc: [
        (3, &["deals=8", "exchange_targets=suit_matched"][..], 51),
        (4, &["deals=8", "follow_rule=classic", "max_seeks=2"][..], 51),
        (6, &["deals=8", "bankroll=10", "exchange_targets=current_suit_only"][..], 51),
    ],
);

typed_engine_tests!(
    svangknack,
    Svangknack,
    players: [3, 5, 8, 16],
    rules: |rng: &mut Rng| {
        let flag = |rng: &mut Rng| rng.below(2) == 1;
        vec![
            format!("base_stake={}", pick(rng, &["3", "6", "9"])),
            format!("last_man={}", flag(rng)),
            format!("same_suit_forces_all={}", flag(rng)),
            format!("forced_participation={}", pick(rng, &["off", "session_first_round", "every_new_pot"])),
            format!("first_round_dealer_only={}", flag(rng)),
            format!("overtake_after_trump={}", pick(rng, &["still_required", "relaxed"])),
            format!("literal_C={}", flag(rng)),
            format!("farg_tricks={}", pick(rng, &["1,2", "1,2,3"])),
            format!("rounds={}", 1 + rng.below(6)),
            format!("extra_rounds_cap={}", rng.below(4)),
        ]
    },
    clone: (4, ["rounds=6"]),
    no_alloc: [
        (3, &["rounds=8", "last_man=true"][..], 51),
        (6, &["rounds=8", "farg_tricks=1,2,3", "same_suit_forces_all=true"][..], 51),
        (16, &["rounds=4", "forced_participation=every_new_pot"][..], 51),
    ],
);

typed_engine_tests!(
    schwimmen,
    Schwimmen,
    players: [2, 3, 4, 9],
    rules: |rng: &mut Rng| {
        let flag = |rng: &mut Rng| rng.below(2) == 1;
        vec![
            format!("deck={}", pick(rng, &["32", "36"])),
            format!("allow_pass={}", flag(rng)),
            format!("all_pass_refresh={}", flag(rng)),
            format!("no_knock_first_circuit={}", flag(rng)),
            format!("knocker_double={}", flag(rng)),
            format!("max_circuits={}", 1 + rng.below(5)),
            format!("dealer_rule={}", pick(rng, &["rotate", "loser_deals"])),
        ]
    },
    clone: (4, [] as [&str; 0]),
    no_alloc: [
        (2, &[][..], 20),
        (4, &["no_knock_first_circuit=true"][..], 51),
        (9, &["deck=36", "knocker_double=true"][..], 51),
    ],
);

typed_engine_tests!(
    skwitz,
    Skwitz,
    players: [2, 3, 4, 6],
    rules: |rng: &mut Rng| vec![
        format!("target={}", 3 + rng.below(8)),
        format!("ante_per={}", pick(rng, &["deal", "game"])),
        format!("trail_rule={}", pick(rng, &["only_when_unable", "free", "card_level"])),
        format!("matador_source={}", pick(rng, &["any_into_pile", "table_only"])),
        format!("last_play_skwitz={}", pick(rng, &["counts", "no"])),
        format!("leftover_to_last_captor={}", rng.below(2) == 1),
        format!("tie_rule={}", pick(rng, &["nobody", "all_tied"])),
        format!("out_timing={}", pick(rng, &["on_turn", "auto_at_deal_end"])),
        format!("collect_rule={}", pick(rng, &["consecutive", "second_win_total"])),
        format!("games={}", 1 + rng.below(2)),
        format!("extra_games_cap={}", rng.below(2)),
    ],
    clone: (4, ["games=1"]),
    no_alloc: [
        (2, &[][..], 51),
        (3, &["trail_rule=free", "matador_source=table_only"][..], 51),
        (4, &["teams=true", "last_play_skwitz=no", "tie_rule=all_tied"][..], 51),
        (5, &["trail_rule=card_level", "ante_per=game", "leftover_to_last_captor=true"][..], 51),
        (6, &["deal_table=6:16,3,2", "trail_rule=free"][..], 51),
        (8, &["out_timing=auto_at_deal_end", "collect_rule=second_win_total"][..], 51),
    ],
);

typed_engine_tests!(
    rikken,
    Rikken,
    players: [4, 4, 4, 4],
    rules: |rng: &mut Rng| {
        let flag = |rng: &mut Rng| rng.below(2) == 1;
        vec![
            format!("all_pass={}", pick(rng, &["redeal", "schoppen_mieen", "fourth_must_bid"])),
            format!("malheur_mode={}", pick(rng, &["obligatory", "optional"])),
            format!("fail_mode={}", pick(rng, &["base", "mirrored_undertricks"])),
            format!("allow_join_piek_open={}", flag(rng)),
            format!("open_declarer_leads={}", flag(rng)),
            format!("hide_quitted_tricks={}", flag(rng)),
            format!("protect_called_card={}", flag(rng)),
            format!("special={}", pick(rng, &["none", "op_voorhand", "open_piek_totaal"])),
        ]
    },
    clone: (4, [] as [&str; 0]),
    no_alloc: [
        (4, &[][..], 40),
        (4, &["special=op_voorhand", "protect_called_card=true"][..], 40),
        (4, &["special=open_piek_totaal"][..], 40),
        (4, &["all_pass=schoppen_mieen", "malheur_mode=optional", "allow_join_piek_open=true"][..], 40),
    ],
);

/// A game's `typed_policy` chooses what its `simple_policy` chooses on the tokens (and its
/// `typed_playout_policy` what its `playout_policy` chooses), at every
/// decision of sessions where the seats play `simple` with a random action now and then (so
/// that also positions `simple` alone never reaches are asked), for every seat's view.
fn typed_policy_agrees(game: &str, players: usize, seeds: std::ops::Range<u64>) -> usize {
    use croupier::game::GameInfo;
    let spec = croupier::games::find(game).unwrap();
    let typed = spec.typed_policy.expect("a typed policy");
    let options = Options::resolve(&(spec.options)(), spec.name, &[] as &[&str]).unwrap();
    let mut asked = 0;
    for seed in seeds {
        let mut g = (spec.new_game)(players, &options, Chance::seeded(seed), true).unwrap();
        let mut views: Vec<_> = (0..players)
            .map(|seat| {
                (spec.new_view)(&GameInfo {
                    game: game.into(),
                    options: options.clone(),
                    players,
                    seat,
                })
            })
            .collect();
        let mut rng = Rng::new(seed, Purpose::Bot, 1);
        loop {
            for e in g.take_events() {
                for s in e.to.members(players) {
                    views[s].observe(e.kind, &e.args);
                }
            }
            let Some(s) = g.to_move() else { break };
            let count = g.legal_count();
            let tokens = g.legal_actions();
            let decision = g.decision().to_string();
            let by_tokens = (spec.simple_policy)(views[s].as_ref(), &decision, &tokens);
            let want = tokens.iter().position(|t| *t == by_tokens).unwrap_or(0);
            g.legal_count();
            if let Some(i) = typed(views[s].as_ref(), &decision, g.typed_legal().unwrap()) {
                assert_eq!(
                    tokens[i], tokens[want],
                    "{game} seed {seed}, {decision} of seat {s}: typed and token policies differ"
                );
                asked += 1;
            }
            // The same for the policy a search plays its playouts with.
            let playout = (spec.playout_policy)(views[s].as_ref(), &decision, &tokens);
            let playout = tokens.iter().position(|t| *t == playout).unwrap_or(0);
            let typed_playout = spec.typed_playout_policy.expect("a typed playout policy");
            if let Some(i) = typed_playout(views[s].as_ref(), &decision, g.typed_legal().unwrap()) {
                assert_eq!(
                    tokens[i], tokens[playout],
                    "{game} seed {seed}, {decision} of seat {s}: typed and token playout policies differ"
                );
            }
            let i = if rng.below(10) == 0 {
                rng.below(count as u64) as usize
            } else {
                want
            };
            g.apply_legal(i).unwrap();
        }
    }
    asked
}

#[test]
fn typed_policies_choose_as_the_token_policies() {
    // Rikken: every card played (the auction goes by tokens).
    assert!(typed_policy_agrees("rikken", 4, 0..40) > 1500);
    // Kul: every card played, with 3 and 5 players.
    assert!(typed_policy_agrees("kul", 3, 0..20) > 800);
    assert!(typed_policy_agrees("kul", 5, 0..20) > 1200);
    // Svängknack: every card played (and Färg), with 4 and 6 players.
    assert!(typed_policy_agrees("svangknack", 4, 0..20) > 500);
    assert!(typed_policy_agrees("svangknack", 6, 0..20) > 700);
    // Zwikken: every card played without an exchange, with 3 and 4 players.
    assert!(typed_policy_agrees("zwikken", 3, 0..20) > 300);
    assert!(typed_policy_agrees("zwikken", 4, 0..20) > 400);
    // Skwitz: every decision (Out, captures, trails), with 2 and 4 players.
    assert!(typed_policy_agrees("skwitz", 2, 0..6) > 300);
    assert!(typed_policy_agrees("skwitz", 4, 0..6) > 300);
    // Schwimmen: every decision, with 2 to 5 players.
    for players in 2..=5 {
        assert!(typed_policy_agrees("schwimmen", players, 0..25) > 200);
    }
}

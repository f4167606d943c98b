//! Svängknack's typed engine against the string interface derived from it: the same session for
//! the same choices, clones that are independent, and the decision path without allocation.

use croupier::chance::{Chance, Purpose, Rng};
use croupier::game::{Engine, Game, NoEvents, Typed};
use croupier::games::svangknack::engine::{Svangknack, SvangknackAction};
use croupier::games::svangknack::options;
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

fn random_rules(rng: &mut Rng) -> Vec<String> {
    let pick = |rng: &mut Rng, v: &[&str]| v[rng.below(v.len() as u64) as usize].to_string();
    let flag = |rng: &mut Rng| rng.below(2) == 1;
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
}

/// Plays `g` to its end, choosing with `rng`; returns the number of decisions.
fn play_out(g: &mut Svangknack, rng: &mut Rng) -> usize {
    let mut legal = Vec::new();
    let mut steps = 0;
    while g.to_move().is_some() {
        g.legal(&mut legal);
        let a = legal[rng.below(legal.len() as u64) as usize];
        g.apply(a, &mut NoEvents).unwrap();
        steps += 1;
        assert!(steps < 20_000, "the session does not end");
    }
    steps
}

/// One session through both interfaces with the same seeded choices, cloning the typed state
/// at decision `split` and playing the clone on after the original has ended.
fn typed_and_string_agree(seed: u64, n: usize, rules: &[String], split: usize) {
    let o = Options::resolve(&options(), "svangknack", rules).unwrap();
    let mut s = Typed::new(|ev| Svangknack::new(n, &o, Chance::seeded(seed), ev)).unwrap();
    let mut t = Svangknack::new(n, &o, Chance::seeded(seed), &mut NoEvents).unwrap();
    let mut rng = Rng::new(seed, Purpose::Bot, 2);
    let mut legal: Vec<SvangknackAction> = Vec::new();
    let mut clone = None;
    let mut steps = 0;
    while let Some(seat) = t.to_move() {
        assert_eq!(s.to_move(), Some(seat));
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
        assert!(steps < 20_000, "the session does not end");
    }
    assert_eq!(s.to_move(), None);
    let out = t.outcome().expect("an outcome at the end");
    assert_eq!(s.outcome(), Some(out.clone()));
    assert_eq!(s.chance().deals(), t.chance().deals());
    // The clone shares nothing with the original: played on after the original has ended
    // (its deals made, its chance advanced), it still ends the same way.
    if let Some((mut c, mut r)) = clone {
        play_out(&mut c, &mut r);
        assert_eq!(c.outcome(), Some(out));
        assert_eq!(c.chance().deals(), t.chance().deals());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]
    #[test]
    fn typed_api_and_string_interface_play_the_same_game(seed in any::<u64>(), k in 0usize..4, split in 0usize..120) {
        let n = [3, 5, 8, 16][k];
        let rules = random_rules(&mut Rng::new(seed, Purpose::Table, 0));
        typed_and_string_agree(seed, n, &rules, split);
    }
}

#[test]
fn a_clone_played_differently_leaves_the_original_alone() {
    let o = Options::resolve(&options(), "svangknack", &["rounds=6"]).unwrap();
    let mut a = Svangknack::new(4, &o, Chance::seeded(11), &mut NoEvents).unwrap();
    let mut reference = a.clone();
    let mut b = a.clone();
    // Play the clone with other choices first, then the original and an untouched copy with
    // the same ones: the original ends as the copy does.
    play_out(&mut b, &mut Rng::new(1, Purpose::Bot, 0));
    play_out(&mut a, &mut Rng::new(2, Purpose::Bot, 0));
    play_out(&mut reference, &mut Rng::new(2, Purpose::Bot, 0));
    assert_eq!(a.outcome(), reference.outcome());
    assert!(
        a.outcome() != b.outcome(),
        "other choices should have led to another session"
    );
}

/// Legal actions into a grown buffer, and every apply that makes no deal and does not end the
/// session, allocate nothing (with `NoEvents`): swings, redeal votes, trump, knocks and tricks.
#[test]
fn the_decision_path_does_not_allocate() {
    for (n, rules) in [
        (3, &["rounds=8", "last_man=true"][..]),
        (6, &["rounds=8", "farg_tricks=1,2,3", "same_suit_forces_all=true"][..]),
        (16, &["rounds=4", "forced_participation=every_new_pot"][..]),
    ] {
        let o = Options::resolve(&options(), "svangknack", rules).unwrap();
        let mut g = Svangknack::new(n, &o, Chance::seeded(n as u64), &mut NoEvents).unwrap();
        let mut rng = Rng::new(3, Purpose::Bot, 0);
        let mut legal = Vec::with_capacity(16);
        let mut quiet = 0;
        while g.to_move().is_some() {
            let before = allocations();
            g.legal(&mut legal);
            assert_eq!(allocations(), before, "legal() allocated");
            let a = legal[rng.below(legal.len() as u64) as usize];
            let deals = g.chance().deals().len();
            let before = allocations();
            g.apply(a, &mut NoEvents).unwrap();
            let made = allocations() - before;
            if g.chance().deals().len() == deals && g.outcome().is_none() {
                assert_eq!(made, 0, "{n} players: apply({a}) allocated {made} times without a deal");
                quiet += 1;
            }
        }
        assert!(
            quiet > 50,
            "{n} players: only {quiet} applies without a deal were checked"
        );
    }
}

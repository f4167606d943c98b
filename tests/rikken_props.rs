//! Property tests: random Rikken games under random rule options never panic, always offer a
//! legal action, refuse illegal ones without changing state, keep hidden cards hidden, and
//! end zero-sum.

mod common;
use common::{assert_refused, random_option_value};

use croupier::chance::{Chance, Purpose, Rng};
use croupier::game::Game;
use croupier::games::rikken::{engine::Rikken, options};
use croupier::options::Options;
use proptest::prelude::*;
use std::collections::HashSet;

/// A random assignment of every option (integers kept in a small range).
fn random_rules(rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    for o in options() {
        if o.name.starts_with("score_") && rng.below(4) != 0 {
            continue;
        }
        let v = random_option_value(&o, rng);
        out.push(format!("{}={v}", o.name));
    }
    out
}

fn play_random(seed: u64, rules: &[String]) {
    let o = Options::resolve(&options(), "rikken", rules).unwrap();
    let mut g = Rikken::with_options(o, Chance::seeded(seed)).unwrap();
    let mut rng = Rng::new(seed, Purpose::Bot, 1);
    let mut played: HashSet<String> = HashSet::new();
    let mut steps = 0;
    loop {
        for e in g.take_events() {
            match e.kind {
                "hand" => assert_eq!(e.to.members(4).count(), 1, "a hand goes to one seat"),
                "hint" => assert_eq!(e.to.members(4).collect::<Vec<_>>(), vec![g.to_move().unwrap()]),
                "exposed" => assert!(!e.to.contains(e.args[0].parse().unwrap())),
                "deal" => played.clear(),
                _ => {}
            }
        }
        let Some(seat) = g.to_move() else { break };
        let legal = g.legal_actions();
        assert!(!legal.is_empty(), "seat {seat} has no legal action");
        // An illegal token is refused and changes nothing.
        assert_refused(&mut g, &["XX", "2Z", "alone13", "AS", "pass", "misere_join"]);
        let a = legal[rng.below(legal.len() as u64) as usize].clone();
        if g.decision() == "play" {
            assert!(played.insert(a.clone()), "{a} played twice");
        }
        g.apply(&a).unwrap();
        steps += 1;
        assert!(steps < 5000, "the game does not end");
    }
    let out = g.outcome().expect("an outcome at the end");
    assert_eq!(out.scores.len(), 4);
    assert!(
        out.scores.iter().sum::<f64>().abs() < 1e-9,
        "not zero-sum: {:?}",
        out.scores
    );
    for d in g.chance().deals() {
        let all: HashSet<_> = d.hands.iter().flatten().collect();
        assert_eq!(all.len(), 52);
    }
    assert!(out.detail["summary"].as_str().is_some_and(|s| !s.is_empty()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_games_under_random_rules(seed in any::<u64>()) {
        let mut rng = Rng::new(seed, Purpose::Table, 0);
        let rules = random_rules(&mut rng);
        play_random(seed, &rules);
    }

    #[test]
    fn random_games_under_default_rules(seed in any::<u64>()) {
        play_random(seed, &[]);
    }
}

#[test]
fn event_arguments_are_single_tokens() {
    // In-process bots receive the arguments as a list: every argument must be one word, as
    // the protocol line splits it.
    for seed in 0..30u64 {
        let o = Options::resolve(&options(), "rikken", &[] as &[&str]).unwrap();
        let mut g = Rikken::with_options(o, Chance::seeded(seed)).unwrap();
        let mut rng = Rng::new(seed, Purpose::Bot, 2);
        loop {
            for e in g.take_events() {
                for a in &e.args {
                    assert!(
                        !a.text().is_empty() && !a.text().contains(' '),
                        "event '{}' has argument '{a}'",
                        e.line()
                    );
                }
            }
            if g.to_move().is_none() {
                break;
            }
            let l = g.legal_actions();
            g.apply(&l[rng.below(l.len() as u64) as usize]).unwrap();
        }
    }
}

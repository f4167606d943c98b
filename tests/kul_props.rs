//! Property tests: random Kul sessions for 2, 5 and 10 players under random rule options never
//! panic, always offer a legal action, refuse illegal ones without events, conserve the cards,
//! keep hands hidden, end, and are zero-sum.

mod common;
use common::{assert_refused, play_with_simple_views};

use croupier::cards::Card;
use croupier::chance::{Chance, Purpose, Rng};
use croupier::engine::Typed;
use croupier::game::Game;
use croupier::games::kul::{engine::Kul, options};
use croupier::options::Options;
use proptest::prelude::*;
use std::collections::HashSet;

fn random_rules(rng: &mut Rng) -> Vec<String> {
    vec![
        format!("marks_to_win={}", ["1", "2", "3"][rng.below(3) as usize]),
        format!("stake={}", 1 + rng.below(5)),
        format!("games={}", 1 + rng.below(3)),
        format!("redeal_request={}", rng.below(2) == 1),
        format!("max_deals_per_game={}", 1 + rng.below(30)),
    ]
}

fn play_random(seed: u64, n: usize, rules: &[String]) {
    let o = Options::resolve(&options(), "kul", rules).unwrap();
    let mut g = Typed::new(|ev| Kul::new(n, &o, Chance::seeded(seed), ev)).unwrap();
    let mut rng = Rng::new(seed, Purpose::Bot, 1);
    let mut played: HashSet<Card> = HashSet::new();
    let mut steps = 0;
    loop {
        for e in g.take_events() {
            for a in &e.args {
                assert!(!a.text().is_empty() && !a.text().contains(' '), "'{}'", e.line());
            }
            match e.kind {
                "hand" => {
                    assert_eq!(e.to.members(n).count(), 1, "a hand goes to one seat");
                    let dealt: HashSet<Card> = e.args.iter().map(|c| c.parse().unwrap()).collect();
                    assert_eq!(dealt.len(), 5);
                }
                "deal" => played.clear(),
                _ => assert_eq!(e.to.members(n).count(), n, "{} is public", e.line()),
            }
        }
        let Some(seat) = g.to_move() else { break };
        let legal = g.legal_actions();
        assert!(!legal.is_empty(), "seat {seat} has no legal action");
        assert_refused(&mut g, &["XX", "AS", "2C", "keep", "agree", "farg"]);
        let a = legal[rng.below(legal.len() as u64) as usize].clone();
        if let Ok(c) = a.parse::<Card>() {
            assert!(played.insert(c), "{c} played twice in a deal");
        }
        g.apply(&a).unwrap();
        steps += 1;
        assert!(steps < 20_000, "the session does not end");
    }
    let out = g.outcome().expect("an outcome at the end");
    assert_eq!(out.scores.len(), n);
    assert_eq!(out.scores.iter().sum::<f64>(), 0.0, "not zero-sum: {:?}", out.scores);
    for d in g.chance().deals() {
        let mut all: Vec<Card> = d.hands.iter().flatten().copied().collect();
        all.extend(d.piles["undealt"].iter().copied());
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), 52);
        assert!(d.hands.iter().all(|h| h.len() == 5));
    }
    assert!(out.detail["summary"].as_str().is_some_and(|s| !s.is_empty()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn random_sessions(seed in any::<u64>(), k in 0usize..3) {
        let n = [2, 5, 10][k];
        let mut rng = Rng::new(seed, Purpose::Table, 0);
        let rules = random_rules(&mut rng);
        play_random(seed, n, &rules);
    }
}

/// Seat views folded from the routed events only, and the `simple` policy deciding from them.
#[test]
fn views_and_the_simple_policy_follow_the_game() {
    use croupier::games::kul::spec;
    for (seed, n) in [(1u64, 2usize), (2, 5), (3, 10)] {
        let o = Options::resolve(&options(), "kul", &["redeal_request=true"]).unwrap();
        let (views, scores) = play_with_simple_views(&spec(), &o, n, seed);
        for (s, v) in views.iter().enumerate() {
            let chips: Vec<f64> = v["chips"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_f64().unwrap())
                .collect();
            assert_eq!(chips, scores, "seat {s}'s view of the chips");
        }
    }
}

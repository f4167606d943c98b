//! Property tests: random Skwitz sessions for 2–8 players under random rule options never
//! panic, always offer a legal action, refuse illegal ones without events, conserve the 52
//! cards, keep chips zero-sum (players plus pot), keep hands and the bottom card private,
//! and end.

mod common;
use common::assert_refused;

use croupier::chance::{Chance, Purpose, Rng};
use croupier::game::Game;
use croupier::games::skwitz::{engine::Skwitz, options};
use croupier::options::{OptionKind, Options};
use proptest::prelude::*;

/// A random assignment of the options (short sessions: few games, a low target).
fn random_rules(rng: &mut Rng, players: usize) -> Vec<String> {
    let mut out = Vec::new();
    for o in options() {
        let v = match (o.name, &o.kind) {
            ("games", _) => (1 + rng.below(2)).to_string(),
            ("extra_games_cap", _) => rng.below(2).to_string(),
            ("target", _) => (1 + rng.below(7)).to_string(),
            ("stake", _) => (2 * (1 + rng.below(3))).to_string(),
            ("teams", _) => (players == 4 && rng.below(2) == 0).to_string(),
            ("breach_penalty", _) => "false".to_string(),
            ("deal_table", _) => match (players, rng.below(2)) {
                (5, 0) => "5:7,3,3".to_string(),
                (7, 0) => "7:10,3,2".to_string(),
                (2, 0) => "2:2,5,5".to_string(),
                _ => "standard".to_string(),
            },
            (_, OptionKind::Bool) => ["true", "false"][rng.below(2) as usize].to_string(),
            (_, OptionKind::Int { min, max }) => (min + rng.below((max - min + 1).min(5) as u64) as i64).to_string(),
            (_, OptionKind::Choice(vs)) => vs[rng.below(vs.len() as u64) as usize].to_string(),
            (_, OptionKind::Text { .. }) => o.default.to_string(),
        };
        out.push(format!("{}={v}", o.name));
    }
    out
}

fn play_random(seed: u64, players: usize, rules: &[String]) {
    let o = Options::resolve(&options(), "skwitz", rules).unwrap();
    let mut g = Skwitz::with_players(players, o, Chance::seeded(seed)).unwrap();
    let mut rng = Rng::new(seed, Purpose::Bot, 1);
    let mut steps = 0;
    loop {
        let dealer = g.dealer();
        for e in g.take_events() {
            for a in &e.args {
                assert!(
                    !a.text().is_empty() && !a.text().contains(' '),
                    "event '{}' has argument '{a}'",
                    e.line()
                );
            }
            match e.kind {
                "hand" => assert_eq!(e.to.members(players).count(), 1, "a hand goes to one seat"),
                "bottom" => assert_eq!(e.to.members(players).collect::<Vec<_>>(), vec![dealer]),
                _ => assert_eq!(e.to.members(players).count(), players, "{} is public", e.line()),
            }
        }
        assert_eq!(g.card_count(), 52, "cards are conserved");
        assert_eq!(g.chips().iter().sum::<i64>() + g.pot(), 0, "chips are conserved");
        let Some(seat) = g.to_move() else { break };
        let legal = g.legal_actions();
        assert!(!legal.is_empty(), "seat {seat} has no legal action");
        let mut uniq = legal.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), legal.len(), "duplicate legal actions {legal:?}");
        assert_refused(&mut g, &["XX", "AS:", "2C:2C", "9H:5D,4C", "out", "KS", "TH:TD"]);
        // Random, but declare Out! half the time it is offered so sessions end quickly.
        let a = if legal[0] == "out" && rng.below(2) == 0 {
            legal[0].clone()
        } else {
            legal[rng.below(legal.len() as u64) as usize].clone()
        };
        g.apply(&a).unwrap();
        steps += 1;
        assert!(steps < 200_000, "the session does not end");
    }
    let out = g.outcome().expect("an outcome at the end");
    assert_eq!(out.scores.len(), players);
    assert!(
        out.scores.iter().sum::<f64>().abs() < 1e-9,
        "not zero-sum: {:?}",
        out.scores
    );
    assert_eq!(g.pot(), 0);
    assert!(out.detail["summary"].as_str().is_some_and(|s| !s.is_empty()));
    for d in g.chance().deals() {
        let mut all: Vec<_> = d.hands.iter().flatten().chain(d.piles.values().flatten()).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 52);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn random_sessions_under_random_rules(seed in any::<u64>(), players in 2usize..=8) {
        let mut rng = Rng::new(seed, Purpose::Table, 0);
        let rules = random_rules(&mut rng, players);
        play_random(seed, players, &rules);
    }

    #[test]
    fn random_sessions_under_default_rules(seed in any::<u64>(), players in 2usize..=8) {
        play_random(seed, players, &["games=1".to_string()]);
    }
}

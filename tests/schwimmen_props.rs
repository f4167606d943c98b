//! Property tests: random Schwimmen games for 2-10 players, both decks and random rule options
//! never panic, always offer a legal action, refuse illegal tokens without events, conserve the
//! cards, keep hidden cards to their audience, and end with one player left and the ranking
//! payments (scores sum to -n(n+1)/2: the kitty is a sink, not zero-sum).

mod common;
use common::random_option_value;

use croupier::cards::Card;
use croupier::chance::{Chance, Purpose, Rng};
use croupier::engine::Typed;
use croupier::game::Game;
use croupier::games::schwimmen::{engine::Schwimmen, options};
use croupier::options::Options;
use proptest::prelude::*;
use std::collections::HashSet;

/// A random assignment of every option (integers kept small).
fn random_rules(rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    for o in options() {
        let v = match (o.name, &o.kind) {
            ("max_circuits", _) => (1 + rng.below(6)).to_string(),
            ("strikes_to_drown", _) => (1 + rng.below(5)).to_string(),
            ("strikes_to_swim", _) => (1 + rng.below(5)).to_string(),
            _ => random_option_value(&o, rng),
        };
        out.push(format!("{}={v}", o.name));
    }
    out
}

fn play_random(seed: u64, players: usize, rules: &[String]) {
    let o = Options::resolve(&options(), "schwimmen", rules).unwrap();
    let deck32 = o.get("deck") == "32";
    let n = if deck32 { players.min(9) } else { players };
    let mut g = Typed::new(|ev| Schwimmen::new(n, &o, Chance::seeded(seed), ev)).unwrap();
    let mut rng = Rng::new(seed, Purpose::Bot, 1);
    let deck: HashSet<Card> = g.deck().iter().copied().collect();
    assert_eq!(deck.len(), if deck32 { 32 } else { 36 });
    let mut steps = 0;
    let mut dealer = None;
    let mut active_before = n;
    loop {
        // (reason of the last end, shows since)
        let mut ended: Option<(String, usize)> = None;
        let check_shows = |ended: &Option<(String, usize)>, active: usize| {
            if let Some((reason, shows)) = ended {
                let want = if reason == "three_aces" { 1 } else { active };
                assert_eq!(*shows, want, "{reason}: {shows} hands shown, {active} players in");
            }
        };
        for e in g.take_events() {
            for a in &e.args {
                assert!(!a.text().is_empty() && !a.text().contains(' '), "event '{}'", e.line());
            }
            match e.kind {
                "deal" => {
                    dealer = e.args[1].parse::<usize>().ok();
                    check_shows(&ended, active_before);
                    ended = None;
                    active_before = g.active().iter().filter(|&&a| a).count();
                }
                "hand" => assert_eq!(e.to.members(n).count(), 1, "a hand goes to one seat"),
                "packet" => assert_eq!(e.to.members(n).collect::<Vec<_>>(), vec![dealer.unwrap()]),
                "end" => ended = Some((e.args[0].to_string(), 0)),
                "show" => {
                    assert_eq!(e.to, croupier::game::Audience::all(n), "shown hands are public");
                    ended.as_mut().expect("a show after an end").1 += 1;
                }
                _ => assert_eq!(e.to, croupier::game::Audience::all(n), "{} is public", e.line()),
            }
        }
        if g.to_move().is_none() {
            check_shows(&ended, active_before);
        }
        // Cards are conserved: every card of the deck exactly once.
        let all = g.all_cards();
        assert_eq!(all.len(), deck.len());
        assert_eq!(all.iter().copied().collect::<HashSet<_>>(), deck);
        let Some(seat) = g.to_move() else { break };
        assert!(g.active()[seat], "an eliminated seat is to move");
        let legal = g.legal_actions();
        assert!(!legal.is_empty(), "seat {seat} has no legal action");
        let before = (g.decision(), legal.clone(), g.middle().to_vec(), g.hand(seat).to_vec());
        for bad in [
            "XX",
            "swap_AS",
            "swap_2C_AS",
            "swap_AS_2C",
            "knock",
            "pass",
            "keep_seen",
            "swap_all",
            "swap_XX_YY",
        ] {
            if !legal.iter().any(|l| l == bad) {
                assert!(g.apply(bad).is_err(), "{bad} accepted; legal {legal:?}");
                assert!(g.take_events().is_empty(), "a refused action produced events");
                assert_eq!(
                    (
                        g.decision(),
                        g.legal_actions(),
                        g.middle().to_vec(),
                        g.hand(seat).to_vec()
                    ),
                    before
                );
            }
        }
        let a = legal[rng.below(legal.len() as u64) as usize].clone();
        g.apply(&a).unwrap();
        steps += 1;
        assert!(steps < 200_000, "the game does not end");
    }
    let out = g.outcome().expect("an outcome at the end");
    assert_eq!(out.scores.len(), n);
    assert_eq!(g.active().iter().filter(|&&a| a).count(), 1, "one player left");
    let total: f64 = out.scores.iter().sum();
    let expect = -((n * (n + 1)) as f64) / 2.0;
    assert!(
        (total - expect).abs() < 1e-9,
        "scores {:?} do not sum to {expect}",
        out.scores
    );
    let winner = out.detail["winner"].as_u64().unwrap() as usize;
    assert_eq!(out.scores[winner], -1.0, "the winner pays 1");
    for (s, &x) in out.scores.iter().enumerate() {
        assert!((-(n as f64)..=-1.0).contains(&x), "seat {s} pays {x}");
    }
    assert!(out.detail["summary"].as_str().is_some_and(|s| !s.is_empty()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]
    #[test]
    fn random_games_under_random_rules(seed in any::<u64>(), players in 2usize..=10) {
        let mut rng = Rng::new(seed, Purpose::Table, 0);
        let rules = random_rules(&mut rng);
        play_random(seed, players, &rules);
    }

    #[test]
    fn random_games_under_default_rules(seed in any::<u64>(), players in 2usize..=10, deck32 in any::<bool>()) {
        let rules = if deck32 { vec!["deck=32".to_string()] } else { vec![] };
        play_random(seed, players, &rules);
    }
}

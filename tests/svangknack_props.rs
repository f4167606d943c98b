//! Property tests: random Svängknack sessions for 3, 4, 8 and 16 players under random rule
//! options never panic, always offer a legal action, refuse illegal ones without events,
//! conserve the cards, keep hands hidden, keep the chips plus the pot zero, and end zero-sum.

mod common;
use common::{assert_refused, play_with_simple_views, random_option_value};

use croupier::cards::Card;
use croupier::chance::{Chance, Purpose, Rng};
use croupier::engine::Typed;
use croupier::game::Game;
use croupier::games::svangknack::{engine::Svangknack, options};
use croupier::options::{OptionKind, Options};
use proptest::prelude::*;
use std::collections::HashSet;

fn random_rules(rng: &mut Rng, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    for o in options() {
        let v = match (o.name, &o.kind) {
            ("deck", _) => if n <= 11 && rng.below(2) == 0 { "36" } else { "52" }.to_string(),
            ("base_stake", _) => (3 * (1 + rng.below(3))).to_string(),
            ("bet_cap", _) => ["0", "30", "300"][rng.below(3) as usize].to_string(),
            ("force_pot_limit", _) => ["0", "20", "100"][rng.below(3) as usize].to_string(),
            ("rounds", _) => (1 + rng.below(6)).to_string(),
            ("extra_rounds_cap", _) => ["-1", "0", "2"][rng.below(3) as usize].to_string(),
            (_, OptionKind::Int { .. }) => o.default.to_string(),
            _ => random_option_value(&o, rng),
        };
        out.push(format!("{}={v}", o.name));
    }
    out
}

fn play_random(seed: u64, n: usize, rules: &[String]) {
    let o = Options::resolve(&options(), "svangknack", rules).unwrap();
    let mut g = Typed::new(|ev| Svangknack::new(n, &o, Chance::seeded(seed), ev)).unwrap();
    let mut rng = Rng::new(seed, Purpose::Bot, 1);
    let mut played: HashSet<Card> = HashSet::new();
    let mut carried: i64 = 0;
    let mut chips = vec![0i64; n];
    let mut steps = 0;
    loop {
        for e in g.take_events() {
            for a in &e.args {
                assert!(!a.text().is_empty() && !a.text().contains(' '), "'{}'", e.line());
            }
            let num = |i: usize| e.args[i].parse::<i64>().unwrap();
            match e.kind {
                "hand" => {
                    assert_eq!(e.to.members(n).count(), 1, "a hand goes to one seat");
                    assert_eq!(e.args.len(), 3);
                }
                _ => assert_eq!(e.to.members(n).count(), n, "{} is public", e.line()),
            }
            match e.kind {
                "deal" => played.clear(),
                "ante" => {
                    let a = num(0);
                    if e.args[1] == "all" {
                        chips.iter_mut().for_each(|c| *c -= a);
                        assert_eq!(carried, 0, "a new pot only when no bets are owed");
                    } else {
                        chips[num(1) as usize] -= a;
                    }
                }
                "pot" => {
                    let pot = num(0);
                    assert_eq!(pot % 3, 0, "the pot is divisible by 3");
                    assert_eq!(num(1) * 3, pot);
                    assert_eq!(chips.iter().sum::<i64>() + pot, 0, "chips and pot do not balance");
                    carried = 0;
                }
                "paid" => chips[num(0) as usize] += num(2),
                "lone" => chips[num(0) as usize] += num(1),
                "bet" => {
                    chips[num(0) as usize] -= num(1);
                    carried += num(1);
                }
                "chips" => {
                    let v: Vec<i64> = e.args[0].text().split(',').map(|x| x.parse().unwrap()).collect();
                    assert_eq!(v, chips, "the chips line agrees with the payments");
                    assert_eq!(chips.iter().sum::<i64>() + carried, 0, "money is created or lost");
                }
                _ => {}
            }
        }
        let Some(seat) = g.to_move() else { break };
        let legal = g.legal_actions();
        assert!(!legal.is_empty(), "seat {seat} has no legal action");
        assert_refused(
            &mut g,
            &["XX", "AS", "2C", "farg", "knock", "swing", "redeal", "agree", "H"],
        );
        let a = legal[rng.below(legal.len() as u64) as usize].clone();
        if let Ok(c) = a.parse::<Card>() {
            assert!(played.insert(c), "{c} played twice in a deal");
        }
        g.apply(&a).unwrap();
        steps += 1;
        assert!(steps < 200_000, "the session does not end");
    }
    let out = g.outcome().expect("an outcome at the end");
    assert_eq!(out.scores.len(), n);
    assert_eq!(out.scores.iter().sum::<f64>(), 0.0, "not zero-sum: {:?}", out.scores);
    let deck = if rules.iter().any(|r| r == "deck=36") { 36 } else { 52 };
    for d in g.chance().deals() {
        let mut all: Vec<Card> = d.hands.iter().flatten().copied().collect();
        all.extend(d.piles["stock"].iter().copied());
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), deck);
    }
    assert!(out.detail["summary"].as_str().is_some_and(|s| !s.is_empty()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]
    #[test]
    fn random_sessions_under_random_rules(seed in any::<u64>(), k in 0usize..4) {
        let n = [3, 4, 8, 16][k];
        let mut rng = Rng::new(seed, Purpose::Table, 0);
        let rules = random_rules(&mut rng, n);
        play_random(seed, n, &rules);
    }

    #[test]
    fn random_sessions_under_default_rules(seed in any::<u64>(), k in 0usize..4) {
        let n = [3, 4, 8, 16][k];
        play_random(seed, n, &[]);
    }
}

/// Seat views folded from the routed events only, and the `simple` policy deciding from them:
/// every choice is legal, the view's hand holds the cards the seat plays, and the view's chips
/// end equal to the scores.
#[test]
fn views_and_the_simple_policy_follow_the_game() {
    use croupier::games::svangknack::spec;
    for (seed, n) in [(1u64, 3usize), (2, 4), (3, 8), (4, 16)] {
        let o = Options::resolve(&options(), "svangknack", &["rounds=6"]).unwrap();
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

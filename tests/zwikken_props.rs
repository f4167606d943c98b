//! Property tests: random Zwikken sessions for 3 to 6 players under random rule options never
//! panic, always offer a legal action, refuse illegal ones without changing state, conserve
//! cards and chips, keep hidden cards hidden, end, and are zero-sum.

mod common;
use common::random_option_value;

use croupier::cards::Card;
use croupier::chance::{Chance, Purpose, Rng};
use croupier::engine::Typed;
use croupier::game::{Game, GameInfo, SeatView};
use croupier::games::zwikken::{engine::Zwikken, options, view::ZwikkenView};
use croupier::options::{OptionKind, Options};
use proptest::prelude::*;
use std::collections::HashSet;

/// A random assignment of every option (sessions kept short).
fn random_rules(rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    for o in options() {
        let v = match (o.name, &o.kind) {
            ("deals", _) => (1 + rng.below(6)).to_string(),
            ("extra_deals_cap", _) => (rng.below(5) as i64 - 1).to_string(),
            ("bankroll", _) => ["0", "0", "3", "10"][rng.below(4) as usize].to_string(),
            _ => random_option_value(&o, rng),
        };
        out.push(format!("{}={v}", o.name));
    }
    out
}

fn play_random(seed: u64, players: usize, rules: &[String]) {
    let o = Options::resolve(&options(), "zwikken", rules).unwrap();
    let mut g = Typed::new(|ev| Zwikken::new(players, &o, Chance::seeded(seed), ev)).unwrap();
    let mut rng = Rng::new(seed, Purpose::Bot, 1);
    let mut views: Vec<ZwikkenView> = (0..players)
        .map(|s| {
            ZwikkenView::new(&GameInfo {
                game: "zwikken".into(),
                options: o.clone(),
                players,
                seat: s,
            })
        })
        .collect();
    let mut played: HashSet<Card> = HashSet::new();
    let mut steps = 0;
    loop {
        for e in g.take_events() {
            for a in &e.args {
                assert!(!a.text().is_empty() && !a.text().contains(' '), "event '{}'", e.line());
            }
            match e.kind {
                "hand" => assert_eq!(e.to.members(players).count(), 1, "a hand goes to one seat"),
                "deal" => played.clear(),
                _ => assert_eq!(e.to.members(players).count(), players, "{} is public", e.line()),
            }
            for s in e.to.members(players) {
                views[s].observe(e.kind, &e.args);
            }
        }
        // Cards and chips are conserved at every step.
        let total: i64 = g.engine().balances().iter().sum::<i64>() + g.engine().pot();
        let start: i64 = o.int("bankroll") * players as i64;
        assert_eq!(total, start, "chips conserved");
        let Some(seat) = g.to_move() else { break };
        let mut all: Vec<Card> = (0..players).flat_map(|s| g.engine().hand(s)).collect();
        all.extend(g.engine().turned());
        all.extend(g.engine().stock());
        all.extend(played.iter().copied());
        let set: HashSet<Card> = all.iter().copied().collect();
        assert_eq!((all.len(), set.len()), (20, 20), "the 20 cards are all somewhere, once");
        if steps % 3 == 0 {
            // The seat's view holds its own hand and nothing of the others' or the stock.
            let v = views[seat].to_json();
            let mut hand: Vec<String> = g.engine().hand(seat).iter().map(|c| c.to_string()).collect();
            let mut seen: Vec<String> = v["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect();
            hand.sort();
            seen.sort();
            assert_eq!(hand, seen, "the view's hand is the seat's hand");
            let text = v.to_string();
            for c in g.engine().stock() {
                assert!(
                    !text.contains(&format!("\"{c}\"")),
                    "stock card {c} in the view of seat {seat}"
                );
            }
            // Another seat's cards show only if they were shown: a zwik, or a turned card taken.
            let public = format!("{}{}", v["zwiks"], v["exchanges"]);
            for other in (0..players).filter(|&s| s != seat) {
                for c in g.engine().hand(other) {
                    let q = format!("\"{c}\"");
                    assert!(
                        !text.contains(&q) || public.contains(&q),
                        "seat {other}'s {c} in the view of seat {seat}"
                    );
                }
            }
        }
        let legal = g.legal_actions();
        assert!(!legal.is_empty(), "seat {seat} has no legal action");
        // An illegal token is refused and changes nothing.
        let before = (g.decision(), legal.clone(), g.engine().pot());
        let bads: &[&str] = match steps % 3 {
            0 => &["XX", "AS", "ask", "ken_ask", "wait_better"],
            1 => &["TD", "pass", "seek", "no_exchange"],
            _ => &["2Z", "KH", "ken_pass", "exchange_AS", "exchange_KH_QH"],
        };
        for &bad in bads {
            if !legal.iter().any(|l| l == bad) {
                let e = g.apply(bad).expect_err(bad);
                assert!(!e.is_empty());
                assert!(g.take_events().is_empty(), "a refused action produced events");
                assert_eq!((g.decision(), g.legal_actions(), g.engine().pot()), before);
            }
        }
        let a = legal[rng.below(legal.len() as u64) as usize].clone();
        let play = a.rsplit('_').next().unwrap().parse::<Card>().ok();
        if g.decision() == "play" {
            let c = play.expect("a play names a card");
            assert!(played.insert(c), "{c} played twice");
        }
        g.apply(&a).unwrap();
        steps += 1;
        assert!(steps < 50_000, "the game does not end");
    }
    let out = g.outcome().expect("an outcome at the end");
    assert_eq!(out.scores.len(), players);
    assert_eq!(
        g.engine().pot(),
        0,
        "the pot is cleared at the end: {} {rules:?}",
        out.detail
    );
    assert!(
        out.scores.iter().sum::<f64>().abs() < 1e-9,
        "not zero-sum: {:?}",
        out.scores
    );
    for d in g.chance().deals() {
        let mut all: Vec<Card> = d.hands.iter().flatten().copied().collect();
        all.extend(d.piles.values().flatten());
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), 20);
    }
    assert!(out.detail["summary"].as_str().is_some_and(|s| !s.is_empty()));
    // The ledger in the outcome accounts for every chip: deals, then the divided pot.
    let mut net = vec![0i64; players];
    let ledger = out.detail["ledger"].as_array().unwrap();
    assert_eq!(ledger.len() as u64, out.detail["deals"].as_u64().unwrap());
    for d in ledger {
        for (s, x) in d["chips"].as_array().unwrap().iter().enumerate() {
            net[s] += x.as_i64().unwrap();
        }
    }
    for sh in out.detail["split_shares"].as_array().unwrap() {
        net[sh[0].as_u64().unwrap() as usize] += sh[1].as_i64().unwrap();
    }
    let net: Vec<f64> = net.iter().map(|&x| x as f64).collect();
    assert_eq!(net, out.scores, "the ledger adds up to the scores");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn random_sessions_under_random_rules(seed in any::<u64>(), players in 3usize..=6) {
        let mut rng = Rng::new(seed, Purpose::Table, 0);
        let rules = random_rules(&mut rng);
        play_random(seed, players, &rules);
    }

    #[test]
    fn random_sessions_under_default_rules(seed in any::<u64>(), players in 3usize..=6) {
        play_random(seed, players, &["deals=3".to_string()]);
    }
}

#[test]
fn every_player_count_and_every_choice_value() {
    let mut k = 0u64;
    for o in options() {
        if let OptionKind::Choice(vs) = o.kind {
            for v in vs {
                k += 1;
                let players = 3 + (k % 4) as usize;
                play_random(k * 31, players, &[format!("{}={v}", o.name), "deals=2".into()]);
            }
        }
    }
    for players in 3..=6 {
        play_random(7 + players as u64, players, &["bankroll=5".into(), "deals=8".into()]);
        play_random(9 + players as u64, players, &["max_seeks=0".into(), "deals=3".into()]);
    }
}

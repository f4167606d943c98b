//! Rule-by-rule tests of the Skwitz engine (skwitz.md section numbers in the test names).

mod common;
use common::{drive, lines};

use croupier::cards::{full_deck, parse_cards, Card};
use croupier::chance::{Chance, DealSpec};
use croupier::engine::Typed;
use croupier::game::{Audience, Event, FaultRuling, Game};
use croupier::games::skwitz::captures::{captures, token};
use croupier::games::skwitz::{engine::Skwitz, options};
use croupier::options::Options;
use std::collections::BTreeMap;

fn opts(rules: &[&str]) -> Options {
    Options::resolve(&options(), "skwitz", rules).unwrap()
}

/// A deal with the given first-draw hands and table; the stock is the rest of the deck in
/// notation order (so its bottom card is 2C unless 2C is placed elsewhere).
fn spec(dealer: usize, hands: &[&str], table: &str) -> DealSpec {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| parse_cards(h).unwrap()).collect();
    let table = parse_cards(table).unwrap();
    let used: Vec<Card> = hands.iter().flatten().chain(table.iter()).copied().collect();
    let stock: Vec<Card> = full_deck().into_iter().filter(|c| !used.contains(c)).collect();
    let mut piles = BTreeMap::new();
    piles.insert("table".to_string(), table);
    piles.insert("stock".to_string(), stock);
    DealSpec {
        dealer: Some(dealer),
        hands: hands.into_iter().map(Some).collect(),
        piles,
    }
}

fn game(n: usize, rules: &[&str], deals: Vec<DealSpec>) -> (Typed<Skwitz>, Vec<Event>) {
    let mut g = Skwitz::with_players(n, opts(rules), Chance::given(7, deals)).unwrap();
    let ev = g.take_events();
    (g, ev)
}

fn play(g: &mut Typed<Skwitz>, tokens: &[&str]) -> Vec<Event> {
    let mut ev = Vec::new();
    drive(g, &mut ev, tokens);
    ev
}

fn caps(card: &str, table: &str) -> Vec<String> {
    let c: Card = card.parse().unwrap();
    captures(c, &parse_cards(table).unwrap())
        .iter()
        .map(|x| token(c, x))
        .collect()
}

/// Refuses `t` with a message containing `why`, and emits nothing.
fn refused(g: &mut Typed<Skwitz>, t: &str, why: &str) {
    let before = g.legal_actions();
    let e = g.apply(t).expect_err(t);
    assert!(e.contains(why), "{t}: '{e}' does not say '{why}'");
    assert!(g.take_events().is_empty(), "{t}: a refusal produced events");
    assert_eq!(g.legal_actions(), before);
}

/// The first legal action that is not `out`, until `stop` says so or the session ends.
fn play_until(g: &mut Typed<Skwitz>, ev: &mut Vec<Event>, stop: impl Fn(&Typed<Skwitz>) -> bool) {
    let mut steps = 0;
    while g.to_move().is_some() && !stop(g) {
        let l = g.legal_actions();
        let t = l.iter().find(|t| *t != "out").unwrap_or(&l[0]).clone();
        ev.extend(play(g, &[&t]));
        steps += 1;
        assert!(steps < 100_000);
    }
}

#[test]
fn sec3_capture_enumeration_hand_worked() {
    // Matches only: any non-empty subset of the same-rank cards.
    assert_eq!(caps("QH", "QS QD 5C"), vec!["QH:QS,QD", "QH:QS", "QH:QD"]);
    assert_eq!(caps("AH", "AS AD 2C"), vec!["AH:AS,AD", "AH:AS", "AH:AD"]);
    assert!(caps("KH", "QS 5D AC").is_empty(), "courts do not sum");
    assert!(caps("AH", "2S 3D").is_empty(), "an ace does not capture by summing");
    // "A Ten may capture a Ten, a Seven and a Three".
    assert_eq!(caps("TH", "TS 7C 3D"), vec!["TH:TS,3D,7C", "TH:3D,7C", "TH:TS"]);
    // Aces count 1 inside sums; two disjoint sums may be taken together.
    assert_eq!(
        caps("5H", "AS 4D 2C 3S"),
        vec!["5H:AS,3S,4D,2C", "5H:AS,4D", "5H:3S,2C"]
    );
    // A nine on 9S 5D 4C 6H 3S 2D 7C: the sum groups {5,4} {6,3} {7,2} {4,3,2}; the disjoint
    // unions are {} + 4 singles + 3 pairs + 1 triple = 9, each with or without the 9S match,
    // less the empty set: 17 captures.
    let nine = caps("9H", "9S 5D 4C 6H 3S 2D 7C");
    assert_eq!(nine.len(), 17, "{nine:?}");
    for t in [
        "9H:9S,3S,6H,5D,2D,7C,4C",
        "9H:3S,6H,5D,2D,7C,4C",
        "9H:9S",
        "9H:5D,4C",
        "9H:3S,2D,4C",
        "9H:9S,3S,2D,4C",
        "9H:3S,6H,2D,7C",
    ] {
        assert!(nine.contains(&t.to_string()), "{t} missing from {nine:?}");
    }
    assert!(
        !nine.contains(&"9H:3S,5D,2D,4C".to_string()),
        "5+4+3+2 is not two groups of 9"
    );
    // The same set is one capture however it splits: 2 2 2 2 for a 4 (2+2, 2+2).
    assert_eq!(
        caps("4H", "2S 2H 2D 2C"),
        vec![
            "4H:2S,2H,2D,2C",
            "4H:2S,2H",
            "4H:2S,2D",
            "4H:2S,2C",
            "4H:2H,2D",
            "4H:2H,2C",
            "4H:2D,2C"
        ]
    );
}

#[test]
fn sec1_1_deal_table_layout_draws_and_audiences() {
    for (n, (t, h, k)) in (2..=8).zip(croupier::games::skwitz::DEAL_TABLE) {
        let mut g = Skwitz::with_players(n, opts(&["games=1"]), Chance::seeded(n as u64)).unwrap();
        assert_eq!(g.layout(), (t, h, k));
        let ev = g.take_events();
        let dealer = g.dealer();
        let table = ev.iter().find(|e| e.kind == "table").unwrap();
        assert_eq!(table.args.len(), t);
        assert_eq!(table.to, Audience::all(n));
        let hands: Vec<&Event> = ev.iter().filter(|e| e.kind == "hand").collect();
        assert_eq!(hands.len(), n);
        for (s, e) in hands.iter().enumerate() {
            assert_eq!(e.to, Audience::seat(s), "a hand goes to its owner only");
            assert_eq!(e.args.len(), h);
        }
        let bottom = ev.iter().find(|e| e.kind == "bottom").unwrap();
        assert_eq!(
            bottom.to,
            Audience::seat(dealer),
            "only the dealer sees the bottom card"
        );
        let draw = ev.iter().find(|e| e.kind == "draw").unwrap();
        assert_eq!(draw.args[..], ["1".to_string(), (52 - t - n * h).to_string()]);
        // Forehand is the dealer's right; play passes to the right.
        assert_eq!(g.to_move(), Some((dealer + n - 1) % n));
        let first = g.to_move().unwrap();
        let l = g.legal_actions();
        play(&mut g, &[&l[0]]);
        assert_eq!(g.to_move(), Some((first + n - 1) % n));
        // Draws until the stock is empty: k draws in all.
        let mut ev = Vec::new();
        play_until(&mut g, &mut ev, |g| g.deal_no() > 1);
        let draws = ev.iter().filter(|e| e.kind == "draw").count();
        assert!(draws == k || g.to_move().is_none(), "{n} players: {draws} draws");
    }
}

#[test]
fn sec1_1_every_deal_makes_k_draws() {
    let mut g = Skwitz::with_players(4, opts(&["games=1", "target=20"]), Chance::seeded(3)).unwrap();
    let mut ev = g.take_events();
    play_until(&mut g, &mut ev, |_| false);
    let draws: Vec<String> = lines(&ev)
        .into_iter()
        .filter(|l| l.starts_with("draw "))
        .take(3)
        .collect();
    assert_eq!(draws, vec!["draw 1 32", "draw 2 16", "draw 3 0"]);
}

#[test]
fn sec1_1_deal_table_override_is_checked() {
    let g = Skwitz::with_players(5, opts(&["deal_table=7:10,3,2/5:7,3,3"]), Chance::seeded(1)).unwrap();
    assert_eq!(g.layout(), (7, 3, 3));
    assert_eq!(
        opts(&["deal_table=7:10,3,2/5:7,3,3"]).get("deal_table"),
        "5:7,3,3/7:10,3,2"
    );
    for (bad, why) in [
        ("5:7,3,2", "not 52"),
        ("5:2,1,10", "h >= 2"),
        ("9:4,4,1", "2-8 players"),
        ("5:7,3", "n:T,h,k"),
        ("5:7,3,3/5:7,3,3", "twice"),
    ] {
        let e = Options::resolve(&options(), "skwitz", &[format!("deal_table={bad}")]).unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn sec2_1_matador_at_the_bottom_is_reshuffled() {
    // The stock's bottom card is the 2 of spades, a matador: the deal is made again.
    let mut d = spec(0, &["AH KH QH JH", "TH 9H 8H 7H"], "6H 5H 4H 3H");
    let stock = d.piles.get_mut("stock").unwrap();
    let i = stock.iter().position(|c| c.to_string() == "2S").unwrap();
    let two = stock.remove(i);
    stock.push(two);
    let (g, ev) = game(2, &[], vec![d]);
    assert_eq!(g.chance().deals().len(), 2, "a second deal after the reshuffle");
    let l = lines(&ev);
    assert!(l.contains(&"reshuffle".to_string()), "{l:?}");
    let bottom = ev.iter().find(|e| e.kind == "bottom").unwrap();
    assert_ne!(bottom.args[0], "2S");
}

/// Two players, dealer 0: seat 1 is forehand.
fn two(rules: &[&str], h0: &str, h1: &str, table: &str) -> (Typed<Skwitz>, Vec<Event>) {
    game(2, rules, vec![spec(0, &[h0, h1], table)])
}

#[test]
fn sec2_3_captures_are_compulsory_and_refusals_say_why() {
    let (mut g, _) = two(&[], "2H 3H 4H 5H", "9H QC KD 6D", "4S 5C QS 8D");
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(
        g.legal_actions(),
        vec!["9H:4S,5C", "QC:QS"],
        "only captures while one is possible"
    );
    refused(&mut g, "6D", "may trail only when no card can capture");
    refused(&mut g, "2H:4S", "not in your hand");
    refused(&mut g, "9H:4S,JD", "JD is not on the table");
    refused(&mut g, "9H:4S,8D", "adding up to 9");
    refused(&mut g, "KD:QS", "captures only other Ks");
    refused(&mut g, "9H:5C,4S", "notation order");
    refused(&mut g, "9H:4S,4S", "listed twice");
    refused(&mut g, "out", "Out! needs 7 points");
    refused(&mut g, "hello", "not an action");
    let ev = play(&mut g, &["9H:4S,5C"]);
    assert_eq!(lines(&ev), vec!["move 1 9H:4S,5C play"]);
    assert_eq!(g.table(), parse_cards("QS 8D").unwrap());
}

#[test]
fn sec2_3_trail_rule_options() {
    let (g, _) = two(&["trail_rule=free"], "2H 3H 4H 5H", "9H QC KD 6D", "4S 5C QS 8D");
    assert_eq!(g.legal_actions(), vec!["9H:4S,5C", "QC:QS", "9H", "KD", "6D", "QC"]);
    let (mut g, _) = two(&["trail_rule=card_level"], "2H 3H 4H 5H", "9H QC KD 6D", "4S 5C QS 8D");
    assert_eq!(g.legal_actions(), vec!["9H:4S,5C", "QC:QS", "KD", "6D"]);
    refused(&mut g, "9H", "so it must capture");
    // Nothing can capture: every card may trail.
    let (mut g, _) = two(&[], "2H 3H 4H 5H", "KD KC KH 6D", "4S 5C QS 8D");
    assert_eq!(g.legal_actions(), vec!["KH", "KD", "6D", "KC"]);
    let ev = play(&mut g, &["6D"]);
    assert_eq!(lines(&ev), vec!["move 1 6D play"]);
    assert_eq!(g.table().len(), 5);
}

#[test]
fn sec2_4_matador_points_and_payments() {
    // Seat 1 takes the JS with the JH: +1 point; seat 0 pays S/2 to seat 1 and S/2 to the pot.
    let (mut g, _) = two(&[], "2H 3H 4H 5H", "JH QC KD 6D", "JS 5C QS 8D");
    let ev = play(&mut g, &["JH:JS"]);
    assert_eq!(
        lines(&ev),
        vec![
            "move 1 JH:JS play",
            "matador 1 JS",
            "point 1 matador 1",
            "pay 0 1 2 matador",
            "pay 0 pot 2 matador",
        ]
    );
    assert_eq!(g.chips(), &[-8, -2], "ante 4 each, then 2 + 2 from seat 0");
    assert_eq!(g.pot(), 10);
    // The capturing card counts by default, not with matador_source=table_only.
    let (mut g, _) = two(&["stake=6"], "2H 3H 4H 5H", "JS QC KD 6D", "JD 5C QS 8D");
    let ev = play(&mut g, &["JS:JD"]);
    assert!(
        lines(&ev).contains(&"pay 0 1 3 matador".to_string()),
        "{:?}",
        lines(&ev)
    );
    let (mut g, _) = two(
        &["matador_source=table_only"],
        "2H 3H 4H 5H",
        "JS QC KD 6D",
        "JD 5C QS 8D",
    );
    let ev = play(&mut g, &["JS:JD"]);
    assert_eq!(lines(&ev), vec!["move 1 JS:JD play"]);
}

#[test]
fn sec2_4_skwitz_points_and_payments() {
    // A 2-card layout (deal_table override 2 + 2*5*5 = 52) that a 9 sweeps.
    let d = spec(0, &["2H 3H 4H 5H 6H", "9H QC KD 6D 7D"], "4D 5C");
    let (mut g, _) = game(2, &["deal_table=2:2,5,5"], vec![d]);
    let ev = play(&mut g, &["9H:4D,5C"]);
    assert_eq!(
        lines(&ev),
        vec![
            "move 1 9H:4D,5C play",
            "skwitz 1 4D",
            "point 1 skwitz 1",
            "pay 0 1 2 skwitz",
            "pay 0 pot 2 skwitz",
        ]
    );
    // A trail onto the empty table is never a skwitz, and the next capture of it is one.
    let ev = play(&mut g, &["2H"]);
    assert_eq!(lines(&ev), vec!["move 0 2H play"]);
}

#[test]
fn sec2_5_deal_end_points_leftovers_and_ties() {
    for (rules, leftover_to) in [(vec![], "none"), (vec!["leftover_to_last_captor=true"], "last")] {
        let mut r: Vec<&str> = rules.clone();
        r.push("target=20");
        r.push("games=1");
        let (mut g, _) = game(2, &r, vec![]);
        let mut ev = Vec::new();
        play_until(&mut g, &mut ev, |_| false);
        let _ = g.take_events();
        let l = lines(&ev);
        let end = l.iter().position(|x| x.starts_with("dealend 1")).unwrap();
        let clear = l[..end].iter().rev().find(|x| x.starts_with("clear ")).unwrap();
        let captor = l[..end]
            .iter()
            .rev()
            .find(|x| x.starts_with("move ") && x.contains(':'))
            .map(|x| x.split(' ').nth(1).unwrap().to_string())
            .unwrap();
        if leftover_to == "none" {
            assert!(clear.starts_with("clear none"), "{clear}");
        } else {
            assert!(clear.starts_with(&format!("clear {captor}")), "{clear}");
        }
        // The last capture scores, after the most-cards and most-spades points.
        let points: Vec<&String> = l[..end].iter().filter(|x| x.starts_with("point ")).collect();
        assert_eq!(
            points.last().unwrap().split(' ').take(3).collect::<Vec<_>>(),
            vec!["point", &captor, "last"]
        );
        // Counts add up to the cards in piles (52 less the cleared ones unless given to the captor).
        let counted: usize = l[..end]
            .iter()
            .filter(|x| x.starts_with("count "))
            .map(|x| x.split(' ').nth(2).unwrap().parse::<usize>().unwrap())
            .sum();
        let cleared = clear.split(' ').count() - 2;
        assert_eq!(counted + if leftover_to == "none" { cleared } else { 0 }, 52);
    }
}

#[test]
fn sec2_5_most_cards_tie_rule() {
    // Find a seeded 2-player deal whose card counts tie, and check both tie rules.
    for seed in 0..200u64 {
        let mut g = Skwitz::with_players(2, opts(&["target=20", "games=1"]), Chance::seeded(seed)).unwrap();
        let mut ev = g.take_events();
        play_until(&mut g, &mut ev, |g| g.deal_no() > 1);
        let l = lines(&ev);
        let end = l.iter().position(|x| x.starts_with("dealend 1")).unwrap();
        let counts: Vec<Vec<String>> = l[..end]
            .iter()
            .filter(|x| x.starts_with("count "))
            .map(|x| x.split(' ').map(String::from).collect())
            .collect();
        if counts[0][2] != counts[1][2] {
            continue;
        }
        assert!(
            !l[..end].iter().any(|x| x.contains(" cards ")),
            "a tie scores for nobody"
        );
        let mut g = Skwitz::with_players(
            2,
            opts(&["target=20", "games=1", "tie_rule=all_tied"]),
            Chance::seeded(seed),
        )
        .unwrap();
        let mut ev = g.take_events();
        play_until(&mut g, &mut ev, |g| g.deal_no() > 1);
        let l = lines(&ev);
        let end = l.iter().position(|x| x.starts_with("dealend 1")).unwrap();
        let both: Vec<&String> = l[..end].iter().filter(|x| x.contains(" cards ")).collect();
        assert_eq!(both.len(), 2, "{both:?}");
        return;
    }
    panic!("no tied deal found");
}

#[test]
fn sec2_6_out_payments_matsch_and_pot() {
    // Three players, target 1: the first seat with a point declares Out!.
    let (mut g, mut ev) = game(3, &["target=1", "games=2"], vec![]);
    play_until(&mut g, &mut ev, |g| g.legal_actions().contains(&"out".to_string()));
    let w = g.to_move().unwrap();
    let before: Vec<i64> = g.chips().to_vec();
    let pot = g.pot();
    let zero: Vec<usize> = (0..3).filter(|&s| s != w && g.points(s) == 0).collect();
    let ev = play(&mut g, &["out"]);
    let l = lines(&ev);
    assert_eq!(l[0], format!("move {w} out play"));
    assert_eq!(l[1], format!("out {w} declared"));
    let mut expect_gain = 0;
    for o in (0..3).filter(|&s| s != w) {
        assert!(l.contains(&format!("pay {o} {w} 4 out")), "{l:?}");
        assert!(l.contains(&format!("pay {o} pot 4 out")), "{l:?}");
        expect_gain += 4;
        if zero.contains(&o) {
            assert!(l.contains(&format!("matsch {o}")));
            assert!(l.contains(&format!("pay {o} {w} 4 matsch")));
            expect_gain += 4;
        } else {
            assert!(!l.contains(&format!("matsch {o}")));
        }
    }
    assert!(
        l.contains(&format!("potholder {w}")),
        "the first win passes the pot: {l:?}"
    );
    assert!(l.contains(&format!("gameend 1 {w}")));
    assert!(l.contains(&format!("newgame 2 {w}")), "the winner deals next");
    assert_eq!(
        g.chips()[w] - before[w],
        expect_gain - 4,
        "gains less the next deal's ante"
    );
    assert!(g.pot() > pot, "the pot stays full");
    assert_eq!(g.dealer(), w);
    assert_eq!((0..3).map(|s| g.points(s)).sum::<i64>(), 0, "points reset");
}

/// Plays a session in which only `who(g)` may declare; returns all events.
fn session(rules: &[&str], seed: u64) -> (Typed<Skwitz>, Vec<Event>) {
    let mut g = Skwitz::with_players(2, opts(rules), Chance::seeded(seed)).unwrap();
    let mut ev = g.take_events();
    play_until(&mut g, &mut ev, |g| {
        g.legal_actions().contains(&"out".to_string()) && g.to_move() == Some(0)
    });
    while g.to_move().is_some() {
        let l = g.legal_actions();
        let t = if l.contains(&"out".to_string()) && g.to_move() == Some(0) {
            "out".to_string()
        } else {
            l.iter().find(|t| *t != "out").unwrap().clone()
        };
        ev.extend(play(&mut g, &[&t]));
    }
    (g, ev)
}

#[test]
fn sec2_6_second_consecutive_win_collects_and_sec5_session_end() {
    // Seat 0 wins two games in a row (the opponent never declares): the second collects the pot.
    let (g, ev) = session(&["target=1", "games=2"], 5);
    let l = lines(&ev);
    let ends: Vec<&String> = l.iter().filter(|x| x.starts_with("gameend")).collect();
    assert_eq!(ends, vec!["gameend 1 0", "gameend 2 0"], "{ends:?}");
    let collect = l
        .iter()
        .find(|x| x.starts_with("pay pot 0 ") && x.ends_with(" collect"));
    assert!(collect.is_some(), "{l:?}");
    assert_eq!(l.last().unwrap(), "sessionend 2");
    assert_eq!(g.pot(), 0);
    let out = g.outcome().unwrap();
    assert_eq!(out.scores.iter().sum::<f64>(), 0.0);
    assert!(out.detail["summary"].as_str().unwrap().contains("pot collected by 0"));
}

#[test]
fn sec5_uncollected_pot_is_split_after_the_extra_games() {
    // Seat 0 and seat 1 alternate? With extra_games_cap=0 and one game the pot is split at once.
    let mut g = Skwitz::with_players(
        3,
        opts(&["target=1", "games=1", "extra_games_cap=0"]),
        Chance::seeded(4),
    )
    .unwrap();
    let mut ev = g.take_events();
    play_until(&mut g, &mut ev, |g| g.legal_actions().contains(&"out".to_string()));
    let pot_before = g.pot();
    ev.extend(play(&mut g, &["out"]));
    assert!(g.to_move().is_none());
    let l = lines(&ev);
    let splits: Vec<i64> = l
        .iter()
        .filter(|x| x.starts_with("pay pot ") && x.ends_with(" split"))
        .map(|x| x.split(' ').nth(3).unwrap().parse().unwrap())
        .collect();
    assert_eq!(splits.len(), 3);
    assert!(splits.iter().max().unwrap() - splits.iter().min().unwrap() <= 1);
    assert!(splits.iter().sum::<i64>() >= pot_before);
    assert_eq!(g.pot(), 0);
    assert_eq!(g.chips().iter().sum::<i64>(), 0);
}

#[test]
fn sec2_5_auto_out_at_deal_end() {
    let mut g = Skwitz::with_players(
        4,
        opts(&["target=1", "games=1", "out_timing=auto_at_deal_end"]),
        Chance::seeded(2),
    )
    .unwrap();
    let mut ev = g.take_events();
    assert!(!g.legal_actions().contains(&"out".to_string()));
    play_until(&mut g, &mut ev, |_| false);
    let l = lines(&ev);
    let out = l.iter().position(|x| x.starts_with("out ")).unwrap();
    assert!(l[out].ends_with(" auto"));
    assert!(l[..out].iter().any(|x| x.starts_with("dealend ")), "only at a deal end");
}

#[test]
fn sec6_teams_share_points_and_chips() {
    let mut g = Skwitz::with_players(4, opts(&["teams=true", "games=1"]), Chance::seeded(6)).unwrap();
    let mut ev = g.take_events();
    play_until(&mut g, &mut ev, |_| false);
    let out = g.outcome().unwrap();
    assert_eq!(out.scores[0], out.scores[2]);
    assert_eq!(out.scores[1], out.scores[3]);
    assert_eq!(out.scores[0], -out.scores[1]);
    // No payment ever goes between partners.
    for e in &ev {
        if e.kind == "pay" && e.args[0] != "pot" && e.args[1] != "pot" {
            let (a, b): (usize, usize) = (e.args[0].parse().unwrap(), e.args[1].parse().unwrap());
            assert_ne!(a % 2, b % 2, "{}", e.line());
        }
    }
    assert!(Skwitz::with_players(3, opts(&["teams=true"]), Chance::seeded(1)).is_err());
}

#[test]
fn bad_configurations_are_refused() {
    let e = Skwitz::with_players(4, opts(&["stake=5"]), Chance::seeded(1))
        .err()
        .unwrap();
    assert!(e.contains("even"), "{e}");
}

#[test]
fn sec6_sk14_breach_pays_half_a_stake_to_each_other_player_and_plays_the_first_capture() {
    // Seat 1 (forehand) must capture; the canonical order takes the capturing cards in notation
    // order (S H D C, high to low), so 9H's capture comes before QC's.
    let (mut g, _) = two(&["breach_penalty=true"], "2H 3H 4H 5H", "QC KD 6D 9H", "4S 5C QS 8D");
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(g.legal_actions(), vec!["9H:4S,5C", "QC:QS"]);
    assert_eq!(g.chips(), &[-4, -4], "the antes");
    assert_eq!(g.default_action(), "9H:4S,5C");
    let r = g.on_fault(1, "timeout");
    assert_eq!(r, FaultRuling::Play("9H:4S,5C".into()));
    let ev = g.take_events();
    assert_eq!(lines(&ev), vec!["breach 1 timeout", "pay 1 0 2 breach"]);
    assert!(ev.iter().all(|e| e.to == Audience::all(2)), "public");
    assert_eq!(g.chips(), &[-2, -6]);
    assert_eq!(g.pot(), 8, "a breach pays nothing to the pot");
    // The referee then plays the ruled action; the turn passes on.
    play(&mut g, &["9H:4S,5C"]);
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.table(), parse_cards("QS 8D").unwrap().as_slice());
}

#[test]
fn sec6_sk14_breach_trails_the_lowest_value_card() {
    // No capture: the lowest value trails, not the first listed.
    let (g0, _) = two(&["breach_penalty=true"], "2D 8H 9C TC", "KD 6D 3C 7H", "4S 5C QS 8D");
    assert_eq!(g0.legal_actions(), vec!["7H", "KD", "6D", "3C"]);
    assert_eq!(g0.default_action(), "3C");
    // Equal values: the first in notation order (3H before 3C).
    let (mut g, _) = two(&["breach_penalty=true"], "2D 7H 9C TC", "KD 6D 3C 3H", "4S 5C QS 8D");
    assert_eq!(g.default_action(), "3H");
    // Courts rank above every number; an ace is worth 1.
    let (g2, _) = two(&["breach_penalty=true"], "2D 7H 9C TC", "KD JC 6D AH", "4S 5C QS 8D");
    assert_eq!(g2.default_action(), "AH");
    let (g3, _) = two(&["breach_penalty=true"], "2D 7H 9C TC", "KD JC TH JD", "4S 5C QS 8D");
    assert_eq!(g3.legal_actions(), vec!["TH", "KD", "JD", "JC"]);
    assert_eq!(g3.default_action(), "TH");
    let r = g.on_fault(1, "illegal");
    assert_eq!(r, FaultRuling::Play("3H".into()));
    assert_eq!(lines(&g.take_events()), vec!["breach 1 illegal", "pay 1 0 2 breach"]);
    play(&mut g, &["3H"]);
    assert_eq!(g.to_move(), Some(0));
    assert!(g.table().contains(&"3H".parse().unwrap()));
}

#[test]
fn sec6_sk14_breach_is_zero_sum_with_three_players_and_spares_partners() {
    let deal = spec(0, &["2H 3H 4H 5H", "2D 7H 9C TC", "KD 6D 3C AH"], "4S 5C QS 8D");
    let (mut g, _) = game(3, &["breach_penalty=true", "stake=6"], vec![deal]);
    let s = g.to_move().unwrap();
    assert_eq!(s, 2, "forehand is the dealer's right");
    assert_eq!(g.on_fault(s, "crash"), FaultRuling::Play("AH".into()));
    assert_eq!(
        lines(&g.take_events()),
        vec!["breach 2 crash", "pay 2 0 3 breach", "pay 2 1 3 breach"]
    );
    assert_eq!(g.chips(), &[-3, -3, -12]);
    assert_eq!(g.chips().iter().sum::<i64>() + g.pot(), 0, "zero-sum");
    // Only the seat to move can be in breach.
    assert_eq!(g.on_fault(0, "timeout"), FaultRuling::Substitute);
    assert!(g.take_events().is_empty());
    // With teams the partner is not paid.
    let mut t = Skwitz::with_players(4, opts(&["breach_penalty=true", "teams=true"]), Chance::seeded(3)).unwrap();
    t.take_events();
    let s = t.to_move().unwrap();
    assert!(matches!(t.on_fault(s, "dead"), FaultRuling::Play(_)));
    let pays: Vec<String> = lines(&t.take_events())
        .into_iter()
        .filter(|l| l.starts_with("pay"))
        .collect();
    let mut others = [(s + 1) % 4, (s + 3) % 4];
    others.sort();
    let expected: Vec<String> = others.iter().map(|o| format!("pay {s} {o} 2 breach")).collect();
    assert_eq!(pays, expected);
}

#[test]
fn sec6_sk14_without_breach_penalty_the_referee_substitutes() {
    let (mut g, _) = two(&[], "2H 3H 4H 5H", "QC KD 6D 9H", "4S 5C QS 8D");
    assert_eq!(g.on_fault(1, "timeout"), FaultRuling::Substitute);
    assert!(g.take_events().is_empty());
    assert_eq!(g.chips(), &[-4, -4]);
    assert_eq!(g.to_move(), Some(1));
}

/// The view of `seat` folded from the events it was sent, and the simple bot's choice.
fn simple_choice(
    g: &Typed<Skwitz>,
    events: &[Event],
    seat: usize,
    n: usize,
    rules: &[&str],
) -> (serde_json::Value, String) {
    let info = croupier::game::GameInfo {
        game: "skwitz".into(),
        options: opts(rules),
        players: n,
        seat,
    };
    let mut v = croupier::games::skwitz::view::new_view(&info);
    for e in events.iter().filter(|e| e.to.contains(seat)) {
        v.observe(e.kind, &e.args);
    }
    let json = v.to_json();
    let choice = croupier::games::skwitz::policy::simple_policy(v.as_ref(), "play", &g.legal_actions());
    (json, choice)
}

#[test]
fn view_holds_what_the_seat_saw_only() {
    let (mut g, mut ev) = two(&[], "2H 3H 4H 5H", "JH QC KD 6D", "JS 5C QS 8D");
    ev.extend(play(&mut g, &["JH:JS"]));
    let (v1, _) = simple_choice(&g, &ev, 1, 2, &[]);
    let (v0, _) = simple_choice(&g, &ev, 0, 2, &[]);
    assert_eq!(v1["hand"], serde_json::json!(["KD", "6D", "QC"]));
    assert_eq!(v0["hand"], serde_json::json!(["5H", "4H", "3H", "2H"]));
    assert_eq!(v0["table"], serde_json::json!(["5C", "QS", "8D"]), "in the order laid");
    assert_eq!(v0["points"], serde_json::json!([0, 1]));
    assert_eq!(v0["chips"], serde_json::json!([-8, -2]));
    assert_eq!(v0["pot"], 10);
    assert_eq!(v0["matadors"][1], serde_json::json!(["JS"]));
    assert_eq!(v0["bottom"], "2C", "the dealer sees the bottom card");
    assert_eq!(v1["bottom"], serde_json::Value::Null);
    assert_eq!(v0["hand_sizes"], serde_json::json!([4, 3]));
}

#[test]
fn simple_prefers_matadors_sweeps_and_declares_out() {
    // A matador beats a bigger plain capture.
    let (g, ev) = two(&[], "2H 3H 4H 5H", "JH 9H QC KD", "JS 5C 4D 8D");
    assert_eq!(simple_choice(&g, &ev, 1, 2, &[]).1, "JH:JS");
    // A sweep beats a match.
    let rules = ["deal_table=2:2,5,5"];
    let (g, ev) = game(2, &rules, vec![spec(0, &["2H 3H 4H 5H 6H", "9H 5S KD 6D 7D"], "4D 5C")]);
    assert_eq!(simple_choice(&g, &ev, 1, 2, &rules).1, "9H:4D,5C");
    // Out! as soon as it may.
    let (mut g, mut ev) = game(3, &["target=1"], vec![]);
    play_until(&mut g, &mut ev, |g| g.legal_actions().contains(&"out".to_string()));
    let s = g.to_move().unwrap();
    assert_eq!(simple_choice(&g, &ev, s, 3, &["target=1"]).1, "out");
}

#[test]
fn simple_does_not_leave_a_sweep_to_the_next_player() {
    // Trailing is free here. Taking KS with KH would leave the lone 5D, which any five sweeps;
    // trailing the KH instead leaves KS 5D KH, which nobody can sweep.
    let rules = ["deal_table=2:2,5,5", "trail_rule=free"];
    let (g, ev) = game(2, &rules, vec![spec(0, &["2H 3H 4H 6H 7H", "KH 9C 8C QD JD"], "KS 5D")]);
    let l = g.legal_actions();
    assert!(
        l.contains(&"KH:KS".to_string()) && l.contains(&"KH".to_string()),
        "{l:?}"
    );
    let (_, c) = simple_choice(&g, &ev, 1, 2, &rules);
    assert_ne!(c, "KH:KS", "leaves 5D alone for a sweep");
}

/// `standing` (for search): after each deal and each Skwitz game its count goes up by one; the
/// estimates add up to zero over the sides (both seats of a team score the team's); when a
/// Skwitz game starts (no points yet, so every side alike) they are the chips the `pay` lines
/// gave, with the pot shared alike; at the end of the session, the outcome's scores.
#[test]
fn standing_estimates_the_game_in_play_after_each_deal() {
    for (teams, seeds) in [(false, 1..=10u64), (true, 1..=4u64)] {
        for seed in seeds {
            let o = if teams { opts(&["teams=true"]) } else { opts(&[]) };
            let mut g = Typed::new(|ev| Skwitz::new(4, &o, croupier::chance::Chance::seeded(seed), ev)).unwrap();
            let mut rng = croupier::chance::Rng::new(seed, croupier::chance::Purpose::Bot, 0);
            let (mut chips, mut pot) = ([0i64; 4], 0i64);
            let (mut ends, mut games) = (0u64, 0);
            loop {
                let mut new_game = false;
                for e in g.take_events() {
                    match e.kind {
                        "pay" => {
                            let amount: i64 = e.args[2].parse().unwrap();
                            match e.args[0].parse::<usize>() {
                                Ok(from) => chips[from] -= amount,
                                Err(_) => pot -= amount,
                            }
                            match e.args[1].parse::<usize>() {
                                Ok(to) => chips[to] += amount,
                                Err(_) => pot += amount,
                            }
                        }
                        "dealend" => ends += 1,
                        "gameend" => {
                            ends += 1;
                            games += 1;
                        }
                        "newgame" => new_game = true,
                        _ => {}
                    }
                }
                let (k, est) = g.standing().unwrap();
                assert_eq!(k, ends, "seed {seed}");
                let sides: Vec<usize> = if teams { vec![0, 1] } else { vec![0, 1, 2, 3] };
                let total: f64 = sides.iter().map(|&s| est[s]).sum();
                assert!(total.abs() < 1e-6, "seed {seed}: {est:?}");
                if teams {
                    assert_eq!((est[0], est[1]), (est[2], est[3]), "seed {seed}");
                }
                if new_game && g.outcome().is_none() {
                    for s in 0..4 {
                        let (mine, share) = if teams {
                            (chips[s] + chips[(s + 2) % 4], pot as f64 / 2.0)
                        } else {
                            (chips[s], pot as f64 / 4.0)
                        };
                        assert!(
                            (est[s] - (mine as f64 + share)).abs() < 1e-6,
                            "seed {seed}: {est:?} {chips:?} {pot}"
                        );
                    }
                }
                if g.to_move().is_none() {
                    break;
                }
                let legal = g.legal_actions();
                g.apply(&legal[rng.below(legal.len() as u64) as usize]).unwrap();
            }
            assert!(games >= 5, "seed {seed}: {games} games");
            assert_eq!(g.standing().unwrap().1, g.outcome().unwrap().scores, "seed {seed}");
        }
    }
}

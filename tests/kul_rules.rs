//! Rule-by-rule tests of the Kul engine (kul.md section numbers in the test names).

mod common;
use common::{deal_spec, drive as play, lines};

use croupier::chance::{Chance, DealSpec};
use croupier::engine::{NoEvents, Typed};
use croupier::game::{Audience, Event, Game};
use croupier::games::kul::{engine::Kul, options};
use croupier::options::Options;

fn spec(dealer: usize, hands: &[&str]) -> DealSpec {
    deal_spec(dealer, hands, &[])
}

fn game(rules: &[&str], n: usize, deals: Vec<DealSpec>) -> (Typed<Kul>, Vec<Event>) {
    let o = Options::resolve(&options(), "kul", rules).unwrap();
    let mut g = Typed::new(|ev| Kul::new(n, &o, Chance::given(7, deals), ev)).unwrap();
    let ev = g.take_events();
    (g, ev)
}

const H3: [&str; 3] = ["AS 9S 2H 3D 4C", "KS QS 5H 6D 7C", "3S 4S AH KD 2C"];

#[test]
fn sec2_0_ante_deal_and_hands_to_their_owner_only() {
    let (g, ev) = game(&[], 3, vec![spec(2, &H3)]);
    let l = lines(&ev);
    assert_eq!(l[0], "ante 1 1 3");
    assert_eq!(l[1], "deal 1 2");
    for (s, e) in ev.iter().filter(|e| e.kind == "hand").enumerate() {
        assert_eq!(e.to, Audience::seat(s));
    }
    assert_eq!(g.to_move(), Some(0), "forehand (left of the dealer) leads");
    assert_eq!(g.decision(), "play");
    assert_eq!(g.legal_actions().len(), 5, "the leader plays any card");
}

#[test]
fn sec3_forced_overtaking_follow_suit_and_void() {
    let (mut g, mut ev) = game(&[], 3, vec![spec(2, &H3)]);
    play(&mut g, &mut ev, &["9S"]);
    // Seat 1 holds KS QS: both beat 9S.
    assert_eq!(g.legal_actions(), vec!["KS", "QS"]);
    let e = g.apply("5H").unwrap_err();
    assert!(e.contains("does not follow"), "{e}");
    assert!(g.take_events().is_empty());
    play(&mut g, &mut ev, &["QS"]);
    // Seat 2 holds 4S 3S: neither beats QS, so any spade.
    assert_eq!(g.legal_actions(), vec!["4S", "3S"]);
    play(&mut g, &mut ev, &["3S"]);
    assert!(lines(&ev).contains(&"trick 1 1".to_string()));
    // Seat 1 leads 5H; seat 2 must beat it with AH; seat 0 must play 2H (cannot beat AH).
    play(&mut g, &mut ev, &["5H"]);
    assert_eq!(g.legal_actions(), vec!["AH"]);
    let e = g.apply("KD").unwrap_err();
    assert!(e.contains("does not follow"), "{e}");
    play(&mut g, &mut ev, &["AH"]);
    assert_eq!(g.legal_actions(), vec!["2H"]);
    play(&mut g, &mut ev, &["2H"]);
    // Seat 2 (winner of trick 2) leads 2C.
    play(&mut g, &mut ev, &["2C"]);
    // Seat 0 must follow clubs with 4C (beats 2C); seat 1 then must beat 4C with 7C.
    assert_eq!(g.legal_actions(), vec!["4C"]);
    play(&mut g, &mut ev, &["4C", "7C"]);
    // Seat 1 leads 6D; seat 2 must beat it with KD, seat 0 plays 3D.
    play(&mut g, &mut ev, &["6D"]);
    assert_eq!(g.legal_actions(), vec!["KD"]);
    play(&mut g, &mut ev, &["KD", "3D"]);
    // Trick 5: seat 2 leads 4S; seat 0 must beat it with AS; seat 1, void, plays its last card.
    play(&mut g, &mut ev, &["4S", "AS"]);
    assert_eq!(g.legal_actions().len(), 1);
    let before = g.legal_actions()[0].clone();
    play(&mut g, &mut ev, &[&before]);
    let l = lines(&ev);
    assert!(l.contains(&"trick 5 0".to_string()), "{l:?}");
    assert!(
        l.contains(&"mark 0 1".to_string()),
        "the last trick gives a mark: {l:?}"
    );
    // Sec. 1: the deal passes left.
    assert!(l.contains(&"deal 2 0".to_string()), "{l:?}");
}

#[test]
fn sec3_void_player_plays_any_card_and_cannot_win() {
    let (mut g, mut ev) = game(&[], 2, vec![spec(1, &["2S 3S 4S 5S 6S", "AH KH QH JH TH"])]);
    play(&mut g, &mut ev, &["2S"]);
    assert_eq!(g.legal_actions().len(), 5, "void: any card");
    play(&mut g, &mut ev, &["AH"]);
    assert!(lines(&ev).contains(&"trick 1 0".to_string()));
}

#[test]
fn sec2_3_first_to_the_marks_takes_the_pot_and_deals_next() {
    // marks_to_win=1: the winner of the fifth trick takes the pot at once.
    let (mut g, mut ev) = game(
        &["marks_to_win=1", "games=2", "stake=2"],
        2,
        vec![spec(1, &["AS KS QS JS TS", "2H 3H 4H 5H 6H"])],
    );
    for _ in 0..10 {
        let t = g.legal_actions()[0].clone();
        play(&mut g, &mut ev, &[&t]);
    }
    let l = lines(&ev);
    assert!(l.contains(&"mark 0 1".to_string()), "{l:?}");
    assert!(l.contains(&"kul 0 4 2,-2".to_string()), "{l:?}");
    // The pot winner deals the first deal of the next game, after a new ante.
    let i = l.iter().position(|x| x == "kul 0 4 2,-2").unwrap();
    assert_eq!(l[i + 1], "ante 2 2 4");
    assert_eq!(l[i + 2], "deal 2 0");
}

#[test]
fn sec5_session_is_zero_sum_and_ends_after_the_games() {
    let (mut g, mut ev) = game(&["games=2", "marks_to_win=2"], 4, vec![]);
    let mut steps = 0;
    while g.to_move().is_some() {
        let t = g.legal_actions()[0].clone();
        play(&mut g, &mut ev, &[&t]);
        steps += 1;
        assert!(steps < 10_000);
    }
    let out = g.outcome().unwrap();
    assert_eq!(out.scores.iter().sum::<f64>(), 0.0);
    assert_eq!(lines(&ev).iter().filter(|l| l.starts_with("kul ")).count(), 2);
    assert!(out.detail["summary"].as_str().unwrap().contains("2 Kul game(s)"));
}

#[test]
fn deal_cap_splits_the_pot() {
    let (mut g, mut ev) = game(&["max_deals_per_game=1", "games=1", "stake=3"], 3, vec![]);
    while g.to_move().is_some() {
        let t = g.legal_actions()[0].clone();
        play(&mut g, &mut ev, &[&t]);
    }
    let l = lines(&ev);
    assert!(l.contains(&"split 3 0,0,0".to_string()), "{l:?}");
    assert_eq!(g.outcome().unwrap().scores, vec![0.0; 3]);
}

#[test]
fn option_redeal_request_needs_everyone() {
    let (mut g, mut ev) = game(&["redeal_request=true"], 3, vec![spec(2, &H3)]);
    assert_eq!((g.to_move(), g.decision()), (Some(0), "redeal"));
    assert_eq!(g.legal_actions(), vec!["keep", "redeal"]);
    assert!(g.apply("AS").is_err());
    play(&mut g, &mut ev, &["redeal"]);
    assert_eq!((g.to_move(), g.decision()), (Some(1), "consent"));
    play(&mut g, &mut ev, &["agree"]);
    assert_eq!(g.to_move(), Some(2));
    play(&mut g, &mut ev, &["agree"]);
    let l = lines(&ev);
    assert!(l.contains(&"redeal agreed".to_string()));
    assert!(l.contains(&"deal 2 2".to_string()), "same dealer redeals: {l:?}");
    assert_eq!((g.to_move(), g.decision()), (Some(0), "play"), "only once per deal");
    // A refusal: the cards stand.
    let (mut g, mut ev) = game(&["redeal_request=true"], 3, vec![spec(2, &H3)]);
    play(&mut g, &mut ev, &["redeal", "agree", "refuse"]);
    assert!(lines(&ev).contains(&"redeal refused".to_string()));
    assert_eq!((g.to_move(), g.decision()), (Some(0), "play"));
    assert_eq!(g.legal_actions().len(), 5);
}

#[test]
fn player_count_is_checked() {
    let o = Options::resolve(&options(), "kul", &[] as &[&str]).unwrap();
    assert!(Kul::new(11, &o, Chance::seeded(1), &mut NoEvents).is_err());
    assert!(Kul::new(1, &o, Chance::seeded(1), &mut NoEvents).is_err());
}

/// `standing` (for search): after each deal, its count of finished deals going up by one (each
/// `mark` line); the chips with the pot shared by the chances of the marks so far, summing to
/// zero, more marks a larger share; right after a Kul game was settled, the chips as the
/// `kul`/`split` line gave them; at the end, the outcome's scores.
#[test]
fn standing_gives_the_chips_and_the_pot_shared_by_the_marks_after_each_deal() {
    for seed in 1..=20u64 {
        let o = Options::resolve(&options(), "kul", &["games=3"]).unwrap();
        let mut g = Typed::new(|ev| Kul::new(4, &o, Chance::seeded(seed), ev)).unwrap();
        let mut rng = croupier::chance::Rng::new(seed, croupier::chance::Purpose::Bot, 0);
        let (mut deals, mut settled) = (0, 0);
        let mut marks = [0u32; 4];
        loop {
            let events = g.take_events();
            let mut chips_line = None;
            for e in &events {
                match e.kind {
                    "mark" => {
                        deals += 1;
                        marks[e.args[0].parse::<usize>().unwrap()] = e.args[1].parse().unwrap();
                    }
                    "kul" => chips_line = Some(e.args[2].clone()),
                    "split" => chips_line = Some(e.args[1].clone()),
                    "ante" => marks = [0; 4],
                    _ => {}
                }
            }
            if events.iter().any(|e| e.kind == "mark") {
                let (k, got) = g.standing().unwrap();
                assert_eq!(k, deals, "seed {seed}");
                assert!(got.iter().sum::<f64>().abs() < 1e-6, "seed {seed}: {got:?}");
                if let Some(chips) = chips_line {
                    settled += 1;
                    let want: Vec<f64> = chips.text().split(',').map(|c| c.parse().unwrap()).collect();
                    for (a, b) in got.iter().zip(&want) {
                        assert!((a - b).abs() < 1e-9, "seed {seed}: {got:?} against {want:?}");
                    }
                } else {
                    // The pot's share grows with the marks.
                    let pot_share: Vec<f64> = (0..4).map(|s| got[s] - g.engine().chips()[s] as f64).collect();
                    for s in 0..4 {
                        for t in 0..4 {
                            if marks[s] > marks[t] {
                                assert!(pot_share[s] > pot_share[t], "seed {seed}: {marks:?} {pot_share:?}");
                            }
                        }
                    }
                }
            }
            if g.to_move().is_none() {
                break;
            }
            let legal = g.legal_actions();
            g.apply(&legal[rng.below(legal.len() as u64) as usize]).unwrap();
        }
        assert_eq!(settled, 3);
        assert_eq!(g.standing().unwrap().1, g.outcome().unwrap().scores, "seed {seed}");
    }
}

/// The race to the marks: who needs fewer is likelier to get there first, exactly as counted.
#[test]
fn race_odds_are_the_chances_of_a_race_of_uniform_marks() {
    use croupier::games::race::race_odds;
    let close = |got: Vec<f64>, want: &[f64]| {
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-4, "{got:?} against {want:?}");
        }
    };
    close(race_odds(&[1, 1]), &[0.5, 0.5]);
    // One mark against two: the first mark decides, or the second does.
    close(race_odds(&[1, 2]), &[0.75, 0.25]);
    // Three marks needed against one: the other must take three in a row.
    close(race_odds(&[1, 3]), &[0.875, 0.125]);
    close(race_odds(&[3, 3, 3, 3]), &[0.25; 4]);
    // Three seats, needs 1, 1, 2: seat 2 wins only with the next two marks (1/9).
    close(race_odds(&[1, 1, 2]), &[4.0 / 9.0, 4.0 / 9.0, 1.0 / 9.0]);
    // The odds belong to the seats, in any order of the needs (remembered or worked out).
    close(race_odds(&[2, 1, 1]), &[1.0 / 9.0, 4.0 / 9.0, 4.0 / 9.0]);
    close(race_odds(&[1, 2, 1]), &[4.0 / 9.0, 1.0 / 9.0, 4.0 / 9.0]);
    close(race_odds(&[3, 1]), &[0.125, 0.875]);
    // Long races (a Skwitz target): the sums stay 1, the leader stays ahead.
    let long = race_odds(&[21, 5, 13, 1]);
    close(vec![long.iter().sum()], &[1.0]);
    assert!(long[3] > long[1] && long[1] > long[2] && long[2] > long[0], "{long:?}");
}

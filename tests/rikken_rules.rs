//! Rule-by-rule tests of the Rikken engine (rikken.md section numbers in the test names).

mod common;
use common::{drive as play, lines};

use croupier::cards::{parse_cards, Card};
use croupier::chance::{Chance, DealSpec};
use croupier::engine::Typed;
use croupier::game::{Event, Game};
use croupier::games::rikken::{engine::Rikken, options};
use croupier::options::Options;

/// A game whose dealer is `dealer` and whose listed hands are given (`""` = random).
fn game(rules: &[&str], dealer: usize, hands: [&str; 4]) -> (Typed<Rikken>, Vec<Event>) {
    let hands = hands
        .iter()
        .map(|h| {
            if h.is_empty() {
                None
            } else {
                Some(parse_cards(h).unwrap())
            }
        })
        .collect();
    let spec = DealSpec {
        dealer: Some(dealer),
        hands,
        piles: Default::default(),
    };
    let o = Options::resolve(&options(), "rikken", rules).unwrap();
    let mut g = Rikken::with_options(o, Chance::given(42, vec![spec])).unwrap();
    let ev = g.take_events();
    (g, ev)
}

fn legal(g: &Typed<Rikken>) -> Vec<String> {
    g.legal_actions()
}

fn has(v: &[String], t: &str) -> bool {
    v.iter().any(|x| x == t)
}

/// Plays the lowest... first legal card until the game ends.
fn play_out(g: &mut Typed<Rikken>, events: &mut Vec<Event>) {
    while g.to_move().is_some() {
        let t = legal(g)[0].clone();
        play(g, events, &[&t]);
    }
}

// Hands used below: seat 1 holds three aces, seat 3 the fourth.
const THREE_ACES: &str = "AS AH AD KS QS JS TS 9S 8S 7S 6S 5S 4S";
const FOURTH_ACE: &str = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C";

#[test]
fn sec4_3_opening_bids_and_overbids() {
    let (mut g, _) = game(&[], 0, ["", "", "", ""]);
    assert_eq!(g.to_move(), Some(1), "left of the dealer speaks first");
    let l = legal(&g);
    for t in [
        "pass",
        "rik",
        "misere",
        "piek",
        "open_misere",
        "open_piek_praatje",
        "solo",
        "solo_beter",
    ] {
        assert!(has(&l, t), "{t} may open: {l:?}");
    }
    for t in ["rik_beter", "alone7", "alone12_beter", "misere_join"] {
        assert!(!has(&l, t), "{t} may not open");
    }
    let err = g.apply("alone7").unwrap_err();
    assert!(err.contains("cannot open"), "{err}");
    assert!(g.apply("bogus").unwrap_err().contains("'bogus' is not a bid"));
    let mut ev = vec![];
    play(&mut g, &mut ev, &["rik"]);
    let l = legal(&g);
    assert!(has(&l, "rik_beter") && has(&l, "alone7") && !has(&l, "rik"));
    play(&mut g, &mut ev, &["misere"]);
    let l = legal(&g);
    assert!(has(&l, "misere_join") && !has(&l, "rik_beter") && !has(&l, "alone8_beter") && has(&l, "alone9"));
    assert!(g.apply("piek").unwrap_err().contains("does not overbid"));
}

#[test]
fn a1_alone_requires_rikken_option() {
    let (mut g, mut ev) = game(&["alone_requires_rikken=true"], 0, ["", "", "", ""]);
    play(&mut g, &mut ev, &["misere"]);
    assert!(!has(&legal(&g), "alone9"));
    assert!(g.apply("alone9").unwrap_err().contains("needs a prior rik"));
}

#[test]
fn sec4_2_passing_is_final_and_re_passes_are_automatic() {
    // Dealer S (2): W N E pass, S riks; W N E re-pass automatically and the auction ends.
    let (mut g, mut ev) = game(&[], 2, ["", "", "", ""]);
    play(&mut g, &mut ev, &["pass", "pass", "pass", "rik"]);
    let l = lines(&ev);
    let tail: Vec<&str> = l
        .iter()
        .map(|s| s.as_str())
        .filter(|s| s.starts_with("move") || s.starts_with("contract"))
        .collect();
    assert_eq!(
        tail,
        [
            "move 3 pass bid",
            "move 0 pass bid",
            "move 1 pass bid",
            "move 2 rik bid",
            "move 3 pass bid",
            "move 0 pass bid",
            "move 1 pass bid",
            "contract rik 2"
        ]
    );
    assert_eq!(g.decision(), "trump");
    assert_eq!(g.to_move(), Some(2));
}

#[test]
fn sec4_8_all_pass_redeals_by_the_same_dealer() {
    let (mut g, mut ev) = game(&[], 1, ["", "", "", ""]);
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass"]);
    let l = lines(&ev);
    assert!(l.contains(&"allpass".to_string()));
    assert!(l.contains(&"deal 2 1".to_string()), "{l:?}");
    assert_eq!(g.chance().deals().len(), 2);
    assert_eq!(g.chance().deals()[1].dealer, 1);
    assert_eq!(g.to_move(), Some(2));
    assert_eq!(g.decision(), "bid");
}

#[test]
fn sec10_7_fourth_must_bid() {
    let (mut g, mut ev) = game(&["all_pass=fourth_must_bid"], 0, ["", "", "", ""]);
    play(&mut g, &mut ev, &["pass", "pass", "pass"]);
    let l = legal(&g);
    assert!(!has(&l, "pass") && has(&l, "rik") && has(&l, "misere") && !has(&l, "alone7") && !has(&l, "rik_beter"));
    assert!(g.apply("pass").unwrap_err().contains("fourth_must_bid"));
}

#[test]
fn sec10_8_schoppen_mieen_after_all_pass() {
    let (mut g, mut ev) = game(&["all_pass=schoppen_mieen"], 0, ["", "", "", ""]);
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass"]);
    let l = lines(&ev);
    assert!(l.contains(&"contract schoppen_mieen -".to_string()) && l.contains(&"trump none".to_string()));
    assert_eq!(g.to_move(), Some(1));
    play_out(&mut g, &mut ev);
    let l = lines(&ev);
    assert!(l.last().unwrap() == "end mie_taken" || l.last().unwrap() == "end tricks_done");
    let out = g.outcome().unwrap();
    // The taker of the queen of spades pays 3 to each other player and nothing else happens.
    assert_eq!(out.scores.iter().filter(|&&s| s == -9.0).count(), 1, "{:?}", out.scores);
    assert_eq!(out.scores.iter().sum::<f64>(), 0.0);
}

#[test]
fn sec4_5_malheur_is_obligatory_with_three_aces() {
    let (mut g, mut ev) = game(&[], 0, ["", THREE_ACES, "", FOURTH_ACE]);
    let l = legal(&g);
    assert!(
        !has(&l, "pass") && !has(&l, "rik") && has(&l, "malheur") && has(&l, "open_misere") && has(&l, "solo_beter")
    );
    assert!(g.apply("pass").unwrap_err().contains("malheur is obligatory"));
    assert!(g.apply("rik").unwrap_err().contains("must bid malheur"));
    play(&mut g, &mut ev, &["malheur", "pass", "pass", "pass"]);
    let l = lines(&ev);
    assert!(l.contains(&"contract malheur 1".to_string()));
    assert!(l.contains(&"aces AS AH AD".to_string()));
    // The rules call the fourth ace; it is announced like a call the declarer made.
    let called = l.iter().position(|x| x == "called AC").expect("called AC");
    assert_eq!(l[called - 1], "move 1 AC call");
    let partner = ev.iter().find(|e| e.kind == "partner").unwrap();
    assert_eq!(partner.line(), "partner 3");
    assert_eq!(partner.to.members(4).count(), 4, "the malheur partnership is public");
    assert_eq!((g.decision(), g.to_move()), ("trump", Some(3)));
    play(&mut g, &mut ev, &["C"]);
    assert_eq!(g.to_move(), Some(1), "left of the dealer leads");
}

#[test]
fn a4_malheur_strict_and_other_modes() {
    let (g, _) = game(&["malheur_strict=true"], 0, ["", THREE_ACES, "", ""]);
    assert_eq!(legal(&g), ["malheur"]);
    let (g, _) = game(&["malheur_mode=optional"], 0, ["", THREE_ACES, "", ""]);
    assert!(has(&legal(&g), "pass") && has(&legal(&g), "malheur") && has(&legal(&g), "rik"));
    let (g, _) = game(&["malheur_mode=abolished"], 0, ["", THREE_ACES, "", ""]);
    assert!(has(&legal(&g), "pass") && !has(&legal(&g), "malheur"));
}

#[test]
fn sec4_5_four_aces_call_a_king_and_trump_restriction() {
    let four = "AS AH AD AC KS KH KD KC QS QH QD 2C 3C";
    let (mut g, mut ev) = game(&[], 0, ["", four, "", ""]);
    play(&mut g, &mut ev, &["malheur", "pass", "pass", "pass"]);
    assert_eq!(g.decision(), "call");
    assert_eq!(legal(&g), ["QC"], "all kings held: a queen he does not hold");
    let (mut g, mut ev) = game(
        &["malheur_trump_excludes_called_suit=true"],
        0,
        ["", "AS AH AD AC 2S 3S 4S 5S 6S 7S 8S 9S TS", "", ""],
    );
    play(&mut g, &mut ev, &["malheur", "pass", "pass", "pass"]);
    assert_eq!(legal(&g), ["KS", "KH", "KD", "KC"]);
    assert!(g.apply("AH").unwrap_err().contains("you hold AH"));
    play(&mut g, &mut ev, &["KH"]);
    assert_eq!(g.decision(), "trump");
    assert_eq!(legal(&g), ["S", "D", "C"]);
}

#[test]
fn sec7_1_called_ace_not_held_not_trump() {
    let hand = "AS KS QS JS TS AH 2H 3H 4H 2D 3D 4D 2C";
    let (mut g, mut ev) = game(&[], 0, ["", hand, "", ""]);
    play(&mut g, &mut ev, &["rik", "pass", "pass", "pass", "S"]);
    assert_eq!(legal(&g), ["AD", "AC"]);
    assert!(g.apply("AS").unwrap_err().contains("you hold AS"));
    let (mut g, mut ev) = game(&[], 0, ["", "KS QS JS TS 9S AH 2H 3H 4H 2D 3D 4D 2C", "", ""]);
    play(&mut g, &mut ev, &["rik", "pass", "pass", "pass", "S"]);
    assert!(g.apply("AS").unwrap_err().contains("trump"));
    // A6: with every non-trump ace in hand (malheur not obligatory) a king is called.
    let (mut g, mut ev) = game(
        &["malheur_mode=optional"],
        0,
        ["", "AH AD AC KH 2S 3S 4S 5S 6S 7S 8S 9S TS", "", ""],
    );
    play(&mut g, &mut ev, &["rik", "pass", "pass", "pass", "S"]);
    assert_eq!(legal(&g), ["KD", "KC"]);
}

/// N (0) or S (2) deals; E (1) riks with spades, calls AH held by W (3).
fn rik_game_dealt_by(rules: &[&str], dealer: usize) -> (Typed<Rikken>, Vec<Event>) {
    let e = "KS QS JS TS 9S 8S KD QD 2H 3C 4C 5C 6C";
    let w = "AH KH QH JH TH 9H 8H 2S 3S 4S 2D 3D 4D";
    let n = "AS 7S 6S 5S 7H 6H 5H AD JD TD 9D 8D 7D";
    let s = "4H 3H 6D 5D AC KC QC JC TC 9C 8C 7C 2C";
    let (mut g, mut ev) = game(rules, dealer, [n, e, s, w]);
    let bids: &[&str] = if dealer == 0 {
        &["rik", "pass", "pass", "pass"]
    } else {
        &["pass", "pass", "rik", "pass"]
    };
    play(&mut g, &mut ev, bids);
    play(&mut g, &mut ev, &["S", "AH"]);
    (g, ev)
}

fn rik_game(rules: &[&str]) -> (Typed<Rikken>, Vec<Event>) {
    rik_game_dealt_by(rules, 0)
}

#[test]
fn sec7_2_called_card_duties_and_hints() {
    let (mut g, mut ev) = rik_game(&[]);
    let private: Vec<&Event> = ev.iter().filter(|e| e.kind == "partner").collect();
    assert_eq!(private.len(), 1);
    assert_eq!(private[0].to.members(4).collect::<Vec<_>>(), [3]);
    // E leads 2H: W must play AH, told by a hint only he receives.
    ev.clear();
    play(&mut g, &mut ev, &["2H"]);
    assert_eq!(g.to_move(), Some(2));
    let s_card = legal(&g)[0].clone();
    play(&mut g, &mut ev, &[&s_card]);
    assert_eq!(legal(&g), ["AH"]);
    let hint = ev.iter().find(|e| e.kind == "hint").expect("a hint");
    assert_eq!(hint.line(), "hint must_play_called");
    assert_eq!(hint.to.members(4).collect::<Vec<_>>(), [3]);
    let err = g.apply("KH").unwrap_err();
    assert!(err.contains("called card AH must be played"), "{err}");
    play(&mut g, &mut ev, &["AH"]);
    let public = ev.iter().find(|e| e.kind == "partner").expect("partner revealed");
    assert_eq!(public.line(), "partner 3");
    assert_eq!(public.to.members(4).count(), 4);
}

#[test]
fn a7_protect_called_card_and_must_lead() {
    let (mut g, mut ev) = rik_game(&[]);
    // E leads a club; W is void in clubs: he may discard anything but AH.
    play(&mut g, &mut ev, &["3C"]);
    let s = legal(&g)[0].clone();
    play(&mut g, &mut ev, &[&s]);
    assert!(!has(&legal(&g), "AH") && has(&legal(&g), "KH"));
    assert!(g.apply("AH").unwrap_err().contains("protect_called_card"));
    assert!(ev.iter().any(|e| e.line() == "hint protect_called"));
    let (mut g, mut ev) = rik_game(&["protect_called_card=false"]);
    play(&mut g, &mut ev, &["3C"]);
    let s = legal(&g)[0].clone();
    play(&mut g, &mut ev, &[&s]);
    assert!(has(&legal(&g), "AH"));
    // Leading: W (left of dealer S) leads trick 1; hearts only with the ace.
    let (mut g, _) = rik_game_dealt_by(&[], 2);
    assert_eq!(g.to_move(), Some(3));
    let l = legal(&g);
    assert!(has(&l, "AH") && !has(&l, "KH") && has(&l, "2S"), "{l:?}");
    assert!(g.apply("KH").unwrap_err().contains("must lead the called card"));
}

#[test]
fn follow_suit_refusals_name_the_reason() {
    let (mut g, mut ev) = rik_game(&[]);
    play(&mut g, &mut ev, &["KD"]);
    let s = g.to_move().unwrap();
    let hand: Vec<Card> = g.chance().deals()[0].hands[s].clone();
    if let Some(off) = hand.iter().find(|c| c.suit != croupier::cards::Suit::Diamonds) {
        if hand.iter().any(|c| c.suit == croupier::cards::Suit::Diamonds) {
            assert!(g.apply(&off.to_string()).unwrap_err().contains("must follow suit (D)"));
        }
    }
    assert!(g.apply("KD").unwrap_err().contains("you do not hold KD"));
    assert!(g.apply("XX").is_err());
}

#[test]
fn sec4_6_joint_misere_settles_each_declarer() {
    let (mut g, mut ev) = game(&[], 0, ["", "", "", ""]);
    play(&mut g, &mut ev, &["misere", "misere_join", "pass", "pass", "pass"]);
    assert!(lines(&ev).contains(&"contract misere 1,2".to_string()));
    assert_eq!(g.to_move(), Some(1));
    play_out(&mut g, &mut ev);
    let out = g.outcome().unwrap();
    assert_eq!(out.scores.iter().sum::<f64>(), 0.0);
    let made = out.detail["made"].as_array().unwrap();
    assert_eq!(made.len(), 2);
    let tricks = out.detail["tricks"].as_array().unwrap();
    for (k, d) in [1usize, 2].iter().enumerate() {
        assert_eq!(made[k].as_bool().unwrap(), tricks[*d].as_u64().unwrap() == 0);
    }
}

#[test]
fn sec6_3_open_misere_exposes_the_declarer_and_he_leads() {
    let (mut g, mut ev) = game(&["malheur_mode=abolished"], 0, ["", "", "", ""]);
    play(&mut g, &mut ev, &["pass", "open_misere", "pass", "pass"]);
    let exp: Vec<&Event> = ev.iter().filter(|e| e.kind == "exposed").collect();
    assert_eq!(exp.len(), 1);
    assert!(exp[0].line().starts_with("exposed 2 "));
    assert_eq!(exp[0].to.members(4).collect::<Vec<_>>(), [0, 1, 3]);
    assert_eq!(g.to_move(), Some(2), "the open declarer leads");
    let (mut g, mut ev) = game(
        &[
            "open_declarer_leads=false",
            "open_closed_tricks=3",
            "malheur_mode=abolished",
        ],
        0,
        ["", "", "", ""],
    );
    play(&mut g, &mut ev, &["pass", "open_misere", "pass", "pass"]);
    assert_eq!(g.to_move(), Some(1));
    assert!(!ev.iter().any(|e| e.kind == "exposed"));
    play_out(&mut g, &mut ev);
    let l = lines(&ev);
    if let Some(t3) = l.iter().position(|x| x.starts_with("trick 3 ")) {
        assert!(
            l[t3 + 1].starts_with("exposed 2 ") && l[t3 + 1].split(' ').count() == 2 + 10,
            "{l:?}"
        );
    }
}

#[test]
fn sec6_4_misere_ends_at_the_declarers_first_trick() {
    // E holds every ace and king high: he must win a trick at once.
    let e = "AS KS AH KH AD KD AC KC QS QH QD QC JS";
    let (mut g, mut ev) = game(&["malheur_mode=abolished"], 0, ["", e, "", ""]);
    play(&mut g, &mut ev, &["misere", "pass", "pass", "pass"]);
    play_out(&mut g, &mut ev);
    let l = lines(&ev);
    assert_eq!(l.last().unwrap(), "end misere_lost");
    assert_eq!(l.iter().filter(|x| x.starts_with("trick ")).count(), 1);
    assert_eq!(g.outcome().unwrap().scores, [3.0, -9.0, 3.0, 3.0]);
}

#[test]
fn sec6_4_solo_stops_at_the_first_lost_trick() {
    let e = "2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H";
    let (mut g, mut ev) = game(&[], 0, ["", e, "", ""]);
    play(&mut g, &mut ev, &["solo", "pass", "pass", "pass", "C"]);
    play_out(&mut g, &mut ev);
    assert_eq!(lines(&ev).last().unwrap(), "end solo_lost");
    assert_eq!(g.outcome().unwrap().scores, [15.0, -45.0, 15.0, 15.0]);
}

#[test]
fn sec16_praatje_shows_every_hand_to_every_other_seat() {
    let (mut g, mut ev) = game(&[], 0, ["", "", "", ""]);
    play(&mut g, &mut ev, &["open_piek_praatje", "pass", "pass", "pass"]);
    let exp: Vec<&Event> = ev.iter().filter(|e| e.kind == "exposed").collect();
    assert_eq!(exp.len(), 4);
    for e in exp {
        let s: usize = e.args[0].parse().unwrap();
        assert!(!e.to.contains(s) && e.to.members(4).count() == 3);
        assert_eq!(e.args.len(), 14);
    }
    assert_eq!(g.to_move(), Some(1));
}

#[test]
fn sec10_9_op_voorhand_declares_before_the_hands_and_elevates_the_called_card() {
    // Dealer N: E is the rikker and holds AC and KC, so QC (held by S) becomes the called card.
    let n = "TC 9C QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D";
    let e = "AC KC 8C 7C 6C 5C 4C 3C 2C 5S 4S 3S 2S";
    let s = "QC AH KH QH JH TH 9H AS KS QS JS TS 9S";
    let w = "JC 8H 7H 6H 5H 4H 3H 2H 8S 7S 6S AD KD";
    let (mut g, mut ev) = game(&["special=op_voorhand"], 0, [n, e, s, w]);
    assert!(
        !ev.iter().any(|x| x.kind == "hand"),
        "no hand before the rik is declared"
    );
    assert!(lines(&ev).contains(&"contract op_voorhand 1".to_string()));
    assert_eq!((g.decision(), g.to_move()), ("trump", Some(1)));
    play(&mut g, &mut ev, &["H"]);
    assert_eq!(legal(&g), ["AS", "AD", "AC"], "any ace but trump, named blind");
    play(&mut g, &mut ev, &["AC"]);
    let l = lines(&ev);
    let hand = l.iter().position(|x| x.starts_with("hand")).unwrap();
    let sub = l
        .iter()
        .position(|x| x == "called QC")
        .expect("the queen is called instead");
    assert!(hand < sub);
    let partner = ev.iter().find(|x| x.kind == "partner").unwrap();
    assert_eq!(
        (partner.line().as_str(), partner.to.members(4).collect::<Vec<_>>()),
        ("partner 2", vec![2])
    );
    assert_eq!(g.to_move(), Some(1), "the rikker leads");
    // E leads AC; S must play QC, which is the highest card of a trick led in its suit.
    play(&mut g, &mut ev, &["AC"]);
    assert_eq!(legal(&g), ["QC"]);
    play(&mut g, &mut ev, &["QC", "JC", "TC"]);
    assert!(
        lines(&ev).contains(&"trick 1 2".to_string()),
        "the called queen beats the ace"
    );
}

#[test]
fn sec10_10_open_piek_totaal() {
    let (mut g, mut ev) = game(&["special=open_piek_totaal"], 0, ["", "", "", ""]);
    let l = lines(&ev);
    assert!(l.contains(&"contract open_piek_totaal 0,1,2,3".to_string()) && l.contains(&"trump none".to_string()));
    assert_eq!(ev.iter().filter(|e| e.kind == "exposed").count(), 4);
    assert_eq!((g.decision(), g.to_move()), ("play", Some(1)));
    play_out(&mut g, &mut ev);
    assert_eq!(lines(&ev).last().unwrap(), "end tricks_done");
    assert_eq!(g.outcome().unwrap().scores.iter().sum::<f64>(), 0.0);
}

#[test]
fn rikken_needs_four_players() {
    let o = Options::resolve(&options(), "rikken", &[] as &[&str]).unwrap();
    let err = croupier::games::rikken::new_game(3, &o, Chance::seeded(1), true)
        .err()
        .unwrap();
    assert!(err.contains("exactly 4"));
}

#[test]
fn a29_joined_open_and_praatje_contracts_are_led_by_the_player_left_of_the_dealer() {
    for (bid, join) in [
        ("open_misere", "open_misere_join"),
        ("open_piek_praatje", "open_piek_praatje_join"),
    ] {
        let rules = ["allow_join_piek_open=true", "malheur_mode=abolished"];
        let (mut g, mut ev) = game(&rules, 0, ["", "", "", ""]);
        play(&mut g, &mut ev, &["pass", bid, join, "pass", "pass"]);
        assert!(
            lines(&ev)
                .iter()
                .any(|l| l.starts_with("contract ") && l.ends_with(" 2,3")),
            "{bid}: {:?} to move {:?} legal {:?}",
            lines(&ev),
            g.to_move(),
            g.legal_actions()
        );
        assert_eq!(
            g.to_move(),
            Some(1),
            "{bid} joined: the player left of the dealer leads (A29)"
        );
        // A lone declarer of the same contract still leads himself.
        let (mut g, mut ev) = game(&rules, 0, ["", "", "", ""]);
        play(&mut g, &mut ev, &["pass", bid, "pass", "pass"]);
        assert_eq!(g.to_move(), Some(2), "{bid} alone: the declarer leads");
    }
}

#[test]
fn sec9_2_a_failed_solo_is_fixed_also_under_mirrored_undertricks() {
    // The audit's case: E bids solo and loses; solo has no trick-count component (Sec. 9.2, A14).
    let seat = ["--seat", "random"];
    let out = common::croupier()
        .args(["play", "rikken", "--games", "1", "--seed", "1"])
        .args(seat.iter().cycle().take(8))
        .args(["--rule", "fail_mode=mirrored_undertricks"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let scores = text
        .split_once("scores [")
        .and_then(|(_, r)| r.split_once(']'))
        .map(|(s, _)| s);
    let scores: Vec<&str> = scores.unwrap_or_default().split_whitespace().collect();
    assert_eq!(scores, ["16", "-48", "16", "16"], "{text}");
    let e = "2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H";
    let (mut g, mut ev) = game(&["fail_mode=mirrored_undertricks"], 0, ["", e, "", ""]);
    play(&mut g, &mut ev, &["solo", "pass", "pass", "pass", "C"]);
    play_out(&mut g, &mut ev);
    assert_eq!(g.outcome().unwrap().scores, [15.0, -45.0, 15.0, 15.0]);
}

//! Rule-by-rule tests of the Svängknack engine (svangknack.md section numbers in the names).
//! Three players unless said otherwise: seat 2 deals, seat 0 is forehand (the swinger).

mod common;
use common::{deal_spec, drive as play, lines};

use croupier::cards::{parse_cards, Card, CardSet, Suit};
use croupier::chance::{Chance, DealSpec};
use croupier::engine::{NoEvents, Typed};
use croupier::game::{Audience, Event, Game};
use croupier::games::svangknack::engine::{can_overtake, legal_follow, Rules, Svangknack, TrickState};
use croupier::games::svangknack::options;
use croupier::options::Options;

fn spec(dealer: usize, hands: &[&str], stock: &str) -> DealSpec {
    deal_spec(dealer, hands, &[("stock", stock)])
}

fn game(n: usize, rules: &[&str], deals: Vec<DealSpec>) -> (Typed<Svangknack>, Vec<Event>) {
    let o = Options::resolve(&options(), "svangknack", rules).unwrap();
    let mut g = Typed::new(|ev| Svangknack::new(n, &o, Chance::given(11, deals), ev)).unwrap();
    let ev = g.take_events();
    (g, ev)
}

fn has(events: &[Event], line: &str) -> bool {
    lines(events).iter().any(|l| l == line)
}

/// Seat 0 holds the hearts, seat 1 spades, seat 2 clubs; hearts and diamonds are turned up.
const HANDS: [&str; 3] = ["AH KH QH", "2S 3S 4S", "2C 3C 4C"];
const STOCK: &str = "5H 6D 7S 8S 9S TS JS QS KS AS 5C 6C 7C";

fn rules(extra: &[&'static str]) -> Vec<&'static str> {
    let mut v = vec!["rounds=1"];
    v.extend_from_slice(extra);
    v
}

fn cs(s: &str) -> CardSet {
    CardSet::from_cards(&parse_cards(s).unwrap())
}

fn trick(cards: &str) -> TrickState {
    let cards: Vec<(usize, Card)> = parse_cards(cards).unwrap().into_iter().enumerate().collect();
    TrickState::from_cards(&cards)
}

fn default_rules(extra: &[&str]) -> Rules {
    let o = Options::resolve(&options(), "svangknack", extra).unwrap();
    Rules::from_options(&o, 4).unwrap()
}

fn names(set: CardSet) -> String {
    croupier::cards::format_cards(&set.cards())
}

#[test]
fn sec2_0_new_pot_and_hands_only_to_their_owner() {
    let (g, ev) = game(3, &rules(&[]), vec![spec(2, &HANDS, STOCK)]);
    let l = lines(&ev);
    assert_eq!(&l[..4], &["round 1 2 0", "ante 3 all", "pot 9 3", "deal 1 2"]);
    for (s, e) in ev.iter().filter(|e| e.kind == "hand").enumerate() {
        assert_eq!(e.to, Audience::seat(s), "a hand goes to its owner only");
    }
    assert_eq!((g.to_move(), g.decision()), (Some(0), "swing"));
    assert_eq!(g.legal_actions(), vec!["swing", "handover", "redeal"]);
}

#[test]
fn sec2_3_swinger_chooses_trump_from_two_turned_suits() {
    let (mut g, mut ev) = game(3, &rules(&[]), vec![spec(2, &HANDS, STOCK)]);
    play(&mut g, &mut ev, &["swing"]);
    assert!(has(&ev, "turnup 5H 6D"));
    assert_eq!((g.to_move(), g.decision()), (Some(0), "trump"));
    assert_eq!(g.legal_actions(), vec!["H", "D"]);
    let e = g.apply("S").unwrap_err();
    assert!(e.contains("H or D"), "{e}");
    play(&mut g, &mut ev, &["H"]);
    assert!(has(&ev, "trump H"));
    // Sec. 2.4: knocking clockwise from the swinger's left to the dealer.
    assert_eq!((g.to_move(), g.decision()), (Some(1), "knock"));
}

#[test]
fn sec2_3_same_suit_turn_up_forces_the_trump() {
    let (mut g, mut ev) = game(3, &rules(&[]), vec![spec(2, &HANDS, "5D 6D 7S 8S")]);
    play(&mut g, &mut ev, &["swing"]);
    assert!(has(&ev, "turnup 5D 6D") && has(&ev, "trump D"));
    assert_eq!(g.decision(), "knock", "no trump choice");
}

#[test]
fn sec2_4_nobody_knocks_the_swinger_takes_the_pot_unseen() {
    let (mut g, mut ev) = game(3, &rules(&[]), vec![spec(2, &HANDS, STOCK), spec(0, &[], "")]);
    let start = ev.len();
    play(&mut g, &mut ev, &["swing", "H", "fold", "fold"]);
    assert!(has(&ev, "lone 0 9"));
    assert!(has(&ev, "chips 6,-3,-3"));
    // No card of seat 0's hand is shown to anyone else.
    for e in &ev[start..] {
        if e.args.iter().any(|a| ["AH", "KH", "QH"].contains(&&*a.text())) {
            assert_eq!(e.to, Audience::seat(0), "{}", e.line());
        }
    }
    // No bets: a new pot, and the session ends after its rounds.
    assert!(has(&ev, "end rounds_done"));
    assert_eq!(g.outcome().unwrap().scores, vec![6.0, -3.0, -3.0]);
}

/// Seat 1 knocks; seat 0 takes all three tricks; seat 1 goes bet.
fn bet_round(extra: &[&'static str]) -> (Typed<Svangknack>, Vec<Event>) {
    let (mut g, mut ev) = game(3, &rules(extra), vec![spec(2, &HANDS, STOCK)]);
    play(&mut g, &mut ev, &["swing", "H", "knock", "fold"]);
    assert!(has(&ev, "participants 0,1"));
    (g, ev)
}

#[test]
fn sec3_farg_skips_the_trick_and_keeps_the_cards() {
    let (mut g, mut ev) = bet_round(&[]);
    play(&mut g, &mut ev, &["AH"]);
    // Seat 1 holds only spades, no trump: any card, or Färg.
    assert_eq!(g.legal_actions(), vec!["4S", "3S", "2S", "farg"]);
    play(&mut g, &mut ev, &["farg"]);
    assert!(has(&ev, "move 1 farg play"));
    assert!(has(&ev, "trick 1 0"), "all followers called Färg: the leader wins");
    // Sec. 2.5: trick 2 must be led with a trump.
    assert_eq!(g.legal_actions(), vec!["KH", "QH"]);
    play(&mut g, &mut ev, &["KH", "farg", "QH"]);
    // Trick 3: no Färg by default.
    assert_eq!(g.legal_actions(), vec!["4S", "3S", "2S"]);
    let e = g.apply("farg").unwrap_err();
    assert!(e.contains("tricks 1 and 2"), "{e}");
    play(&mut g, &mut ev, &["2S"]);
    // Sec. 2.6: thirds per trick, the participant without a trick owes the pot.
    assert!(has(&ev, "paid 0 3 9"));
    assert!(has(&ev, "bet 1 9"));
    assert!(has(&ev, "chips 6,-12,-3"));
    // Sec. 2.0 / 2.7: the forehand deals next; a carried pot: the dealer's stake only.
    let l = lines(&ev);
    let i = l
        .iter()
        .position(|x| x == "round 2 0 1")
        .expect("a second round (bets are owed)");
    assert_eq!(&l[i + 1..i + 3], &["ante 3 0", "pot 12 4"]);
}

#[test]
fn option_farg_tricks_and_bet_cap() {
    let (mut g, mut ev) = bet_round(&["farg_tricks=1,2,3", "bet_cap=3"]);
    play(&mut g, &mut ev, &["AH", "farg", "KH", "farg", "QH"]);
    assert!(g.legal_actions().contains(&"farg".to_string()));
    play(&mut g, &mut ev, &["farg"]);
    assert!(has(&ev, "bet 1 3"), "the bet is capped: {:?}", lines(&ev));
}

#[test]
fn sec5_session_end_continues_while_bets_are_owed_then_splits() {
    // extra_rounds_cap=0: the bets owed after the last round are split at once.
    let (mut g, mut ev) = bet_round(&["extra_rounds_cap=0"]);
    play(&mut g, &mut ev, &["AH", "2S", "KH", "3S", "QH", "4S"]);
    assert!(has(&ev, "split 9 9,-9,0"), "{:?}", lines(&ev));
    assert!(has(&ev, "end cap_split"));
    let out = g.outcome().unwrap();
    assert_eq!(out.scores, vec![9.0, -9.0, 0.0]);
    // Remainders go one chip each clockwise from the next dealer's (seat 0's) left.
    let (mut g, mut ev) = game(
        4,
        &rules(&["extra_rounds_cap=0", "bet_cap=3"]),
        vec![spec(3, &["AH KH QH", "2S 3S 4S", "2C 3C 4C", "2D 3D 4D"], STOCK)],
    );
    play(
        &mut g,
        &mut ev,
        &[
            "swing", "H", "knock", "fold", "fold", "AH", "2S", "KH", "3S", "QH", "4S",
        ],
    );
    assert!(has(&ev, "bet 1 3") && has(&ev, "chips 9,-6,-3,-3"), "{:?}", lines(&ev));
    assert!(has(&ev, "split 3 9,-5,-2,-2"), "{:?}", lines(&ev));
}

#[test]
fn sec2_2a_redeal_from_the_stock_with_at_most_seven() {
    let (mut g, mut ev) = game(3, &rules(&[]), vec![spec(2, &HANDS, STOCK)]);
    play(&mut g, &mut ev, &["redeal"]);
    // Only seat 1 votes: not the dealer (2), not the proposer (0).
    assert_eq!((g.to_move(), g.decision()), (Some(1), "consent"));
    play(&mut g, &mut ev, &["agree"]);
    assert!(has(&ev, "redeal stock"));
    let hands: Vec<&Event> = ev.iter().filter(|e| e.kind == "hand").collect();
    let new: Vec<String> = hands[3..].iter().map(|e| e.line()).collect();
    assert_eq!(new, vec!["hand 7S 5H 6D", "hand TS 9S 8S", "hand KS QS JS"]);
    assert_eq!(hands[3].to, Audience::seat(0));
    assert_eq!(g.chance().deals().len(), 1, "no new shuffle");
    // Only once per round.
    assert_eq!(g.legal_actions(), vec!["swing", "handover"]);
    let e = g.apply("redeal").unwrap_err();
    assert!(e.contains("only once"), "{e}");
    play(&mut g, &mut ev, &["swing"]);
    assert!(has(&ev, "turnup AS 5C"));
}

#[test]
fn sec2_2a_a_refusal_keeps_the_cards() {
    let (mut g, mut ev) = game(4, &rules(&[]), vec![spec(3, &["", "", "", ""], "5H 6D 7S 8S")]);
    play(&mut g, &mut ev, &["redeal"]);
    assert_eq!(g.to_move(), Some(1));
    play(&mut g, &mut ev, &["agree"]);
    assert_eq!(g.to_move(), Some(2), "the dealer (3) does not vote");
    play(&mut g, &mut ev, &["refuse"]);
    assert!(has(&ev, "redeal refused"));
    assert_eq!(
        (g.to_move(), g.legal_actions()),
        (Some(0), vec!["swing".into(), "handover".into()])
    );
}

#[test]
fn sec2_2a_redeal_reshuffles_with_eight_or_more() {
    let (mut g, mut ev) = game(8, &rules(&[]), vec![]);
    let f = g.to_move().unwrap();
    play(&mut g, &mut ev, &["redeal"]);
    for _ in 0..6 {
        play(&mut g, &mut ev, &["agree"]);
    }
    assert!(has(&ev, "redeal shuffle"));
    assert_eq!(g.chance().deals().len(), 2);
    assert!(has(&ev, "deal 2 7") || g.chance().deals()[1].dealer == (f + 7) % 8);
    assert_eq!(g.legal_actions(), vec!["swing", "handover"]);
}

#[test]
fn sec2_2b_hand_over_the_next_player_must_swing_and_forehand_sits_out() {
    let (mut g, mut ev) = game(4, &rules(&[]), vec![spec(3, &["", "", "", ""], "5H 6D 7S 8S")]);
    play(&mut g, &mut ev, &["handover"]);
    assert!(has(&ev, "swinger 1"));
    assert!(has(&ev, "turnup 5H 6D"), "the new swinger swings at once");
    assert_eq!((g.to_move(), g.decision()), (Some(1), "trump"));
    play(&mut g, &mut ev, &["D"]);
    // Knocking: seats 2 and 3 (the dealer); not 0.
    assert_eq!(g.to_move(), Some(2));
    play(&mut g, &mut ev, &["knock"]);
    assert_eq!(g.to_move(), Some(3));
    play(&mut g, &mut ev, &["fold"]);
    assert!(has(&ev, "participants 1,2"));
    assert_eq!(g.to_move(), Some(1), "the swinger leads trick 1");
}

#[test]
fn option_last_man_joins_when_everyone_folds() {
    let (mut g, mut ev) = game(3, &rules(&["last_man=true"]), vec![spec(2, &HANDS, "5D 6D 7S 8S")]);
    assert!(g.legal_actions().contains(&"handover_last".to_string()));
    play(&mut g, &mut ev, &["handover_last", "fold"]);
    assert!(has(&ev, "lastman 0") && has(&ev, "participants 0,1"));
    let (mut g, mut ev) = game(3, &rules(&[]), vec![spec(2, &HANDS, "5D 6D 7S 8S")]);
    let e = g.apply("handover_last").unwrap_err();
    assert!(e.contains("last_man"), "{e}");
    play(&mut g, &mut ev, &["handover", "fold"]);
    assert!(has(&ev, "lone 1 9"), "without sista man the new swinger takes the pot");
}

#[test]
fn option_forced_participation_one_card_everyone_plays() {
    let (mut g, mut ev) = game(
        3,
        &rules(&["forced_participation=session_first_round"]),
        vec![spec(2, &HANDS, STOCK)],
    );
    assert_eq!(
        g.legal_actions(),
        vec!["swing", "redeal"],
        "no hand-over when everyone plays"
    );
    let e = g.apply("handover").unwrap_err();
    assert!(e.contains("forced participation"), "{e}");
    play(&mut g, &mut ev, &["swing"]);
    assert!(has(&ev, "turnup 5H") && has(&ev, "trump H") && has(&ev, "forced participation"));
    assert!(has(&ev, "participants 0,1,2"));
    assert_eq!(g.decision(), "play");
}

#[test]
fn option_first_round_dealer_only() {
    let (mut g, mut ev) = game(
        3,
        &rules(&["first_round_dealer_only=true"]),
        vec![spec(2, &HANDS, STOCK)],
    );
    assert!(has(&ev, "ante 3 2") && has(&ev, "pot 3 1"));
    play(&mut g, &mut ev, &["swing"]);
    assert!(has(&ev, "turnup 5H") && has(&ev, "trump H"));
    assert_eq!(g.decision(), "knock");
}

#[test]
fn option_same_suit_forces_all_with_pot_limit() {
    let (mut g, mut ev) = game(
        3,
        &rules(&["same_suit_forces_all=true"]),
        vec![spec(2, &HANDS, "5D 6D 7S 8S")],
    );
    play(&mut g, &mut ev, &["swing"]);
    assert!(has(&ev, "forced same_suit") && has(&ev, "participants 0,1,2"));
    let (mut g, mut ev) = game(
        3,
        &rules(&["same_suit_forces_all=true", "force_pot_limit=6"]),
        vec![spec(2, &HANDS, "5D 6D 7S 8S")],
    );
    play(&mut g, &mut ev, &["swing"]);
    assert_eq!(g.decision(), "knock", "the pot of 9 is above the limit");
}

#[test]
fn sec3_a_forced_overtaking_compares_with_the_best_card_of_the_led_suit() {
    let r = default_rules(&[]);
    let t = trick("5H 9H");
    assert_eq!(names(legal_follow(cs("7H JH 2S"), &t, Suit::Spades, &r)), "JH");
    assert_eq!(names(legal_follow(cs("7H 3H 2S"), &t, Suit::Spades, &r)), "7H 3H");
    // Still required after the trick was trumped (default), relaxed as an option.
    let t = trick("5H 2S");
    assert_eq!(names(legal_follow(cs("7H 3H"), &t, Suit::Spades, &r)), "7H");
    let relaxed = default_rules(&["overtake_after_trump=relaxed"]);
    assert_eq!(names(legal_follow(cs("7H 3H"), &t, Suit::Spades, &relaxed)), "7H 3H");
    // Trump led: overtake in trump too.
    assert_eq!(
        names(legal_follow(cs("9S 2S 4H"), &trick("5S"), Suit::Spades, &r)),
        "9S"
    );
}

#[test]
fn sec3_b_must_trump_and_overtrump_when_void() {
    let r = default_rules(&[]);
    assert_eq!(names(legal_follow(cs("2S 9C"), &trick("5H"), Suit::Spades, &r)), "2S");
    assert_eq!(
        names(legal_follow(cs("TS 3S 2C"), &trick("5H 9S"), Suit::Spades, &r)),
        "TS"
    );
    assert_eq!(
        names(legal_follow(cs("3S 2S 2C"), &trick("5H 9S"), Suit::Spades, &r)),
        "3S 2S",
        "unable to overtrump: any trump (undertrump forced)"
    );
    // Clause C: void and no trump, any card.
    assert_eq!(
        names(legal_follow(cs("2D 9C"), &trick("5H"), Suit::Spades, &r)),
        "2D 9C"
    );
}

#[test]
fn option_literal_c() {
    let t = trick("9H");
    let r = default_rules(&[]);
    assert_eq!(names(legal_follow(cs("5H 2C"), &t, Suit::Spades, &r)), "5H");
    let lit = default_rules(&["literal_C=true"]);
    assert_eq!(names(legal_follow(cs("5H 2C"), &t, Suit::Spades, &lit)), "5H 2C");
    assert_eq!(
        names(legal_follow(cs("5H 2S"), &t, Suit::Spades, &lit)),
        "5H",
        "not with a trump"
    );
}

#[test]
fn sec3_d_farg_condition_and_farg_reference() {
    let r = default_rules(&[]);
    let t = trick("5H 9H");
    assert!(
        !can_overtake(cs("7H 2H"), &t, Suit::Spades, &r),
        "7H is below the best heart 9H"
    );
    let led = default_rules(&["farg_reference=led_card_only"]);
    assert!(can_overtake(cs("7H 2H"), &t, Suit::Spades, &led), "7H beats the led 5H");
    assert!(
        !can_overtake(cs("3S 2S"), &trick("5H 9S"), Suit::Spades, &r),
        "only lower trumps"
    );
    assert!(can_overtake(cs("TS"), &trick("5H 9S"), Suit::Spades, &r));
    assert!(
        !can_overtake(cs("2D 5D"), &trick("5H"), Suit::Spades, &r),
        "another suit, no trump"
    );
}

#[test]
fn refusals_name_the_rule() {
    let (mut g, mut ev) = game(
        4,
        &rules(&[]),
        vec![spec(
            3,
            &["AH 2H 2C", "KH 9S 8D", "QD 3C 4D", "5C 6C 7C"],
            "5S 6S 7D 9D",
        )],
    );
    play(&mut g, &mut ev, &["swing", "knock", "knock", "knock"]);
    assert_eq!(g.apply("KH").unwrap_err(), "KH is not in seat 0's hand");
    play(&mut g, &mut ev, &["2H"]);
    let e = g.apply("9S").unwrap_err();
    assert!(e.contains("does not follow the led suit H"), "{e}");
    assert!(g.take_events().is_empty());
    play(&mut g, &mut ev, &["KH"]);
    // Seat 2: void in hearts, no spade trump: any card.
    assert_eq!(g.legal_actions(), vec!["QD", "4D", "3C"]);
    play(&mut g, &mut ev, &["4D", "5C"]);
    assert!(has(&ev, "trick 1 1"));
    // Trick 2: seat 1 must lead a trump.
    assert_eq!(g.legal_actions(), vec!["9S"]);
    let e = g.apply("8D").unwrap_err();
    assert!(e.contains("must be led with a trump"), "{e}");
    let e = g.apply("farg").unwrap_err();
    assert!(e.contains("leader"), "{e}");
}

#[test]
fn trick_2_lead_without_trump_is_free() {
    let (mut g, mut ev) = game(
        3,
        &rules(&[]),
        vec![spec(2, &["AH KH QH", "2S 3S 4S", "2C 3C 4C"], "5D 6D 7S 8S")],
    );
    play(&mut g, &mut ev, &["swing", "knock", "fold", "AH", "2S"]);
    assert_eq!(g.legal_actions(), vec!["KH", "QH"], "no trump (D): any card");
}

#[test]
fn player_count_and_options_are_checked() {
    let o = Options::resolve(&options(), "svangknack", &[] as &[&str]).unwrap();
    assert!(Svangknack::new(2, &o, Chance::seeded(1), &mut NoEvents).is_err());
    assert!(Svangknack::new(17, &o, Chance::seeded(1), &mut NoEvents).is_err());
    let o = Options::resolve(&options(), "svangknack", &["deck=36"]).unwrap();
    let e = Svangknack::new(12, &o, Chance::seeded(1), &mut NoEvents).err().unwrap();
    assert!(e.contains("at most 11"), "{e}");
}

#[test]
fn option_forced_participation_every_new_pot() {
    let (mut g, mut ev) = game(
        3,
        &rules(&["forced_participation=every_new_pot"]),
        vec![spec(2, &HANDS, STOCK), spec(0, &HANDS, STOCK)],
    );
    play(&mut g, &mut ev, &["swing"]);
    assert!(has(&ev, "forced participation") && has(&ev, "participants 0,1,2"));
    // Seat 0 takes every trick; seats 1 and 2 go bet, so round 2 has a carried pot: not forced.
    play(&mut g, &mut ev, &["AH", "2S", "2C", "KH", "3S", "3C", "QH", "4S", "4C"]);
    assert!(has(&ev, "bet 1 9") && has(&ev, "bet 2 9"));
    let l = lines(&ev);
    let i = l.iter().position(|x| x == "round 2 0 1").unwrap();
    assert_eq!(&l[i + 1..i + 3], &["ante 3 0", "pot 21 7"]);
    assert_eq!(g.legal_actions(), vec!["swing", "handover", "redeal"]);
}

#[test]
fn sec2_2a_a_short_36_card_stock_is_reshuffled() {
    // Six players with 36 cards leave 18 in the stock: too few for 18 new cards and a turn-up.
    let (mut g, mut ev) = game(6, &rules(&["deck=36"]), vec![]);
    play(&mut g, &mut ev, &["redeal", "agree", "agree", "agree", "agree"]);
    assert!(has(&ev, "redeal shuffle"), "{:?}", lines(&ev));
    assert_eq!(g.chance().deals().len(), 2);
    assert!(g.chance().deals()[1]
        .hands
        .iter()
        .flatten()
        .all(|c| c.rank.value() >= 6));
}

/// `standing` (for search): after each round (its `chips` line) the rounds ended so far go up
/// by one, and the chips with the pots (the bets owed and the round's pot) shared alike sum to
/// zero; at the end of the session they are the outcome's scores. Four players (a redeal from
/// the stock) and eight (a redeal reshuffles: a new deal within the round, not a new point).
#[test]
fn standing_shares_the_pots_after_each_round_and_is_the_outcome_at_the_end() {
    let mut reshuffles = 0;
    for (n, seed) in [4usize, 8].into_iter().flat_map(|n| (1..=15u64).map(move |s| (n, s))) {
        let o = Options::resolve(&options(), "svangknack", &[] as &[&str]).unwrap();
        let mut g = Typed::new(|ev| Svangknack::new(n, &o, Chance::seeded(seed), ev)).unwrap();
        let mut rng = croupier::chance::Rng::new(seed, croupier::chance::Purpose::Bot, 0);
        let mut ends = 0;
        let mut bets = 0;
        loop {
            let events = g.take_events();
            ends += events.iter().filter(|e| e.kind == "chips").count() as u64;
            bets += events.iter().filter(|e| e.kind == "bet").count();
            reshuffles += lines(&events).iter().filter(|l| *l == "redeal shuffle").count();
            let (k, est) = g.standing().unwrap();
            assert_eq!(k, ends, "{n} players, seed {seed}");
            assert!(
                est.iter().sum::<f64>().abs() < 1e-9,
                "{n} players, seed {seed}: {est:?}"
            );
            if g.to_move().is_none() {
                break;
            }
            let legal = g.legal_actions();
            g.apply(&legal[rng.below(legal.len() as u64) as usize]).unwrap();
        }
        assert!(ends >= 3 * n as u64, "{n} players, seed {seed}: {ends} rounds");
        assert!(bets > 0, "{n} players, seed {seed}: random play never went bet");
        assert_eq!(
            g.standing().unwrap().1,
            g.outcome().unwrap().scores,
            "{n} players, seed {seed}"
        );
    }
    assert!(
        reshuffles > 0,
        "no redeal reshuffled: the new deal inside a round was not tried"
    );
}

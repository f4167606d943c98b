//! Rule-by-rule tests of the Schwimmen engine (schwimmen.md section numbers in the test names),
//! built from given deals: the dealer's hand in a deal is his seen packet A, the pile `unseen`
//! his packet B, the pile `stock` the unused pack in order.

mod common;
use common::{deal_spec, drive as play, lines};

use croupier::cards::parse_cards;
use croupier::chance::{Chance, DealSpec};
use croupier::engine::Typed;
use croupier::game::{Audience, Event, FaultRuling, Game, GameInfo};
use croupier::games::schwimmen::{engine::Schwimmen, options, scoring};
use croupier::options::Options;

/// A deal: `hands[s]` for every seat (`""` = no cards / an eliminated seat), the dealer's
/// unseen packet, and optionally the start of the stock.
fn deal(dealer: usize, hands: &[&str], unseen: &str, stock: &str) -> DealSpec {
    let mut piles = vec![("unseen", unseen)];
    if !stock.is_empty() {
        piles.push(("stock", stock));
    }
    deal_spec(dealer, hands, &piles)
}

fn game(n: usize, rules: &[&str], deals: Vec<DealSpec>) -> (Typed<Schwimmen>, Vec<Event>) {
    let o = Options::resolve(&options(), "schwimmen", rules).unwrap();
    let mut g = Typed::new(|ev| Schwimmen::new(n, &o, Chance::given(42, deals), ev)).unwrap();
    let ev = g.take_events();
    (g, ev)
}

/// The audience of the first event with this line.
fn audience(events: &[Event], line: &str) -> Audience {
    events
        .iter()
        .find(|e| e.line() == line)
        .unwrap_or_else(|| panic!("no line '{line}' in {:?}", lines(events)))
        .to
}

fn has_line(events: &[Event], line: &str) -> bool {
    events.iter().any(|e| e.line() == line)
}

fn refusal(g: &mut Typed<Schwimmen>, token: &str) -> String {
    let e = g.apply(token).expect_err("refused");
    assert!(g.take_events().is_empty(), "a refusal made events");
    e
}

// Four players, dealer 0: the first to move is seat 3 (to the dealer's right), then 2, 1, 0.
const H1: &str = "6S 7H 8D"; // 8
const H2: &str = "9S TH JD"; // 10
const H3: &str = "KC QC 6C"; // 26

#[test]
fn sec1_hand_values() {
    let v = |s: &str| scoring::value_halves(&parse_cards(s).unwrap());
    assert_eq!(v("QC KC AH"), 40, "Q K of clubs and an ace of hearts = 20");
    assert_eq!(v("QC KC AC"), 62, "31");
    assert_eq!(v("7D 7H 7S"), 61, "three of a kind = 30.5");
    assert_eq!(v("6D 6H 6S"), 61, "sixes are a trio too (36-card pack)");
    assert_eq!(v("KD QH JS"), 20, "same value is not the same rank");
    assert_eq!(v("AS AH TS"), 42, "A + 10 of spades = 21 beats the ace of hearts");
    assert!(scoring::is_31(&parse_cards("AH KH TH").unwrap()));
    assert!(scoring::is_three_aces(&parse_cards("AH AS AC").unwrap()));
    assert_eq!(scoring::value_text(61), "30.5");
}

#[test]
fn sec2_1_deal_and_sec2_2_dealer_choice_take_unseen() {
    let (mut g, ev) = game(4, &[], vec![deal(0, &["AS KS QD", H1, H2, H3], "8C 9C TC", "")]);
    assert_eq!(lines(&ev)[0], "deal 1 0");
    assert_eq!(audience(&ev, "hand 6S 7H 8D"), Audience::seat(1));
    assert_eq!(audience(&ev, "hand KC QC 6C"), Audience::seat(3));
    assert_eq!(
        audience(&ev, "packet AS KS QD"),
        Audience::seat(0),
        "packet A to the dealer only"
    );
    assert!(!ev.iter().any(|e| e.line().contains("8C")), "nobody sees packet B");
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.decision(), "choose");
    assert_eq!(g.legal_actions(), ["keep_seen", "take_unseen"]);
    let e = refusal(&mut g, "knock");
    assert!(e.contains("not a choice of the dealer"), "{e}");
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["take_unseen"]);
    assert_eq!(
        lines(&ev),
        ["move 0 take_unseen choose", "hand TC 9C 8C", "middle AS KS QD"]
    );
    assert_eq!(ev[0].to, Audience::all(4));
    assert_eq!(ev[1].to, Audience::seat(0));
    assert_eq!(ev[2].to, Audience::all(4), "the rejected packet goes face up");
    assert_eq!(g.to_move(), Some(3), "the player to the dealer's right opens");
    assert_eq!(g.decision(), "turn");
}

#[test]
fn sec2_2_keep_seen_puts_the_unseen_packet_in_the_middle() {
    let (mut g, _) = game(3, &[], vec![deal(1, &[H1, "AS KS QD", H2], "8C 9C TC", "")]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen"]);
    assert_eq!(
        lines(&ev),
        ["move 1 keep_seen choose", "hand AS KS QD", "middle 8C 9C TC"]
    );
    assert_eq!(g.to_move(), Some(0), "dealer 1's right is seat 0");
}

#[test]
fn sec2_4_legal_actions_and_refusals() {
    let (mut g, _) = game(4, &[], vec![deal(0, &["AS KS QD", H1, H2, H3], "8C 9C TC", "")]);
    play(&mut g, &mut Vec::new(), &["keep_seen"]);
    assert_eq!(g.to_move(), Some(3));
    let l = g.legal_actions();
    assert_eq!(l.len(), 11);
    assert_eq!(l[0], "swap_KC_8C");
    assert_eq!(l[8], "swap_6C_TC");
    assert_eq!(&l[9..], ["swap_all", "knock"]);
    assert!(!l.contains(&"pass".to_string()), "no pass by default");
    let e = refusal(&mut g, "pass");
    assert!(e.contains("allow_pass"), "{e}");
    let e = refusal(&mut g, "swap_AS_8C");
    assert!(e.contains("AS is not in your hand"), "{e}");
    let e = refusal(&mut g, "swap_KC_AH");
    assert!(e.contains("AH is not in the middle"), "{e}");
    let e = refusal(&mut g, "swap_KC");
    assert!(e.contains("not an action"), "{e}");
    let e = refusal(&mut g, "swap_KC_8C_9C");
    assert!(e.contains("not an action"), "{e}");
}

#[test]
fn sec2_4_swap_one_and_swap_all_are_public() {
    let (mut g, _) = game(4, &[], vec![deal(0, &["AS KS QD", H1, H2, H3], "8C 9C TC", "")]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen"]);
    ev.clear();
    play(&mut g, &mut ev, &["swap_6C_TC"]);
    assert_eq!(
        lines(&ev),
        ["move 3 swap_6C_TC turn", "middle 8C 9C 6C", "hand KC QC TC"]
    );
    assert_eq!(ev[1].to, Audience::all(4));
    assert_eq!(ev[2].to, Audience::seat(3));
    assert_eq!(g.hand(3), parse_cards("KC QC TC").unwrap());
    ev.clear();
    play(&mut g, &mut ev, &["swap_all"]);
    assert_eq!(lines(&ev), ["move 2 swap_all turn", "middle 9S TH JD", "hand 9C 8C 6C"]);
    // The card just laid down cannot be taken back: it is not a middle card of this turn.
    assert_eq!(g.to_move(), Some(1));
}

#[test]
fn sec2_4_a_swap_to_31_ends_the_round_at_once_and_the_lowest_gets_a_strike() {
    let (mut g, _) = game(4, &[], vec![deal(0, &["AS KS QD", H1, H2, H3], "AC 9C TC", "")]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen"]);
    ev.clear();
    play(&mut g, &mut ev, &["swap_6C_AC"]);
    let l = lines(&ev);
    let end = l.iter().position(|x| x == "end thirtyone 3").expect("an end");
    assert_eq!(
        &l[end..end + 6],
        [
            "end thirtyone 3",
            "show 3 KC QC AC 31",
            "show 2 9S TH JD 10",
            "show 1 6S 7H 8D 8",
            "show 0 AS KS QD 21",
            "strike 1 1",
        ]
    );
    assert!(
        ev[end..end + 6].iter().all(|e| e.to == Audience::all(4)),
        "a showdown is public"
    );
    assert_eq!(g.strikes(), [0, 1, 0, 0]);
    assert!(has_line(&ev, "deal 2 3"), "the next dealer is to the right: seat 3");
}

#[test]
fn sec2_3_three_aces_at_the_deal_beat_a_31_and_stay_hidden() {
    let (mut g, _) = game(
        4,
        &[],
        vec![deal(0, &["7S 8S 9S", "AS AH AD", "AC KC QC", H1], "6D 7D 8H", "")],
    );
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen"]);
    let l = lines(&ev);
    assert!(l.contains(&"end three_aces 1".to_string()), "{l:?}");
    assert!(l.contains(&"show 1 AS AH AD 30.5".to_string()), "{l:?}");
    assert_eq!(
        l.iter().filter(|x| x.starts_with("show ")).count(),
        1,
        "no other hand is shown"
    );
    for s in [0, 2, 3] {
        assert!(l.contains(&format!("strike {s} 1")), "seat {s} gets a strike: {l:?}");
    }
    assert!(!l.contains(&"strike 1 1".to_string()));
    assert_eq!(g.strikes(), [1, 0, 1, 1]);
}

#[test]
fn sec2_3_a_31_at_the_deal_ends_the_round() {
    let (mut g, _) = game(3, &[], vec![deal(0, &["7S 8S 9S", "AC KC QC", H1], "6D 7D 8H", "")]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["take_unseen"]);
    let l = lines(&ev);
    assert!(l.contains(&"end thirtyone 1".to_string()), "{l:?}");
    assert_eq!(l.iter().filter(|x| x.starts_with("show ")).count(), 3);
    // Dealer 0 took 6D 7D 8H (21), seat 2 holds 6S 7H 8D (8): seat 2 is lowest.
    assert_eq!(g.strikes(), [0, 0, 1]);
}

#[test]
fn sec2_4_knock_gives_every_other_player_one_last_turn() {
    let (mut g, _) = game(4, &[], vec![deal(0, &["AS KS QD", H1, H2, H3], "8C 9C TC", "")]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen", "swap_6C_9C", "knock"]);
    assert!(has_line(&ev, "move 2 knock turn"));
    // Seats 1, 0, 3 move once more; no knock and no pass then.
    for s in [1, 0, 3] {
        assert_eq!(g.to_move(), Some(s));
        let l = g.legal_actions();
        assert!(!l.contains(&"knock".to_string()), "{l:?}");
        assert!(refusal(&mut g, "knock").contains("knocked already"));
        play(&mut g, &mut ev, &["swap_all"]);
    }
    assert!(has_line(&ev, "end showdown"), "{:?}", lines(&ev));
    assert_eq!(g.round(), 2, "the knocker did not move again; a new round is dealt");
}

#[test]
fn sec2_4_a_31_in_the_last_turns_ends_at_once() {
    let (mut g, _) = game(4, &[], vec![deal(0, &["AS KS QD", H1, H2, H3], "AC 9C TC", "")]);
    let mut ev = Vec::new();
    // Seat 3 takes 9C (KC QC 9C), seat 2 knocks, seat 1 lays down 6S for TC; the middle is
    // then AC 6C 6S and seat 0 swaps QD for 6S without a 31.
    play(&mut g, &mut ev, &["keep_seen", "swap_6C_9C", "knock", "swap_6S_TC"]);
    ev.clear();
    play(&mut g, &mut ev, &["swap_QD_6S"]);
    assert!(!has_line(&ev, "end showdown"));
    // Seat 3 (KC QC 9C) lays down 9C and takes AC: 31 during the last turns.
    play(&mut g, &mut ev, &["swap_9C_AC"]);
    assert!(has_line(&ev, "end thirtyone 3"), "{:?}", lines(&ev));
}

#[test]
fn sec2_4_knock_on_the_first_circuit_can_be_forbidden() {
    let (mut g, _) = game(
        3,
        &["no_knock_first_circuit=true"],
        vec![deal(0, &["AS KS QD", H1, H2], "8C 9C TC", "")],
    );
    play(&mut g, &mut Vec::new(), &["keep_seen"]);
    for _ in 0..3 {
        assert!(!g.legal_actions().contains(&"knock".to_string()));
        assert!(refusal(&mut g, "knock").contains("no_knock_first_circuit"));
        play(&mut g, &mut Vec::new(), &["swap_all"]);
    }
    assert!(g.legal_actions().contains(&"knock".to_string()));
}

#[test]
fn sec2_4_the_safeguard_ends_a_round_without_a_knock() {
    let (mut g, _) = game(2, &["max_circuits=2"], vec![deal(0, &["AS KS QD", H1], "8C 9C TC", "")]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen", "swap_all", "swap_all", "swap_all"]);
    assert!(!has_line(&ev, "end cap"));
    play(&mut g, &mut ev, &["swap_all"]);
    assert!(has_line(&ev, "end cap"), "{:?}", lines(&ev));
    assert_eq!(g.round(), 2);
}

#[test]
fn sec2_4_pass_and_a_fresh_middle_after_a_circuit_of_passes() {
    let (mut g, _) = game(
        3,
        &["allow_pass=true"],
        vec![deal(0, &["AS KS QD", H1, H2], "8C 9C TC", "7C 7D 7S 6H")],
    );
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen"]);
    assert!(g.legal_actions().contains(&"pass".to_string()));
    ev.clear();
    play(&mut g, &mut ev, &["pass", "pass", "pass"]);
    assert_eq!(
        &lines(&ev)[3..],
        ["refresh 7C 7D 7S", "middle 7C 7D 7S"],
        "the removed middle goes out of play"
    );
    assert_eq!(g.middle(), parse_cards("7C 7D 7S").unwrap());
    // Without the refresh option the middle stays.
    let (mut g, _) = game(
        3,
        &["allow_pass=true", "all_pass_refresh=false"],
        vec![deal(0, &["AS KS QD", H1, H2], "8C 9C TC", "")],
    );
    play(&mut g, &mut Vec::new(), &["keep_seen", "pass", "pass", "pass"]);
    assert_eq!(g.middle(), parse_cards("8C 9C TC").unwrap());
}

/// Two players, dealer 0 keeps 6S 7H 8D (8), seat 1 holds 6D 7S 8H (8) and knocks; the dealer
/// swaps all and takes 6H 7D 8S (8): everybody is tied lowest.
fn tie_deal() -> DealSpec {
    deal(0, &["6S 7H 8D", "6D 7S 8H"], "6H 7D 8S", "")
}

#[test]
fn sec2_5_everyone_tied_lowest_gets_a_strike() {
    let (mut g, _) = game(2, &[], vec![tie_deal()]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen", "knock", "swap_all"]);
    assert!(
        has_line(&ev, "strike 1 1") && has_line(&ev, "strike 0 1"),
        "{:?}",
        lines(&ev)
    );
    assert_eq!(g.strikes(), [1, 1]);
}

#[test]
fn sec2_5_knocker_double() {
    let (mut g, _) = game(2, &["knocker_double=true"], vec![tie_deal()]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen", "knock", "swap_all"]);
    assert_eq!(g.strikes(), [1, 2], "the knocker among the lowest takes two");
    assert!(has_line(&ev, "strike 1 2"));
}

#[test]
fn sec2_5_highest_cards_tiebreak() {
    // Seat 2: 9S TH JD (10, ranks J T 9); seat 1: 6S 7H TD (10, ranks T 7 6): seat 1 is lower.
    let d = deal(0, &["AS KS QS", "6S 7H TD", "9S TH JD"], "8C 9C 7C", "");
    let run = |rules: &[&str]| {
        let (mut g, _) = game(3, rules, vec![d.clone()]);
        // Dealer keeps AS KS QS = 31 at once.
        play(&mut g, &mut Vec::new(), &["keep_seen"]);
        g.strikes().to_vec()
    };
    assert_eq!(run(&[]), [0, 1, 1]);
    assert_eq!(run(&["lowest_tie=highest_cards_tiebreak"]), [0, 1, 0]);
}

#[test]
fn sec2_6_swimming_drowning_and_the_end_of_the_game() {
    // strikes_to_drown=1: the lowest drowns at once. Three players, dealer 0.
    let deals = vec![
        deal(0, &["AS KS QS", H1, H2], "8C 9C 7C", ""),
        // Seat 1 is out; the dealer passes to the right of 0: seat 2.
        deal(2, &["AH KH QH", "", H2], "8C 9C 7C", ""),
    ];
    let (mut g, _) = game(3, &["strikes_to_drown=1", "strikes_to_swim=1"], deals);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen"]);
    let l = lines(&ev);
    assert!(l.contains(&"strike 1 1".to_string()), "{l:?}");
    assert!(
        !l.iter().any(|x| x.starts_with("swimming")),
        "a drowned player does not swim"
    );
    assert!(l.contains(&"out 1 3".to_string()), "{l:?}");
    assert!(l.contains(&"deal 2 2".to_string()), "{l:?}");
    assert_eq!(g.active(), [true, false, true]);
    let round2 = l.iter().position(|x| x == "deal 2 2").unwrap();
    assert!(
        !ev[round2..].iter().any(|e| e.kind == "hand" && e.to.contains(1)),
        "no hand for seat 1"
    );
    assert!(g.hand(1).is_empty(), "no cards for a drowned player");
    assert_eq!(g.to_move(), Some(2), "the dealer chooses");
    ev.clear();
    play(&mut g, &mut ev, &["keep_seen"]);
    // Round 2: seat 0 holds AH KH QH = 31 at once; dealer 2 (9S TH JD) is lowest and drowns.
    let l = lines(&ev);
    assert!(l.contains(&"end thirtyone 0".to_string()), "{l:?}");
    assert!(l.contains(&"out 2 2".to_string()), "{l:?}");
    assert_eq!(&l[l.len() - 3..], ["place 0 1 1", "place 2 2 2", "place 1 3 3"]);
    assert_eq!(g.to_move(), None);
    let out = g.outcome().unwrap();
    assert_eq!(out.scores, [-1.0, -3.0, -2.0], "minus what each pays to the kitty");
    assert_eq!(out.detail["winner"], 0);
    assert_eq!(out.detail["kitty"], 6.0);
    assert!(out.detail["summary"].as_str().unwrap().contains("seat 0"));
}

#[test]
fn sec2_6_swimming_is_announced() {
    let (mut g, _) = game(
        3,
        &["strikes_to_swim=1"],
        vec![deal(0, &["AS KS QS", H1, H2], "8C 9C 7C", "")],
    );
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen"]);
    assert!(has_line(&ev, "swimming 1"), "{:?}", lines(&ev));
}

#[test]
fn sec2_6_nobody_drowns_when_everyone_would() {
    let (mut g, _) = game(2, &["strikes_to_drown=1"], vec![tie_deal()]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["keep_seen", "knock", "swap_all"]);
    let l = lines(&ev);
    assert!(l.contains(&"reprieve".to_string()), "{l:?}");
    assert!(!l.iter().any(|x| x.starts_with("out ")), "{l:?}");
    assert_eq!(g.strikes(), [0, 0], "their strikes stay below drowning");
    assert_eq!(g.active(), [true, true]);
    assert_eq!(g.round(), 2, "a new round is dealt");
}

#[test]
fn sec4_players_drowned_together_share_their_places() {
    // Four players, drown at 1: seat 1's three aces drown the other three at once.
    let d = deal(0, &["7S 8S 9S", "AS AH AD", "KC QC 6C", H1], "6D 7D 8H", "");
    let (mut g, _) = game(4, &["strikes_to_drown=1"], vec![d.clone()]);
    play(&mut g, &mut Vec::new(), &["take_unseen"]);
    let out = g.outcome().expect("one player left");
    assert_eq!(out.scores, [-3.0, -1.0, -3.0, -3.0], "places 2-4 shared: 3 francs each");
    // Ranked by the (hidden) hand values: seat 2 (26) 2nd, dealer 0 (6D 7D 8H = 21) 3rd, seat 3 4th.
    let (mut g, _) = game(4, &["strikes_to_drown=1", "same_round_rank=by_hand_value"], vec![d]);
    let mut ev = Vec::new();
    play(&mut g, &mut ev, &["take_unseen"]);
    assert_eq!(g.outcome().unwrap().scores, [-3.0, -1.0, -2.0, -4.0]);
    assert!(has_line(&ev, "out 3 4"));
}

#[test]
fn sec1_dealer_rules() {
    // A strike for seat 1 in round 1 (dealer 0).
    let d = deal(0, &["AS KS QS", H1, H2, H3], "8C 9C 7C", "");
    let (mut g, _) = game(4, &[], vec![d.clone()]);
    play(&mut g, &mut Vec::new(), &["keep_seen"]);
    assert_eq!(g.dealer(), 3, "rotate: to the right");
    let (mut g, _) = game(4, &["dealer_rule=loser_deals"], vec![d]);
    play(&mut g, &mut Vec::new(), &["keep_seen"]);
    assert_eq!(g.dealer(), 1, "the loser deals");
}

#[test]
fn sec1_the_32_card_deck() {
    let (g, _) = game(4, &["deck=32"], vec![]);
    assert_eq!(g.deck().len(), 32);
    assert!(g.deck().iter().all(|c| c.rank.value() >= 7));
    let o = Options::resolve(&options(), "schwimmen", &["deck=32"]).unwrap();
    let e = Typed::new(|ev| Schwimmen::new(10, &o, Chance::seeded(1), ev))
        .err()
        .expect("10 players do not fit 32 cards");
    assert!(e.contains("at most 9 players"), "{e}");
    let (g, _) = game(10, &[], vec![]);
    assert_eq!(g.deck().len(), 36);
}

#[test]
fn a_given_deal_must_name_the_dealer_the_rules_choose() {
    let deals = vec![
        deal(0, &["AS KS QS", H1, H2], "8C 9C 7C", ""),
        deal(0, &["AH KH QH", "", H2], "8C 9C 7C", ""),
    ];
    let (mut g, _) = game(3, &[], deals);
    let e = g.apply("keep_seen").unwrap_err();
    assert!(e.contains("dealer"), "{e}");
}

// ----- faults (Game::on_fault): the misdeal strike (Sec. 2.6, W14) and the absent player (Sec. 4) -----

#[test]
fn sec2_6_misdeal_strike_the_dealer_takes_a_strike_and_deals_again() {
    let d1 = deal(0, &["AS KS QD", H1, H2, H3], "8C 9C TC", "");
    let d2 = deal(0, &["AH KH QH", H3, H1, H2], "7C 7D 9C", "");
    let (mut g, _) = game(4, &["misdeal_strike=true"], vec![d1.clone(), d2]);
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.on_fault(0, "timeout"), FaultRuling::Handled);
    let ev = g.take_events();
    let l = lines(&ev);
    assert_eq!(
        &l[..4],
        ["misdeal 0 timeout", "strike 0 1", "deal 2 0", "hand KC QC 6C"],
        "{l:?}"
    );
    assert_eq!(audience(&ev, "misdeal 0 timeout"), Audience::all(4));
    assert_eq!(
        audience(&ev, "packet AH KH QH"),
        Audience::seat(0),
        "the new seen packet"
    );
    assert_eq!(g.strikes(), [1, 0, 0, 0]);
    assert_eq!((g.dealer(), g.round()), (0, 2), "the same dealer deals again");
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.decision(), "choose");
    assert_eq!(g.all_cards().len(), g.deck().len());
    play(&mut g, &mut Vec::new(), &["take_unseen"]);
    assert_eq!(g.middle(), parse_cards("AH KH QH").unwrap().as_slice());
    // Without the option (the default) the referee substitutes; a fault in a turn never misdeals.
    let (mut g, _) = game(4, &[], vec![d1.clone()]);
    assert_eq!(g.on_fault(0, "timeout"), FaultRuling::Substitute);
    assert!(g.take_events().is_empty());
    assert_eq!(g.strikes(), [0, 0, 0, 0]);
    let (mut g, _) = game(4, &["misdeal_strike=true"], vec![d1]);
    play(&mut g, &mut Vec::new(), &["keep_seen"]);
    assert_eq!(g.on_fault(3, "illegal"), FaultRuling::Substitute);
    assert!(g.take_events().is_empty());
}

#[test]
fn sec2_6_a_misdeal_strike_can_drown_the_dealer() {
    // Drowned by his misdeal: the next player to his right deals.
    let rules = ["misdeal_strike=true", "strikes_to_drown=1"];
    let (mut g, _) = game(3, &rules, vec![deal(0, &["AS KS QD", H1, H2], "8C 9C TC", "")]);
    assert_eq!(g.on_fault(0, "crash"), FaultRuling::Handled);
    let l = lines(&g.take_events());
    assert_eq!(
        &l[..4],
        ["misdeal 0 crash", "strike 0 1", "out 0 3", "deal 2 2"],
        "{l:?}"
    );
    assert_eq!(g.active(), [false, true, true]);
    assert_eq!(g.to_move(), Some(2));
    // Two players: the other one wins.
    let (mut g, _) = game(2, &rules, vec![deal(1, &[H1, "AS KS QD"], "8C 9C TC", "")]);
    assert_eq!(g.on_fault(1, "error"), FaultRuling::Handled);
    let l = lines(&g.take_events());
    assert_eq!(
        l,
        ["misdeal 1 error", "strike 1 1", "out 1 2", "place 0 1 1", "place 1 2 2"]
    );
    assert_eq!(g.to_move(), None);
    assert_eq!(g.outcome().unwrap().scores, [-1.0, -2.0]);
}

#[test]
fn sec4_an_absent_player_is_ranked_last() {
    // Seat 1 drowns in round 1 (place 3); in round 2 the dealer, seat 2, is absent before his
    // choice: ranked last (3), seat 1 moves up to place 2, seat 0 is left alone and wins.
    let deals = vec![
        deal(0, &["AS KS QS", H1, H2], "8C 9C 7C", ""),
        deal(2, &["AH KH QH", "", H2], "8C 9C 7C", ""),
    ];
    let (mut g, mut ev) = game(3, &["strikes_to_drown=1"], deals);
    play(&mut g, &mut ev, &["keep_seen"]);
    assert!(has_line(&ev, "out 1 3"));
    assert_eq!(g.to_move(), Some(2));
    assert_eq!(g.on_fault(2, "dead"), FaultRuling::Handled);
    let new = g.take_events();
    assert_eq!(lines(&new), ["absent 2 3", "place 0 1 1", "place 1 2 2", "place 2 3 3"]);
    assert_eq!(audience(&new, "absent 2 3"), Audience::all(3));
    assert_eq!(g.outcome().unwrap().scores, [-1.0, -2.0, -3.0]);
    assert_eq!(g.outcome().unwrap().detail["absent"], serde_json::json!([2]));
    // The view of seat 0 moves seat 1 up at once.
    ev.extend(new.iter().take(1).cloned());
    let info = GameInfo {
        game: "schwimmen".into(),
        options: Options::resolve(&options(), "schwimmen", &["strikes_to_drown=1"]).unwrap(),
        players: 3,
        seat: 0,
    };
    let mut v = croupier::games::schwimmen::view::new_view(&info);
    for e in ev.iter().filter(|e| e.to.contains(0)) {
        v.observe(e.kind, &e.args);
    }
    let j = v.to_json();
    assert_eq!(j["places"], serde_json::json!({"1": 2, "2": 3}));
    assert_eq!(j["active"], serde_json::json!([true, false, false]));
}

#[test]
fn sec4_an_absent_player_leaves_the_round_and_the_last_turns_go_on() {
    // Seat 2 knocks; seat 1, due a last turn, is absent: seat 0 has the last turn, then the
    // showdown is between seats 0 and 2 only.
    let (mut g, mut ev) = game(3, &[], vec![deal(0, &["AS KS QD", H1, H2], "8C 9C 7C", "")]);
    play(&mut g, &mut ev, &["keep_seen", "knock"]);
    assert_eq!(g.to_move(), Some(1));
    ev.clear();
    assert_eq!(g.on_fault(1, "dead"), FaultRuling::Handled);
    assert_eq!(lines(&g.take_events()), ["absent 1 3"]);
    assert_eq!(g.active(), [true, false, true]);
    assert!(g.hand(1).is_empty(), "its cards leave play");
    assert_eq!(g.all_cards().len(), g.deck().len());
    assert_eq!(g.to_move(), Some(0));
    play(&mut g, &mut ev, &["swap_all"]);
    let l = lines(&ev);
    assert!(l.contains(&"end showdown".to_string()), "{l:?}");
    assert!(!l.iter().any(|x| x.starts_with("show 1 ")), "{l:?}");
    assert!(l.contains(&"strike 2 1".to_string()), "{l:?}");
    // Before a knock, the turn passes on; other faults are substituted.
    let d = deal(0, &["AS KS QD", H1, H2, H3], "8C 9C TC", "");
    let (mut g, _) = game(4, &[], vec![d]);
    play(&mut g, &mut Vec::new(), &["keep_seen"]);
    assert_eq!(g.on_fault(3, "timeout"), FaultRuling::Substitute);
    assert_eq!(g.on_fault(3, "dead"), FaultRuling::Handled);
    assert_eq!(lines(&g.take_events()), ["absent 3 4"]);
    assert_eq!(g.to_move(), Some(2));
    assert_eq!(g.places()[3], Some(4.0));
}

/// `standing` (for search): at each new round, the rounds played so far and a score per seat
/// estimated from the strikes the `strike` lines gave (fewer lives, a worse expected place; a
/// drowned seat its place from the `out` line); at the end, the outcome's scores.
#[test]
fn standing_estimates_places_from_the_lives_left_and_is_the_outcome_at_the_end() {
    for seed in 1..=20u64 {
        let o = Options::resolve(&options(), "schwimmen", &[] as &[&str]).unwrap();
        let drown = o.int("strikes_to_drown") as u32;
        let mut g = Typed::new(|ev| Schwimmen::new(4, &o, Chance::seeded(seed), ev)).unwrap();
        let mut rng = croupier::chance::Rng::new(seed, croupier::chance::Purpose::Bot, 0);
        let mut strikes = [0u32; 4];
        let mut out: [Option<f64>; 4] = [None; 4];
        let mut rounds = 0u64;
        loop {
            for e in g.take_events() {
                match e.kind {
                    "strike" => strikes[e.args[0].parse::<usize>().unwrap()] = e.args[1].parse().unwrap(),
                    "out" => out[e.args[0].parse::<usize>().unwrap()] = Some(e.args[1].parse().unwrap()),
                    "deal" => {
                        let (k, got) = g.standing().unwrap();
                        assert_eq!(k, rounds, "seed {seed}: rounds settled before this deal");
                        rounds += 1;
                        let places: Vec<f64> = got.iter().map(|s| -s).collect();
                        let mut in_play = 0;
                        for s in 0..4 {
                            if let Some(p) = out[s] {
                                assert_eq!(places[s], p, "seed {seed} seat {s}: a drowned seat's place");
                                continue;
                            }
                            in_play += 1;
                            for t in 0..4 {
                                if out[t].is_none() && strikes[s] < strikes[t] {
                                    assert!(places[s] < places[t], "seed {seed}: {strikes:?} {places:?}");
                                }
                                if out[t].is_none() && strikes[s] == strikes[t] {
                                    assert!((places[s] - places[t]).abs() < 1e-9, "seed {seed}");
                                }
                            }
                            assert!(strikes[s] < drown);
                        }
                        // The places in play are 1..=in_play on average.
                        let sum: f64 = (0..4).filter(|&s| out[s].is_none()).map(|s| places[s]).sum();
                        let want = (in_play * (in_play + 1)) as f64 / 2.0;
                        assert!((sum - want).abs() < 1e-9, "seed {seed}: {places:?}");
                    }
                    _ => {}
                }
            }
            if g.to_move().is_none() {
                break;
            }
            let legal = g.legal_actions();
            g.apply(&legal[rng.below(legal.len() as u64) as usize]).unwrap();
        }
        assert!(rounds >= 2, "seed {seed}");
        assert_eq!(g.standing().unwrap().1, g.outcome().unwrap().scores, "seed {seed}");
    }
}

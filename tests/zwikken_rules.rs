//! Rule-by-rule tests of the Zwikken engine (zwikken.md section numbers in the test names):
//! given deals, the events with their audiences, the legal actions and the refusals.

mod common;
use common::{drive as play, lines};

use croupier::cards::{deck_from, parse_cards, Card, CardSet, Rank, Suit};
use croupier::chance::{Chance, DealSpec};
use croupier::engine::{NoEvents, Typed};
use croupier::game::{Audience, Event, Game};
use croupier::games::zwikken::engine::{legal_plays, trick_winner, Zwikken};
use croupier::games::zwikken::options;
use croupier::options::Options;

/// A deal with the given dealer, hands, turned card and the first cards of the stock (the rest
/// of the stock follows in deck order).
fn deal(dealer: usize, hands: &[&str], turned: &str, stock_top: &str) -> DealSpec {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| parse_cards(h).unwrap()).collect();
    let turned = parse_cards(turned).unwrap();
    let mut stock = parse_cards(stock_top).unwrap();
    let used: Vec<Card> = hands.iter().flatten().chain(&turned).chain(&stock).copied().collect();
    stock.extend(deck_from(Rank::TEN).into_iter().filter(|c| !used.contains(c)));
    DealSpec {
        dealer: Some(dealer),
        hands: hands.into_iter().map(Some).collect(),
        piles: [("turned".to_string(), turned), ("stock".to_string(), stock)].into(),
    }
}

fn game(n: usize, rules: &[&str], deals: Vec<DealSpec>) -> (Typed<Zwikken>, Vec<Event>) {
    let o = Options::resolve(&options(), "zwikken", rules).unwrap();
    let mut g = Typed::new(|ev| Zwikken::new(n, &o, Chance::given(42, deals), ev)).unwrap();
    let ev = g.take_events();
    (g, ev)
}

fn has_line(events: &[Event], line: &str) -> bool {
    events.iter().any(|e| e.line() == line)
}

fn refuse(g: &mut Typed<Zwikken>, token: &str, needle: &str) {
    let before = g.legal_actions();
    let e = g.apply(token).expect_err(token);
    assert!(e.contains(needle), "refusal of {token}: '{e}' lacks '{needle}'");
    assert!(g.take_events().is_empty(), "a refusal emits nothing");
    assert_eq!(g.legal_actions(), before);
}

fn set(cards: &str) -> CardSet {
    CardSet::from_cards(&parse_cards(cards).unwrap())
}

fn trick(cards: &str) -> Vec<(usize, Card)> {
    parse_cards(cards).unwrap().into_iter().enumerate().collect()
}

const PLAIN: [&str; 4] = ["AS KS QS", "AH KH QH", "AD KD QD", "AC KC QC"];

#[test]
fn sec1_deal_ante_turned_card_and_bidding_order() {
    let (g, ev) = game(4, &[], vec![deal(0, &PLAIN, "JS", "")]);
    let l = lines(&ev);
    assert_eq!(l[0], "deal 1 0");
    assert_eq!(
        &l[1..6],
        ["pay 0 1 ante", "pay 1 1 ante", "pay 2 1 ante", "pay 3 1 ante", "pot 4"]
    );
    for (s, h) in PLAIN.iter().enumerate() {
        let e = ev
            .iter()
            .find(|e| e.kind == "hand" && e.to == Audience::seat(s))
            .unwrap();
        assert_eq!(
            croupier::game::texts(&e.args).join(" "),
            *h,
            "hand of seat {s}, to that seat only"
        );
    }
    let t = ev.iter().find(|e| e.kind == "turn").unwrap();
    assert_eq!((t.line().as_str(), t.to), ("turn JS", Audience::all(4)));
    assert_eq!(g.to_move(), Some(1), "the player left of the dealer speaks first");
    assert_eq!(g.decision(), "bid");
    assert_eq!(g.legal_actions(), ["pass", "ask"]);
    assert_eq!(g.engine().trump(), Suit::Spades);
    // The stock is never told to anybody.
    for c in g.engine().stock() {
        assert!(
            !ev.iter().any(|e| e.args.contains(&croupier::game::Arg::Card(*c))),
            "{c} leaked"
        );
    }
}

#[test]
fn sec2_2_the_trump_ten_holder_must_say_ik_ken_hem() {
    let hands = ["AS KS QS", "TS AH QD", "AD KD QH", "AC KC QC"];
    let (mut g, _) = game(4, &[], vec![deal(0, &hands, "JS", "")]);
    assert_eq!(g.legal_actions(), ["ken_pass", "ken_ask"]);
    refuse(&mut g, "ask", "ik ken hem");
    refuse(&mut g, "pass", "ken_pass");
    refuse(&mut g, "wait_better", "not on zwik");
    let mut ev = vec![];
    play(&mut g, &mut ev, &["ken_pass"]);
    assert_eq!(lines(&ev), ["move 1 ken_pass bid", "say 1 ik_ken_hem_en_ik_pas"]);
    assert!(ev.iter().all(|e| e.to == Audience::all(4)), "ik ken hem is public");
    refuse(&mut g, "ken_ask", "does not hold the trump ten");
}

#[test]
fn sec2_2_wording_and_sec2_3_the_second_round_for_passers() {
    let (mut g, mut ev) = game(4, &[], vec![deal(0, &PLAIN, "JS", "")]);
    ev.clear();
    play(&mut g, &mut ev, &["ask", "pass", "ask", "pass"]);
    let says: Vec<String> = lines(&ev).into_iter().filter(|l| l.starts_with("say")).collect();
    assert_eq!(
        says,
        ["say 1 ik_vraag", "say 2 pas", "say 3 ik_vraag_beter", "say 0 pas"]
    );
    assert_eq!(g.to_move(), Some(2), "round 2: only the passers, in order");
    play(&mut g, &mut ev, &["ask"]);
    assert!(has_line(&ev, "say 2 ik_vraag_nog_beter"));
    assert_eq!(g.to_move(), Some(0));
    play(&mut g, &mut ev, &["pass"]);
    // No third round: no trump ten in play, no zwik, so the tricks start left of the dealer.
    assert_eq!((g.decision(), g.to_move()), ("play", Some(1)));
}

#[test]
fn sec2_4_zoeken_first_costs_a_chip_second_is_free_then_no_play() {
    let (mut g, mut ev) = game(4, &[], vec![deal(0, &PLAIN, "JS", "TH JD")]);
    ev.clear();
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass"]);
    assert!(has_line(&ev, "allpass"));
    assert_eq!((g.decision(), g.to_move()), ("seek", Some(0)), "the dealer decides");
    assert_eq!(g.legal_actions(), ["no_seek", "seek"]);
    refuse(&mut g, "pass", "seek or no_seek");
    ev.clear();
    play(&mut g, &mut ev, &["seek"]);
    assert_eq!(
        lines(&ev),
        [
            "move 0 seek seek",
            "say 0 zoeken",
            "pay 0 1 seek",
            "pay 1 1 seek",
            "pay 2 1 seek",
            "pay 3 1 seek",
            "pot 8",
            "turn TH"
        ]
    );
    assert_eq!(g.engine().trump(), Suit::Hearts);
    // Nobody holds TH (it is turned); everyone bids again from seat 1.
    assert_eq!(g.to_move(), Some(1));
    ev.clear();
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass", "seek"]);
    assert!(!ev.iter().any(|e| e.kind == "pay"), "the second seek is free");
    assert!(has_line(&ev, "turn JD"));
    assert_eq!(
        g.engine().turned().iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        ["JS", "TH", "JD"]
    );
    ev.clear();
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass"]);
    // No third seek: the deal ends unplayed, the pot carries over, no ante in the next deal.
    let l = lines(&ev);
    let at = l.iter().position(|x| x == "allpass").unwrap();
    assert_eq!(l[at - 2..at], ["move 0 pass bid", "say 0 pas"]);
    assert_eq!(l[at + 1], "end no_play -");
    assert_eq!(l[at + 2], "deal 2 1", "the deal passes left");
    assert!(!l.iter().any(|x| x.starts_with("pay")), "no ante while the pot holds 8");
    assert_eq!(g.engine().pot(), 8);
    assert_eq!(g.engine().balances(), [-2, -2, -2, -2]);
}

#[test]
fn sec2_4_no_seek_and_an_empty_stock() {
    let (mut g, mut ev) = game(4, &[], vec![deal(3, &PLAIN, "JS", "")]);
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass"]);
    ev.clear();
    play(&mut g, &mut ev, &["no_seek"]);
    assert_eq!(lines(&ev)[..3], ["move 3 no_seek seek", "end no_play -", "deal 2 0"]);
    // Six players: 18 cards dealt and one turned leave one card for one seek only.
    let six = ["AS KS QS", "AH KH QH", "AD KD QD", "AC KC QC", "JS JH JD", "TS TH TD"];
    let (mut g, mut ev) = game(6, &[], vec![deal(0, &six, "JC", "")]);
    assert_eq!(g.engine().stock().len(), 1);
    play(&mut g, &mut ev, &["pass"; 6]);
    play(&mut g, &mut ev, &["seek"]);
    assert!(has_line(&ev, "turn TC"));
    ev.clear();
    play(&mut g, &mut ev, &["pass"; 6]);
    assert!(has_line(&ev, "end no_play -"), "no seek is offered with an empty stock");
    assert!(has_line(&ev, "deal 2 1"));
}

#[test]
fn sec2_2_a_repeated_trump_suit_forces_everyone_to_pass() {
    let hands = ["AS KS JH", "AH KH QD", "AD KD QH", "AC KC QC"];
    let (mut g, mut ev) = game(4, &[], vec![deal(0, &hands, "JS", "JC QS")]);
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass", "seek"]);
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass", "seek"]);
    assert_eq!(g.engine().trump(), Suit::Spades, "QS repeats spades");
    assert_eq!(g.legal_actions(), ["pass"]);
    refuse(&mut g, "ask", "turned before");
}

#[test]
fn sec2_2_ik_verwacht_een_betere_and_the_forced_ask_then_the_exchange_makes_a_zwik() {
    // Seat 1: the trump ten (hearts) and a pair of kings: on zwik. The king of hearts comes
    // in a repeated hearts period: he must ask, takes it with his ten and wins with a K-zwik.
    let hands = ["AS QS JS", "TH KS KD", "AD QD JD", "AC QC JC"];
    let (mut g, mut ev) = game(4, &[], vec![deal(0, &hands, "JH", "TC KH")]);
    assert_eq!(g.legal_actions(), ["ken_pass", "ken_ask", "wait_better"]);
    ev.clear();
    play(&mut g, &mut ev, &["wait_better"]);
    assert_eq!(
        lines(&ev),
        ["move 1 wait_better bid", "say 1 ik_verwacht_een_betere"],
        "the pair's rank is not told"
    );
    play(&mut g, &mut ev, &["pass", "pass", "pass", "seek"]);
    assert_eq!(g.engine().trump(), Suit::Clubs);
    assert_eq!(g.legal_actions(), ["pass", "ask"], "clubs: seat 1 speaks normally");
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass", "seek"]);
    assert_eq!(g.engine().trump(), Suit::Hearts);
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(g.legal_actions(), ["ken_ask"], "his card has come: he must ask");
    refuse(&mut g, "ken_pass", "obliges");
    ev.clear();
    play(&mut g, &mut ev, &["ken_ask"]);
    assert!(has_line(&ev, "say 1 ik_ken_hem_en_ik_vraag"));
    assert_eq!(g.legal_actions(), ["pass"], "everyone else must pass");
    play(&mut g, &mut ev, &["pass", "pass", "pass"]);
    // Round 2: the three passers must pass again.
    play(&mut g, &mut ev, &["pass", "pass", "pass"]);
    assert_eq!((g.decision(), g.to_move()), ("exchange", Some(1)));
    assert_eq!(
        g.legal_actions(),
        ["no_exchange", "exchange_JH", "exchange_TC", "exchange_KH"],
        "any_turned: every face-up turned card"
    );
    ev.clear();
    play(&mut g, &mut ev, &["exchange_KH"]);
    let l = lines(&ev);
    assert_eq!(
        l[..12],
        [
            "move 1 exchange_KH exchange",
            "exchange 1 KH TH",
            "zwik 1 KS KH KD",
            "end zwik 1",
            "win 1 8",
            "pot 0",
            "deal 2 1",
            "pay 0 1 ante",
            "pay 1 1 ante",
            "pay 2 1 ante",
            "pay 3 1 ante",
            "pot 4",
        ]
    );
    assert_eq!(g.engine().balances(), [-3, 5, -3, -3]);
}

#[test]
fn sec2_5_exchange_targets_options() {
    let hands = ["AS QS JS", "TH KS KD", "AD QD JD", "AC QC JC"];
    let script = |g: &mut Typed<Zwikken>| {
        let mut ev = vec![];
        play(g, &mut ev, &["wait_better", "pass", "pass", "pass", "seek"]);
        play(g, &mut ev, &["pass", "pass", "pass", "pass", "seek"]);
        play(g, &mut ev, &["ken_ask", "pass", "pass", "pass", "pass", "pass", "pass"]);
    };
    let (mut g, _) = game(
        4,
        &["exchange_targets=current_suit_only"],
        vec![deal(0, &hands, "JH", "TC KH")],
    );
    script(&mut g);
    assert_eq!(g.legal_actions(), ["no_exchange", "exchange_JH", "exchange_KH"]);
    refuse(&mut g, "exchange_TC", "current_suit_only");
    refuse(&mut g, "exchange_AS", "not a face-up turned card");
    // suit_matched: seat 1's TH takes a turned heart only; nobody holds the ten of clubs.
    let (mut g, _) = game(
        4,
        &["exchange_targets=suit_matched"],
        vec![deal(0, &hands, "JH", "TC KH")],
    );
    script(&mut g);
    assert_eq!(g.legal_actions(), ["no_exchange", "exchange_JH", "exchange_KH"]);
}

#[test]
fn sec2_5_suit_matched_lets_a_non_trump_ten_take_its_suit() {
    // Spades turned first, then hearts: seat 2 holds the ten of spades, not a trump.
    let hands = ["AS AC AD", "KH QH JC", "TS QC QD", "KC KD JD"];
    let rules = ["exchange_targets=suit_matched"];
    let (mut g, mut ev) = game(4, &rules, vec![deal(0, &hands, "JS", "AH")]);
    play(&mut g, &mut ev, &["pass", "ken_pass", "pass", "pass", "seek"]);
    play(
        &mut g,
        &mut ev,
        &["ask", "pass", "pass", "pass", "pass", "pass", "pass"],
    );
    assert_eq!((g.decision(), g.to_move()), ("exchange", Some(2)));
    assert_eq!(g.legal_actions(), ["no_exchange", "exchange_JS"]);
    ev.clear();
    play(&mut g, &mut ev, &["exchange_JS"]);
    assert!(has_line(&ev, "exchange 2 JS TS"));
    assert_eq!(g.engine().trump(), Suit::Hearts, "the trump suit does not change");
    // Under the default, a non-trump ten exchanges nothing.
    let (mut g, mut ev) = game(4, &[], vec![deal(0, &hands, "JS", "AH")]);
    play(&mut g, &mut ev, &["pass", "ken_pass", "pass", "pass", "seek"]);
    play(
        &mut g,
        &mut ev,
        &["ask", "pass", "pass", "pass", "pass", "pass", "pass"],
    );
    assert_eq!(g.decision(), "play");
}

#[test]
fn sec2_6_the_highest_askers_zwik_wins_and_a_passers_zwik_counts_nothing() {
    let hands = ["KS KH KD", "TS TH TD", "AS AH AD", "QS QH QD"];
    let (mut g, mut ev) = game(4, &[], vec![deal(0, &hands, "JC", "")]);
    ev.clear();
    // Seat 1 (10-zwik) and seat 2 (A-zwik) ask; seat 3 (Q-zwik) and seat 0 (K-zwik) pass.
    play(&mut g, &mut ev, &["ask", "ask", "pass", "pass", "pass", "pass"]);
    let l = lines(&ev);
    let from = l.iter().position(|x| x.starts_with("zwik")).unwrap();
    assert_eq!(
        &l[from..from + 6],
        [
            "zwik 1 TS TH TD",
            "zwik 2 AS AH AD",
            "end zwik 1",
            "win 1 4",
            "pay 2 4 lose",
            "pot 4"
        ]
    );
    assert!(!l.iter().any(|x| x.starts_with("zwik 0") || x.starts_with("zwik 3")));
}

#[test]
fn sec2_7_the_second_exchange_window_at_the_first_trick() {
    let hands = ["AD KD QD", "AH KH QS", "TH AS KC", "AC QC JC"];
    let (mut g, mut ev) = game(4, &[], vec![deal(0, &hands, "JH", "")]);
    play(
        &mut g,
        &mut ev,
        &["ask", "ken_pass", "pass", "pass", "ken_pass", "pass", "pass"],
    );
    assert_eq!(
        (g.decision(), g.to_move()),
        ("exchange", Some(2)),
        "a passer may exchange"
    );
    play(&mut g, &mut ev, &["no_exchange", "AH"]);
    assert_eq!(g.to_move(), Some(2));
    assert_eq!(
        g.legal_actions(),
        ["TH", "exchange_JH_JH"],
        "trump led: a trump, after the exchange too"
    );
    refuse(&mut g, "exchange_JH_AS", "follow");
    ev.clear();
    play(&mut g, &mut ev, &["exchange_JH_JH"]);
    assert_eq!(lines(&ev), ["move 2 exchange_JH_JH play", "exchange 2 JH TH"]);
    assert_eq!(
        g.engine().turned(),
        [Card::new(Rank::TEN, Suit::Hearts)],
        "the ten lies face up"
    );
    assert_eq!(g.engine().current_trick().last(), Some(&(2, "JH".parse().unwrap())));
    // Later in the deal no exchange is offered any more.
    play(&mut g, &mut ev, &["AC", "AD"]);
    assert!(g.legal_actions().iter().all(|t| !t.starts_with("exchange")));
}

#[test]
fn sec3_the_seed_trick_law() {
    let s = Suit::Spades;
    // Follow or trump (even when holding the led suit); never a third suit.
    assert_eq!(legal_plays(set("AH QS JD"), &trick("KH"), s, false), set("AH QS"));
    // Void: anything, trumping is not compulsory.
    assert_eq!(legal_plays(set("QS JD AC"), &trick("KH"), s, false), set("QS JD AC"));
    // No undertrumping...
    assert_eq!(legal_plays(set("QS JD"), &trick("KH KS"), s, false), set("JD"));
    assert_eq!(legal_plays(set("QS AS KH"), &trick("JH KS"), s, false), set("AS KH"));
    // ...unless only lower trumps are left.
    assert_eq!(legal_plays(set("QS JS"), &trick("KH KS"), s, false), set("QS JS"));
    // Trump led: any trump, higher or lower.
    assert_eq!(legal_plays(set("TS AH"), &trick("JS"), s, false), set("TS"));
    assert_eq!(legal_plays(set("TS JS AH"), &trick("KS AS"), s, false), set("TS JS"));
    // The leader plays anything.
    assert_eq!(legal_plays(set("TS AH"), &[], s, false), set("TS AH"));
}

#[test]
fn sec3_the_classic_trick_law_option() {
    let s = Suit::Spades;
    assert_eq!(
        legal_plays(set("AH QS JD"), &trick("KH"), s, true),
        set("AH"),
        "must follow"
    );
    assert_eq!(
        legal_plays(set("QS JD"), &trick("KH"), s, true),
        set("QS"),
        "void: must trump"
    );
    assert_eq!(
        legal_plays(set("QS JD"), &trick("KH KS"), s, true),
        set("JD"),
        "discard rather than undertrump"
    );
    assert_eq!(legal_plays(set("QS JS"), &trick("KH KS"), s, true), set("QS JS"));
    assert_eq!(legal_plays(set("JD QC"), &trick("KH"), s, true), set("JD QC"));
}

#[test]
fn sec3_the_trick_winner() {
    let s = Suit::Spades;
    assert_eq!(trick_winner(&trick("KH AH TS"), s), 2, "any trump beats any non-trump");
    assert_eq!(trick_winner(&trick("KH AD QH"), s), 0, "a discard never wins");
    assert_eq!(trick_winner(&trick("JH AH KS AS"), s), 3);
}

#[test]
fn sec3_an_undertrump_is_refused_through_the_engine() {
    let hands = ["QS JD AD", "KH AH QH", "KS QC KD", "AC KC JC"];
    let (mut g, mut ev) = game(4, &[], vec![deal(0, &hands, "JS", "")]);
    play(
        &mut g,
        &mut ev,
        &["ask", "pass", "pass", "pass", "pass", "pass", "pass"],
    );
    play(&mut g, &mut ev, &["KH", "KS", "AC"]);
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.legal_actions(), ["AD", "JD"]);
    refuse(&mut g, "QS", "undertrump");
    refuse(&mut g, "AS", "does not hold");
}

/// Three players, dealer 0, spades trump, nobody holds the ten of spades.
fn three(asks: &[&str], hands: [&str; 3]) -> (Typed<Zwikken>, Vec<Event>) {
    let (mut g, mut ev) = game(3, &["deals=1", "extra_deals_cap=0"], vec![deal(0, &hands, "JS", "")]);
    ev.clear();
    play(&mut g, &mut ev, asks);
    (g, ev)
}

#[test]
fn sec2_8_and_sec4_an_asker_with_the_most_points_takes_the_pot_other_askers_pay_it() {
    let (mut g, mut ev) = three(&["ask", "ask", "pass", "pass"], ["AD KD QD", "AS KS QS", "AH KH QH"]);
    play(&mut g, &mut ev, &["AS", "AH", "AD", "KS", "KH", "KD", "QS", "QH", "QD"]);
    let l = lines(&ev);
    let from = l.iter().position(|x| x.starts_with("points")).unwrap();
    assert_eq!(
        &l[from..],
        [
            "points 0 27 0",
            "end points 1",
            "win 1 3",
            "pay 2 3 lose",
            "pot 3",
            "split 1 1",
            "split 2 1",
            "split 0 1",
            "pot 0",
            "session cap"
        ]
    );
    let out = g.outcome().unwrap();
    assert_eq!(out.scores, [0.0, 3.0, -3.0]);
    assert_eq!(
        out.detail["ledger"][0],
        serde_json::json!({"deal": 1, "dealer": 0, "turned": ["JS"], "askers": [1, 2], "end": "points",
            "winner": 1, "pot_before": 0, "pot_after": 3, "chips": [-1, 2, -4]})
    );
    assert_eq!(out.detail["split_shares"], serde_json::json!([[1, 1], [2, 1], [0, 1]]));
    assert!(out.detail["summary"].as_str().unwrap().contains("3 divided at the cap"));
}

#[test]
fn sec2_8_a_passer_with_the_most_points_makes_every_asker_pay() {
    let (mut g, mut ev) = three(
        &["ask", "pass", "pass", "pass", "pass"],
        ["AD KD QD", "AH KH JD", "AS KS QS"],
    );
    play(&mut g, &mut ev, &["AH", "AS", "AD", "KS", "KD", "KH", "QS", "QD", "JD"]);
    let l = lines(&ev);
    let from = l.iter().position(|x| x.starts_with("end")).unwrap();
    assert_eq!(&l[from..from + 3], ["end passer 2", "pay 1 3 lose", "pot 6"]);
    assert_eq!(g.outcome().unwrap().scores, [1.0, -2.0, 1.0]);
}

#[test]
fn sec2_8_a_shared_top_makes_everyone_lose() {
    let (mut g, mut ev) = three(&["ask", "ask", "pass", "pass"], ["QC JC QD", "AS TH TD", "AD KH AH"]);
    play(&mut g, &mut ev, &["AS", "AD", "QC", "TH", "KH", "JC", "AH", "QD", "TD"]);
    let l = lines(&ev);
    let from = l.iter().position(|x| x.starts_with("points")).unwrap();
    assert_eq!(
        &l[from..from + 5],
        ["points 0 10 10", "end tie -", "pay 1 3 lose", "pay 2 3 lose", "pot 9"]
    );
    let out = g.outcome().unwrap();
    assert_eq!(out.scores.iter().sum::<f64>(), 0.0);
}

#[test]
fn sec5_the_session_ends_with_an_empty_pot_after_its_deals() {
    let (mut g, mut ev) = game(
        3,
        &["deals=1"],
        vec![deal(0, &["AD KD QD", "AS KS QS", "AH KH QH"], "JS", "")],
    );
    play(&mut g, &mut ev, &["ask", "pass", "pass", "pass", "pass"]);
    play(&mut g, &mut ev, &["AS", "AH", "AD", "KS", "KH", "KD", "QS", "QH", "QD"]);
    assert_eq!(g.to_move(), None);
    assert!(has_line(&ev, "session pot_empty"));
    assert_eq!(g.outcome().unwrap().scores, [-1.0, 2.0, -1.0]);
    // By default a session has 4 x players deals.
    let (mut g, mut ev) = game(3, &[], vec![deal(0, &["AD KD QD", "AS KS QS", "AH KH QH"], "JS", "")]);
    play(&mut g, &mut ev, &["ask", "pass", "pass", "pass", "pass"]);
    play(&mut g, &mut ev, &["AS", "AH", "AD", "KS", "KH", "KD", "QS", "QH", "QD"]);
    assert!(has_line(&ev, "deal 2 1"));
}

#[test]
fn sec4_ante_every_deal_option() {
    let (mut g, mut ev) = game(
        3,
        &["ante_rule=every_deal"],
        vec![deal(0, &["AD KD QD", "AS KS QS", "AH KH QH"], "JS", "")],
    );
    play(&mut g, &mut ev, &["pass", "pass", "pass", "no_seek"]);
    assert_eq!(g.engine().pot(), 6, "the pot was not empty, yet everyone paid again");
}

#[test]
fn sec4_bankroll_asking_needs_the_pot_and_broke_players_are_out() {
    let (mut g, mut ev) = game(4, &["bankroll=2"], vec![deal(0, &PLAIN, "JS", "")]);
    assert_eq!(g.engine().balances(), [1, 1, 1, 1]);
    assert_eq!(g.legal_actions(), ["pass"], "1 chip may not ask for a pot of 4");
    refuse(&mut g, "ask", "may not ask");
    ev.clear();
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass", "seek"]);
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass", "no_seek"]);
    let l = lines(&ev);
    assert!(l.iter().any(|x| x == "out 0") && l.iter().any(|x| x == "out 3"));
    assert_eq!(g.to_move(), None);
    assert!(has_line(&ev, "session one_left"));
    assert_eq!(g.outcome().unwrap().scores, [0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn sec5_the_seek_fee_and_max_seeks_options() {
    let (mut g, mut ev) = game(4, &["seek_fee=2,1", "max_seeks=1"], vec![deal(0, &PLAIN, "JS", "")]);
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass", "seek"]);
    assert_eq!(g.engine().pot(), 12);
    ev.clear();
    play(&mut g, &mut ev, &["pass", "pass", "pass", "pass"]);
    assert!(has_line(&ev, "end no_play -"), "max_seeks=1");
}

#[test]
fn options_reject_bad_values() {
    let e = Options::resolve(&options(), "zwikken", &["follow_rule=strict"]).unwrap_err();
    assert!(e.contains("seed|classic"), "{e}");
    let e = Options::resolve(&options(), "zwikken", &["max_seeks=3"]).unwrap_err();
    assert!(e.contains("0..2"), "{e}");
    let o = Options::resolve(&options(), "zwikken", &[] as &[&str]).unwrap();
    assert!(Zwikken::new(7, &o, Chance::seeded(1), &mut NoEvents).is_err());
    assert!(Zwikken::new(2, &o, Chance::seeded(1), &mut NoEvents).is_err());
}

/// `standing` (for search): after each deal (its `end` line) the deals ended so far go up by
/// one, and the chips with the pot shared alike by the seats still in sum to zero; at the end
/// of the session they are the outcome's scores.
#[test]
fn standing_shares_the_pot_after_each_deal_and_is_the_outcome_at_the_end() {
    for seed in 1..=20u64 {
        let o = Options::resolve(&options(), "zwikken", &[] as &[&str]).unwrap();
        let mut g = Typed::new(|ev| Zwikken::new(4, &o, Chance::seeded(seed), ev)).unwrap();
        let mut rng = croupier::chance::Rng::new(seed, croupier::chance::Purpose::Bot, 0);
        let mut ends = 0;
        loop {
            let events = g.take_events();
            ends += events.iter().filter(|e| e.kind == "end").count() as u64;
            let (k, est) = g.standing().unwrap();
            assert_eq!(k, ends, "seed {seed}");
            assert!(est.iter().sum::<f64>().abs() < 1e-9, "seed {seed}: {est:?}");
            if g.to_move().is_none() {
                break;
            }
            let legal = g.legal_actions();
            g.apply(&legal[rng.below(legal.len() as u64) as usize]).unwrap();
        }
        assert!(ends >= 2, "seed {seed}");
        assert_eq!(g.standing().unwrap().1, g.outcome().unwrap().scores, "seed {seed}");
    }
}

//! Tests of the Rikken seat view, and the views of the example deal that the policy's tests
//! share.

use super::*;
use crate::options::OptionSpec;

#[test]
fn contracts_in_words_for_people() {
    for (token, words) in [
        ("rik", "rik"),
        ("rik_beter", "rik beter"),
        ("alone9", "alone 9"),
        ("alone10_beter", "alone 10 beter"),
        ("misere", "misère"),
        ("open_misere", "open misère"),
        ("open_piek_praatje", "open piek met een praatje"),
        ("misere_join", "misère too"),
        ("solo_beter", "solo beter"),
        ("schoppen_mieen", "schoppen mieën"),
        ("open_piek_totaal", "open piek totaal"),
        ("pass", "pass"),
    ] {
        assert_eq!(contract_words(token), words);
    }
}

pub(crate) const HANDS: [&str; 4] = [
    "AS KS QS 5S AH 9H 4H KD 7D QC JC 8C 3C",
    "JS TS 2S KH QH 8H 3H AD QD 5D AC 9C 2C",
    "9S 8S 4S JH TH 7H 6H 2H JD 9D 4D KC TC",
    "7S 6S 3S 5H TD 8D 6D 3D 2D 7C 6C 5C 4C",
];

/// A rikken deal as the engine reports it: (audience or None for everybody, line).
/// Dealer W; N rikt, trump spades, calls ♦A (held by E); four tricks, then the game is cut
/// short for the test.
pub(crate) fn rik_deal() -> Vec<(Option<Seat>, String)> {
    let mut v: Vec<(Option<Seat>, String)> = vec![(None, "deal 1 3".into())];
    for (s, h) in HANDS.iter().enumerate() {
        v.push((Some(s), format!("hand {h}")));
    }
    for l in [
        "move 0 rik bid",
        "move 1 pass bid",
        "move 2 pass bid",
        "move 3 pass bid",
        "contract rik 0",
        "move 0 S trump",
        "trump S",
        "move 0 AD call",
        "called AD",
    ] {
        v.push((None, l.into()));
    }
    v.push((Some(1), "partner 1".into()));
    v.push((Some(0), "hint must_lead_called".into())); // not a real duty; only for the test
    for l in [
        "move 0 AS play",
        "move 1 2S play",
        "move 2 4S play",
        "move 3 3S play",
        "trick 1 0",
        "move 0 KS play",
        "move 1 TS play",
        "move 2 8S play",
        "move 3 6S play",
        "trick 2 0",
        "move 0 7D play",
        "move 1 AD play",
    ] {
        v.push((None, l.into()));
    }
    v.push((None, "partner 1".into()));
    for l in [
        "move 2 4D play",
        "move 3 2D play",
        "trick 3 1",
        "move 1 KH play",
        "move 2 2H play",
        "move 3 5H play",
        "move 0 4H play",
        "trick 4 1",
        "move 1 QD play",
    ] {
        v.push((None, l.into()));
    }
    v
}

pub(crate) fn options(hide: bool) -> Options {
    let specs = vec![
        OptionSpec::choice("all_pass", &["redeal", "fourth_must_bid"], "redeal", ""),
        OptionSpec::bool("hide_quitted_tricks", false, ""),
    ];
    Options::resolve(&specs, "rikken", &[format!("hide_quitted_tricks={hide}")]).unwrap()
}

pub(crate) fn view_for(seat: Seat, hide: bool) -> RikkenView {
    RikkenView::new(&GameInfo {
        game: "rikken".into(),
        options: options(hide),
        players: 4,
        seat,
    })
}

pub(crate) fn feed(view: &mut RikkenView, lines: &[(Option<Seat>, String)], upto: usize) {
    for (to, line) in &lines[..upto] {
        if to.is_none_or(|s| s == view.seat) {
            let w: Vec<String> = line.split(' ').map(String::from).collect();
            view.observe(&w[0], &crate::game::text_args(w[1..].iter().map(String::as_str)));
        }
    }
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

fn position(lines: &[(Option<Seat>, String)], line: &str) -> usize {
    lines.iter().position(|(_, l)| l == line).unwrap()
}

#[test]
fn a_rikken_deal_folds_into_the_json_of_the_protocol() {
    let lines = rik_deal();
    let mut v = view_for(2, false);
    feed(&mut v, &lines, lines.len());
    let j = v.to_json();
    let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "game",
            "players",
            "seat",
            "options",
            "deal",
            "dealer",
            "hand",
            "auction",
            "contract",
            "trump",
            "called",
            "partner",
            "aces",
            "exposed",
            "tricks",
            "trick",
            "tricks_won",
            "played",
            "hints",
            "ended",
            "scores"
        ]
    );
    assert_eq!(j["game"], "rikken");
    assert_eq!(j["seat"], 2);
    assert_eq!(j["options"]["all_pass"], "redeal");
    assert_eq!(j["deal"], 1);
    assert_eq!(j["dealer"], 3);
    assert_eq!(
        strs(&j["hand"]),
        "9S JH TH 7H 6H JD 9D KC TC".split(' ').collect::<Vec<_>>()
    );
    assert_eq!(j["auction"], json!([[0, "rik"], [1, "pass"], [2, "pass"], [3, "pass"]]));
    assert_eq!(j["contract"], json!({"bid": "rik", "declarers": [0]}));
    assert_eq!(j["trump"], "S");
    assert_eq!(j["called"], "AD");
    assert_eq!(j["partner"], 1);
    assert_eq!(j["tricks"].as_array().unwrap().len(), 4);
    assert_eq!(
        j["tricks"][2],
        json!({"leader": 0, "cards": ["7D", "AD", "4D", "2D"], "winner": 1})
    );
    assert_eq!(j["trick"], json!({"leader": 1, "cards": ["QD"]}));
    assert_eq!(j["tricks_won"], json!([2, 2, 0, 0]));
    assert_eq!(j["played"].as_array().unwrap().len(), 17);
    assert_eq!(j["played"][16], "QD");
    assert_eq!(j["exposed"], json!({}));
    assert_eq!(j["ended"], Value::Null);
    assert_eq!(j["scores"], Value::Null);

    // The call is not a play, the trump declaration is not a bid.
    let mut v = view_for(0, false);
    feed(&mut v, &lines, position(&lines, "called AD") + 1);
    let j = v.to_json();
    assert_eq!(j["played"], json!([]));
    assert_eq!(j["trick"], Value::Null);
    assert_eq!(j["hand"].as_array().unwrap().len(), 13);
    assert_eq!(j["auction"].as_array().unwrap().len(), 4);
}

#[test]
fn the_partner_is_hidden_until_the_partner_line() {
    let lines = rik_deal();
    let upto = position(&lines, "move 1 AD play");
    for seat in 0..4 {
        let mut v = view_for(seat, false);
        feed(&mut v, &lines, upto);
        let expect = if seat == 1 { json!(1) } else { Value::Null };
        assert_eq!(v.to_json()["partner"], expect, "seat {seat}");
        feed(&mut v, &lines, lines.len());
        assert_eq!(v.to_json()["partner"], 1);
    }
}

#[test]
fn the_hand_shrinks_and_hints_clear_when_the_seat_plays() {
    let lines = rik_deal();
    let mut v = view_for(0, false);
    feed(&mut v, &lines, position(&lines, "move 0 AS play"));
    assert_eq!(v.to_json()["hints"], json!(["must_lead_called"]));
    feed(&mut v, &lines, position(&lines, "move 0 AS play") + 1);
    let j = v.to_json();
    assert_eq!(j["hints"], json!([]));
    assert_eq!(j["hand"].as_array().unwrap().len(), 12);
    assert!(!strs(&j["hand"]).contains(&"AS".to_string()));
    assert_eq!(j["trick"], json!({"leader": 0, "cards": ["AS"]}));
}

#[test]
fn hidden_quitted_tricks_keep_only_leader_and_winner() {
    let lines = rik_deal();
    let mut v = view_for(3, true);
    feed(&mut v, &lines, lines.len());
    let j = v.to_json();
    assert_eq!(j["tricks"][0], json!({"leader": 0, "winner": 0}));
    assert_eq!(j["tricks"][3], json!({"leader": 1, "winner": 1}));
    assert_eq!(j["played"], json!(["QD"]));
    assert_eq!(j["tricks_won"], json!([2, 2, 0, 0]));
    assert_eq!(j["hand"].as_array().unwrap().len(), 9);
}

fn observe_all(v: &mut RikkenView, lines: &[&str]) {
    for l in lines {
        let w: Vec<String> = l.split(' ').map(String::from).collect();
        v.observe(&w[0], &crate::game::text_args(w[1..].iter().map(String::as_str)));
    }
}

#[test]
fn exposed_cards_leave_as_they_are_played_and_the_end_and_scores_show() {
    let mut v = view_for(0, false);
    observe_all(
        &mut v,
        &[
            "deal 1 2",
            &format!("hand {}", HANDS[0]),
            "move 3 open_misere bid",
            "move 0 pass bid",
            "move 1 pass bid",
            "move 2 pass bid",
            "contract open_misere 3",
            "trump none",
            &format!("exposed 3 {}", HANDS[3]),
            "move 3 2D play",
            "move 0 7D play",
            "move 1 5D play",
            "move 2 4D play",
            "trick 1 0",
            "move 0 3C play",
            "move 1 2C play",
            "move 2 TC play",
            "move 3 7C play",
            "trick 2 3",
            "end misere_lost",
            "gameover -6 -6 -6 18",
        ],
    );
    let j = v.to_json();
    assert_eq!(j["trump"], "none");
    assert_eq!(j["contract"], json!({"bid": "open_misere", "declarers": [3]}));
    let w = strs(&j["exposed"]["3"]);
    assert_eq!(w.len(), 11);
    assert!(!w.contains(&"2D".to_string()) && !w.contains(&"7C".to_string()));
    assert_eq!(
        j["tricks"][1],
        json!({"leader": 0, "cards": ["3C", "2C", "TC", "7C"], "winner": 3})
    );
    assert_eq!(j["ended"], "misere_lost");
    assert_eq!(j["scores"], json!([-6, -6, -6, 18]));
}

#[test]
fn malheur_and_beter_declarations_are_not_plays() {
    let mut v = view_for(2, false);
    observe_all(
        &mut v,
        &[
            "deal 1 3",
            "move 0 malheur bid",
            "move 1 pass bid",
            "move 2 pass bid",
            "move 3 pass bid",
            "contract malheur 0",
            "aces AS AH AD AC",
            "move 0 KH call",
            "called KH",
            "partner 1",
            "move 1 C trump",
            "trump C",
            "move 0 AS play",
        ],
    );
    let j = v.to_json();
    assert_eq!(j["aces"], json!(["AS", "AH", "AD", "AC"]));
    assert_eq!(j["called"], "KH");
    assert_eq!(j["partner"], 1);
    assert_eq!(j["trump"], "C");
    assert_eq!(j["played"], json!(["AS"]));

    let mut v = view_for(2, false);
    observe_all(
        &mut v,
        &[
            "deal 1 3",
            "move 0 rik bid",
            "move 1 rik_beter bid",
            "move 2 pass bid",
            "move 3 pass bid",
            "move 0 pass bid",
            "contract rik_beter 1",
            "trump H",
            "move 1 AS call",
            "called AS",
            "move 0 KC play",
        ],
    );
    let j = v.to_json();
    assert_eq!(j["auction"].as_array().unwrap().len(), 5);
    assert_eq!(j["called"], "AS");
    assert_eq!(j["trick"], json!({"leader": 0, "cards": ["KC"]}));
}

#[test]
fn the_trump_suit_is_typed_once_declared_and_none_without_trump() {
    let lines = rik_deal();
    let mut v = view_for(2, false);
    feed(&mut v, &lines, position(&lines, "trump S"));
    assert_eq!(v.trump_suit(), None);
    feed(&mut v, &lines, position(&lines, "trump S") + 1);
    assert_eq!(v.trump_suit(), Some(Suit::Spades));
    assert_eq!(v.to_json()["trump"], "S");
    observe_all(&mut v, &["deal 2 0", "contract misere 1", "trump none"]);
    assert_eq!(v.trump_suit(), None);
    assert_eq!(v.to_json()["trump"], "none");
}

#[test]
fn an_all_pass_redeal_resets_the_deal() {
    let mut v = view_for(1, false);
    observe_all(
        &mut v,
        &[
            "deal 1 3",
            &format!("hand {}", HANDS[1]),
            "move 0 pass bid",
            "move 1 pass bid",
            "move 2 pass bid",
            "move 3 pass bid",
            "allpass",
            "deal 2 3",
            &format!("hand {}", HANDS[2]),
            "move 0 misere bid",
        ],
    );
    let j = v.to_json();
    assert_eq!(j["deal"], 2);
    assert_eq!(j["auction"], json!([[0, "misere"]]));
    assert_eq!(strs(&j["hand"])[0], "9S");
}

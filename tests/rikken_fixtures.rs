//! The worked examples of the Rikken book (`shared/fixtures/rikken`), played through the
//! engine: every bid, declaration and card must be legal, every trick winner and the final
//! score must agree with the fixture.

use croupier::cards::Card;
use croupier::chance::{Chance, DealSpec};
use croupier::game::{Event, Game};
use croupier::games::rikken::{engine::Rikken, options};
use croupier::options::Options;
use serde_json::Value;
use std::path::PathBuf;

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/rikken")
}

fn seat(v: &Value) -> usize {
    match v.as_str().expect("a seat letter") {
        "N" => 0,
        "E" => 1,
        "S" => 2,
        "W" => 3,
        s => panic!("bad seat {s}"),
    }
}

fn cards(v: &Value) -> Vec<Card> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect()
}

fn apply(g: &mut Rikken, who: usize, token: &str, events: &mut Vec<Event>, ctx: &str) {
    assert_eq!(
        g.to_move(),
        Some(who),
        "{ctx}: expected seat {who} to move for '{token}'"
    );
    let legal = g.legal_actions();
    assert!(
        legal.iter().any(|t| t == token),
        "{ctx}: '{token}' not legal for seat {who}; legal: {legal:?}"
    );
    g.apply(token).unwrap_or_else(|e| panic!("{ctx}: {token} refused: {e}"));
    events.extend(g.take_events());
}

/// Plays one fixture; returns the events.
fn play_fixture(f: &Value) -> (Rikken, Vec<Event>) {
    let id = f["id"].as_str().unwrap();
    let declarer = seat(&f["contract"]["declarer"]);
    let dealer = if f["dealer"].is_null() {
        (declarer + 3) % 4
    } else {
        seat(&f["dealer"])
    };
    let hands: Vec<Option<Vec<Card>>> = ["N", "E", "S", "W"]
        .iter()
        .map(|s| Some(cards(&f["hands"][s])))
        .collect();
    let spec = DealSpec {
        dealer: Some(dealer),
        hands,
        piles: Default::default(),
    };
    let o = Options::resolve(&options(), "rikken", &[] as &[&str]).unwrap();
    let mut g = Rikken::new(o, Chance::given(1, vec![spec])).unwrap();
    let mut events = g.take_events();
    // The auction. Re-passes of players who already passed are made by the engine itself.
    let mut passed = [false; 4];
    match f["auction"]["actions"].as_array() {
        Some(actions) => {
            for (i, a) in actions.iter().enumerate() {
                let (s, tok) = (seat(&a[0]), a[1].as_str().unwrap());
                let ctx = format!("{id}: auction action {i}");
                if tok == "pass" && passed[s] {
                    let line = format!("move {s} pass");
                    assert!(
                        events.iter().any(|e| e.line() == line),
                        "{ctx}: no automatic re-pass of seat {s}"
                    );
                    continue;
                }
                apply(&mut g, s, tok, &mut events, &ctx);
                if tok == "pass" {
                    passed[s] = true;
                }
            }
        }
        None => {
            let bid = f["contract"]["bid"].as_str().unwrap();
            apply(&mut g, declarer, bid, &mut events, id);
            for k in 1..4 {
                apply(&mut g, (declarer + k) % 4, "pass", &mut events, id);
            }
        }
    }
    for d in f["auction"]["declarations"].as_array().unwrap() {
        let (s, what, x) = (seat(&d[0]), d[1].as_str().unwrap(), d[2].as_str().unwrap());
        assert_eq!(g.decision(), what, "{id}: declaration");
        apply(&mut g, s, x, &mut events, &format!("{id}: {what}"));
    }
    assert_eq!(g.to_move(), Some(seat(&f["leader"])), "{id}: leader of trick 1");
    for (i, t) in f["tricks"].as_array().unwrap().iter().enumerate() {
        let lead = seat(&t["lead"]);
        for (k, c) in t["cards"].as_array().unwrap().iter().enumerate() {
            let ctx = format!("{id}: trick {} card {k}", i + 1);
            apply(&mut g, (lead + k) % 4, c.as_str().unwrap(), &mut events, &ctx);
        }
        let want = format!("trick {} {}", i + 1, seat(&t["winner"]));
        assert!(events.iter().any(|e| e.line() == want), "{id}: expected '{want}'");
    }
    assert_eq!(g.to_move(), None, "{id}: play must end after the fixture's last trick");
    (g, events)
}

#[test]
fn every_fixture_plays_and_scores_as_the_book() {
    let mut n = 0;
    let mut paths: Vec<_> = std::fs::read_dir(fixture_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
        let f: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let id = f["id"].as_str().unwrap();
        let (g, _) = play_fixture(&f);
        let out = g.outcome().expect("an outcome");
        let want: Vec<f64> = ["N", "E", "S", "W"]
            .iter()
            .map(|s| f["spec_score"][s].as_f64().unwrap())
            .collect();
        assert_eq!(out.scores, want, "{id}: scores");
        if let Some(book) = f["expected"]["score"].as_object() {
            let book: Vec<f64> = ["N", "E", "S", "W"]
                .iter()
                .map(|s| book[*s].as_f64().unwrap())
                .collect();
            assert_eq!(out.scores, book, "{id}: the book's score");
        }
        let c = &f["contract"];
        assert_eq!(out.detail["contract"], c["bid"], "{id}");
        assert_eq!(out.detail["trump"], c["trump"], "{id}");
        assert_eq!(out.detail["called"], c["called"], "{id}");
        if !c["partner"].is_null() {
            assert_eq!(out.detail["partner"], serde_json::json!(seat(&c["partner"])), "{id}");
        }
        if let Some(made) = f["expected"]["made"].as_bool() {
            let got = match &out.detail["made"] {
                Value::Bool(b) => *b,
                Value::Array(v) => v[0].as_bool().unwrap(),
                v => panic!("{id}: made = {v}"),
            };
            assert_eq!(got, made, "{id}: made");
        }
        n += 1;
    }
    assert_eq!(n, 23, "all fixtures were played");
}

#[test]
fn the_partner_is_secret_until_the_called_ace_is_played() {
    let f: Value = serde_json::from_str(&std::fs::read_to_string(fixture_dir().join("svb01.json")).unwrap()).unwrap();
    let (_, events) = play_fixture(&f);
    // West (3) holds the called AS: he learns it at the call; the others when AS is played.
    let partner: Vec<(usize, &Event)> = events.iter().enumerate().filter(|(_, e)| e.kind == "partner").collect();
    assert_eq!(partner.len(), 2);
    let (first, private) = partner[0];
    assert_eq!(private.to.members(4).collect::<Vec<_>>(), vec![3]);
    let played = events.iter().position(|e| e.line() == "move 3 AS").unwrap();
    assert!(first < played);
    assert_eq!(partner[1].0, played + 1);
    assert_eq!(partner[1].1.to.members(4).count(), 4);
    // Hands go to their owners only.
    for e in events.iter().filter(|e| e.kind == "hand") {
        assert_eq!(e.to.members(4).count(), 1);
    }
}

//! The worked examples of the Rikken book (`tests/fixtures/rikken`, a copy of the project's
//! `shared/fixtures/rikken` kept in the repository so a clone tests on its own), played through the
//! engine: every bid, declaration and card must be legal, every trick winner and the final
//! score must agree with the fixture.

use croupier::cards::Card;
use croupier::chance::{Chance, DealSpec};
use croupier::engine::Typed;
use croupier::game::{Event, Game};
use croupier::games::rikken::{engine::Rikken, options};
use croupier::options::Options;
use serde_json::Value;
use std::path::PathBuf;

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rikken")
}

#[test]
fn the_copied_fixtures_equal_the_shared_ones_when_those_are_present() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/rikken");
    let Ok(entries) = std::fs::read_dir(&shared) else {
        return; // a clone outside the project tree: nothing to compare with
    };
    for e in entries {
        let p = e.unwrap().path();
        let ours = fixture_dir().join(p.file_name().unwrap());
        assert_eq!(
            std::fs::read(&p).unwrap(),
            std::fs::read(&ours).unwrap_or_default(),
            "{} differs from the shared copy: copy it again",
            ours.display()
        );
    }
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

fn apply(g: &mut Typed<Rikken>, who: usize, token: &str, events: &mut Vec<Event>, ctx: &str) {
    assert_eq!(
        g.to_move(),
        Some(who),
        "{ctx}: expected seat {who} to move for '{token}'"
    );
    let legal = g.legal_actions();
    g.apply(token).unwrap_or_else(|e| panic!("{ctx}: {token} refused: {e}"));
    assert!(
        legal.iter().any(|t| t == token),
        "{ctx}: '{token}' accepted but not listed as legal: {legal:?}"
    );
    events.extend(g.take_events());
}

/// Plays one fixture; returns the events.
fn play_fixture(f: &Value) -> (Typed<Rikken>, Vec<Event>) {
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
    let mut g = Rikken::with_options(o, Chance::given(1, vec![spec])).unwrap();
    let mut events = g.take_events();
    // The auction. Re-passes of players who already passed are made by the engine itself.
    let mut passed = [false; 4];
    match f["auction"]["actions"].as_array() {
        Some(actions) => {
            for (i, a) in actions.iter().enumerate() {
                let (s, tok) = (seat(&a[0]), a[1].as_str().unwrap());
                let ctx = format!("{id}: auction action {i}");
                if tok == "pass" && passed[s] {
                    let line = format!("move {s} pass bid");
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
    let played = events.iter().position(|e| e.line() == "move 3 AS play").unwrap();
    assert!(first < played);
    assert_eq!(partner[1].0, played + 1);
    assert_eq!(partner[1].1.to.members(4).count(), 4);
    // Hands go to their owners only.
    for e in events.iter().filter(|e| e.kind == "hand") {
        assert_eq!(e.to.members(4).count(), 1);
    }
}

/// Plays a fixture with one move replaced (trick `t`, position `k` → `card`) and returns the
/// refusal of the replaced move.
fn refusal(f: &Value, t: usize, k: usize, card: &str) -> String {
    let mut f = f.clone();
    f["tricks"][t]["cards"][k] = Value::String(card.to_string());
    let r = std::panic::catch_unwind(|| play_fixture(&f));
    let msg = match r {
        Ok(_) => panic!("{}: {card} at trick {} was accepted", f["id"], t + 1),
        Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
    };
    msg
}

fn hand_at(f: &Value, seat_letter: &str, before_trick: usize) -> Vec<String> {
    let s = seat(&Value::String(seat_letter.into()));
    let mut hand: Vec<String> = f["hands"][seat_letter]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    for t in f["tricks"].as_array().unwrap().iter().take(before_trick) {
        let lead = seat(&t["lead"]);
        let c = t["cards"][(s + 4 - lead) % 4].as_str().unwrap();
        hand.retain(|x| x != c);
    }
    hand
}

#[test]
fn a_revoke_and_a_withheld_called_ace_are_refused_with_the_reason() {
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(fixture_dir().join(name)).unwrap()).unwrap()
    };
    let mut revokes = 0;
    let mut withheld = 0;
    for name in ["svb01.json", "svb02.json", "svb03.json", "sec7_2a.json", "sec6_3.json"] {
        let f = read(name);
        let called = f["contract"]["called"].as_str().map(str::to_string);
        for (t, trick) in f["tricks"].as_array().unwrap().iter().enumerate() {
            let lead = seat(&trick["lead"]);
            let led: String = trick["cards"][0].as_str().unwrap().chars().nth(1).unwrap().to_string();
            for k in 1..4 {
                let who = ["N", "E", "S", "W"][(lead + k) % 4];
                let card = trick["cards"][k].as_str().unwrap();
                let hand = hand_at(&f, who, t);
                if Some(card.to_string()) == called {
                    // The holder must play the called card when its suit is first led.
                    if let Some(other) = hand.iter().find(|c| c.ends_with(&led) && c.as_str() != card) {
                        let msg = refusal(&f, t, k, other);
                        assert!(msg.contains("must be played"), "{name}: {msg}");
                        withheld += 1;
                    }
                } else if card.ends_with(&led) && revokes < 5 {
                    if let Some(off) = hand
                        .iter()
                        .find(|c| !c.ends_with(&led) && Some(c.to_string()) != called)
                    {
                        let msg = refusal(&f, t, k, off);
                        assert!(msg.contains(&format!("must follow suit ({led})")), "{name}: {msg}");
                        revokes += 1;
                    }
                }
            }
        }
    }
    assert!(revokes >= 5 && withheld >= 1, "revokes {revokes}, withheld {withheld}");
}

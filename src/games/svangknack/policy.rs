//! The built-in `simple` Svängknack bot: deterministic rules of thumb on the seat view.
//!
//! * **swing**: swings with an ace, a king or two cards from the jack up in one suit;
//!   otherwise asks for a redeal when it may, else hands the swing over.
//! * **consent**: agrees to a redeal unless it holds an ace or a king.
//! * **trump**: the turned suit in which it holds the most (then the highest) cards.
//! * **knock**: knocks with a hand worth about one trick: a trump from the queen up, two
//!   trumps, or a trump and a side ace; a little more is needed when many have knocked.
//! * **play**: calls Färg whenever it may (it cannot win the trick, and it keeps its cards);
//!   leads its strongest card (trumps count above side cards); follows with the cheapest card
//!   that takes the trick, else with its lowest card.
//!
//! The answer is always one of `legal` (the first one when nothing better is found).

use crate::cards::{Card, Suit};
use serde_json::Value;

fn view_cards(v: &Value) -> Vec<Card> {
    v.as_array()
        .map(|a| a.iter().filter_map(|c| c.as_str()?.parse().ok()).collect())
        .unwrap_or_default()
}

fn trump_of(view: &Value) -> Option<Suit> {
    view["trump"].as_str().and_then(|s| s.parse().ok())
}

/// The `simple` bot's choice for a Svängknack decision (the `simple_policy` of the game's spec).
pub fn simple_policy(view: &Value, decision: &str, legal: &[String]) -> String {
    let Some(first) = legal.first() else {
        return String::new();
    };
    let hand = view_cards(&view["hand"]);
    let choice = match decision {
        "swing" => Some(swing(&hand, legal)),
        "consent" => Some(
            if hand.iter().any(|c| c.rank.value() >= 13) {
                "refuse"
            } else {
                "agree"
            }
            .to_string(),
        ),
        "trump" => choose_trump(&hand, legal),
        "knock" => Some(knock(view, &hand)),
        "play" => play(view, &hand, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
    }
}

fn swing(hand: &[Card], legal: &[String]) -> String {
    let high = hand.iter().any(|c| c.rank.value() >= 13);
    let pair = Suit::ALL
        .iter()
        .any(|&s| hand.iter().filter(|c| c.suit == s && c.rank.value() >= 11).count() >= 2);
    let has = |t: &str| legal.iter().any(|l| l == t);
    if high || pair || !(has("redeal") || has("handover")) {
        "swing".into()
    } else if has("redeal") {
        "redeal".into()
    } else {
        "handover".into()
    }
}

fn choose_trump(hand: &[Card], legal: &[String]) -> Option<String> {
    legal
        .iter()
        .filter_map(|t| t.parse::<Suit>().ok().map(|s| (t, s)))
        .max_by_key(|&(_, s)| {
            let mine: Vec<&Card> = hand.iter().filter(|c| c.suit == s).collect();
            (mine.len(), mine.iter().map(|c| c.rank).max())
        })
        .map(|(t, _)| t.clone())
}

fn knock(view: &Value, hand: &[Card]) -> String {
    let Some(t) = trump_of(view) else {
        return "fold".into();
    };
    let trumps: Vec<&Card> = hand.iter().filter(|c| c.suit == t).collect();
    let side_aces = hand.iter().filter(|c| c.suit != t && c.rank.value() == 14).count();
    let mut worth = 0.0;
    for c in &trumps {
        worth += if c.rank.value() >= 12 { 1.0 } else { 0.5 };
    }
    if !trumps.is_empty() {
        worth += 0.5 * side_aces as f64;
    }
    let knocked = view["knocked"].as_array().map(|a| a.len()).unwrap_or(0);
    let need = if knocked >= 3 { 1.25 } else { 1.0 };
    if worth >= need { "knock" } else { "fold" }.into()
}

/// A card's strength in a trick led in `led` with trump `t`.
fn power(c: Card, led: Option<Suit>, t: Option<Suit>) -> u32 {
    let r = c.rank.value() as u32;
    if Some(c.suit) == t {
        200 + r
    } else if Some(c.suit) == led || led.is_none() {
        100 + r
    } else {
        r
    }
}

fn play(view: &Value, _hand: &[Card], legal: &[String]) -> Option<String> {
    if legal.iter().any(|l| l == "farg") {
        return Some("farg".into());
    }
    let legal: Vec<Card> = legal.iter().filter_map(|t| t.parse().ok()).collect();
    let t = trump_of(view);
    let trick = view_cards(&Value::Array(
        view["trick"]["cards"]
            .as_array()
            .map(|a| a.iter().map(|p| p[1].clone()).collect())
            .unwrap_or_default(),
    ));
    let Some(led) = trick.first().map(|c| c.suit) else {
        // Lead the strongest card.
        return legal.iter().max_by_key(|c| power(**c, None, t)).map(|c| c.to_string());
    };
    let best = trick.iter().map(|c| power(*c, Some(led), t)).max().unwrap_or(0);
    let winning = legal
        .iter()
        .filter(|c| power(**c, Some(led), t) > best)
        .min_by_key(|c| power(**c, Some(led), t));
    match winning {
        Some(c) => Some(c.to_string()),
        None => legal
            .iter()
            .min_by_key(|c| power(**c, Some(led), t))
            .map(|c| c.to_string()),
    }
}

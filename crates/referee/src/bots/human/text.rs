//! Small helpers that put values into text: token words, capitals, the width a coloured label
//! shows, a view's list as text, and what a hand is worth.

use crate::cards::Card;
use serde_json::Value;

/// A token as words: underscores as spaces (`tricks_done`: `tricks done`).
pub(super) fn words(t: &str) -> String {
    t.replace('_', " ")
}

/// The text with a capital first letter.
pub(super) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Characters that show (colour codes take none).
pub(super) fn visible_len(s: &str) -> usize {
    let mut n = 0;
    let mut in_escape = false;
    for c in s.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, _) => n += 1,
        }
    }
    n
}

/// A key of a view's JSON, when it is there and not null.
pub(super) fn get<'a>(view: &'a Value, key: &str) -> Option<&'a Value> {
    view.get(key).filter(|v| !v.is_null())
}

/// A view's list as text: each string as it is, anything else as JSON (empty if not a list).
pub(super) fn view_strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The person's hand with what it is worth where the game counts a hand (Schwimmen's value, by
/// the rules' own count), for the line "Your hand".
pub(super) fn hand_worth(game: &str, hand: &[Card]) -> Option<String> {
    match game {
        "schwimmen" => crate::games::schwimmen::view::hand_value_text(hand).map(|v| format!("value {v}")),
        _ => None,
    }
}

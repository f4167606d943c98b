//! The observation tensor, made only from what one seat was told: its seat view (the game's
//! own, folded from the seat's lines) and the cards named in those lines. One layout for every
//! game (`docs/rules/<game>.md`, "Python tensor", says what each block holds there):
//!
//! | offset | size | what |
//! |---|---|---|
//! | 0 | P | this seat, one-hot |
//! | P | P | the seat to move, one-hot (zeros when the game is over) |
//! | 2P | 52 | the seat's hand now (the view's `hand`) |
//! | 2P+52 | 52 | cards this seat was told of privately (lines to it alone): its deals, exchanges |
//! | 2P+104 | 52 | cards told to every seat (played cards, turned cards, shown cards) |
//! | 2P+156 | 52 | cards named in the last line the seat was told |
//!
//! Cards in card index order (`State.card_tokens()`).

use croupier_games::cards::Card;
use croupier_games::game::{Event, Seat, SeatView};
use serde_json::Value;

/// The length of the observation tensor of `game` (its name) at a table of `players`.
pub fn size(game: &str, players: usize) -> usize {
    let _ = game;
    2 * players + 4 * 52
}

fn mark(t: &mut [f32], value: &Value) {
    match value {
        Value::String(s) => {
            if let Some(c) = Card::from_token(s) {
                t[c.index()] = 1.0;
            }
        }
        Value::Array(items) => items.iter().for_each(|v| mark(t, v)),
        _ => {}
    }
}

fn cards_of(e: &Event, t: &mut [f32]) {
    for a in &e.args {
        if let Some(c) = a.card() {
            t[c.index()] = 1.0;
        } else {
            // A list of cards written as one token (`AS,KH`) or a capture (`AS:KH,2C`).
            for part in a.text().split([',', ':', ' ']) {
                if let Some(c) = Card::from_token(part) {
                    t[c.index()] = 1.0;
                }
            }
        }
    }
}

/// Writes the observation of `seat` into `out` (of [`size`], every element written): what the
/// seat was told, `seen`, and its seat view `view`, folded from those same lines; `to_move` is
/// public. The one entry point of this module: the state's `observation_tensor` and the batched
/// environment both call it.
#[allow(clippy::too_many_arguments)]
pub fn fill(
    game: &str,
    players: usize,
    seat: Seat,
    to_move: Option<Seat>,
    view: &dyn SeatView,
    seen: &[Event],
    out: &mut [f32],
) {
    debug_assert_eq!(out.len(), size(game, players));
    let t = out;
    t.fill(0.0);
    t[seat] = 1.0;
    if let Some(m) = to_move {
        t[players + m] = 1.0;
    }
    let base = 2 * players;
    if let Some(hand) = view.to_json().get("hand") {
        mark(&mut t[base..base + 52], hand);
    }
    for e in seen {
        let block = if e.to.only(players) == Some(seat) { 1 } else { 2 };
        let at = base + 52 * block;
        cards_of(e, &mut t[at..at + 52]);
    }
    if let Some(e) = seen.last() {
        let at = base + 156;
        cards_of(e, &mut t[at..at + 52]);
    }
}

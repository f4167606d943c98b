//! The `simple` bot's entry points: a decision, on the tokens or on the typed actions, handed
//! to the bidding or the card play.

use super::bidding::{bid, call, choose_trump};
use super::play::{play, play_cards};
use crate::game::SeatView;
use crate::games::rikken::engine::RikkenAction;
use crate::games::rikken::view::RikkenView;

/// The `simple` bot's choice for a Rikken decision (the `simple_policy` of the game's spec).
pub fn simple_policy(view: &dyn SeatView, decision: &str, legal: &[String]) -> String {
    policy(view, decision, legal)
}

pub(super) fn policy(view: &dyn SeatView, decision: &str, legal: &[String]) -> String {
    let Some(first) = legal.first() else {
        return String::new();
    };
    let Some(view) = view.as_any().downcast_ref::<RikkenView>() else {
        return first.clone();
    };
    let choice = match decision {
        "bid" => bid(view, legal),
        "trump" => choose_trump(view, legal),
        "call" => call(view, legal),
        "play" => play(view, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
    }
}

/// [`simple_policy`] on the typed legal actions (the spec's `typed_policy`): the card play,
/// which is most of a deal's decisions; the auction is left to the tokens.
pub fn typed_policy(view: &dyn SeatView, decision: &str, legal: &dyn std::any::Any) -> Option<usize> {
    let card_of = |a: &RikkenAction| match *a {
        RikkenAction::Play(c) => Some(c),
        _ => None,
    };
    crate::games::card_play::typed_card_play(view, decision, legal, card_of, play_cards)
}

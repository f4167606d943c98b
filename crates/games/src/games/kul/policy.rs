//! The built-in `simple` Kul bot: deterministic rules of thumb on the seat view.
//!
//! Only the fifth trick counts, so the bot keeps its highest card (the "keeper") for it and
//! sheds low cards before: it leads and follows with its lowest legal card other than the
//! keeper; in trick 4 it tries to win with another card, so that it leads the keeper to
//! trick 5. A redeal is asked for (and agreed to) with a hand without an ace or king.
//!
//! The answer is always one of `legal` (the first one when nothing better is found).

use super::engine::KulAction;
use super::view::KulView;
use crate::cards::Card;
use crate::game::SeatView;

/// The `simple` bot's choice for a Kul decision (the `simple_policy` of the game's spec).
pub fn simple_policy(view: &dyn SeatView, decision: &str, legal: &[String]) -> String {
    let Some(first) = legal.first() else {
        return String::new();
    };
    let Some(view) = view.as_any().downcast_ref::<KulView>() else {
        return first.clone();
    };
    let hand = &view.hand;
    let strong = hand.iter().any(|c| c.rank.value() >= 13);
    let choice = match decision {
        "redeal" => Some(if strong { "keep" } else { "redeal" }.to_string()),
        "consent" => Some(
            if hand.iter().any(|c| c.rank.value() == 14) {
                "refuse"
            } else {
                "agree"
            }
            .to_string(),
        ),
        "play" => play(view, hand, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
    }
}

/// [`simple_policy`] on the typed legal actions (the spec's `typed_policy`): the card play.
pub fn typed_policy(view: &dyn SeatView, decision: &str, legal: &dyn std::any::Any) -> Option<usize> {
    let card_of = |a: &KulAction| match *a {
        KulAction::Play(c) => Some(c),
        _ => None,
    };
    crate::games::card_play::typed_card_play(view, decision, legal, card_of, |v: &KulView, cards| {
        play_cards(v, &v.hand, cards)
    })
}

fn play(view: &KulView, hand: &[Card], legal: &[String]) -> Option<String> {
    let legal: Vec<Card> = legal.iter().filter_map(|t| t.parse().ok()).collect();
    play_cards(view, hand, &legal).map(|c| c.to_string())
}

fn play_cards(view: &KulView, hand: &[Card], legal: &[Card]) -> Option<Card> {
    if legal.len() <= 1 {
        return legal.first().copied();
    }
    let keeper = *hand.iter().max_by_key(|c| c.rank)?;
    let others: Vec<Card> = legal.iter().copied().filter(|&c| c != keeper).collect();
    let pool = if others.is_empty() { legal.to_vec() } else { others };
    let trick: &[Card] = view.trick.as_ref().map_or(&[], |(_, cs)| cs);
    let trick_no = view.tricks.len() + 1;
    if trick_no == 4 {
        if let Some(led) = trick.first() {
            // Win trick 4 with a card other than the keeper, cheaply.
            let hi = trick.iter().filter(|c| c.suit == led.suit).map(|c| c.rank).max()?;
            let winning = pool
                .iter()
                .filter(|c| c.suit == led.suit && c.rank > hi)
                .min_by_key(|c| c.rank);
            if let Some(&c) = winning {
                return Some(c);
            }
        }
    }
    pool.iter().min_by_key(|c| c.rank).copied()
}

//! The `simple` bot's entry points: a decision, on the tokens or on the typed actions, handed
//! to the bidding or the card play.

use super::bidding::{bid, bid_choice, call, call_on, choose_trump, choose_trump_on};
use super::play::{card_play, play, play_cards, Ctx};
use crate::cards::Card;
use crate::engine::Engine;
use crate::few::Few;
use crate::game::SeatView;
use crate::games::rikken::engine::RikkenAction;
use crate::games::rikken::state::{Phase, Rikken, NO_CARD};
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

/// [`simple_policy`] on the engine, for the seat to move, knowing what that seat knows
/// ([`EnginePolicy`](crate::engine::EnginePolicy)): the card play on a [`Ctx`] made from the engine, the auction
/// on the typed actions, and the declarations (two decisions of a deal) on the tokens.
pub(in crate::games::rikken) fn engine_policy(g: &Rikken, legal: &[RikkenAction]) -> usize {
    let Some(seat) = g.to_move() else { return 0 };
    if g.phase == Phase::Play {
        let mut cards: Few<Card, 13> = Few::new(NO_CARD);
        for a in legal {
            if let RikkenAction::Play(c) = *a {
                cards.push(c);
            }
        }
        let chosen = card_play(&Ctx::from_engine(g, seat), cards.as_slice());
        return chosen.and_then(|c| cards.iter().position(|&x| x == c)).unwrap_or(0);
    }
    let mut hand: Few<Card, 13> = Few::new(NO_CARD);
    if !g.hands_withheld {
        for c in g.hands[seat].iter() {
            hand.push(c);
        }
    }
    if g.phase == Phase::Bidding {
        let mut actions: Few<Option<RikkenAction>, 32> = Few::new(None);
        for &a in legal.iter().take(32) {
            actions.push(Some(a));
        }
        return bid_choice(hand.as_slice(), actions.as_slice()).unwrap_or(0);
    }
    // The declarations (once a deal) on the tokens, as on the view.
    let tokens: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    let choice = match g.phase {
        Phase::Trump => choose_trump_on(hand.as_slice(), &tokens),
        Phase::Call => call_on(hand.as_slice(), g.trump, &tokens),
        Phase::Bidding | Phase::Play | Phase::Over => None,
    };
    choice.and_then(|c| tokens.iter().position(|t| *t == c)).unwrap_or(0)
}

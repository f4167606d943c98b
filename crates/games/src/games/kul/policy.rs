//! The built-in `simple` Kul bot: deterministic rules of thumb on what a seat knows.
//!
//! Only the fifth trick counts, so the bot keeps its highest card (the "keeper") for it and
//! sheds low cards before: it leads and follows with its lowest legal card other than the
//! keeper; in trick 4 it tries to win with another card, so that it leads the keeper to
//! trick 5. A redeal is asked for (and agreed to) with a hand without an ace or king.
//!
//! The answer is always one of `legal` (the first one when nothing better is found).
//!
//! The rules read a [`Know`]: the seat's hand, the trick in progress and the trick's number,
//! in fixed-size fields, made from the seat's view ([`Know::from_view`]: the `simple` bot and
//! the spec's typed policy) or from the engine ([`Know::from_engine`]: a search's playouts,
//! through [`EnginePolicy`](crate::engine::EnginePolicy)), so both choose
//! alike.

use super::engine::{Kul, KulAction, Phase};
use super::view::KulView;
use crate::cards::{Card, CardSet};
use crate::few::Few;
use crate::game::{Seat, SeatView};

/// The most cards in a hand of a [`Know`] (the deck: a view fed by the engine holds five).
const HAND: usize = 52;

/// The most cards in a trick (ten seats).
const TRICK: usize = 10;

/// What the policy reads of one seat's knowledge.
#[derive(Clone, Copy, Debug)]
pub struct Know {
    /// The seat's cards in the view's order (the `hand` line's, card order, less the cards
    /// played): the keeper is the last of the highest rank.
    hand: Few<Card, HAND>,
    /// The cards of the trick in progress, in play order.
    trick: Few<Card, TRICK>,
    /// The trick's number in the deal (1 to 5).
    trick_no: usize,
}

impl Know {
    /// What the view of a seat knows.
    pub fn from_view(view: &KulView) -> Know {
        let mut hand = Few::new(Card::from_index(0));
        for &c in &view.hand {
            hand.push_unless_full(c);
        }
        let mut trick = Few::new(Card::from_index(0));
        if let Some((_, cards)) = &view.trick {
            for &c in cards {
                trick.push_unless_full(c);
            }
        }
        Know {
            hand,
            trick,
            trick_no: view.tricks.len() + 1,
        }
    }

    /// What `seat` knows in `game`, read from the engine: its own hand (the `hand` line lists
    /// it in card order, as a [`CardSet`] iterates, and plays keep that order) and the public
    /// trick.
    pub fn from_engine(game: &Kul, seat: Seat) -> Know {
        let mut hand = Few::new(Card::from_index(0));
        for c in CardSet::iter(game.hands[seat]) {
            hand.push_unless_full(c);
        }
        let mut trick = Few::new(Card::from_index(0));
        for &c in &game.trick[..game.trick_len] {
            trick.push(c);
        }
        Know {
            hand,
            trick,
            trick_no: game.trick_no,
        }
    }

    /// A king or an ace in the hand: keep the cards.
    fn strong(&self) -> bool {
        self.hand.iter().any(|c| c.rank.value() >= 13)
    }

    /// An ace in the hand: refuse a redeal.
    fn has_ace(&self) -> bool {
        self.hand.iter().any(|c| c.rank.value() == 14)
    }
}

/// A Kul decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decision {
    Redeal,
    Consent,
    Play,
}

/// The `simple` bot's choice for a Kul decision (the `simple_policy` of the game's spec).
pub fn simple_policy(view: &dyn SeatView, decision: &str, legal: &[String]) -> String {
    let Some(first) = legal.first() else {
        return String::new();
    };
    let Some(view) = view.as_any().downcast_ref::<KulView>() else {
        return first.clone();
    };
    let k = Know::from_view(view);
    let choice = match decision {
        "redeal" => Some(redeal(&k).token().to_string()),
        "consent" => Some(consent(&k).token().to_string()),
        "play" => play(&k, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
    }
}

/// [`simple_policy`] on the typed legal actions (the spec's `typed_policy`): every decision.
/// `None` (the tokens decide) for another decision, or a play with an action that plays no
/// card.
pub fn typed_policy(view: &dyn SeatView, decision: &str, legal: &dyn std::any::Any) -> Option<usize> {
    let decision = match decision {
        "redeal" => Decision::Redeal,
        "consent" => Decision::Consent,
        "play" => Decision::Play,
        _ => return None,
    };
    let view = view.as_any().downcast_ref::<KulView>()?;
    let legal = legal.downcast_ref::<Vec<KulAction>>()?;
    typed_choice(&Know::from_view(view), decision, legal)
}

/// The `simple` policy ([`typed_choice`]) on what the seat to move knows, read from the
/// engine ([`Know::from_engine`]: its own hand and the trick): the game's
/// [`EnginePolicy`](crate::engine::EnginePolicy).
pub(super) fn engine_policy(g: &Kul, legal: &[KulAction]) -> usize {
    let decision = match g.phase {
        Phase::Redeal => Decision::Redeal,
        Phase::Consent => Decision::Consent,
        Phase::Play | Phase::Over => Decision::Play,
    };
    typed_choice(&Know::from_engine(g, g.turn), decision, legal).unwrap_or(0)
}

/// The policy's choice among the typed legal `actions` of `decision`, from what the seat
/// knows: the index of its action, else 0; `None` where the actions are not those of the
/// decision (no action, or a play that is not a card). The one decision function of the
/// view's typed policy and the engine's playout policy.
pub(super) fn typed_choice(k: &Know, decision: Decision, actions: &[KulAction]) -> Option<usize> {
    if actions.is_empty() {
        return None;
    }
    let choice = match decision {
        Decision::Redeal => Some(redeal(k)),
        Decision::Consent => Some(consent(k)),
        Decision::Play => {
            let mut cards: Few<Card, HAND> = Few::new(Card::from_index(0));
            for a in actions {
                match *a {
                    KulAction::Play(c) => cards.push_unless_full(c),
                    _ => return None,
                }
            }
            play_cards(k, cards.as_slice()).map(KulAction::Play)
        }
    };
    Some(choice.and_then(|c| actions.iter().position(|&a| a == c)).unwrap_or(0))
}

/// Forehand asks for a redeal with a hand without an ace or king.
fn redeal(k: &Know) -> KulAction {
    if k.strong() {
        KulAction::Keep
    } else {
        KulAction::Redeal
    }
}

/// Agrees to a redeal without an ace.
fn consent(k: &Know) -> KulAction {
    if k.has_ace() {
        KulAction::Refuse
    } else {
        KulAction::Agree
    }
}

fn play(k: &Know, legal: &[String]) -> Option<String> {
    let legal: Vec<Card> = legal.iter().filter_map(|t| t.parse().ok()).collect();
    play_cards(k, &legal).map(|c| c.to_string())
}

fn play_cards(k: &Know, legal: &[Card]) -> Option<Card> {
    if legal.len() <= 1 {
        return legal.first().copied();
    }
    let keeper = *k.hand.iter().max_by_key(|c| c.rank)?;
    // The legal cards other than the keeper, in their order; all of them when there are none.
    let only_keeper = legal.iter().all(|&c| c == keeper);
    let pool = || legal.iter().copied().filter(move |&c| only_keeper || c != keeper);
    let trick = k.trick.as_slice();
    if k.trick_no == 4 {
        if let Some(led) = trick.first() {
            // Win trick 4 with a card other than the keeper, cheaply.
            let hi = trick.iter().filter(|c| c.suit == led.suit).map(|c| c.rank).max()?;
            let winning = pool()
                .filter(|c| c.suit == led.suit && c.rank > hi)
                .min_by_key(|c| c.rank);
            if let Some(c) = winning {
                return Some(c);
            }
        }
    }
    pool().min_by_key(|c| c.rank)
}

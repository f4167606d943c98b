//! The card play that the typed policies of the trick-taking games share: picking, at a `play`
//! decision, the index of a legal action by the card it plays.

use crate::cards::Card;
use crate::game::SeatView;

/// A typed policy's card play (`GameSpec::typed_policy`): at a `play` decision where every
/// legal action (a `Vec<A>` behind `legal`) plays a card (`card_of`), the index of the card
/// `choose` picks among them on the seat's view (a `V`), or of the first action when it picks
/// none or another, as the token policies do. `None` (the tokens decide) for any other
/// decision, or when an action plays no card.
pub(crate) fn typed_card_play<V: 'static, A: 'static>(
    view: &dyn SeatView,
    decision: &str,
    legal: &dyn std::any::Any,
    card_of: impl Fn(&A) -> Option<Card>,
    choose: impl FnOnce(&V, &[Card]) -> Option<Card>,
) -> Option<usize> {
    if decision != "play" {
        return None;
    }
    let view = view.as_any().downcast_ref::<V>()?;
    let legal = legal.downcast_ref::<Vec<A>>()?;
    let cards: Vec<Card> = legal.iter().map(card_of).collect::<Option<_>>()?;
    if cards.is_empty() {
        return None;
    }
    let chosen = choose(view, &cards);
    Some(chosen.and_then(|c| cards.iter().position(|&x| x == c)).unwrap_or(0))
}

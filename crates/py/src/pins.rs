//! What an action shows of the hand it was played from, for the sampler of worlds
//! (`State::resample_from_infostate`): a card a seat lays down from its hand was in that hand,
//! unless the seat took it up earlier in the deal.
//!
//! Read from the action's token, in the notation of protocol.md: a card played (`9H`), a
//! Skwitz capture (`9H:3S,2D`: the first card is the hand's), a Schwimmen swap
//! (`swap_7H_AS`: 7H laid down from the hand, AS taken up from the middle), a Zwikken exchange
//! (`exchange_JH`: JH taken up; `exchange_JH_AH`: JH taken up, then AH played).

use croupier_games::cards::Card;

/// The cards the token lays down from the hand, and the cards it takes up into it.
pub fn laid_and_taken(token: &str) -> (Vec<Card>, Vec<Card>) {
    if let Some(rest) = token.strip_prefix("swap_") {
        if let Some((laid, taken)) = rest.split_once('_') {
            if let (Some(l), Some(t)) = (Card::from_token(laid), Card::from_token(taken)) {
                return (vec![l], vec![t]);
            }
        }
        return (Vec::new(), Vec::new());
    }
    if let Some(rest) = token.strip_prefix("exchange_") {
        let mut cards = rest.split('_').map(Card::from_token);
        return match (cards.next().flatten(), cards.next().flatten()) {
            (Some(t), Some(l)) => (vec![l], vec![t]),
            (Some(t), None) => (Vec::new(), vec![t]),
            _ => (Vec::new(), Vec::new()),
        };
    }
    let first = token.split_once(':').map_or(token, |(card, _)| card);
    (Card::from_token(first).into_iter().collect(), Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(t: &str) -> Card {
        Card::from_token(t).unwrap()
    }

    #[test]
    fn tokens_show_what_left_the_hand() {
        assert_eq!(laid_and_taken("9H"), (vec![c("9H")], vec![]));
        assert_eq!(laid_and_taken("9H:3S,2D"), (vec![c("9H")], vec![]));
        assert_eq!(laid_and_taken("swap_7H_AS"), (vec![c("7H")], vec![c("AS")]));
        assert_eq!(laid_and_taken("swap_all"), (vec![], vec![]));
        assert_eq!(laid_and_taken("pass"), (vec![], vec![]));
        assert_eq!(laid_and_taken("exchange_JH"), (vec![], vec![c("JH")]));
        assert_eq!(laid_and_taken("exchange_JH_AH"), (vec![c("AH")], vec![c("JH")]));
        assert_eq!(laid_and_taken("no_exchange"), (vec![], vec![]));
    }
}

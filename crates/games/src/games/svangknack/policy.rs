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

use super::engine::SvangknackAction;
use super::view::SvangView;
use crate::cards::{Card, Suit};
use crate::few::Few;
use crate::game::SeatView;

fn trump_of(view: &SvangView) -> Option<Suit> {
    view.trump()
}

/// The `simple` bot's choice for a Svängknack decision (the `simple_policy` of the game's
/// spec), read from the seat's typed view.
pub fn simple_policy(view: &dyn SeatView, decision: &str, legal: &[String]) -> String {
    let Some(first) = legal.first() else {
        return String::new();
    };
    let Some(view) = view.as_any().downcast_ref::<SvangView>() else {
        return first.clone();
    };
    let hand = &view.round.hand;
    let has = |t: &str| legal.iter().any(|l| l == t);
    let choice = match decision {
        "swing" => Some(swing(hand, has("redeal"), has("handover")).to_string()),
        "consent" => Some(consent(hand).to_string()),
        "trump" => choose_trump(hand, legal),
        "knock" => Some(knock(view, hand).to_string()),
        "play" => play(view, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
    }
}

/// Swings with a high card or a pair from the jack up, else redeals when it may, else hands
/// over (`redeal`, `handover`: whether those are legal).
fn swing(hand: &[Card], redeal: bool, handover: bool) -> SvangknackAction {
    let high = hand.iter().any(|c| c.rank.value() >= 13);
    let pair = Suit::ALL
        .iter()
        .any(|&s| hand.iter().filter(|c| c.suit == s && c.rank.value() >= 11).count() >= 2);
    if high || pair || !(redeal || handover) {
        SvangknackAction::Swing
    } else if redeal {
        SvangknackAction::Redeal
    } else {
        SvangknackAction::Handover
    }
}

/// Agrees to a redeal unless it holds an ace or a king.
fn consent(hand: &[Card]) -> SvangknackAction {
    if hand.iter().any(|c| c.rank.value() >= 13) {
        SvangknackAction::Refuse
    } else {
        SvangknackAction::Agree
    }
}

/// How much the policy wants suit `s` as trump: the cards it holds of it, then the highest.
fn trump_key(hand: &[Card], s: Suit) -> (usize, Option<crate::cards::Rank>) {
    let mine = hand.iter().filter(|c| c.suit == s);
    (mine.clone().count(), mine.map(|c| c.rank).max())
}

fn choose_trump(hand: &[Card], legal: &[String]) -> Option<String> {
    legal
        .iter()
        .filter_map(|t| t.parse::<Suit>().ok().map(|s| (t, s)))
        .max_by_key(|&(_, s)| trump_key(hand, s))
        .map(|(t, _)| t.clone())
}

fn knock(view: &SvangView, hand: &[Card]) -> SvangknackAction {
    let Some(t) = trump_of(view) else {
        return SvangknackAction::Fold;
    };
    let side_aces = hand.iter().filter(|c| c.suit != t && c.rank.value() == 14).count();
    let mut worth = 0.0;
    let mut trumps = 0;
    for c in hand.iter().filter(|c| c.suit == t) {
        worth += if c.rank.value() >= 12 { 1.0 } else { 0.5 };
        trumps += 1;
    }
    if trumps > 0 {
        worth += 0.5 * side_aces as f64;
    }
    let knocked = view.round.knocked.len();
    let need = if knocked >= 3 { 1.25 } else { 1.0 };
    if worth >= need {
        SvangknackAction::Knock
    } else {
        SvangknackAction::Fold
    }
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

/// [`simple_policy`] on the typed legal actions (the spec's `typed_policy`): every decision,
/// as `simple_policy` chooses among their tokens (its choice where it is legal, else the
/// first action).
pub fn typed_policy(view: &dyn SeatView, decision: &str, legal: &dyn std::any::Any) -> Option<usize> {
    let actions = legal.downcast_ref::<Vec<SvangknackAction>>()?;
    let v = view.as_any().downcast_ref::<SvangView>()?;
    if actions.is_empty() {
        return None;
    }
    let hand = &v.round.hand;
    let has = |a: SvangknackAction| actions.contains(&a);
    let choice = match decision {
        "swing" => swing(hand, has(SvangknackAction::Redeal), has(SvangknackAction::Handover)),
        "consent" => consent(hand),
        "trump" => {
            // The last of the suits it wants most, as `max_by_key` on the tokens.
            let best = actions
                .iter()
                .filter_map(|&a| match a {
                    SvangknackAction::Trump(s) => Some((a, s)),
                    _ => None,
                })
                .max_by_key(|&(_, s)| trump_key(hand, s));
            match best {
                Some((a, _)) => a,
                None => return Some(0),
            }
        }
        "knock" => knock(v, hand),
        "play" => {
            // Färg whenever it may, as `play`.
            if has(SvangknackAction::Farg) {
                SvangknackAction::Farg
            } else {
                // The cards, as `play` reads them from the tokens (a hand holds at most the deck).
                let mut cards: Few<Card, 52> = Few::new(Card::from_index(0));
                for &a in actions {
                    match a {
                        SvangknackAction::Play(c) if cards.len() < 52 => cards.push(c),
                        _ => return None,
                    }
                }
                let chosen = play_cards(v, cards.as_slice());
                return Some(chosen.and_then(|c| cards.iter().position(|&x| x == c)).unwrap_or(0));
            }
        }
        _ => return None,
    };
    Some(actions.iter().position(|&a| a == choice).unwrap_or(0))
}

fn play(view: &SvangView, legal: &[String]) -> Option<String> {
    if legal.iter().any(|l| l == "farg") {
        return Some("farg".into());
    }
    let legal: Vec<Card> = legal.iter().filter_map(|t| t.parse().ok()).collect();
    play_cards(view, &legal).map(|c| c.to_string())
}

fn play_cards(view: &SvangView, legal: &[Card]) -> Option<Card> {
    let t = trump_of(view);
    let trick = view.round.trick.as_ref().map_or(&[][..], |t| t.cards.as_slice());
    let Some(led) = trick.first().map(|(_, c)| c.suit) else {
        // Lead the strongest card.
        return legal.iter().max_by_key(|c| power(**c, None, t)).copied();
    };
    let best = trick.iter().map(|&(_, c)| power(c, Some(led), t)).max().unwrap_or(0);
    let winning = legal
        .iter()
        .filter(|c| power(**c, Some(led), t) > best)
        .min_by_key(|c| power(**c, Some(led), t));
    match winning {
        Some(&c) => Some(c),
        None => legal.iter().min_by_key(|c| power(**c, Some(led), t)).copied(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::view::{Tok, Trick};
    use super::*;
    use crate::game::GameInfo;
    use crate::games::svangknack::options;
    use crate::options::Options;

    /// Seat 1 of four (default options) holding `hand`, trump `trump` once it is chosen.
    fn view(hand: &str, trump: Option<&str>) -> SvangView {
        let o = Options::resolve(&options(), "svangknack", &[] as &[&str]).unwrap();
        let mut v = SvangView::new(&GameInfo {
            game: "svangknack".into(),
            options: o,
            players: 4,
            seat: 1,
        });
        v.round.hand = hand.split(' ').map(|c| c.parse().unwrap()).collect();
        v.round.trump = trump.map(|t| Tok::Text(t.to_string()));
        v
    }

    fn legal(v: &str) -> Vec<String> {
        v.split(' ').map(String::from).collect()
    }

    #[test]
    fn swings_with_high_cards_else_redeals_or_hands_over() {
        let all = legal("swing handover redeal");
        assert_eq!(simple_policy(&view("KH 2S 3D", None), "swing", &all), "swing");
        assert_eq!(
            simple_policy(&view("JH QH 3D", None), "swing", &all),
            "swing",
            "a pair from J up"
        );
        assert_eq!(simple_policy(&view("9H 2S 3D", None), "swing", &all), "redeal");
        assert_eq!(
            simple_policy(&view("9H 2S 3D", None), "swing", &legal("swing handover")),
            "handover"
        );
        assert_eq!(
            simple_policy(&view("AH 2S 3D", None), "consent", &legal("agree refuse")),
            "refuse"
        );
        assert_eq!(
            simple_policy(&view("9H 2S 3D", None), "consent", &legal("agree refuse")),
            "agree"
        );
        assert_eq!(simple_policy(&view("9H 2H 3D", None), "trump", &legal("D H")), "H");
    }

    #[test]
    fn knocks_with_about_a_trick_and_more_when_many_knocked() {
        assert_eq!(
            simple_policy(&view("QS 2H 3D", Some("S")), "knock", &legal("knock fold")),
            "knock"
        );
        assert_eq!(
            simple_policy(&view("9S 2H 3D", Some("S")), "knock", &legal("knock fold")),
            "fold"
        );
        let mut v = view("9S AH 3D", Some("S"));
        assert_eq!(
            simple_policy(&v, "knock", &legal("knock fold")),
            "knock",
            "a trump and a side ace"
        );
        v.round.knocked = vec![0, 2, 3];
        assert_eq!(
            simple_policy(&v, "knock", &legal("knock fold")),
            "fold",
            "three knocked before"
        );
    }

    #[test]
    fn plays_farg_leads_strong_and_takes_tricks_cheaply() {
        let mut v = view("9S KH 3H", Some("S"));
        assert_eq!(
            simple_policy(&v, "play", &legal("9S KH 3H")),
            "9S",
            "lead the strongest"
        );
        let mut t = Trick::new(0);
        t.cards.push((0, "TH".parse().unwrap()));
        v.round.trick = Some(t);
        assert_eq!(simple_policy(&v, "play", &legal("KH")), "KH");
        assert_eq!(simple_policy(&v, "play", &legal("KH 3H")), "KH", "the cheapest winner");
        v.round.trick.as_mut().unwrap().cards.push((3, "AH".parse().unwrap()));
        assert_eq!(simple_policy(&v, "play", &legal("KH 3H")), "3H", "beaten: the lowest");
        assert_eq!(simple_policy(&v, "play", &legal("KH 3H farg")), "farg");
    }
}

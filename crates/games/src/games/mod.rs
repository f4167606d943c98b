//! One rules engine per game. A game is a folder (or file) here plus its entry in [`all`].

pub mod kul;
pub mod race;
pub mod rikken;
pub mod schwimmen;
pub mod skwitz;
pub mod svangknack;
pub mod zwikken;

use crate::cards::Card;
use crate::game::{Arg, GameSpec, SeatView};

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

/// Every game croupier knows.
pub fn all() -> Vec<GameSpec> {
    SPECS.iter().map(|spec| spec()).collect()
}

/// Every game's spec, in the order `croupier games` lists them.
const SPECS: [fn() -> GameSpec; 6] = [
    rikken::spec,
    zwikken::spec,
    svangknack::spec,
    kul::spec,
    skwitz::spec,
    schwimmen::spec,
];

/// A game by name (without building the list of every game).
pub fn find(name: &str) -> Option<GameSpec> {
    SPECS.iter().map(|spec| spec()).find(|g| g.name == name)
}

/// A token of a line that a view keeps: one of the fixed words its engine writes (no text is
/// made for it), or any other text, as it came. Its JSON is its text either way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Word(&'static str),
    Text(String),
}

impl Tok {
    /// The argument as a token: a fixed word stays a word, and so does a text that `known`
    /// finds among the game's words.
    pub(crate) fn of(arg: &Arg, known: fn(&str) -> Option<&'static str>) -> Tok {
        match arg {
            Arg::Word(w) => Tok::Word(w),
            Arg::Text(t) => Tok::of_str(t, known),
            other => Tok::Text(other.to_string()),
        }
    }

    /// A text as a token (see [`Tok::of`]).
    pub(crate) fn of_str(t: &str, known: fn(&str) -> Option<&'static str>) -> Tok {
        match known(t) {
            Some(w) => Tok::Word(w),
            None => Tok::Text(t.to_string()),
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        match self {
            Tok::Word(w) => w,
            Tok::Text(t) => t,
        }
    }
}

//! The tokens that the views of several games keep from their lines: a fixed word of the
//! engine's, or a text as it came.

use crate::game::Arg;

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

//! `human`: a person plays a seat at the terminal (`croupier play GAME --seat human …`).
//!
//! An in-process [`Bot`] like the others: it folds the notification lines its seat receives
//! into the game's [`SeatView`] and keeps them, put into words, until the person's next turn.
//! At a decision it shows what happened since the last one, what lies on the table (read from
//! the view's JSON, so one renderer serves every game), the hand with suit symbols and the legal
//! actions numbered 1..n, and reads the answer: a number or the action token itself. Bad input
//! is asked again; end of input (Ctrl-D) or Ctrl-C at the prompt stops the run
//! ([`Bot::stopped`]): the referee then ends the game without recording it.
//!
//! It talks to the controlling terminal (`/dev/tty`), so that standard output can carry
//! records (`--record -`); without one it reads standard input and writes standard error.
//! The wording of every event line of every game is the table [`WORDS`]; `show --html` words
//! its events with the same table ([`Names`] for an onlooker, with [`ONLOOKER`] for the lines
//! that speak to one seat), and cards, suits and Rikken's contracts are written by the one
//! function of each ([`Card::pretty`], [`Suit::pretty`], [`contract_words`]).
//!
//! [`Bot`]: crate::bots::Bot
//! [`Bot::stopped`]: crate::bots::Bot::stopped
//! [`SeatView`]: crate::game::SeatView
//! [`Card::pretty`]: crate::cards::Card::pretty
//! [`Suit::pretty`]: crate::cards::Suit::pretty
//! [`contract_words`]: crate::games::rikken::view::contract_words

mod board;
mod events;
mod hints;
mod left;
mod names;
mod prompt;
mod rules_moves;
mod seat;
mod table;
mod terminal;
mod text;
mod words;

pub use hints::session_hint;
pub use left::keep_left_game;
pub use names::{action_with_token, seat_name, Names};
pub use prompt::parse_choice;
pub use rules_moves::RulesMoves;
pub use seat::Human;
pub use words::{ONLOOKER, WORDS};

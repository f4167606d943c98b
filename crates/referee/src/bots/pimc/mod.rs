//! `pimc`: perfect-information Monte Carlo search, for every game through the one game
//! interface.
//!
//! The bot knows only what its seat is told (the setup and the event lines routed to it,
//! like any bot); it never holds the referee's game. From those lines it keeps a *world*: a
//! game of its own, built with the same rules, whose deals it chose so that every line the
//! world routes to its seat is the line the seat really received. For a decision it samples
//! more such worlds (the cards it has not seen dealt anew, then the deal's actions replayed
//! and checked line by line), plays each legal action out in each world with `simple` at
//! every seat, and takes the action with the best mean score for its seat.
//!
//! Nothing here knows a game's rules or its lines. A world is consistent when it routes the
//! same lines to the seat; where it does not, it is repaired by generic moves on its deal:
//! a card the seat saw in a place it is not, is swapped there; a card another seat played
//! that the world's rules refused, is dealt to it, and the cards the world forced it to play
//! instead are dealt away; a line no card of its own explains (a round ended on 31) is fitted
//! by the hands the seat is shown later, where the game's lines show some; an action no card
//! explains (a bid that tells what the bidder holds) swaps a card of its seat at a time, kept
//! while the replay gets as far. Cards the seats exchanged in the open are followed back to
//! where they were dealt. What cannot be repaired is dropped (the world kept so far always is
//! consistent).
//!
//! The files, from the bottom up: the bot's parameters (`budget`); a world and its playouts
//! (`world`) and its deal as cards in places (`layout`); the tracker, what the seat knows
//! (`tracker`), and what it does: replay the seat's lines on a world (`replay`), repair a deal
//! that does not fit them (`repair`), fit the deal it follows and sample others (`refit`),
//! follow new lines (`follow`), deal what lines tell of cards they do not name (`told`); the
//! search of a decision (`search`), the action it picks from the playouts' values (`choice`),
//! and the bot (`bot`).

mod bot;
mod budget;
mod choice;
mod follow;
mod layout;
mod refit;
mod repair;
mod replay;
mod search;
mod told;
mod tracker;
mod world;

pub use bot::{Pimc, SearchStats};
pub use budget::{Budget, Counts};
pub use choice::choose;
pub(crate) use world::World;

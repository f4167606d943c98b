//! croupier's rules engines: the lowest layer of the workspace. It knows cards, seeds and
//! deals, the rules of six games and what each seat may see; it knows nothing of processes,
//! records, statistics or the command line (the `croupier` crate above it has those).
//!
//! Layout, each module below the ones after it: [`seat`] (a seat number), [`cards`] (cards and their notation),
//! [`few`] (small fixed-capacity lists), [`notation`] (scores and notification lines as text),
//! [`options`] (named rule variants), [`chance`] (seeds and deals), [`engine`] (the typed
//! rules-engine trait that search uses), [`game`] (the string interface the referee drives,
//! events and their audiences), [`playout`] (a game played on by its playout policy, for
//! search), [`games`] (one engine per game, with its seat view, text and
//! built-in policy; no game imports another).

pub mod cards;
pub mod chance;
pub mod engine;
pub mod few;
pub mod game;
pub mod games;
pub mod notation;
pub mod options;
pub mod playout;
pub mod seat;

// For the `args!` macro (an event's arguments are a `SmallVec`).
#[doc(hidden)]
pub use smallvec;

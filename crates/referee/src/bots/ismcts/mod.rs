//! `ismcts`: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012, the
//! single-observer form), for every game through the one game interface.
//!
//! Where `pimc` plays each legal action out in each sampled world and averages, as if every
//! seat would then see every card, `ismcts` grows one tree over the whole sequence of actions
//! from the decision on, shared by every world it samples: each iteration takes a world (a
//! deal the seat cannot tell from the real one, from `pimc`'s tracker), walks down the tree
//! choosing, at each seat's turn, among the actions legal *in that world* by UCB1 over that
//! seat's own mean score (each child counted by how often it was available, not by how often its
//! parent was visited), adds one node, plays the rest out with the playout policy, and adds every
//! seat's score to the nodes it passed. A node is an action sequence, whatever the world: so a
//! later decision of the bot's own seat is one node for every deal it cannot tell apart, and it
//! cannot choose differently in each (what `pimc`'s strategy fusion gets wrong).
//!
//! The files: the bot's parameters (`params`), the tree (`tree`), the search of a decision on
//! `pimc`'s worlds (`search`) and the bot (`bot`).

mod bot;
mod params;
mod search;
mod tree;

pub use bot::Ismcts;
pub use params::{Others, Params, Playouts, Root};

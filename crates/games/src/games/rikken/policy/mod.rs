//! The built-in `simple` Rikken bot: deterministic rules of thumb on the seat view.
//!
//! * **bid**: estimates the tricks the hand takes with its best trump suit (top honours and
//!   length in trump, aces and guarded kings on the side, ruffing values) and bids the lowest
//!   legal contract the hand supports: rik (≈5 own tricks, the partner brings the rest),
//!   N alone (≈N tricks), beter forms on hearts, misère / open misère with low cards in every
//!   suit, piek with one ace and otherwise a misère hand, solo with ≈13 tricks; malheur with
//!   3+ aces (always when it is obligatory); otherwise pass.
//! * **trump**: the suit with the best trick estimate. **call**: the ace of a suit where it holds
//!   the king, the queen or length.
//! * **play**, trick contracts: the declaring side draws trumps with masters; everyone cashes
//!   masters, lets a partner's winning card stand, wins as cheaply as possible when last (or with
//!   a master), ruffs low, plays third hand high and second hand low, and discards the lowest
//!   side card. Misère / piek declarers duck under the winning card with their highest safe
//!   card and throw their most dangerous cards when void; their opponents lead low, stay under a
//!   declarer's winning card and dump high cards once the declarer is safe. Schoppen mieën
//!   avoids tricks and gets rid of ♠Q.
//!
//! The answer is always one of `legal` (the first one when nothing better is found).

mod bidding;
mod cards;
mod decide;
mod play;
#[cfg(test)]
mod tests;

pub(super) use decide::engine_policy;
pub use decide::{simple_policy, typed_policy};

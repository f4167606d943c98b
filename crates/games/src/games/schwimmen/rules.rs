//! The Schwimmen rules as read from the options once per set of options.

use crate::options::Options;

/// The options, typed once per set of options ([`Options::compiled`]: not looked up by name
/// for every game of a run or every playout of a search).
#[derive(Clone, Copy, Debug)]
pub(super) struct Rules {
    /// `deck=32`.
    pub(super) deck32: bool,
    pub(super) misdeal_strike: bool,
    pub(super) allow_pass: bool,
    pub(super) no_knock_first_circuit: bool,
    pub(super) all_pass_refresh: bool,
    pub(super) max_circuits: usize,
    /// Strikes that drown a player (`strikes_to_drown`).
    pub(super) drown: u32,
    /// Strikes that make a player swim (`strikes_to_swim`).
    pub(super) swim: u32,
    /// `lowest_tie=highest_cards_tiebreak`.
    pub(super) tiebreak: bool,
    pub(super) knocker_double: bool,
    /// `same_round_rank=by_hand_value`.
    pub(super) rank_by_value: bool,
    /// `dealer_rule=loser_deals`.
    pub(super) loser_deals: bool,
}

impl Rules {
    pub(super) fn new(o: &Options) -> Rules {
        Rules {
            deck32: o.get("deck") == "32",
            misdeal_strike: o.flag("misdeal_strike"),
            allow_pass: o.flag("allow_pass"),
            no_knock_first_circuit: o.flag("no_knock_first_circuit"),
            all_pass_refresh: o.flag("all_pass_refresh"),
            max_circuits: o.int("max_circuits") as usize,
            drown: o.int("strikes_to_drown") as u32,
            swim: o.int("strikes_to_swim") as u32,
            tiebreak: o.get("lowest_tie") == "highest_cards_tiebreak",
            knocker_double: o.flag("knocker_double"),
            rank_by_value: o.get("same_round_rank") == "by_hand_value",
            loser_deals: o.get("dealer_rule") == "loser_deals",
        }
    }
}

//! The Rikken rules as read from the options once per game (no string lookups on the decision
//! path), with the ladder of bids.

use super::bids::Ladder;
use crate::options::Options;

/// The options the rules consult during play, read once per game (no string lookups on the
/// decision path).
#[derive(Clone, Copy, Debug)]
pub(super) struct Rules {
    pub(super) malheur_obligatory: bool,
    pub(super) malheur_strict: bool,
    pub(super) alone_requires_rikken: bool,
    pub(super) fourth_must_bid: bool,
    pub(super) schoppen_mieen: bool,
    pub(super) allow_join_piek_open: bool,
    pub(super) malheur_trump_excludes_called_suit: bool,
    pub(super) malheur_called_card_forced: bool,
    pub(super) open_declarer_leads: bool,
    pub(super) open_closed_tricks: i64,
    pub(super) protect_called_card: bool,
    /// The cards of finished tricks are not shown again (a seat's view forgets them; the rules
    /// are the same).
    pub(super) hide_quitted_tricks: bool,
    /// Schoppen mieën is scored on more than who takes the Mie: play goes on after it falls.
    pub(super) mie_extras: bool,
}

impl Rules {
    pub(super) fn new(o: &Options) -> Rules {
        Rules {
            malheur_obligatory: o.get("malheur_mode") == "obligatory",
            malheur_strict: o.flag("malheur_strict"),
            alone_requires_rikken: o.flag("alone_requires_rikken"),
            fourth_must_bid: o.get("all_pass") == "fourth_must_bid",
            schoppen_mieen: o.get("all_pass") == "schoppen_mieen",
            allow_join_piek_open: o.flag("allow_join_piek_open"),
            malheur_trump_excludes_called_suit: o.flag("malheur_trump_excludes_called_suit"),
            malheur_called_card_forced: o.flag("malheur_called_card_forced"),
            open_declarer_leads: o.flag("open_declarer_leads"),
            open_closed_tricks: o.int("open_closed_tricks"),
            protect_called_card: o.flag("protect_called_card"),
            hide_quitted_tricks: o.flag("hide_quitted_tricks"),
            mie_extras: o.flag("mie_first_trick")
                || o.flag("mie_last_trick")
                || o.flag("mie_spade_penalty")
                || o.get("mie_most_tricks") != "off",
        }
    }
}

/// What the rules need of the options, read once for every game under them.
pub(super) struct Setup {
    pub(super) rules: Rules,
    pub(super) ladder: Ladder,
}
